/**
 * Real questions, not doc sentences (issue 30): the questions a package's own tests ask of
 * its code — Go `t.Run("…")` descriptions and `TestXxx` names, Rust `#[test]` function names,
 * Python `test_…` names and their docstrings — each answered by the function the test is
 * about, searched in the package's code with its tests taken out. Hybrid against the BM25
 * baseline of `search_vs_bm25.ts` (one document per function, split identifiers, path and
 * scope), NDCG@10 (one relevant function per question: 1/log2(1 + rank) within the top 10).
 *
 * The function under test is known only where the test says it:
 * - Go: `TestFoo`, `TestFoo_Bar` (method `Bar` of `Foo`) or `TestFooSomething` whose longest
 *   leading humps name one function or method of the package that the test calls; each
 *   `t.Run("…")` literal of three words or more inside it is a question about that function,
 *   and so is the test's name when it says more than the function's name (`TestParseEmpty`);
 * - Rust and Python: of the package's functions the test calls, the one whose name shares
 *   the most words with the test's name (one, no tie); the question is the test's name in
 *   words (`test_parse_version_with_build` → "parse version with build") or, in Python, the
 *   first sentence of its docstring.
 * A question of fewer than three words, or asked of two functions, is left out; each package
 * gives at most `--per-package` questions (a fixed order). A result answers when its line is
 * in the function's span, its leading doc comment included (where results of a documented
 * function point).
 *
 * Every package is fetched at run time (Debian binary packages through `model/sources.ts`)
 * into `--dir`; none is a package of `search_breadth.ts`'s sets, a training source of
 * codectx-code, or a package of `search_vs_bm25.ts` (checked at start). Each package is its
 * own project; test files are not in it, and the tests beside the code (Rust's test modules,
 * Python test functions in a module) are blanked in place (lines kept): a test's name is its
 * question as written, and would be found instead of the function it tests.
 *
 *   deno run -A bench/search_tests.ts --dir DIR [--languages go,rust,python]
 *     [--per-package 30] [--embedder codectx-code] [--out FILE] [--show N]
 *     [--packages a,b]   (only the packages whose name holds one of these)
 *     [--survey]         (fetch and read the questions; print each package's count only)
 *     [--from FILE]      (print the tables of an earlier run's --out again)
 *
 * @module
 */

import { parseArgs } from "node:util";
import { searchProject } from "../src/search/hybrid.ts";
import { parseSource } from "../src/parse/parser.ts";
import type { SymbolRecord } from "../src/types.ts";
import { splitIdentifier } from "../src/util/tokens.ts";
import { fetchSource, fnv, type Source, sourceFiles } from "../model/sources.ts";
import { buildBaseline, isFunction, lightStem } from "./search_baseline.ts";
import { openCorpus, type Query, rankOf, ratioInterval, runFooter } from "./search_vs_bm25.ts";
import { checkSources, CV, FINAL, FINAL2, goDeb, py, rust } from "./search_breadth.ts";

/** Packages that ship their tests, outside every other set of the benches. */
export const TEST_SOURCES: readonly Source[] = [
  ...goDeb([
    "gobwas-glob",
    "imdario-mergo",
    "puerkitobio-goquery",
    "jessevdk-go-flags",
    "go-ini-ini",
    "pkg-errors",
    "hashicorp-go-multierror",
    "docker-go-units",
    "rs-zerolog",
    "patrickmn-go-cache",
    "julienschmidt-httprouter",
    "gorilla-handlers",
    "stretchr-objx",
    "go-openapi-strfmt",
    "gofrs-uuid",
    "cenkalti-backoff",
    "xeipuuv-gojsonschema",
    "json-iterator-go",
  ]),
  ...rust([
    "fancy-regex",
    "strsim",
    "similar",
    "humantime",
    "unicase",
    "unicode-normalization",
    "difflib",
    "bytesize",
    "num-rational",
    "num-integer",
    "fixedbitset",
    "bit-vec",
    "httparse",
    "encoding-rs",
    "half",
    "slab",
    "unicode-bidi",
    "pulldown-cmark",
  ]),
  ...py(["pint", "mpmath", "bitarray", "patsy", "uncertainties", "isodate", "numexpr", "erfa"]),
];

/** A test file: its questions are read, it is not in the project. */
const TEST_FILE =
  /(^|\/)(tests?|testing|testsuite|benches|examples?|testdata)\/|(^|\/)test_[^/]*\.py$|(_test\.(go|py)|(^|\/)conftest\.py)$/;

/** A question and where it came from. */
export interface TestQuestion extends Query {
  /** `description` (t.Run), `docstring` (Python) or `name` (the test's name in words). */
  from: "description" | "docstring" | "name";
  /** The test it was read from (`file:Name`). */
  test: string;
}

/** The words of an identifier (`TestParseUint16_Overflow` → parse, uint, 16, overflow). */
function nameWords(name: string): string[] {
  return splitIdentifier(name).filter((w) => w !== "test" && w !== "tests");
}

/** Words of a question: three or more that hold a letter. */
function isQuestion(text: string): boolean {
  return text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length >= 3;
}

/** Names a body calls: `foo(`, `.foo(`, `::foo(`, `foo::<T>(`. */
function calledNames(body: string): Set<string> {
  const out = new Set<string>();
  for (const m of body.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*(?:::<[^>]*>)?\s*\(/g)) out.add(m[1]);
  return out;
}

/** The package's functions (not test code) by name. */
type Defined = Map<string, SymbolRecord[]>;

/** A `#[test]` attribute above the function's name. */
function hasTestAttribute(sym: SymbolRecord, lines: string[]): boolean {
  for (let i = sym.startLine - 1; i < sym.line && i < lines.length; i++) {
    if (/#\[test\]/.test(lines[i])) return true;
  }
  return false;
}

/** A Rust function is test code inside a `tests` module or under `#[test]`. */
function isTestCode(sym: SymbolRecord, lines: string[]): boolean {
  if (/(^|\.)tests?(\.|$)/.test(sym.parent ?? "")) return true;
  for (let i = sym.startLine - 1; i < sym.line && i < lines.length; i++) {
    if (/#\[(test|bench|cfg\(test\))/.test(lines[i])) return true;
  }
  return false;
}

/** A test of Rust (`#[test]`, in a tests module) or Python (`test_…`), not a helper. */
function isTestFunction(language: string, sym: SymbolRecord, lines: string[]): boolean {
  if (language === "rust") return isTestCode(sym, lines);
  return language === "python" && /^test_?[a-z0-9]/i.test(sym.name);
}

/** The one function of `candidates` sharing the most words with `words` (none on a tie). */
function bestByWords(candidates: SymbolRecord[], words: string[]): SymbolRecord | null {
  const want = new Set(words.map(lightStem));
  let best: SymbolRecord | null = null, bestN = 0, tie = false;
  for (const s of candidates) {
    const n = new Set(splitIdentifier(s.name).map(lightStem).filter((w) => want.has(w))).size;
    if (n > bestN) [best, bestN, tie] = [s, n, false];
    else if (n === bestN && n > 0 && best && best.qualifiedName !== s.qualifiedName) tie = true;
  }
  return tie ? null : best;
}

/** Go: the function `TestFoo…` is about, by its longest leading humps the package defines. */
function goTarget(test: string, body: string, defined: Defined): SymbolRecord | null {
  const parts = test.replace(/^Test/, "").split("_").filter(Boolean);
  if (parts.length === 0) return null;
  const called = calledNames(body);
  const one = (name: string, qualified?: string) => {
    const all = (defined.get(name) ?? []).filter((s) =>
      qualified ? s.qualifiedName.endsWith(qualified) : true
    );
    return all.length === 1 && called.has(name) ? all[0] : null;
  };
  if (parts.length >= 2) {
    const m = one(parts[1], `${parts[0]}.${parts[1]}`);
    if (m) return m;
  }
  const humps = parts[0].match(/[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g) ?? [parts[0]];
  for (let n = humps.length; n >= 1; n--) {
    const m = one(humps.slice(0, n).join(""));
    if (m) return m;
  }
  return null;
}

/** Reads one test file's questions against the package's functions. */
function testQuestions(
  language: string,
  file: string,
  text: string,
  symbols: SymbolRecord[],
  defined: Defined,
): Array<Omit<TestQuestion, "file" | "startLine" | "endLine" | "line"> & { target: SymbolRecord }> {
  const lines = text.split("\n");
  const out: Array<
    Omit<TestQuestion, "file" | "startLine" | "endLine" | "line"> & { target: SymbolRecord }
  > = [];
  for (const sym of symbols) {
    if (!isFunction(sym, lines)) continue;
    const body = lines.slice(sym.startLine - 1, sym.endLine).join("\n");
    const test = `${file}:${sym.name}`;
    const add = (query: string, from: TestQuestion["from"], target: SymbolRecord) => {
      const q = query.replace(/\s+/g, " ").trim();
      if (isQuestion(q)) out.push({ query: q, from, test, target, symbol: target.qualifiedName });
    };
    if (language === "go") {
      if (!/^Test[A-Z_]/.test(sym.name)) continue;
      const target = goTarget(sym.name, body, defined);
      if (!target) continue;
      const words = nameWords(sym.name);
      if (words.length > splitIdentifier(target.name).length) add(words.join(" "), "name", target);
      for (const m of body.matchAll(/\bt\.Run\(\s*"([^"\\]{8,120})"/g)) {
        add(m[1], "description", target);
      }
      continue;
    }
    if (!isTestFunction(language, sym, lines)) continue;
    // Of a Rust test module, the tests alone (not its helpers).
    if (language === "rust" && !hasTestAttribute(sym, lines)) continue;
    const words = nameWords(sym.name);
    const called = [...calledNames(body)].flatMap((n) => defined.get(n) ?? []);
    const target = bestByWords(called, words);
    if (!target) continue;
    const doc = language === "python" ? sym.doc.split(/(?<=[.!?])\s|\n\n/)[0] : "";
    if (doc && isQuestion(doc)) add(doc, "docstring", target);
    else add(words.join(" "), "name", target);
  }
  return out;
}

/** A line of a leading doc comment or attribute, per language. */
const COMMENT: Record<string, RegExp> = {
  go: /^\s*(\/\/|\/\*|\*)/,
  rust: /^\s*(\/\/|\/\*|\*|#!?\[)/,
  python: /^\s*(#|@)/,
};

/**
 * The first line of a definition's leading doc comment and attributes (its own first line
 * when none): a search result may point there, where the definition's text begins.
 */
function docStart(language: string, lines: string[], startLine: number): number {
  let i = startLine - 1;
  while (i > 0 && COMMENT[language].test(lines[i - 1])) i--;
  return i + 1;
}

/** A package's project (its code without tests) and its questions. */
interface PackageSet {
  source: Source;
  root: string;
  questions: TestQuestion[];
}

/** Builds (once) one package's project under `dir` and reads its tests' questions. */
async function packageSet(dir: string, source: Source, perPackage: number): Promise<PackageSet> {
  const slug = source.name.replace(/^@/, "").replace(/[^a-zA-Z0-9.-]+/g, "_");
  const base = `${dir}/projects/${source.language}/${slug}`;
  const root = `${base}/src`, qFile = `${base}/questions.json`;
  try {
    const questions = JSON.parse(await Deno.readTextFile(qFile)) as TestQuestion[];
    return { source, root, questions: questions.slice(0, perPackage) };
  } catch {
    // not built yet
  }
  await Deno.remove(base, { recursive: true }).catch(() => {});
  const f = await fetchSource(source, `${dir}/packages`);
  const code: Array<{ path: string; text: string }> = [];
  const tests: Array<{ path: string; text: string }> = [];
  for (const from of f.dirs) {
    for await (const rel of sourceFiles(f.root, from, source.language)) {
      const text = await Deno.readTextFile(`${f.root}/${rel}`).catch(() => null);
      if (text === null || text.length > 1_000_000) continue;
      const path = `${f.root}/${rel}`.slice(from.length + 1);
      (TEST_FILE.test(path) ? tests : code).push({ path, text });
    }
  }
  const defined: Defined = new Map();
  const inline: Array<{ path: string; text: string; symbols: SymbolRecord[] }> = [];
  for (const { path, text } of code) {
    const parsed = await parseSource(path, text, source.language);
    const lines = text.split("\n");
    const blanked = [...lines];
    for (const s of parsed.symbols) {
      if (!isFunction(s, lines)) continue;
      if (isTestFunction(source.language, s, lines)) {
        // A test beside the code (Rust's test modules, patsy's test functions) asks too,
        // but is not in the project: its name is the question, written as is.
        for (let i = s.startLine - 1; i < s.endLine; i++) blanked[i] = "";
        continue;
      }
      let list = defined.get(s.name);
      if (!list) defined.set(s.name, list = []);
      list.push(s);
    }
    await Deno.mkdir(`${root}/${path}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, blanked.join("\n"));
    if (source.language !== "go") inline.push({ path, text, symbols: parsed.symbols });
  }
  const found: TestQuestion[] = [];
  const codeLines = new Map(code.map(({ path, text }) => [path, text.split("\n")]));
  const read = (path: string, text: string, symbols: SymbolRecord[]) => {
    for (const q of testQuestions(source.language, path, text, symbols, defined)) {
      const { target, ...rest } = q;
      found.push({
        ...rest,
        file: target.file,
        startLine: docStart(source.language, codeLines.get(target.file) ?? [], target.startLine),
        endLine: target.endLine,
        line: target.line,
      });
    }
  };
  for (const { path, text } of tests) {
    read(path, text, (await parseSource(path, text, source.language)).symbols);
  }
  for (const { path, text, symbols } of inline) read(path, text, symbols);
  // A question asked of two functions is no question with one answer.
  const targets = new Map<string, Set<string>>();
  for (const q of found) {
    const key = q.query.toLowerCase();
    if (!targets.has(key)) targets.set(key, new Set());
    targets.get(key)!.add(`${q.file}:${q.symbol}`);
  }
  const seen = new Set<string>();
  const unique = found.filter((q) => {
    const key = q.query.toLowerCase();
    if (targets.get(key)!.size > 1 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((a, b) => fnv(`${a.test}:${a.query}`) - fnv(`${b.test}:${b.query}`));
  await Deno.writeTextFile(qFile, JSON.stringify(unique, null, 1));
  return { source, root, questions: unique.slice(0, perPackage) };
}

/** NDCG@10 of one question with one relevant result at `rank` (0: not in the top 10). */
const ndcg = (rank: number) => (rank > 0 && rank <= 10 ? 1 / Math.log2(1 + rank) : 0);
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);

/** One question's ranks under each method. */
interface Judged {
  package: string;
  language: string;
  q: TestQuestion;
  bm25: number;
  hybrid: number;
  lexical: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      dir: { type: "string" },
      languages: { type: "string", default: "go,rust,python" },
      packages: { type: "string" },
      survey: { type: "boolean", default: false },
      "per-package": { type: "string", default: "30" },
      embedder: { type: "string", default: "codectx-code" },
      out: { type: "string" },
      show: { type: "string", default: "0" },
      from: { type: "string" },
    },
  });
  if (!values.dir) {
    console.error(
      "usage: deno run -A bench/search_tests.ts --dir DIR [--languages go,rust,python]",
    );
    Deno.exit(2);
  }
  checkSources(TEST_SOURCES, {
    "search_breadth's cv set": CV,
    "search_breadth's final set": FINAL,
    "search_breadth's final2 set": FINAL2,
  });
  const started = performance.now();
  const dir = values.dir;
  const langs = values.languages.split(",");
  const judged: Judged[] = values.from ? JSON.parse(await Deno.readTextFile(values.from)) : [];
  const only = values.packages?.split(",");
  const chosen = TEST_SOURCES.filter((s) =>
    langs.includes(s.language) && (!only || only.some((o) => s.name.includes(o)))
  );
  for (const source of values.from ? [] : chosen) {
    let set: PackageSet;
    try {
      set = await packageSet(dir, source, Number(values["per-package"]));
    } catch (err) {
      console.error(`  ${source.name}: left out (${(err as Error).message.slice(0, 200)})`);
      continue;
    }
    if (set.questions.length === 0) {
      console.error(`  ${source.name}: no question whose function is known`);
      continue;
    }
    if (values.survey) {
      const by = Object.groupBy(set.questions, (q) => q.from);
      console.log(
        `${source.name}: ${set.questions.length} questions (${
          Object.entries(by).map(([k, v]) => `${k} ${v!.length}`).join(", ")
        })`,
      );
      continue;
    }
    const base = await buildBaseline(set.root, source.language);
    const project = await openCorpus(
      { set: "heldout", language: source.language, root: set.root, queries: [], packages: [] },
      values.embedder,
      `${dir}/indexes/${source.language}-${source.name.replace(/[^a-zA-Z0-9.-]+/g, "_")}`,
    );
    for (const q of set.questions) {
      const bm25 = rankOf(q, base.search(q.query).map((d) => ({ ...d, line: d.startLine })));
      const hy = await searchProject(project, q.query, { top_k: 10, mode: "hybrid" });
      const lx = await searchProject(project, q.query, { top_k: 10, mode: "lexical" });
      judged.push({
        package: source.name,
        language: source.language,
        q,
        bm25,
        hybrid: rankOf(q, hy.snippets),
        lexical: rankOf(q, lx.snippets),
      });
    }
    project.close();
    const mine = judged.filter((j) => j.package === source.name);
    console.error(
      `  ${source.name}: ${mine.length} questions, NDCG@10 hybrid ${
        f3(mean(mine.map((j) => ndcg(j.hybrid))))
      } BM25 ${f3(mean(mine.map((j) => ndcg(j.bm25))))}`,
    );
  }
  if (values.out && !values.from) {
    await Deno.writeTextFile(values.out, JSON.stringify(judged, null, 1));
  }
  const row = (label: string, js: Judged[]) => {
    const h = mean(js.map((j) => ndcg(j.hybrid))), b = mean(js.map((j) => ndcg(j.bm25)));
    const l = mean(js.map((j) => ndcg(j.lexical)));
    const [lo, hi] = ratioInterval(js.map((j) => j.hybrid), js.map((j) => j.bm25), 2000, ndcg);
    const pk = new Set(js.map((j) => j.package)).size;
    return `| ${label} | ${pk} | ${js.length} | ${f3(h)} | ${f3(l)} | ${f3(b)} | ${
      b > 0 ? (h / b).toFixed(2) : "–"
    } (${lo.toFixed(2)}–${hi.toFixed(2)}) |`;
  };
  console.log("\n## Questions from the packages' own tests: NDCG@10\n");
  console.log("| set | packages | questions | hybrid | lexical | BM25 | hybrid ÷ BM25 (95 %) |");
  console.log("|---|---:|---:|---:|---:|---:|---|");
  console.log(row("all", judged));
  for (const l of langs) {
    const js = judged.filter((j) => j.language === l);
    if (js.length) console.log(row(l, js));
  }
  for (const from of ["description", "docstring", "name"]) {
    const js = judged.filter((j) => j.q.from === from);
    if (js.length) console.log(row(`from ${from}`, js));
  }
  const show = Number(values.show);
  if (show > 0) {
    console.log("\nHybrid's worst against BM25 (question → answer: hybrid rank, BM25 rank):");
    const worst = judged.filter((j) => ndcg(j.hybrid) < ndcg(j.bm25))
      .sort((a, b) => (ndcg(a.hybrid) - ndcg(a.bm25)) - (ndcg(b.hybrid) - ndcg(b.bm25)));
    for (const j of worst.slice(0, show)) {
      console.log(`- "${j.q.query}" → ${j.q.file}:${j.q.symbol}: ${j.hybrid || ">10"}, ${j.bm25}`);
    }
  }
  console.log(runFooter(values.embedder, started));
}

const f3 = (x: number) => x.toFixed(3).replace(/^0/, "");

if (import.meta.main) await main();
