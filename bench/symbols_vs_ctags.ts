/**
 * Symbols vs universal-ctags: recall and precision of codectx's parser against ctags on
 * real code, per language, for functions, methods and class-like types, keyed by
 * (file, name, line). Also prints parsing throughput.
 *
 * ```sh
 * apt-get install -y universal-ctags        # the oracle
 * deno run -A bench/symbols_vs_ctags.ts     # default corpora (fetched into --cache)
 * deno run -A bench/symbols_vs_ctags.ts --corpus ~/src/proj --lang go [--verbose]
 * ```
 *
 * Default corpora: the machine's Python standard library (without site-packages);
 * Go and Rust sources of Debian `-dev` packages; TypeScript from `rxjs@7` (src/);
 * JavaScript from `webpack@5` (lib/), `express@4` and `axios@1` (lib/); Java from
 * `openjdk-17-source` (java.base java/lang + java/util, java.net.http). Missing corpora
 * are fetched with `apt-get download` / `npm pack` into the cache folder.
 *
 * What is compared, and why some ctags tags are left out (see NOTES below): codectx
 * indexes no local definitions (a function inside a function), so ctags tags whose scope
 * is a function or method are dropped before comparing.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";
import { parseSource } from "../src/parse/parser.ts";
import { languageById } from "../src/parse/languages.ts";
import type { SymbolKind } from "../src/types.ts";

type Category = "function" | "method" | "class";
const CATEGORIES: readonly Category[] = ["function", "method", "class"];
/**
 * Table rows: the three categories, `callable` (functions and methods together: ctags
 * and codectx disagree on the split in places, e.g. ctags files Rust methods of generic
 * `impl<T>` blocks as functions), and `all`.
 */
type Row = Category | "callable" | "all";
const ROWS: readonly Row[] = ["function", "method", "callable", "class", "all"];

/** How one language is compared. */
interface LangSpec {
  /** codectx language id. */
  id: string;
  /** Extensions of the files to compare (a subset of the language's). */
  extensions: string[];
  /** ctags kind (long name) → category; kinds not listed are ignored. */
  ctagsKinds: Record<string, Category | ((tag: CtagsTag) => Category | null)>;
  /** ctags scope kinds that make a tag local (not indexed by codectx). */
  localScopes: string[];
  /** ctags kinds of tags whose contents are local, at any depth. */
  localKinds: string[];
  /**
   * ctags records only the first of adjacent overloads of a function (TypeScript; it
   * records every overload of an interface method): compare only codectx's first of
   * each run of same-named adjacent functions.
   */
  firstOverloadOnly?: boolean;
  /**
   * ctags gives no scope to JS/TS definitions nested in arrow functions, callbacks or
   * blocks, so whether a tag is local cannot be read from its output: leave out, on both
   * sides, function-category definitions that have no enclosing scope yet are indented.
   */
  skipUnscopedIndented?: boolean;
}

interface CtagsTag {
  name: string;
  path: string;
  line: number;
  kind: string;
  pattern?: string;
  scope?: string;
  scopeKind?: string;
}

/** A ctags variable/constant/property whose line assigns a function: codectx's function. */
const ASSIGNS_FUNCTION =
  /[=:]\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]*)?=>|[\w$]+\s*=>|\(\s*$|\(\s*[\w$]+,?\s*$)/;
/** ctags files JS object literals and prototype-style constructors as classes too. */
const jsClass = (t: CtagsTag): Category | null =>
  /\bclass\b/.test(t.pattern ?? "")
    ? "class"
    : /\bfunction\b/.test(t.pattern ?? "")
    ? "function"
    : null;
const assignedFunction = (t: CtagsTag): Category | null =>
  t.pattern && ASSIGNS_FUNCTION.test(t.pattern.slice(t.pattern.indexOf(t.name) + t.name.length))
    ? "function"
    : null;

const OURS: Partial<Record<SymbolKind, Category>> = {
  function: "function",
  method: "method",
  constructor: "method",
  class: "class",
  interface: "class",
  struct: "class",
  enum: "class",
  trait: "class",
};

const FUNCTION_SCOPES = ["function", "method", "member", "getter", "setter", "generator"];

const SPECS: Record<string, LangSpec> = {
  python: {
    id: "python",
    extensions: [".py"],
    ctagsKinds: { class: "class", function: "function", member: "method" },
    localScopes: FUNCTION_SCOPES,
    localKinds: FUNCTION_SCOPES,
  },
  javascript: {
    id: "javascript",
    extensions: [".js", ".mjs", ".cjs"],
    skipUnscopedIndented: true,
    ctagsKinds: {
      class: jsClass,
      function: "function",
      generator: "function",
      method: "method",
      getter: "method",
      setter: "method",
      variable: assignedFunction,
      constant: assignedFunction,
    },
    localScopes: FUNCTION_SCOPES,
    localKinds: FUNCTION_SCOPES,
  },
  typescript: {
    id: "typescript",
    extensions: [".ts"],
    firstOverloadOnly: true,
    skipUnscopedIndented: true,
    ctagsKinds: {
      class: "class",
      interface: "class",
      enum: "class",
      function: "function",
      generator: "function",
      method: "method",
      variable: assignedFunction,
      constant: assignedFunction,
    },
    localScopes: FUNCTION_SCOPES,
    localKinds: FUNCTION_SCOPES,
  },
  go: {
    id: "go",
    extensions: [".go"],
    ctagsKinds: {
      struct: "class",
      interface: "class",
      methodSpec: "method",
      // ctags scopes a method by its receiver type, a function by its package.
      func: (t) => (t.scopeKind && t.scopeKind !== "package" ? "method" : "function"),
    },
    localScopes: ["func"],
    localKinds: ["func"],
  },
  rust: {
    id: "rust",
    extensions: [".rs"],
    ctagsKinds: {
      struct: "class",
      enum: "class",
      interface: "class",
      function: "function",
      method: "method",
    },
    localScopes: ["function", "method"],
    localKinds: ["function", "method"],
  },
  java: {
    id: "java",
    extensions: [".java"],
    ctagsKinds: {
      class: "class",
      interface: "class",
      enum: "class",
      annotation: "class",
      method: "method",
    },
    localScopes: ["method"],
    localKinds: ["method"],
  },
};

const NOTES: Record<string, string[]> = {
  python: [
    "ctags tags definitions nested in functions (locals, at any depth): left out, codectx does not index locals.",
    "codectx also tags `f = lambda …` assignments as functions (ctags does too).",
    "test/test_compile.py: the grammar misreads an f-string, so 2 classes are lost and their methods come out as functions.",
  ],
  javascript: [
    "ctags files object literals as classes: its `class` tags count only when the line holds `class` (or `function`, as a constructor function).",
    "A ctags variable/constant whose line assigns a function (`const f = (…) =>`) counts as a function, as codectx tags it.",
    "Misses: named function expressions passed as arguments (`defineGetter(req, 'ip', function ip() …)`) and object-literal properties holding arrow functions, which codectx does not tag.",
    "Extras: mostly ctags misses: accessors and methods of exported object literals (webpack lib/index.js), arrow functions whose parameters start on the next line (`const f = (`), class members after constructs ctags cannot read.",
  ],
  typescript: [
    "ctags records only the first overload of a function: codectx's first of each run of adjacent overloads is compared.",
    "Extras: ctags stops tagging a class's members after a field like `static create: (…) => any = <T>(…) => …` (rxjs Observable, Subject: every later method is missing from ctags), and does not tag object-literal methods; method overloads inside classes are all tagged by codectx.",
  ],
  go: [
    "none: the two agree on every function, method (incl. interface methods) and struct/interface.",
  ],
  rust: [
    "ctags files methods of generic `impl<T> … where …` blocks as plain functions (no scope): see the `callable` row, where the split does not matter.",
    "Misses: methods of `impl` blocks written inside function bodies (serde's local visitors): local, not indexed by codectx.",
    "Extras: functions in `#[cfg(test)] mod tests` of regex-syntax hir/print.rs, which ctags skips.",
  ],
  java: [
    "Members of anonymous classes are not indexed by codectx (ctags scopes them by method and they are left out).",
    "Extras: methods in enum-constant bodies (`PART1_ALPHA2 { Set<String> createCountryCodeSet() … }`), which ctags skips; the one miss and one extra are ctags reading `sealed interface ConstantDesc permits …, String` as a class named `String`.",
  ],
};

// ------------------------------------------------------------------------- corpora

const DEFAULT_CACHE = `${Deno.env.get("TMPDIR") ?? "/tmp"}/codectx-bench`;

function run(cmd: string, args: string[], cwd?: string): string {
  const out = new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).outputSync();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

async function runAsync(cmd: string, args: string[], stdin: string): Promise<string> {
  const child = new Deno.Command(cmd, { args, stdin: "piped", stdout: "piped", stderr: "piped" })
    .spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  const out = await child.output();
  if (!out.success) {
    throw new Error(`${cmd} failed: ${new TextDecoder().decode(out.stderr).slice(0, 500)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function debs(cache: string, packages: string[]): string {
  const root = `${cache}/deb`;
  const marker = `${root}/.${packages.join("+")}`;
  if (!exists(marker)) {
    Deno.mkdirSync(`${cache}/debs`, { recursive: true });
    run("apt-get", ["download", ...packages], `${cache}/debs`);
    for (const f of Deno.readDirSync(`${cache}/debs`)) {
      if (packages.some((p) => f.name.startsWith(`${p}_`))) {
        run("dpkg", ["-x", `${cache}/debs/${f.name}`, root]);
      }
    }
    Deno.writeTextFileSync(marker, "");
  }
  return root;
}

function npmPackage(cache: string, spec: string): string {
  const dir = `${cache}/npm/${spec.replace(/[@/]/g, "_")}`;
  if (!exists(`${dir}/package`)) {
    Deno.mkdirSync(dir, { recursive: true });
    const tgz = run("npm", ["pack", spec, "--silent"], dir).trim().split("\n").pop()!;
    run("tar", ["xzf", tgz], dir);
  }
  return `${dir}/package`;
}

function javaSources(cache: string): string {
  const dir = `${cache}/java`;
  if (!exists(`${dir}/java.base`)) {
    const root = debs(cache, ["openjdk-17-source"]);
    const zip = run("find", [root, "-name", "src.zip"]).trim().split("\n")[0];
    run("python3", [
      "-c",
      `import zipfile,sys
z=zipfile.ZipFile(sys.argv[1])
names=[n for n in z.namelist() if n.endswith('.java') and n.startswith(('java.base/java/util/','java.base/java/lang/','java.net.http/'))]
z.extractall(sys.argv[2], names)`,
      zip,
      dir,
    ]);
  }
  return dir;
}

function defaultCorpora(cache: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const tryAdd = (lang: string, make: () => string[]) => {
    try {
      out[lang] = make();
    } catch (e) {
      console.error(`skipping ${lang}: ${e instanceof Error ? e.message.split("\n")[0] : e}`);
    }
  };
  tryAdd("python", () => [
    run("python3", ["-c", 'import sysconfig; print(sysconfig.get_paths()["stdlib"])']).trim(),
  ]);
  tryAdd("go", () => [
    `${
      debs(cache, [
        "golang-github-google-go-cmp-dev",
        "golang-github-spf13-cobra-dev",
        "golang-github-stretchr-testify-dev",
      ])
    }/usr/share/gocode`,
  ]);
  tryAdd("rust", () => [
    `${
      debs(cache, ["librust-itertools-dev", "librust-serde-dev", "librust-regex-syntax-dev"])
    }/usr/share/cargo/registry`,
  ]);
  tryAdd("typescript", () => [`${npmPackage(cache, "rxjs@7")}/src`]);
  tryAdd("javascript", () => [
    `${npmPackage(cache, "webpack@5")}/lib`,
    npmPackage(cache, "express@4"),
    `${npmPackage(cache, "axios@1")}/lib`,
  ]);
  tryAdd("java", () => [javaSources(cache)]);
  return out;
}

const SKIP_DIRS = new Set(["site-packages", "__pycache__", "node_modules", "dist", ".git"]);

/** The indexer skips files over 1 MiB (DESIGN §7): so does the comparison. */
const MAX_FILE_BYTES = 1 << 20;

function listFiles(roots: string[], extensions: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory && !SKIP_DIRS.has(e.name)) walk(path);
      else if (
        e.isFile && extensions.some((x) => e.name.endsWith(x)) && !e.name.endsWith(".min.js") &&
        !e.name.endsWith(".d.ts") && Deno.statSync(path).size <= MAX_FILE_BYTES
      ) {
        files.push(path);
      }
    }
  };
  for (const r of roots) walk(r);
  return files.sort();
}

// ------------------------------------------------------------------------- compare

interface Result {
  lang: string;
  files: number;
  mb: number;
  parseOnlyS: number;
  parseSourceS: number;
  symbols: number;
  skipped: { ctags: number; ours: number };
  rows: Record<Row, { ctags: number; ours: number; matched: number }>;
  misses: Record<Row, string[]>;
  extras: Record<Row, string[]>;
}

async function ctagsTags(files: string[]): Promise<CtagsTag[]> {
  // -L - reads the file list from stdin: ctags sees exactly the files codectx parses.
  const out = await runAsync(
    "ctags",
    ["--output-format=json", "--fields=+neKS", "-L", "-", "-f", "-"],
    files.join("\n"),
  );
  const tags: CtagsTag[] = [];
  for (const line of out.split("\n")) {
    if (!line.startsWith("{")) continue;
    const t = JSON.parse(line) as CtagsTag & { _type: string };
    if (t._type === "tag") tags.push(t);
  }
  return tags;
}

async function parseOnlySeconds(langId: string, texts: string[]): Promise<number> {
  await Parser.init();
  const wasm = languageById(langId)!.grammar!.wasm;
  const lang = await Language.load(
    createRequire(import.meta.url).resolve(`tree-sitter-wasms/out/${wasm}`),
  );
  const parser = new Parser();
  parser.setLanguage(lang);
  const t0 = performance.now();
  for (const t of texts) parser.parse(t)?.delete();
  const s = (performance.now() - t0) / 1000;
  parser.delete();
  return s;
}

async function compare(spec: LangSpec, roots: string[]): Promise<Result> {
  const files = listFiles(roots, spec.extensions);
  const texts = files.map((f) => Deno.readTextFileSync(f));
  const bytes = texts.reduce((n, t) => n + new TextEncoder().encode(t).length, 0);

  const key = (file: string, name: string, line: number) => `${file}\t${name}\t${line}`;
  const theirs: Record<Category, Set<string>> = {
    function: new Set(),
    method: new Set(),
    class: new Set(),
  };
  const skipped = { ctags: 0, ours: 0 };
  const indented = (line: string | undefined) => line !== undefined && /^[ \t]/.test(line);
  const tags = await ctagsTags(files);
  // Kind of every scoped name, to find tags nested at any depth inside a function
  // (ctags scopes a method of a class defined inside a function by the class only).
  const kindOf = new Map<string, string>();
  for (const t of tags) kindOf.set(`${t.path}\t${t.scope ? `${t.scope}.` : ""}${t.name}`, t.kind);
  const isLocal = (t: CtagsTag): boolean => {
    if (!t.scope) return false;
    if (t.scopeKind && spec.localScopes.includes(t.scopeKind)) return true;
    const parts = t.scope.split(".");
    for (let i = 1; i < parts.length; i++) {
      const kind = kindOf.get(`${t.path}\t${parts.slice(0, i).join(".")}`);
      if (kind && spec.localKinds.includes(kind)) return true;
    }
    return false;
  };
  for (const t of tags) {
    if (isLocal(t)) continue;
    // ctags names anonymous functions `AnonymousFunction<hash>`: not definitions.
    if (t.name.startsWith("AnonymousFunction")) continue;
    const rule = spec.ctagsKinds[t.kind];
    const cat = typeof rule === "function" ? rule(t) : rule;
    if (!cat) continue;
    if (
      spec.skipUnscopedIndented && cat === "function" && !t.scope && indented(t.pattern?.slice(2))
    ) {
      skipped.ctags++;
      continue;
    }
    theirs[cat].add(key(t.path, t.name, t.line));
  }

  const parseOnlyS = await parseOnlySeconds(spec.id, texts);
  const ours: Record<Category, Set<string>> = {
    function: new Set(),
    method: new Set(),
    class: new Set(),
  };
  let symbols = 0;
  await parseSource(`warmup${spec.extensions[0]}`, "");
  const t0 = performance.now();
  for (let i = 0; i < files.length; i++) {
    const parsed = await parseSource(files[i], texts[i], spec.id);
    symbols += parsed.symbols.length;
    let previous = "";
    const lines = spec.skipUnscopedIndented ? texts[i].split("\n") : [];
    for (const s of parsed.symbols) {
      const cat = OURS[s.kind];
      if (!cat) continue;
      if (
        spec.skipUnscopedIndented && cat === "function" && !s.parent && indented(lines[s.line - 1])
      ) {
        skipped.ours++;
        continue;
      }
      const id = `${cat}\t${s.qualifiedName}`;
      if (spec.firstOverloadOnly && cat === "function" && id === previous) continue;
      previous = id;
      ours[cat].add(key(files[i], s.name, s.line));
    }
  }
  const parseSourceS = (performance.now() - t0) / 1000;

  const rows = {} as Result["rows"];
  const misses = {} as Result["misses"];
  const extras = {} as Result["extras"];
  const union = (sets: Set<string>[]) => new Set(sets.flatMap((x) => [...x]));
  const groups: Record<Row, Category[]> = {
    function: ["function"],
    method: ["method"],
    callable: ["function", "method"],
    class: ["class"],
    all: [...CATEGORIES],
  };
  for (const row of ROWS) {
    const t = union(groups[row].map((c) => theirs[c]));
    const o = union(groups[row].map((c) => ours[c]));
    misses[row] = [...t].filter((k) => !o.has(k));
    extras[row] = [...o].filter((k) => !t.has(k));
    rows[row] = { ctags: t.size, ours: o.size, matched: t.size - misses[row].length };
  }
  return {
    lang: spec.id,
    files: files.length,
    mb: bytes / 1e6,
    parseOnlyS,
    parseSourceS,
    symbols,
    skipped,
    rows,
    misses,
    extras,
  };
}

// ------------------------------------------------------------------------- report

const pad = (s: string | number, n: number) => String(s).padStart(n);
const ratio = (a: number, b: number) => (b === 0 ? "   -" : (a / b).toFixed(3));

function printResults(results: Result[], verbose: number): void {
  console.log(
    `\n${"lang".padEnd(11)} ${"category".padEnd(9)} ${pad("ctags", 7)} ${pad("ours", 7)} ${
      pad("matched", 7)
    } ${pad("recall", 7)} ${pad("precis.", 7)}`,
  );
  for (const r of results) {
    for (const c of ROWS) {
      const row = r.rows[c];
      console.log(
        `${r.lang.padEnd(11)} ${c.padEnd(9)} ${pad(row.ctags, 7)} ${pad(row.ours, 7)} ${
          pad(row.matched, 7)
        } ${pad(ratio(row.matched, row.ctags), 7)} ${pad(ratio(row.matched, row.ours), 7)}`,
      );
    }
  }
  console.log(
    `\n${"lang".padEnd(11)} ${pad("files", 6)} ${pad("MB", 6)} ${pad("symbols", 8)} ${
      pad("parse-only MB/s", 16)
    } ${pad("parseSource MB/s", 17)} ${pad("overhead", 9)}`,
  );
  for (const r of results) {
    console.log(
      `${r.lang.padEnd(11)} ${pad(r.files, 6)} ${pad(r.mb.toFixed(1), 6)} ${pad(r.symbols, 8)} ${
        pad((r.mb / r.parseOnlyS).toFixed(2), 16)
      } ${pad((r.mb / r.parseSourceS).toFixed(2), 17)} ${
        pad(`${Math.round(100 * (r.parseSourceS / r.parseOnlyS - 1))}%`, 9)
      }`,
    );
  }
  console.log("\nNotes (residual differences):");
  for (const r of results) {
    if (r.skipped.ctags + r.skipped.ours > 0) {
      console.log(
        `  ${r.lang}: left out as unscoped indented functions: ${r.skipped.ctags} ctags tags, ${r.skipped.ours} codectx symbols.`,
      );
    }
    for (const n of NOTES[r.lang] ?? []) console.log(`  ${r.lang}: ${n}`);
  }
  if (verbose > 0) {
    for (const r of results) {
      for (const c of ["all", ...CATEGORIES] as const) {
        if (c !== "all" && verbose < 100) continue;
        const show = (label: string, list: string[]) => {
          if (list.length === 0) return;
          console.log(`\n${r.lang} ${c} ${label} (${list.length}):`);
          for (const k of list.slice(0, verbose)) console.log(`  ${k.replace(/\t/g, "  ")}`);
        };
        show("missed (ctags only)", r.misses[c]);
        show("extra (codectx only)", r.extras[c]);
      }
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      corpus: { type: "string", multiple: true },
      lang: { type: "string", multiple: true },
      cache: { type: "string", default: DEFAULT_CACHE },
      verbose: { type: "string", short: "v" },
    },
  });
  const verbose = values.verbose === undefined ? 0 : Number(values.verbose) || 20;
  let corpora: Record<string, string[]>;
  if (values.corpus?.length) {
    if (values.lang?.length !== values.corpus.length) {
      throw new Error("give one --lang per --corpus, e.g. --corpus ./src --lang go");
    }
    corpora = {};
    values.corpus.forEach((c, i) => (corpora[values.lang![i]] ??= []).push(c));
  } else {
    corpora = defaultCorpora(values.cache!);
    if (values.lang?.length) {
      corpora = Object.fromEntries(
        Object.entries(corpora).filter(([l]) => values.lang!.includes(l)),
      );
    }
  }
  const results: Result[] = [];
  for (const [lang, roots] of Object.entries(corpora)) {
    const spec = SPECS[lang];
    if (!spec) throw new Error(`no comparison rules for '${lang}'; known: ${Object.keys(SPECS)}`);
    console.error(`${lang}: ${roots.join(", ")}`);
    results.push(await compare(spec, roots));
  }
  printResults(results, verbose);
}

if (import.meta.main) await main();
