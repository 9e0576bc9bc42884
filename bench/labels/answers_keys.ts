/**
 * Fills the oracle keys of `answers.json` (the real-project answer suite, `bench/answers.ts`)
 * from language servers no one here wrote, driven over LSP (`bench/lsp_client.ts`): pyright
 * for Python, typescript-language-server (the TypeScript LanguageService) for TypeScript and
 * JavaScript, gopls for Go. A question with `at` (`file:line:name`, the definition) gets:
 * `where` its file and line; `refs` the server's references without the declaration (one
 * `file:line` per line); `callers` the server's incoming calls (call hierarchy), or, where
 * the server has none, its references followed by `(`. Rust and Java keys are written by
 * reading the code (no server here) and are left as they are; so are `imports`, `explain`
 * callees, `context`, `summary` and `ask` keys, which are labelled by reading.
 *
 * Needs `npm install --prefix /tmp/oracles pyright typescript-language-server typescript@5.9.3`
 * and gopls + go (`apt-get download gopls golang-1.19-go golang-1.19-src` and `dpkg -x` into
 * `/tmp/oracles/root`: `--go-root`).
 *
 * Run: `deno run -A bench/labels/answers_keys.ts [--project NAME] [--write]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { LspClient } from "../lsp_client.ts";
import { type Origin, originRoot } from "../answers_origin.ts";

const { values } = parseArgs({
  options: {
    project: { type: "string" },
    write: { type: "boolean" },
    oracles: { type: "string", default: "/tmp/oracles" },
    "go-root": { type: "string", default: "/tmp/oracles/root" },
  },
});

const path = new URL("./answers.json", import.meta.url).pathname;
const labels = JSON.parse(await Deno.readTextFile(path));

interface Q {
  id: string;
  kind: string;
  at?: string;
  key?: Record<string, unknown>;
}

async function rootOf(o: Origin): Promise<string> {
  return await Deno.realPath((await originRoot(o)).root);
}

async function server(language: string, root: string): Promise<LspClient> {
  const bin = `${values.oracles}/node_modules/.bin`;
  if (language === "python") {
    return await LspClient.start({
      command: [`${bin}/pyright-langserver`, "--stdio"],
      root,
      settings: { python: { analysis: { diagnosticMode: "openFilesOnly" } } },
    });
  }
  if (language === "go") {
    const goRoot = `${values["go-root"]}/usr/lib/go-1.19`;
    // A Debian -dev package is a GOPATH tree: the root is under <x>/usr/share/gocode/src.
    const gopath = root.slice(0, root.indexOf("/src/"));
    return await LspClient.start({
      command: [`${values["go-root"]}/usr/bin/gopls`],
      root,
      env: {
        ...Deno.env.toObject(),
        PATH: `${goRoot}/bin:${Deno.env.get("PATH")}`,
        GOROOT: goRoot,
        GOPATH: gopath,
        GO111MODULE: "off",
        GOFLAGS: "-mod=mod",
      },
    });
  }
  if (language === "typescript" || language === "javascript") {
    await Deno.writeTextFile(
      `${root}/tsconfig.json`,
      JSON.stringify({
        compilerOptions: {
          allowJs: true,
          noEmit: true,
          target: "es2022",
          module: "esnext",
          moduleResolution: "bundler",
          skipLibCheck: true,
        },
        include: ["**/*"],
        exclude: ["node_modules", "dist"],
      }),
    );
    return await LspClient.start({
      command: [`${bin}/typescript-language-server`, "--stdio"],
      root,
      initializationOptions: {
        tsserver: { path: `${values.oracles}/node_modules/typescript/lib` },
      },
    });
  }
  throw new Error(`no server for ${language}`);
}

/** Asks until two answers in a row agree (a server still loading answers less). */
async function settled<T>(ask: () => Promise<T>): Promise<T> {
  let last = JSON.stringify(await ask());
  for (let i = 0; i < 6; i++) {
    await new Promise((r) => setTimeout(r, 300));
    const next = await ask();
    if (JSON.stringify(next) === last) return next;
    last = JSON.stringify(next);
  }
  return JSON.parse(last);
}

for (const p of labels.projects) {
  if (values.project && p.name !== values.project) continue;
  if (!["python", "go", "typescript", "javascript"].includes(p.language)) continue;
  const root = await rootOf(p.origin);
  const lsp = await server(p.language, root);
  try {
    // A first query may be answered before the server has read the project (pyright answers
    // an empty list): ask each file once and drop the answers.
    const languageId = p.language === "go" ? "go" : p.language;
    for (const q of p.questions as Q[]) {
      if (!q.at) continue;
      const [file, line] = q.at.split(":");
      lsp.open(`${root}/${file}`, languageId);
      await lsp.references(`${root}/${file}`, Number(line) - 1, 0).catch(() => []);
    }
    for (const q of p.questions as Q[]) {
      if (!q.at) continue;
      const [file, lineText, name] = q.at.split(":");
      const line = Number(lineText);
      const text = (await Deno.readTextFile(`${root}/${file}`)).split("\n")[line - 1] ?? "";
      const col = new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`).exec(text)?.index;
      if (col === undefined) throw new Error(`${p.name} ${q.id}: no ${name} on ${file}:${line}`);
      const rel = (abs: string) => abs.startsWith(root + "/") ? abs.slice(root.length + 1) : abs;
      const site = (s: { path: string; line: number }) => `${rel(s.path)}:${s.line}`;
      const inside = (s: { path: string }) => s.path.startsWith(root + "/");
      if (q.kind === "where") q.key = { file, line };
      if (q.kind === "explain") q.key = { ...q.key, file, line };
      if (q.kind === "context") {
        // The window shows each caller at its first call: those places must be in it.
        const calls = await settled(() =>
          lsp.incomingCalls(`${root}/${file}`, line - 1, col).catch(() =>
            null
          )
        ) ?? [];
        const first = new Map<string, string>();
        for (const c of calls.filter(inside)) {
          const s = site(c);
          const f = s.slice(0, s.lastIndexOf(":"));
          if (
            !first.has(f) || Number(s.split(":").pop()) < Number(first.get(f)!.split(":").pop())
          ) {
            first.set(f, s);
          }
        }
        q.key = { file, line, must: [...first.values()].sort().slice(0, 3) };
      }
      if (q.kind === "refs") {
        const refs = await settled(() => lsp.references(`${root}/${file}`, line - 1, col));
        const sites = [...new Set(refs.filter(inside).map(site))]
          .filter((s) => s !== `${file}:${line}`).sort();
        q.key = { sites };
      }
      if (q.kind === "callers") {
        // The call hierarchy, and the references followed by `(` (pyright's hierarchy misses
        // some `self.m()` calls that its references find; gopls 0.5 may have none).
        const calls = await settled(() =>
          lsp.incomingCalls(`${root}/${file}`, line - 1, col).catch(() =>
            null
          )
        ) ?? [];
        const refs = await settled(() => lsp.references(`${root}/${file}`, line - 1, col));
        for (const r of refs.filter(inside)) {
          const l = (await Deno.readTextFile(r.path)).split("\n")[r.line - 1] ?? "";
          if (/^\s*\(/.test(l.slice(r.column - 1 + name.length))) calls.push(r);
        }
        const sites = calls.filter(inside).map(site).filter((s) => s !== `${file}:${line}`);
        q.key = { sites: [...new Set(sites)].sort() };
      }
      console.log(`${p.name} ${q.id} ${q.kind} ${JSON.stringify(q.key)}`);
    }
  } finally {
    await lsp.close();
  }
}
if (values.write) await Deno.writeTextFile(path, JSON.stringify(labels, null, 2) + "\n");
