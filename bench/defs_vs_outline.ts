/**
 * Definitions vs outline oracles: recall and precision of codectx's symbols against what
 * an editor's outline shows, nested definitions included, per language, on real code
 * unpacked at run time. Oracles no one here wrote: Universal Ctags for every language, and
 * for JavaScript and TypeScript first the TypeScript navigation tree
 * (`LanguageService.getNavigationTree`), the headline there (ctags reads JS object literals
 * as classes and loses class members after some field initializers; its JS/TS rows are
 * printed as a second opinion: a ctags variable, constant or property counts when its line
 * assigns a function).
 *
 * ```sh
 * deno run -A bench/defs_vs_outline.ts                 # every language, tuning + held-out
 * deno run -A bench/defs_vs_outline.ts --lang rust -v 40   # print misses and extras
 * deno run -A bench/defs_vs_outline.ts --corpus ~/src/proj --lang go
 * ```
 *
 * What counts (both sides, keyed by file + name + line; quotes and `[…]` of computed keys
 * dropped from names):
 * - callables: functions, methods, constructors, getters/setters, interface method and
 *   construct signatures, at any depth (a function inside a function or a callback
 *   counts); a variable, constant or property whose value is a function (JS/TS navigation
 *   tree: its initializer, through parentheses and chained `=`);
 * - types: classes, interfaces, structs, enums, traits, type aliases.
 * - not counted: variables, constants, fields, properties, enum members, namespaces and
 *   modules, anonymous functions and classes (their named children count), call/index
 *   signatures, `module.exports = function () {}` (the navigation tree's `exports`).
 * - TypeScript's tree draws same-named declarations of one parent (overloads) as one item
 *   with a span per declaration: each declaration counts.
 *
 * Corpora: a tuning set per language, and a held-out set never tuned on, reported
 * separately: the click (Python), urfave/cli (Go), got (JS), ripgrep's crates
 * (Rust: grep-searcher, ignore, globset), plus @tanstack/query-core (TS),
 * commons-lang3 (Java), dnlib (C#).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { parseSource } from "../src/parse/parser.ts";
import type { SymbolKind } from "../src/types.ts";
import {
  type Category,
  type CtagsTag,
  ctagsTags,
  debianSource,
  debs,
  type Def,
  javaSources,
  navigationDefs,
  navigationService,
  normalizeName,
  npmPackage,
  run,
} from "./defs_oracles.ts";

type Row = Category | "all";
const ROWS: readonly Row[] = ["callable", "type", "all"];

/** A ctags kind's category, or a rule that reads it from the tag. */
type CtagsRule = Category | ((t: CtagsTag) => Category | undefined);
/** "navtree", or the ctags kinds (long names) that count. */
type Oracle = "navtree" | Record<string, CtagsRule>;

interface LangSpec {
  extensions: string[];
  /** The first is the language's headline oracle. */
  oracles: Oracle[];
}

/** A ctags variable/constant whose line assigns a function: a function definition. */
const ASSIGNS_FUNCTION = (operator: string) =>
  new RegExp(
    `^\\s*${operator}\\s*(?:async\\s+)?(?:function\\b|\\((?!\\()[^)]*\\)\\s*(?::[^=]*)?=>|[\\w$]+\\s*=>)`,
  );
/**
 * JS: `x = function`, `key: () =>`; TS: `x = (…) =>` only (after `:` comes a type, and
 * `(() => {…})()` is the value the function returns).
 */
const assignedFunction = (operator: string) => {
  const re = ASSIGNS_FUNCTION(operator);
  return (t: CtagsTag): Category | undefined =>
    t.pattern && re.test(t.pattern.slice(t.pattern.indexOf(t.name) + t.name.length))
      ? "callable"
      : undefined;
};
const jsAssigned = assignedFunction("[=:]");
const tsAssigned = assignedFunction("(?::[^=]*)?=");
/** ctags files JS object literals and constructor functions as classes too. */
const jsClass = (t: CtagsTag): Category | undefined =>
  /\bclass\b/.test(t.pattern ?? "")
    ? "type"
    : /\bfunction\b/.test(t.pattern ?? "")
    ? "callable"
    : undefined;

const TYPES = { class: "type", interface: "type", enum: "type" } as const;

const SPECS: Record<string, LangSpec> = {
  python: {
    extensions: [".py"],
    oracles: [{ class: "type", function: "callable", member: "callable" }],
  },
  javascript: {
    extensions: [".js", ".mjs", ".cjs"],
    oracles: ["navtree", {
      class: jsClass,
      function: "callable",
      generator: "callable",
      method: "callable",
      getter: "callable",
      setter: "callable",
      variable: jsAssigned,
      constant: jsAssigned,
      field: jsAssigned,
      property: jsAssigned,
    }],
  },
  typescript: {
    extensions: [".ts", ".mts", ".cts"],
    oracles: ["navtree", {
      ...TYPES,
      alias: "type",
      function: "callable",
      generator: "callable",
      method: "callable",
      variable: tsAssigned,
      constant: tsAssigned,
      property: tsAssigned,
    }],
  },
  go: {
    extensions: [".go"],
    oracles: [{
      func: "callable",
      methodSpec: "callable",
      struct: "type",
      interface: "type",
      type: "type",
      talias: "type",
    }],
  },
  rust: {
    extensions: [".rs"],
    oracles: [{
      function: "callable",
      method: "callable",
      ...TYPES,
      struct: "type",
      typedef: "type",
    }],
  },
  java: { extensions: [".java"], oracles: [{ method: "callable", ...TYPES, annotation: "type" }] },
  csharp: { extensions: [".cs"], oracles: [{ method: "callable", ...TYPES, struct: "type" }] },
};

const OURS: Partial<Record<SymbolKind, Category>> = {
  function: "callable",
  method: "callable",
  constructor: "callable",
  class: "type",
  interface: "type",
  struct: "type",
  enum: "type",
  trait: "type",
  type: "type",
};

type Corpus = { lang: string; set: "tuning" | "held-out"; label: string; roots: () => string[] };

function corpora(cache: string): Corpus[] {
  const deb = (pkgs: string[], sub: string) => () => [`${debs(cache, pkgs)}${sub}`];
  const npm = (spec: string, sub = "") => () => [`${npmPackage(cache, spec)}${sub}`];
  const stdlib = () => [
    run("python3", ["-c", 'import sysconfig; print(sysconfig.get_paths()["stdlib"])']).trim(),
  ];
  return [
    { lang: "python", set: "tuning", label: "CPython stdlib", roots: stdlib },
    {
      lang: "python",
      set: "held-out",
      label: "click (python3-click)",
      roots: deb(["python3-click"], "/usr/lib/python3/dist-packages/click"),
    },
    {
      lang: "javascript",
      set: "tuning",
      label: "webpack@5 lib, express@4, axios@1 lib",
      roots: () => [
        `${npmPackage(cache, "webpack@5")}/lib`,
        npmPackage(cache, "express@4"),
        `${npmPackage(cache, "axios@1")}/lib`,
      ],
    },
    { lang: "javascript", set: "held-out", label: "got@14 dist", roots: npm("got@14", "/dist") },
    { lang: "typescript", set: "tuning", label: "rxjs@7 src", roots: npm("rxjs@7", "/src") },
    {
      lang: "typescript",
      set: "held-out",
      label: "@tanstack/query-core@5 src",
      roots: npm("@tanstack/query-core@5", "/src"),
    },
    {
      lang: "go",
      set: "tuning",
      label: "go-cmp, cobra, testify",
      roots: () => {
        const root = debs(cache, [
          "golang-github-google-go-cmp-dev",
          "golang-github-spf13-cobra-dev",
          "golang-github-stretchr-testify-dev",
        ]);
        // Each package's own folder: the Debian root holds the held-out set's too.
        const src = `${root}/usr/share/gocode/src/github.com`;
        return [`${src}/google/go-cmp`, `${src}/spf13/cobra`, `${src}/stretchr/testify`];
      },
    },
    {
      lang: "go",
      set: "held-out",
      label: "urfave/cli v2",
      roots: deb(["golang-github-urfave-cli-v2-dev"], "/usr/share/gocode/src/github.com/urfave"),
    },
    {
      lang: "rust",
      set: "tuning",
      label: "itertools, serde, regex-syntax",
      roots: () => {
        const root = debs(cache, [
          "librust-itertools-dev",
          "librust-serde-dev",
          "librust-regex-syntax-dev",
        ]);
        return cratesIn(`${root}/usr/share/cargo/registry`, [
          "itertools",
          "serde-",
          "regex-syntax",
        ]);
      },
    },
    {
      lang: "rust",
      set: "held-out",
      label: "ripgrep crates: grep-searcher, ignore, globset",
      roots: () => {
        const root = debs(cache, [
          "librust-grep-searcher-dev",
          "librust-ignore-dev",
          "librust-globset-dev",
        ]);
        return cratesIn(`${root}/usr/share/cargo/registry`, ["grep-searcher", "ignore", "globset"]);
      },
    },
    {
      lang: "java",
      set: "tuning",
      label: "OpenJDK 17 java.lang, java.util, java.net.http",
      roots: () => [javaSources(cache)],
    },
    {
      lang: "java",
      set: "held-out",
      label: "commons-lang3 (Debian source)",
      roots: () => [debianSource(cache, "libcommons-lang3-java")],
    },
    {
      lang: "csharp",
      set: "tuning",
      label: "Newtonsoft.Json 6 (Debian source)",
      roots: () => [debianSource(cache, "newtonsoft-json")],
    },
    {
      lang: "csharp",
      set: "held-out",
      label: "dnlib (Debian source)",
      roots: () => [debianSource(cache, "dnlib")],
    },
  ];
}

/** The crate folders under a registry whose names start with one of `prefixes`. */
function cratesIn(registry: string, prefixes: string[]): string[] {
  return [...Deno.readDirSync(registry)].filter((e) => prefixes.some((p) => e.name.startsWith(p)))
    .map((e) => `${registry}/${e.name}`);
}

const SKIP_DIRS = new Set(["site-packages", "__pycache__", "node_modules", ".git"]);
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
        !/\.d\.[mc]?ts$/.test(e.name) && Deno.statSync(path).size <= MAX_FILE_BYTES
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
  corpus: Corpus;
  oracle: "navtree" | "ctags";
  files: number;
  rows: Record<Row, { oracle: number; ours: number; matched: number }>;
  misses: string[];
  extras: string[];
}

const key = (d: Def) => `${d.file}\t${d.name}\t${d.line}`;

/** Lines per file the oracle does not look at: left out of codectx's side too. */
type Hidden = Map<string, [number, number][]>;

async function oracleDefs(
  oracle: Oracle,
  files: string[],
  texts: string[],
  hidden: Hidden,
): Promise<Def[]> {
  if (oracle === "navtree") {
    const map = new Map(files.map((f, i) => [f, texts[i]]));
    const service = navigationService(map);
    return files.flatMap((f, i) => {
      const nav = navigationDefs(service, f, texts[i]);
      if (nav.hidden.length > 0) hidden.set(f, nav.hidden);
      return nav.defs;
    });
  }
  const tags: CtagsTag[] = await ctagsTags(files);
  return tags.flatMap((t) => {
    const rule = Object.hasOwn(oracle, t.kind) ? oracle[t.kind] : undefined;
    const category = typeof rule === "function" ? rule(t) : rule;
    // ctags names anonymous functions and classes `Anonymous…<hash>`: no definitions.
    if (!category || /^(Anonymous|__anon)[A-Za-z]*[0-9a-f]*[0-9][0-9a-f]*$/.test(t.name)) return [];
    return [{ file: t.path, name: normalizeName(t.name), line: t.line, category }];
  });
}

async function ourDefs(lang: string, files: string[], texts: string[]): Promise<Def[]> {
  const defs: Def[] = [];
  for (let i = 0; i < files.length; i++) {
    const parsed = await parseSource(files[i], texts[i], lang);
    // A file codectx cannot read would count as misses: say so instead.
    if (parsed.error) throw new Error(`codectx could not parse ${files[i]}: ${parsed.error}`);
    for (const s of parsed.symbols) {
      const category = OURS[s.kind];
      if (!category) continue;
      defs.push({ file: files[i], name: normalizeName(s.name), line: s.line, category });
    }
  }
  return defs;
}

/** One result per oracle of the language; codectx parses the corpus once. */
async function compareAll(corpus: Corpus): Promise<Result[]> {
  const spec = SPECS[corpus.lang];
  const files = listFiles(corpus.roots(), spec.extensions);
  const texts = files.map((f) => Deno.readTextFileSync(f));
  const ours = await ourDefs(corpus.lang, files, texts);
  const results: Result[] = [];
  for (const oracle of spec.oracles) {
    const hidden: Hidden = new Map();
    const theirs = await oracleDefs(oracle, files, texts, hidden);
    const seen = ours.filter((d) =>
      !(hidden.get(d.file) ?? []).some(([a, b]) => d.line >= a && d.line <= b)
    );
    const label = oracle === "navtree" ? "navtree" : "ctags";
    results.push({ ...compare(corpus, label, theirs, seen), files: files.length });
  }
  return results;
}

function compare(corpus: Corpus, oracle: Result["oracle"], theirs: Def[], ours: Def[]): Result {
  const rows = {} as Result["rows"];
  const keys = (defs: Def[], row: Row) =>
    new Set(defs.filter((d) => row === "all" || d.category === row).map(key));
  let misses: string[] = [];
  let extras: string[] = [];
  for (const row of ROWS) {
    const t = keys(theirs, row);
    const o = keys(ours, row);
    const missed = [...t].filter((k) => !o.has(k));
    if (row === "all") {
      misses = missed;
      extras = [...o].filter((k) => !t.has(k));
    }
    rows[row] = { oracle: t.size, ours: o.size, matched: t.size - missed.length };
  }
  return { corpus, oracle, files: 0, rows, misses, extras };
}

// ------------------------------------------------------------------------- report

const pad = (s: string | number, n: number) => String(s).padStart(n);
const ratio = (a: number, b: number) => (b === 0 ? "    -" : (a / b).toFixed(3));

function printTable(title: string, results: Result[]): void {
  if (results.length === 0) return;
  console.log(`\n${title}`);
  console.log(
    `${"lang".padEnd(11)} ${"oracle".padEnd(8)} ${"row".padEnd(9)} ${pad("files", 6)} ${
      pad("oracle", 7)
    } ${pad("ours", 7)} ${pad("matched", 7)} ${pad("recall", 7)} ${pad("precis.", 7)}  corpus`,
  );
  for (const r of results) {
    const oracle = r.oracle;
    for (const row of ROWS) {
      const x = r.rows[row];
      console.log(
        `${r.corpus.lang.padEnd(11)} ${oracle.padEnd(8)} ${row.padEnd(9)} ${pad(r.files, 6)} ${
          pad(x.oracle, 7)
        } ${pad(x.ours, 7)} ${pad(x.matched, 7)} ${pad(ratio(x.matched, x.oracle), 7)} ${
          pad(ratio(x.matched, x.ours), 7)
        }  ${row === "all" ? r.corpus.label : ""}`,
      );
    }
  }
}

function printLists(results: Result[], limit: number): void {
  for (const r of results) {
    const show = (label: string, list: string[]) => {
      if (list.length === 0) return;
      console.log(`\n${r.corpus.lang} (${r.corpus.set}, ${r.oracle}) ${label} (${list.length}):`);
      for (const k of list.slice(0, limit)) console.log(`  ${k.replace(/\t/g, "  ")}`);
    };
    show("missed (oracle only)", r.misses);
    show("extra (codectx only)", r.extras);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      corpus: { type: "string", multiple: true },
      lang: { type: "string", multiple: true },
      set: { type: "string" },
      cache: { type: "string", default: `${Deno.env.get("TMPDIR") ?? "/tmp"}/codectx-bench` },
      verbose: { type: "string", short: "v" },
    },
  });
  const limit = values.verbose === undefined ? 0 : Number(values.verbose) || 20;
  let list: Corpus[];
  if (values.corpus?.length) {
    if (values.lang?.length !== values.corpus.length) {
      throw new Error("give one --lang per --corpus, e.g. --corpus ./src --lang go");
    }
    list = values.corpus.map((c, i) => ({
      lang: values.lang![i],
      set: "tuning",
      label: c,
      roots: () => [c],
    }));
  } else {
    list = corpora(values.cache!).filter((c) =>
      (!values.lang?.length || values.lang.includes(c.lang)) &&
      (!values.set || c.set === values.set)
    );
  }
  const results: Result[] = [];
  for (const c of list) {
    if (!SPECS[c.lang]) throw new Error(`no oracle for '${c.lang}'; known: ${Object.keys(SPECS)}`);
    try {
      console.error(`${c.lang} (${c.set}): ${c.label}`);
      results.push(...await compareAll(c));
    } catch (e) {
      console.error(`skipping ${c.lang} ${c.label}: ${e instanceof Error ? e.message : e}`);
    }
  }
  console.log(`load average: ${Deno.readTextFileSync("/proc/loadavg").trim()}`);
  printTable("Tuning set", results.filter((r) => r.corpus.set === "tuning"));
  printTable("Held-out set (never tuned on)", results.filter((r) => r.corpus.set === "held-out"));
  if (limit > 0) printLists(results, limit);
}

if (import.meta.main) await main();
