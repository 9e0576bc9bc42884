/**
 * The key writer's oracle for "who calls F" and "what breaks if I change F": a language server
 * no one here wrote (pyright for Python, typescript-language-server for TypeScript and
 * JavaScript, gopls for Go, clangd for C) asked for the references and incoming calls of the
 * name at a place, printed as `path:line: code` relative to the project. Text questions ("where
 * is this message raised", "which files import P") are keyed with `rg`, whose command goes in
 * the key.
 *
 * Needs `npm install --prefix DIR pyright typescript-language-server typescript` (`--oracles`,
 * default /tmp/oracles) and, for Go, `gopls`; for C, `clangd` and a `compile_commands.json` at
 * `--path` (a built copy of the project: `./configure && bear -- make`).
 *
 * Run: `deno run -A bench/assistant/oracle.ts --path DIR --at FILE:LINE --name NAME`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { type AbsSpot, LspClient } from "../lsp_client.ts";

const { values } = parseArgs({
  options: {
    path: { type: "string" },
    at: { type: "string" },
    name: { type: "string" },
    oracles: { type: "string", default: "/tmp/oracles" },
  },
});
if (!values.path || !values.at || !values.name) {
  console.error(
    "usage: deno run -A bench/assistant/oracle.ts --path DIR --at FILE:LINE --name NAME",
  );
  Deno.exit(2);
}
const root = await Deno.realPath(values.path);
const [file, lineText] = values.at.split(/:(?=\d+$)/);
const abs = `${root}/${file}`;
const lines = (await Deno.readTextFile(abs)).split("\n");
const line0 = Number(lineText) - 1;
const char0 = lines[line0]?.search(new RegExp(`\\b${values.name}\\b`)) ?? -1;
if (char0 < 0) throw new Error(`${values.name} is not on ${values.at}`);

/**
 * Asks until two answers 5 s apart agree (at most 3 minutes): a server that has just started
 * answers from the files it has read so far.
 */
async function settled<T extends AbsSpot[] | null>(ask: () => Promise<T>): Promise<T> {
  const key = (x: T) => (x ?? []).map((p) => `${p.path}:${p.line}:${p.column}`).sort().join(" ");
  let last = await ask();
  for (let i = 0; i < 36; i++) {
    await new Promise((r) => setTimeout(r, 5000));
    const next = await ask();
    if (key(next) === key(last) && (next ?? []).length > 1) return next;
    last = next;
  }
  return last;
}

const bin = `${values.oracles}/node_modules/.bin`;
const ext = file.slice(file.lastIndexOf(".") + 1);
const [command, languageId] = ext === "py"
  ? [[`${bin}/pyright-langserver`, "--stdio"], "python"]
  : ext === "go"
  ? [["gopls"], "go"]
  : ext === "c" || ext === "h"
  // clangd logs on stderr, which the client closes: a log line would end it (EPIPE).
  ? [["sh", "-c", "exec clangd --background-index 2>/dev/null"], "c"]
  : [
    [`${bin}/typescript-language-server`, "--stdio"],
    ext.startsWith("ts") ? "typescript" : "javascript",
  ];
const lsp = await LspClient.start({
  command,
  root,
  settings: { python: { analysis: { diagnosticMode: "openFilesOnly" } } },
  initializationOptions: languageId === "python" || languageId === "go" || languageId === "c"
    ? undefined
    : { tsserver: { path: `${values.oracles}/node_modules/typescript/lib` } },
});
/** Files under `dir` whose names end with one of `exts` (node_modules left out). */
async function filesUnder(dir: string, exts: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory && e.name !== "node_modules" && !e.name.startsWith(".")) {
      out.push(...await filesUnder(p, exts));
    } else if (e.isFile && exts.some((x) => e.name.endsWith(x))) out.push(p);
  }
  return out;
}

try {
  lsp.open(abs, languageId);
  // Without a tsconfig.json a TypeScript server knows only the files it was given: give it all.
  if (languageId === "typescript" || languageId === "javascript") {
    for (const f of await filesUnder(root, [".ts", ".tsx", ".js", ".mjs"])) {
      lsp.open(f, /\.tsx?$/.test(f) ? "typescript" : "javascript");
    }
  }
  await lsp.idle(3000);
  const show = async (title: string, spots: AbsSpot[] | null) => {
    const sorted = [...new Map((spots ?? []).map((s) => [`${s.path}:${s.line}`, s])).values()]
      .sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
    console.log(`${title}: ${sorted.length}`);
    const texts = new Map<string, string[]>();
    for (const s of sorted) {
      const rel = s.path.startsWith(root + "/") ? s.path.slice(root.length + 1) : s.path;
      let t = texts.get(s.path);
      if (!t) texts.set(s.path, t = (await Deno.readTextFile(s.path)).split("\n"));
      console.log(`  ${rel}:${s.line}: ${t[s.line - 1]?.trim()}`);
    }
  };
  await show("references", await settled(() => lsp.references(abs, line0, char0)));
  await show("incoming calls", await settled(() => lsp.incomingCalls(abs, line0, char0)));
} finally {
  await lsp.close();
}
