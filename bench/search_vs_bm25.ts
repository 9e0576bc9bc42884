/**
 * codectx search against a textbook BM25 baseline, on docstring → function retrieval over
 * real code in six languages, fetched at run time: for each language a tuning set (the
 * evaluation packages of `model/sources.ts`, which the search defaults may be tuned on)
 * and a held-out set of other packages (never tuned on), reported separately. None of the
 * packages is a training source of the codectx-code model (checked at start).
 *
 * Per set and language: every source file is copied with the doc comments (docstrings) of
 * its functions and methods blanked in place (line numbers kept); each removed doc's first
 * sentence is a query, 150 of them sampled in a fixed order; the answer is that function.
 * A hit is a result in the right file whose `line` lies in the function's span.
 *
 * The baseline (`search_baseline.ts`): one document per function or method (its exact span, no grouping); text =
 * the function's code + its file path + its enclosing scope's name; tokens = identifiers
 * split at camelCase/PascalCase/snake_case/digits, lower-cased, the whole identifier kept
 * too when it has several parts, English stop words removed, light suffix stemming;
 * Okapi BM25 (k1 1.2, b 0.75, idf ln(1 + (N − df + .5)/(df + .5))); the query gets the
 * same tokens. Its candidates are the same files codectx indexes.
 *
 *   deno run -A bench/search_vs_bm25.ts [--sets tune,heldout,train] [--languages python,go,…]
 *     [--queries 150] [--embedder codectx-code]
 *
 * Below each table, the 95 % interval of hybrid ÷ baseline from a paired bootstrap over the
 * queries (2,000 resamples of the same queries for both methods, a fixed seed): how far the
 * ratio of one set of 150 queries is from the ratio of the packages' every description.
 *
 * @module
 */

import { parseArgs } from "node:util";
import {
  cacheDir,
  EVAL_SOURCES,
  EXTRA_SOURCES,
  type Fetched,
  fetchSource,
  fnv,
  MODEL_SOURCES,
  type Source,
  sourceFiles,
} from "../model/sources.ts";
import { docQuery, pythonHeaderEnd } from "../model/pairs.ts";
import { parseSource } from "../src/parse/parser.ts";
import type { Project } from "../src/project/project.ts";
import { ProjectService } from "../src/service/service.ts";
import {
  fuse,
  type FusionParams,
  presentRanked,
  retrieve,
  type SearchMode,
  searchProject,
} from "../src/search/hybrid.ts";
import { readManifest } from "../src/search/codectx_code.ts";
import type { SymbolRecord } from "../src/types.ts";
import { BENCH_DIR } from "./search_corpus.ts";
import { buildBaseline, isFunction } from "./search_baseline.ts";

/** The languages, in table order. */
export const LANGUAGES = ["python", "go", "rust", "javascript", "typescript", "java"] as const;

/** Held-out packages: outside `TRAINING-SOURCES.md` and outside the tuning set. */
export const HELD_OUT: readonly Source[] = [
  ...["python3-requests", "python3-jinja2", "python3-click", "python3-werkzeug", "python3-urllib3"]
    .map((name): Source => ({
      language: "python",
      kind: "deb",
      name,
      include: ["usr/lib/python3/dist-packages"],
    })),
  ...[
    "golang-github-spf13-pflag-dev",
    "golang-github-pelletier-go-toml-dev",
    "golang-github-gin-gonic-gin-dev",
    "golang-github-go-chi-chi-dev",
    "golang-github-urfave-cli-dev",
  ].map((name): Source => ({ language: "go", kind: "deb", name })),
  ...[
    "librust-anyhow-dev",
    "librust-memchr-dev",
    "librust-hashbrown-dev",
    "librust-base64-dev",
    "librust-semver-dev",
    "librust-toml-dev",
  ].map((name): Source => ({ language: "rust", kind: "deb", name })),
  ...["commons-csv", "commons-pool2", "picocli", "commons-exec", "jcommander"].map(
    (name): Source => ({ language: "java", kind: "dsc", name }),
  ),
  { language: "javascript", kind: "npm", name: "axios@1.7.9", include: ["package/lib"] },
  { language: "javascript", kind: "npm", name: "yjs@13.6.21", include: ["package/src"] },
  { language: "javascript", kind: "npm", name: "underscore@1.13.7", include: ["package/modules"] },
  { language: "javascript", kind: "npm", name: "express@4.21.2", include: ["package/lib"] },
  { language: "typescript", kind: "npm", name: "@reduxjs/toolkit@2.5.0", include: ["package/src"] },
  { language: "typescript", kind: "npm", name: "@trpc/server@10.45.2", include: ["package/src"] },
  { language: "typescript", kind: "npm", name: "immer@10.1.1", include: ["package/src"] },
  {
    language: "typescript",
    kind: "npm",
    name: "@tanstack/table-core@8.20.5",
    include: ["package/src"],
  },
];

/**
 * The sets: `tune` may inform defaults; `heldout` never does; `train` (codectx-code's extra
 * sources, which the shipped model was not trained on) may add training queries to the
 * second stage's (`search_rerank.ts --extra`); the shipped one was not trained on it, so
 * `--sets train` reports it as one more set of unseen packages (JavaScript and TypeScript).
 */
export type SetName = "tune" | "heldout" | "train";

const SET_SOURCES: Record<SetName, readonly Source[]> = {
  tune: EVAL_SOURCES,
  heldout: HELD_OUT,
  train: EXTRA_SOURCES,
};

/** A source's name without its version. */
const bare = (name: string) => name.replace(/@[^@]*$/, "");

/**
 * Throws when a set holds a source it must not: an evaluated set one codectx-code may be
 * trained on; the second stage's training set one the shipped model was trained on, or
 * one an evaluated set holds.
 */
async function checkSources(set: SetName, sources: readonly Source[]): Promise<void> {
  const banned = set !== "train" ? MODEL_SOURCES.map((s) => bare(s.name)) : [
    ...((await readManifest()).sources as Array<{ name: string }>).map((s) => bare(s.name)),
    ...[...EVAL_SOURCES, ...HELD_OUT].map((s) => bare(s.name)),
  ];
  for (const s of sources) {
    if (!banned.includes(bare(s.name))) continue;
    throw new Error(
      set === "train"
        ? `${s.name} trained codectx-code or is evaluated on: the second stage cannot train on it`
        : `${s.name} is a training source of codectx-code: it cannot be evaluated on`,
    );
  }
}

/** One query and its answer. */
export interface Query {
  query: string;
  file: string;
  /** The answer's span (1-based, inclusive) and name line. */
  startLine: number;
  endLine: number;
  line: number;
  symbol: string;
  /**
   * The answer is a TypeScript overload signature (no body): a result naming the same
   * symbol in the file — the implementation the search points at — is a hit too.
   */
  signature?: boolean;
}

/** A prepared corpus: stripped sources under `root`, its queries. */
export interface Corpus {
  set: SetName;
  language: string;
  root: string;
  queries: Query[];
  packages: string[];
}

const TEST_PATH =
  /(^|\/)(tests?|testing|__tests__|spec|specs|benches|examples?|testdata|src\/test|idle_test|test_utils?)\/|(_test\.go|\.test\.[jt]sx?|\.spec\.[jt]sx?|Test\.java|Tests\.java)$/;
/** Standard-library packages left out, as `search_corpus.ts` does (GUI, legacy, data). */
const STDLIB_LEFT_OUT =
  /^(idlelib|tkinter|distutils|lib2to3|pydoc_data|turtledemo|ensurepip|msilib|test)\//;
/** Blanks a Python docstring (the body's first statement) in place; false when none. */
function stripPythonDoc(lines: string[], sym: SymbolRecord): boolean {
  const head = pythonHeaderEnd(lines, sym);
  if (head < 0) return false;
  let k = head + 1;
  while (k < sym.endLine && lines[k].trim() === "") k++;
  const m = /^(\s*)[rRuUbB]{0,2}("""|'''|"|')/.exec(lines[k] ?? "");
  if (!m) return false;
  const quote = m[2];
  let end = k;
  if (!lines[k].slice(m[0].length).includes(quote)) {
    if (quote.length === 1) return false;
    end = k + 1;
    while (end < sym.endLine && !lines[end].includes(quote)) end++;
    if (end >= sym.endLine) return false;
  }
  // `pass` keeps a body that was only its docstring valid.
  lines[k] = `${m[1]}pass`;
  for (let x = k + 1; x <= end; x++) lines[x] = "";
  return true;
}

const COMMENT = /^\s*(\/\*\*?|\*|\*\/|\/\/)/;
const ATTRIBUTE = /^\s*(#\[|@[A-Za-z])/;

/** Blanks the doc comment above a definition (past attributes/annotations); false when none. */
function stripLeadingDoc(lines: string[], sym: SymbolRecord): boolean {
  let i = sym.startLine - 2;
  while (i >= 0 && ATTRIBUTE.test(lines[i]) && !COMMENT.test(lines[i])) i--;
  let any = false;
  while (i >= 0 && COMMENT.test(lines[i])) {
    lines[i] = "";
    any = true;
    i--;
  }
  return any;
}

/** Where a fetched file goes in the corpus: `<package>/<path below the include folder>`. */
function corpusPath(f: Fetched, dir: string, rel: string): string {
  const pkg = f.source.name.replace(/^@/, "").replace(/[^a-zA-Z0-9.-]+/g, "_");
  const below = `${f.root}/${rel}`.slice(dir.length + 1);
  return `${pkg}/${below}`;
}

/** Builds (once) the corpus of one language of one set. */
export async function buildCorpus(set: SetName, language: string, nQueries: number) {
  const dir = `${BENCH_DIR}/bm25/${set}-${language}`;
  const root = `${dir}/src`;
  const qFile = `${dir}/queries.json`;
  const sources = SET_SOURCES[set].filter((s) => s.language === language);
  await checkSources(set, sources);
  const packages = sources.map((s) => s.name);
  try {
    const all = JSON.parse(await Deno.readTextFile(qFile)) as Query[];
    return { set, language, root, queries: all.slice(0, nQueries), packages } satisfies Corpus;
  } catch {
    // not built yet
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  const unique = await writeCorpus(sources, language, root, cacheDir());
  await Deno.writeTextFile(qFile, JSON.stringify(unique, null, 1));
  return { set, language, root, queries: unique.slice(0, nQueries), packages } satisfies Corpus;
}

/**
 * Fetches `sources` into `cache`, writes their source files of `language` under `root`
 * with the doc comments of functions blanked in place, and returns the queries: one per
 * blanked doc whose first sentence names no other function, in a fixed order (FNV of
 * file and symbol).
 */
export async function writeCorpus(
  sources: readonly Source[],
  language: string,
  root: string,
  cache: string,
): Promise<Query[]> {
  await Deno.mkdir(root, { recursive: true });
  const found: Query[] = [];
  for (const source of sources) {
    const f = await fetchSource(source, cache);
    for (const base of f.dirs) {
      for await (const rel of sourceFiles(f.root, base, language)) {
        const path = source.kind === "local"
          ? `${`${f.root}/${rel}`.slice(base.length + 1)}`
          : corpusPath(f, base, rel);
        if (TEST_PATH.test(path) || (source.kind === "local" && STDLIB_LEFT_OUT.test(path))) {
          continue;
        }
        const text = await Deno.readTextFile(`${f.root}/${rel}`).catch(() => null);
        if (text === null || text.length > 1_000_000) continue;
        const parsed = await parseSource(path, text, language);
        if (parsed.error) continue;
        const lines = text.split("\n");
        const picked: Query[] = [];
        // Innermost first is irrelevant here: blanking never moves lines.
        for (const sym of parsed.symbols) {
          if (!sym.doc.trim() || !isFunction(sym, lines)) continue;
          const ok = language === "python"
            ? stripPythonDoc(lines, sym)
            : stripLeadingDoc(lines, sym);
          const query = docQuery(sym.doc, sym.name);
          if (!ok || !query) continue;
          picked.push({
            query,
            file: path,
            startLine: sym.startLine,
            endLine: sym.endLine,
            line: sym.line,
            symbol: sym.qualifiedName,
          });
        }
        const stripped = lines.join("\n");
        const flat = stripped.replace(/\s+/g, " ");
        await Deno.mkdir(`${root}/${path}`.replace(/\/[^/]+$/, ""), { recursive: true });
        await Deno.writeTextFile(`${root}/${path}`, stripped);
        for (const q of picked) {
          // A doc still in the code (odd layouts) would leak the answer: no query then.
          if (!flat.includes(q.query.slice(0, 40))) found.push(q);
        }
      }
    }
  }
  // A query text shared by several functions is ambiguous: none of them is a query.
  const count = new Map<string, number>();
  for (const q of found) {
    count.set(q.query.toLowerCase(), (count.get(q.query.toLowerCase()) ?? 0) + 1);
  }
  const unique = found.filter((q) => count.get(q.query.toLowerCase()) === 1);
  unique.sort((a, b) => fnv(`${a.file}:${a.symbol}`) - fnv(`${b.file}:${b.symbol}`));
  return unique;
}

// ------------------------------------------------------------------------------------------
// The baseline, written from its recipe (no codectx code on this side but the parser).

/**
 * 1-based rank of the first hit (a result in the file whose `line` lies in the answer, or
 * that names the answer when it is an overload signature).
 */
export function rankOf(
  q: Query,
  items: Array<{ file: string; line: number; symbol?: string | null }>,
): number {
  const i = items.findIndex((it) =>
    it.file === q.file &&
    ((q.startLine <= it.line && it.line <= q.endLine) ||
      (q.signature === true && it.symbol === q.symbol))
  );
  return i + 1;
}

/** MRR@10 and recall at 1, 5, 10. */
export interface Metrics {
  mrr: number;
  r1: number;
  r5: number;
  r10: number;
  n: number;
}

/** Metrics of ranks (0: not in the top 10). */
export function metrics(ranks: number[]): Metrics {
  const n = Math.max(1, ranks.length);
  const at = (k: number) => ranks.filter((r) => r > 0 && r <= k).length / n;
  const mrr = ranks.reduce((a, r) => a + (r > 0 && r <= 10 ? 1 / r : 0), 0) / n;
  return { mrr, r1: at(1), r5: at(5), r10: at(10), n: ranks.length };
}

/** Opens (indexing if needed) a corpus with an embedder and waits for every vector. */
export async function openCorpus(
  c: Corpus,
  embedder: string,
  indexDir = `${BENCH_DIR}/bm25/idx-${c.set}-${c.language}-${embedder}`,
): Promise<Project> {
  const service = await ProjectService.open(c.root, {
    indexDir,
    embedder,
  });
  await service.project.reindex();
  const p = await service.vectors.settle();
  if (p.state === "error") throw new Error(`embedding failed: ${p.error}`);
  return service.project;
}

/** An opened corpus: its queries and its indexed project. */
export interface Opened {
  c: Corpus;
  p: Project;
  /** Every query of the corpus (`c.queries` holds the evaluated ones). */
  all: Query[];
}

/**
 * The tuning set's corpora, opened, with `queries` evaluated queries each from position
 * `from` of each language's queries (the benches that tune never open the held-out set;
 * positions 750–1,050 are read by neither the evaluation nor the second stage's training).
 */
export async function openTuningSet(queries: number, embedder = "codectx-code", from = 0) {
  const out: Opened[] = [];
  for (const language of LANGUAGES) {
    const whole = await buildCorpus("tune", language, Number.MAX_SAFE_INTEGER);
    const c = { ...whole, queries: whole.queries.slice(from, from + queries) };
    out.push({ c, p: await openCorpus(c, embedder), all: whole.queries });
  }
  return out;
}

/** MRR@10 per opened corpus of one ranked mode under `fusion`. */
export async function mrrPerCorpus(
  opened: readonly Opened[],
  mode: "lexical" | "dense" | "hybrid",
  fusion: FusionParams,
): Promise<number[]> {
  const out: number[] = [];
  for (const { c, p } of opened) {
    const ranks: number[] = [];
    for (const q of c.queries) {
      const r = await retrieve(p, q.query, { top_k: 10, mode }, fusion);
      const fused = fuse(r, fusion, 20);
      ranks.push(
        rankOf(q, presentRanked(r.query, r, fused, fusion, 10, 0, r.dense ? r.mode : "lexical")),
      );
    }
    out.push(metrics(ranks).mrr);
  }
  return out;
}

/** The methods of the table, in order. */
export const METHODS = ["BM25 baseline", "codectx lexical", "codectx dense", "codectx hybrid"];

/** Ranks per method for one corpus. */
export async function evaluateCorpus(
  c: Corpus,
  embedder: string,
  indexDir?: string,
): Promise<Record<string, number[]>> {
  const base = await buildBaseline(c.root, c.language);
  const project = await openCorpus(c, embedder, indexDir);
  const out: Record<string, number[]> = Object.fromEntries(METHODS.map((m) => [m, []]));
  const modes: Array<[string, SearchMode]> = [
    ["codectx lexical", "lexical"],
    ["codectx dense", "dense"],
    ["codectx hybrid", "hybrid"],
  ];
  for (const q of c.queries) {
    out["BM25 baseline"].push(
      rankOf(q, base.search(q.query).map((d) => ({ ...d, line: d.startLine }))),
    );
    for (const [name, mode] of modes) {
      const r = await searchProject(project, q.query, { top_k: 10, mode });
      out[name].push(rankOf(q, r.snippets));
    }
  }
  project.close();
  return out;
}

const f3 = (x: number) => x.toFixed(3).replace(/^0/, "");

/** Reciprocal rank within the top 10 (0 past it). */
const rr = (rank: number) => (rank > 0 && rank <= 10 ? 1 / rank : 0);

/**
 * The 2.5th and 97.5th percentiles of mean(gain(a)) ÷ mean(gain(b)) over `resamples` paired
 * resamples of the queries (one query's two ranks always drawn together; seeded, so the
 * interval of the same ranks is the same every run). `gain`: reciprocal rank (MRR@10) unless
 * given (NDCG@10 in `search_tests.ts`); NaN when b never gains.
 */
export function ratioInterval(
  a: number[],
  b: number[],
  resamples = 2000,
  gain: (rank: number) => number = rr,
): [number, number] {
  const n = a.length;
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const ratios: number[] = [];
  for (let k = 0; k < resamples; k++) {
    let sa = 0, sb = 0;
    for (let i = 0; i < n; i++) {
      const j = Math.floor(next() * n);
      sa += gain(a[j]);
      sb += gain(b[j]);
    }
    if (sb > 0) ratios.push(sa / sb);
  }
  if (ratios.length === 0) return [NaN, NaN];
  ratios.sort((x, y) => x - y);
  const at = (q: number) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))];
  return [at(0.025), at(0.975)];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      sets: { type: "string", default: "tune,heldout" },
      languages: { type: "string", default: LANGUAGES.join(",") },
      queries: { type: "string", default: "150" },
      embedder: { type: "string", default: "codectx-code" },
    },
  });
  const langs = values.languages.split(",");
  const started = performance.now();
  for (const set of values.sets.split(",") as SetName[]) {
    if (!Object.hasOwn(SET_SOURCES, set)) {
      throw new Error(`--sets: unknown set '${set}'; use tune, heldout or train`);
    }
    const table: Record<string, Record<string, Metrics>> = {};
    const intervals: Record<string, [number, number]> = {};
    const notes: string[] = [];
    for (const language of langs) {
      const c = await buildCorpus(set, language, Number(values.queries));
      const ranks = await evaluateCorpus(c, values.embedder);
      for (const m of METHODS) (table[m] ??= {})[language] = metrics(ranks[m]);
      intervals[language] = ratioInterval(ranks["codectx hybrid"], ranks["BM25 baseline"]);
      notes.push(`${language}: ${c.queries.length} queries; ${c.packages.join(", ")}`);
      console.error(
        `  ${set} ${language}: ` +
          METHODS.map((m) => `${m} ${f3(table[m][language].mrr)}`).join(", "),
      );
    }
    const title = {
      tune: "tuning set",
      heldout: "held-out set (never tuned on)",
      train: "train set (other packages; not the shipped model's or second stage's training)",
    }[set];
    console.log(`\n## ${title}: MRR@10 (R@1 / R@5 / R@10)\n`);
    console.log(`| method | ${langs.join(" | ")} |`);
    console.log(`|---|${langs.map(() => "---").join("|")}|`);
    for (const m of METHODS) {
      console.log(
        `| ${m} | ${
          langs.map((l) => {
            const x = table[m][l];
            return `${f3(x.mrr)} (${f3(x.r1)}/${f3(x.r5)}/${f3(x.r10)})`;
          }).join(" | ")
        } |`,
      );
    }
    const hy = table["codectx hybrid"], bl = table["BM25 baseline"], lx = table["codectx lexical"];
    console.log(
      `| hybrid ÷ baseline | ${langs.map((l) => (hy[l].mrr / bl[l].mrr).toFixed(3)).join(" | ")} |`,
    );
    console.log(
      `| lexical ÷ baseline | ${
        langs.map((l) => (lx[l].mrr / bl[l].mrr).toFixed(3)).join(" | ")
      } |`,
    );
    console.log(
      `| hybrid ÷ baseline, 95 % (paired bootstrap) | ${
        langs.map((l) => intervals[l].map((x) => x.toFixed(2)).join("–")).join(" | ")
      } |`,
    );
    console.log("");
    for (const n of notes) console.log(`- ${n}`);
  }
  console.log(runFooter(values.embedder, started));
}

/** The last line of a run: the embedder, the time it took, the machine's load. */
export function runFooter(embedder: string, started: number): string {
  return `\nembedder ${embedder}; ${((performance.now() - started) / 1000).toFixed(0)} s; ` +
    `load average ${
      Deno.loadavg().map((x) => x.toFixed(1)).join(" ")
    } on ${navigator.hardwareConcurrency} cores`;
}

if (import.meta.main) await main();
