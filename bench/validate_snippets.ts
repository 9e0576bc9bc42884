/**
 * `validate_code` on real, correct code, each snippet checked inside its own project, then
 * the same snippets with one identifier misspelled.
 *
 * Five projects no one here wrote, fetched at run time (`bench/sources.ts`, never committed):
 * click (Debian package) and jinja2 (Debian source package, with its manifest), express and got (npm
 * tarballs), cobra (Debian Go package). A snippet is a top-level function (or class) as
 * the file has it, after the file's header (everything above its first definition: the
 * imports and constants the function relies on), sampled with a fixed seed. It is validated
 * with `file_path` set to its own file. Correct snippets must give no "exists nowhere"
 * finding (`unresolved_symbols`).
 *
 * Then one name the snippet uses is misspelled at one place (a letter doubled: `echo` →
 * `echoo`) into a name the project does not hold: a free call or a Python base class; in a
 * function with none, a member called on a module the header imports whole; else a name
 * the header imports from the project. The misspelling must be found (an unresolved name
 * that contains it). Snippets with none of these (a class of methods only) are counted
 * apart: the check does not look at method names on objects.
 *
 * Run: `deno run -A bench/validate_snippets.ts [--per-project 42] [--seed 13] [--verbose]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createExecutor, type Executor } from "../mod.ts";
import { deb, debSource, npm } from "./sources.ts";
import { rng, walkFiles } from "./sample.ts";

const { values } = parseArgs({
  options: {
    // 42 × 4 + got's 32 top-level definitions = 200 snippets.
    "per-project": { type: "string", default: "42" },
    seed: { type: "string", default: "13" },
    project: { type: "string" },
    verbose: { type: "boolean" },
  },
});

interface Project {
  name: string;
  language: "python" | "javascript" | "go";
  /** Project root (absolute) and the folder snippets are taken from, relative to it. */
  fetch: () => Promise<{ root: string; from: string }>;
}

function single(dir: string): string {
  const entries = [...Deno.readDirSync(dir)].filter((e) => e.isDirectory);
  return `${dir}/${entries[0].name}`;
}

const PROJECTS: Project[] = [
  {
    name: "click",
    language: "python",
    // Debian's mirror has no source tarball of click; the installed package has no manifest,
    // and click needs none (it imports only the standard library).
    fetch: async () => ({
      root: `${await deb("python3-click")}/usr/lib/python3/dist-packages`,
      from: "click",
    }),
  },
  {
    name: "jinja2",
    language: "python",
    fetch: async () => ({ root: single(await debSource("jinja2")), from: "src" }),
  },
  {
    name: "express",
    language: "javascript",
    fetch: async () => ({ root: await npm("express@4.21.2"), from: "lib" }),
  },
  {
    name: "got",
    language: "javascript",
    // got ships only its build (`dist/`, which codectx skips as build output): the build's
    // folder is the project, with the package's manifest copied in.
    fetch: async () => {
      const pkg = await npm("got@14.4.7");
      await Deno.copyFile(`${pkg}/package.json`, `${pkg}/dist/source/package.json`);
      return { root: `${pkg}/dist/source`, from: "" };
    },
  },
  {
    name: "cobra",
    language: "go",
    fetch: async () => ({
      root: `${await deb(
        "golang-github-spf13-cobra-dev",
      )}/usr/share/gocode/src/github.com/spf13/cobra`,
      from: "",
    }),
  },
];

const EXT = { python: /\.py$/, javascript: /\.(m|c)?js$/, go: /(?<!_test)\.go$/ };

function walk(dir: string, re: RegExp): string[] {
  return walkFiles(
    dir,
    (d) => !/^(node_modules|\.|tests?$|testdata$|docs?$)/.test(d),
    (f) => re.test(f) && !/(^|_)test/.test(f),
  );
}

async function call(ex: Executor, tool: string, args: Record<string, unknown>) {
  const r = await ex.execute({ tool_name: tool, arguments: args }, {
    source: "bench",
    timeoutMs: 0,
  });
  if (!r.success) throw new Error(`${tool}: ${r.error}`);
  return r.result_payload;
}

interface Snippet {
  file: string;
  symbol: string;
  code: string;
  /** Where the function starts in `code` (the header comes first). */
  bodyStart: number;
}

interface WireSymbol {
  name: string;
  kind: string;
  line: number;
  end_line: number;
  parent: string | null;
}

/** Top-level functions and classes of the project's files, each after its file's header. */
async function snippets(ex: Executor, root: string, p: Project, from: string) {
  const out: Snippet[] = [];
  const base = from ? `${root}/${from}` : root;
  for (const abs of walk(base, EXT[p.language])) {
    const file = abs.slice(root.length + 1);
    const text = await Deno.readTextFile(abs);
    const lines = text.split("\n");
    const payload = await call(ex, "explain_file", { file_path: file });
    const top = (payload.symbols as WireSymbol[]).filter((s) =>
      s.parent === null && /function|class|method/.test(s.kind)
    ).sort((a, b) => a.line - b.line);
    if (top.length === 0) continue;
    // The header: what precedes the first definition (its decorators and comments excluded).
    let headerEnd = top[0].line - 1;
    while (headerEnd > 0 && /^\s*(@|#|\/\/|\/\*|\*)/.test(lines[headerEnd - 1])) headerEnd--;
    const header = lines.slice(0, headerEnd).join("\n");
    for (const s of top) {
      let start = s.line;
      while (start > 1 && /^\s*@/.test(lines[start - 2])) start--;
      const body = lines.slice(start - 1, s.end_line);
      if (body.length < 3 || body.length > 120 || /^\s/.test(body[0])) continue;
      const code = `${header}\n\n${body.join("\n")}\n`;
      out.push({ file, symbol: s.name, code, bodyStart: header.length + 2 });
    }
  }
  return out;
}

const KEYWORDS = new Set(
  "if elif else for while return def class lambda with not and or in is assert yield await async except raise del from import pass function new typeof switch case catch try throw delete void instanceof func go defer select range make len cap append panic recover super self this"
    .split(" "),
);

/** Comments and strings of each language, to be blanked before looking for names. */
const NOT_CODE: Record<Project["language"], RegExp> = {
  python:
    /#[^\n]*|[rbfuRBFU]{0,2}("""[\s\S]*?"""|'\'\'[\s\S]*?'\'\'|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')/g,
  javascript:
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g,
  go: /\/\/[^\n]*|\/\*[\s\S]*?\*\/|`[^`]*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g,
};

/** `code` with comments and strings blanked (same length, newlines kept). */
function codeOnly(code: string, language: Project["language"]): string {
  return code.replace(NOT_CODE[language], (m) => m.replace(/[^\n]/g, " "));
}

/** Free calls in the function (`name(`, not after a dot): names the check can see. */
function misspellable(
  code: string,
  bodyStart: number,
  language: Project["language"],
  goModule = "",
): Array<{ at: number; name: string }> {
  const out: Array<{ at: number; name: string }> = [];
  const body = codeOnly(code, language).slice(bodyStart);
  // Free calls: `name(` not after a dot.
  for (const m of body.matchAll(/(?<![\w.$])([A-Za-z_][\w]*)\s*\(/g)) {
    const name = m[1];
    const lineStart = body.lastIndexOf("\n", m.index) + 1;
    const before = body.slice(lineStart, m.index);
    if (KEYWORDS.has(name) || name.length < 4) continue;
    // The definition's own name (`def name(`, `function name(`, `func name(`).
    if (/\b(def|function|func|class)\s+$/.test(before) || /\)\s*$/.test(before)) continue;
    // A method definition (`constructor(a) {`, `once(x) {` in a class or object literal).
    const lineEnd = body.indexOf("\n", m.index);
    const after = body.slice(m.index, lineEnd < 0 ? undefined : lineEnd);
    const modifiers = /^\s*((async|static|get|set|public|private|protected|override|\*)\s*)*$/;
    if (language === "javascript" && modifiers.test(before) && /\)\s*\{\s*$/.test(after)) continue;
    out.push({ at: bodyStart + m.index!, name });
  }
  // A Python base class (`class Choice(ParamType):`) is called to build the class.
  if (language === "python") {
    for (const m of body.matchAll(/^class\s+\w+\s*\(\s*([A-Za-z_]\w{3,})\s*[,)]/gm)) {
      if (m[1] !== "object") {
        out.push({ at: bodyStart + m.index! + m[0].lastIndexOf(m[1]), name: m[1] });
      }
    }
  }
  if (out.length > 0) return out;
  // Else a member called on a module the header imports whole (`os.path.join(`,
  // `fs.readFileSync(`, Go's `fmt.Sprintf(`, a project module's namespace): the member is
  // misspelled.
  const header = code.slice(0, bodyStart);
  const modules = new Set<string>();
  if (language === "go") {
    // `import "fmt"`, `import (\n\tx "a/b"\n)`: the package's name is the alias or the
    // path's last part. Only the standard library's and the project's own packages: a
    // dependency's names are not known without it.
    const block = /^import\s*(?:\(([^)]*)\)|((?:\w+\s+)?"[^"]+"))/gm;
    for (const b of header.matchAll(block)) {
      for (const spec of (b[1] ?? b[2]).matchAll(/(?:([\w.]+)\s+)?"([^"]+)"/g)) {
        if (spec[1] === "_" || spec[1] === ".") continue;
        const own = goModule && (spec[2] === goModule || spec[2].startsWith(`${goModule}/`));
        if (spec[2].split("/")[0].includes(".") && !own) continue;
        modules.add(spec[1] ?? spec[2].split("/").filter((p) => !/^v\d+$/.test(p)).pop()!);
      }
    }
  } else {
    const imports = language === "python"
      ? /^import\s+([\w.]+)(?:\s+as\s+(\w+))?/gm
      : /import\s+\*\s+as\s+(\w+)\s+from\s+['"](?:\.|node:)|(?:const|var|let)\s+(\w+)\s*=\s*require\(['"](?:\.|node:|fs|path|http|url|util|events)/g;
    for (const m of header.matchAll(imports)) {
      modules.add(language === "python" ? (m[2] ?? m[1].split(".")[0]) : (m[1] ?? m[2]));
    }
  }
  for (const m of body.matchAll(/(?<![\w.$])([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)\s*\(/g)) {
    if (!modules.has(m[1]) || m[2].length < 4 || m[2].startsWith("_")) continue;
    out.push({ at: bodyStart + m.index! + m[1].length + 1, name: m[2] });
  }
  if (out.length > 0 || language === "go") return out;
  // Else a name the header imports from the project (`from .utils import echo`,
  // `import { x } from "./y"`): a library's names are not known without the library.
  const named = language === "python"
    ? /^from\s+\.[\w.]*\s+import\s+([A-Za-z]\w+)\s*(?:as\s+\w+\s*)?$/gm
    : /^import\s*\{\s*([A-Za-z]\w+)[^}]*\}\s*from\s*['"]\.[^'"]*['"]/gm;
  for (const m of codeOnly(header, language).matchAll(named)) {
    const from = language === "python" ? m[0].indexOf(" import ") + 8 : m[0].indexOf("{");
    if (m[1].length >= 4) out.push({ at: m.index! + m[0].indexOf(m[1], from), name: m[1] });
  }
  return out;
}

/** `name` with one middle letter doubled, absent from the code. */
function misspell(name: string, code: string): string {
  for (let i = Math.floor(name.length / 2); i < name.length; i++) {
    if (!/[a-z]/i.test(name[i])) continue;
    const m = name.slice(0, i + 1) + name[i] + name.slice(i + 1);
    if (!new RegExp(`\\b${m}\\b`).test(code)) return m;
  }
  return name + "x";
}

interface Row {
  project: string;
  snippets: number;
  falseFindings: number;
  snippetsWithFalse: number;
  misspelled: number;
  found: number;
}

const rows: Row[] = [];
const notes: string[] = [];
const want = Number(values["per-project"]);
for (const p of PROJECTS) {
  if (values.project && values.project !== p.name) continue;
  const { root: raw, from } = await p.fetch();
  const root = await Deno.realPath(raw);
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-bench-validate-" });
  const ex = await createExecutor(root, { indexDir, embedder: "none" });
  const row: Row = {
    project: p.name,
    snippets: 0,
    falseFindings: 0,
    snippetsWithFalse: 0,
    misspelled: 0,
    found: 0,
  };
  try {
    await call(ex, "index_project", {});
    const pool = await snippets(ex, root, p, from);
    const goMod = await Deno.readTextFile(`${root}/go.mod`).catch(() => "");
    const goModule = /^module\s+(\S+)/m.exec(goMod)?.[1] ?? "";
    const next = rng(Number(values.seed));
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    for (const s of pool.slice(0, want)) {
      row.snippets++;
      const v = await call(ex, "validate_code", { code: s.code, file_path: s.file });
      const found = v.unresolved_symbols as Array<{ name: string; kind: string; line: number }>;
      if (found.length) {
        row.snippetsWithFalse++;
        row.falseFindings += found.length;
        for (const u of found) {
          notes.push(
            `[${p.name}] correct ${s.file} ${s.symbol}: ${u.kind} ${u.name} (line ${u.line})`,
          );
        }
      }
      const names = misspellable(s.code, s.bodyStart, p.language, goModule);
      if (names.length === 0) continue;
      const pick = names[Math.floor(next() * names.length)];
      const wrong = misspell(pick.name, s.code);
      const code = s.code.slice(0, pick.at) + wrong + s.code.slice(pick.at + pick.name.length);
      row.misspelled++;
      const w = await call(ex, "validate_code", { code, file_path: s.file });
      const hit = (w.unresolved_symbols as Array<{ name: string }>).some((u) =>
        u.name.split(/[./]/).includes(wrong)
      );
      if (hit) row.found++;
      else notes.push(`[${p.name}] missed ${s.file} ${s.symbol}: ${pick.name} → ${wrong}`);
    }
  } finally {
    await ex.close();
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
  rows.push(row);
  console.log(
    `${
      p.name.padEnd(8)
    } ${row.snippets} snippets: "exists nowhere" findings ${row.falseFindings} (in ${row.snippetsWithFalse} snippets) | misspelling found ${row.found}/${row.misspelled} (${
      row.snippets - row.misspelled
    } snippets with no name the check covers)`,
  );
}
const sum = (k: keyof Row) => rows.reduce((a, r) => a + (r[k] as number), 0);
console.log(
  `total    ${sum("snippets")} snippets: "exists nowhere" findings ${sum("falseFindings")} (in ${
    sum("snippetsWithFalse")
  } snippets) | misspelling found ${sum("found")}/${sum("misspelled")} (${
    (sum("found") / Math.max(1, sum("misspelled"))).toFixed(3)
  }; ${sum("snippets") - sum("misspelled")} snippets with no name the check covers)`,
);
if (values.verbose) { for (const n of notes) console.log(`  ${n}`); }
console.log(`load average: ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
