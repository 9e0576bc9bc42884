/**
 * Evaluation of codectx-code on code it was not trained on (`EVAL_SOURCES` of
 * `model/sources.ts`: the machine's Python standard library and Go, Rust, Java, JavaScript
 * and TypeScript packages outside `TRAINING-SOURCES.md`).
 *
 * Task: a function's doc first sentence is the query; every function of the language's
 * corpus (docs removed) is a candidate; the answer is the function the doc belonged to.
 * Prints per language MRR@10 and Recall@5 of codectx-code alone, lexical alone (BM25 over
 * the same tokens), hybrid (weighted sum of max-normalised BM25 and cosine, the weight tuned
 * on the dev half of the queries, reported on the test half), and with `--use-lite` the
 * same on a sample for USE-lite; then model size, load time and throughput.
 *
 * Usage: `deno run -A bench/model_eval.ts [--use-lite] [--use-lite-queries 150]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { cpuUsage } from "node:process";
import { cacheDir, EVAL_SOURCES, fetchSource, fnv, sourceFiles } from "../model/sources.ts";
import { fileFunctions } from "../model/pairs.ts";
import {
  codeDocumentText,
  loadCodectxCode,
  MODEL_DIR,
  tokenize,
} from "../src/search/codectx_code.ts";
import { chunkFile } from "../src/index/chunker.ts";
import { parseSource } from "../src/parse/parser.ts";

const { values } = parseArgs({
  options: {
    "use-lite": { type: "boolean", default: false },
    "use-lite-queries": { type: "string", default: "150" },
    "use-lite-pool": { type: "string", default: "1500" },
    languages: { type: "string" },
  },
});

/** One candidate function of an evaluation corpus. */
interface Candidate {
  file: string;
  symbol: string;
  parent: string | null;
  code: string;
  query: string | null;
  split: "dev" | "test";
}

/** Queries per half (dev, test) and language, at most. */
const MAX_QUERIES = 1000;
const TEST_PATH = /(^|\/)(tests?|idle_test|__tests__|testing|spec|src\/test|benches|examples?)\//;
const cache = cacheDir();

const normCode = (code: string) => code.replace(/\s+/g, " ").trim();

/** Normalised code of every training pair (to drop any evaluation function seen in training). */
async function trainingCodes(): Promise<Set<number>> {
  const set = new Set<number>();
  const file = await Deno.open(`${cache}/pairs.jsonl`);
  let rest = "";
  const dec = new TextDecoder();
  for await (const chunk of file.readable) {
    const text = rest + dec.decode(chunk, { stream: true });
    const lines = text.split("\n");
    rest = lines.pop() ?? "";
    for (const l of lines) if (l) set.add(fnv(normCode(JSON.parse(l).code)));
  }
  return set;
}

/** The corpus of one language, built once into the cache. */
async function corpus(language: string, seen: () => Promise<Set<number>>): Promise<Candidate[]> {
  const path = `${cache}/eval/${language}.json`;
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch {
    // not built yet
  }
  const trained = await seen();
  const out: Candidate[] = [];
  const codes = new Set<string>();
  let overlap = 0;
  for (const source of EVAL_SOURCES.filter((s) => s.language === language)) {
    const f = await fetchSource(source, cache);
    for (const dir of f.dirs) {
      for await (const rel of sourceFiles(f.root, dir, language)) {
        const file = rel.replace(/^usr\/(?:share|lib)\/(?:gocode\/src|cargo\/registry)\//, "")
          .replace(/^(?:package|[^/]+-[\d.]+(?:-src)?)\//, "");
        if (TEST_PATH.test(file) || file.startsWith("pydoc_data/")) continue;
        const text = await Deno.readTextFile(`${f.root}/${rel}`).catch(() => null);
        if (text === null || text.length > 1_000_000) continue;
        for (const fn of await fileFunctions(file, text, language)) {
          if (fn.docLeft || tokenize(fn.code).length < 3) continue;
          const key = normCode(fn.code);
          if (codes.has(key)) continue;
          codes.add(key);
          if (trained.has(fnv(key))) {
            overlap++;
            continue;
          }
          const split = fnv(`${file}:${fn.symbol}`) % 2 ? "test" : "dev";
          out.push({
            file,
            symbol: fn.symbol,
            parent: fn.parent,
            code: fn.code,
            query: fn.query,
            split,
          });
        }
      }
    }
  }
  // A query text shared by several functions is ambiguous: none of them is a query then.
  const count = new Map<string, number>();
  for (const c of out) {
    if (c.query) count.set(c.query.toLowerCase(), (count.get(c.query.toLowerCase()) ?? 0) + 1);
  }
  for (const c of out) if (c.query && count.get(c.query.toLowerCase())! > 1) c.query = null;
  console.error(`${language}: ${out.length} functions (${overlap} dropped as seen in training)`);
  await Deno.mkdir(`${cache}/eval`, { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(out));
  return out;
}

/** BM25 (k1 1.2, b 0.75) over token lists; `scores` fills a dense array per query. */
function bm25Index(docs: string[][]) {
  const k1 = 1.2, b = 0.75;
  const postings = new Map<string, { docs: number[]; tfs: number[] }>();
  const len = new Float32Array(docs.length);
  docs.forEach((toks, i) => {
    len[i] = toks.length;
    const tf = new Map<string, number>();
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, c] of tf) {
      let p = postings.get(t);
      if (!p) postings.set(t, p = { docs: [], tfs: [] });
      p.docs.push(i);
      p.tfs.push(c);
    }
  });
  const avg = len.reduce((a, x) => a + x, 0) / Math.max(1, docs.length);
  const n = docs.length;
  return (query: string[], out: Float32Array) => {
    out.fill(0);
    for (const t of new Set(query)) {
      const p = postings.get(t);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.docs.length + 0.5) / (p.docs.length + 0.5));
      for (let k = 0; k < p.docs.length; k++) {
        const d = p.docs[k], tf = p.tfs[k];
        out[d] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len[d] / avg));
      }
    }
  };
}

/** 1-based rank of `target` (ties count against it). */
function rankOf(scores: Float32Array, target: number): number {
  const t = scores[target];
  let r = 1;
  for (let i = 0; i < scores.length; i++) if (i !== target && scores[i] >= t) r++;
  return r;
}

interface Metric {
  mrr: number;
  r5: number;
}

function metric(ranks: number[]): Metric {
  let mrr = 0, r5 = 0;
  for (const r of ranks) {
    if (r <= 10) mrr += 1 / r;
    if (r <= 5) r5++;
  }
  return { mrr: mrr / Math.max(1, ranks.length), r5: r5 / Math.max(1, ranks.length) };
}

function dots(vectors: Float32Array[], q: Float32Array, out: Float32Array) {
  const d = q.length;
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i];
    let s = 0;
    for (let j = 0; j < d; j++) s += v[j] * q[j];
    out[i] = s;
  }
}

const ALPHAS = Array.from({ length: 21 }, (_, i) => i / 20);
/** Hybrid fuses each side's top candidates, as a search engine does. */
const FUSE_DEPTH = 200;

/** Indices of the `k` highest scores (unordered), by a bounded min-heap. */
function topK(scores: Float32Array, k: number): Int32Array {
  const heap = new Int32Array(Math.min(k, scores.length));
  let size = 0;
  const less = (a: number, b: number) => scores[heap[a]] < scores[heap[b]];
  const swap = (a: number, b: number) => {
    const t = heap[a];
    heap[a] = heap[b];
    heap[b] = t;
  };
  for (let i = 0; i < scores.length; i++) {
    if (size < heap.length) {
      heap[size] = i;
      let c = size++;
      while (c > 0 && less(c, (c - 1) >> 1)) {
        swap(c, (c - 1) >> 1);
        c = (c - 1) >> 1;
      }
    } else if (scores[i] > scores[heap[0]]) {
      heap[0] = i;
      let p = 0;
      for (;;) {
        const l = 2 * p + 1, r = l + 1;
        let m = p;
        if (l < size && less(l, m)) m = l;
        if (r < size && less(r, m)) m = r;
        if (m === p) break;
        swap(p, m);
        p = m;
      }
    }
  }
  return heap;
}

/**
 * Ranks for lexical, dense and hybrid (α · lexical + (1 − α) · dense, both max-normalised,
 * over the union of each side's top 200) at every α: per query and method, the target's rank.
 */
function evaluate(
  docTokens: string[][],
  docVectors: Float32Array[],
  queries: Array<{ tokens: string[]; vector: Float32Array; target: number }>,
) {
  const bm25 = bm25Index(docTokens);
  const n = docTokens.length;
  const lex = new Float32Array(n), den = new Float32Array(n);
  const lexical: number[] = [], dense: number[] = [];
  const hybrid: number[][] = ALPHAS.map(() => []);
  for (const q of queries) {
    bm25(q.tokens, lex);
    dots(docVectors, q.vector, den);
    lexical.push(rankOf(lex, q.target));
    dense.push(rankOf(den, q.target));
    const union = new Set<number>([q.target]);
    for (const i of topK(lex, FUSE_DEPTH)) if (lex[i] > 0) union.add(i);
    for (const i of topK(den, FUSE_DEPTH)) union.add(i);
    const ids = [...union];
    let lm = 0, dm = 0;
    for (const i of ids) {
      lm = Math.max(lm, lex[i]);
      dm = Math.max(dm, den[i]);
    }
    const ln = ids.map((i) => lm > 0 ? lex[i] / lm : 0);
    const dn = ids.map((i) => dm > 0 ? Math.max(0, den[i]) / dm : 0);
    ALPHAS.forEach((a, k) => {
      const t = a * ln[0] + (1 - a) * dn[0];
      let r = 1;
      for (let j = 1; j < ids.length; j++) if (a * ln[j] + (1 - a) * dn[j] >= t) r++;
      hybrid[k].push(r);
    });
  }
  return { lexical, dense, hybrid };
}

/** Picks α on dev queries, reports all methods on test queries. */
function report(
  split: Array<"dev" | "test">,
  r: ReturnType<typeof evaluate>,
) {
  const pick = (ranks: number[], s: "dev" | "test") => ranks.filter((_, i) => split[i] === s);
  let best = 0, bestMrr = -1;
  r.hybrid.forEach((ranks, k) => {
    const m = metric(pick(ranks, "dev")).mrr;
    if (m > bestMrr) [best, bestMrr] = [k, m];
  });
  return {
    lexical: metric(pick(r.lexical, "test")),
    dense: metric(pick(r.dense, "test")),
    hybrid: metric(pick(r.hybrid[best], "test")),
    alpha: ALPHAS[best],
    queries: split.filter((s) => s === "test").length,
  };
}

const f3 = (x: number) => x.toFixed(3);
/** Milliseconds of CPU this process used (the machine is shared: wall time overstates). */
const cpuMs = () => {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
};

// ---------------------------------------------------------------------------------------

const t0 = performance.now();
const c0 = cpuMs();
const model = await loadCodectxCode();
const loadMs = performance.now() - t0;
const loadCpu = cpuMs() - c0;
const loads: number[] = [];
const loadCpus: number[] = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now(), c = cpuMs();
  await loadCodectxCode();
  loads.push(performance.now() - t);
  loadCpus.push(cpuMs() - c);
}
loads.sort((a, b) => a - b);
loadCpus.sort((a, b) => a - b);
let sizeBytes = 0;
for (const f of ["vectors.bin", "vocab.txt", "manifest.json"]) {
  sizeBytes += (await Deno.stat(new URL(f, MODEL_DIR))).size;
}

let trainedSet: Set<number> | null = null;
const seen = async () => trainedSet ??= await trainingCodes();
const languages = values.languages?.split(",") ??
  ["python", "go", "rust", "java", "javascript", "typescript"];

const rows: string[] = [];
const useRows: string[] = [];
let embedded = 0, embedMs = 0, embedCpu = 0;
for (const language of languages) {
  const cands = await corpus(language, seen);
  const texts = cands.map((c) => codeDocumentText(c.file, c.parent, c.code));
  const te = performance.now(), ce = cpuMs();
  const vecs = texts.map((t) => model.embedOne(t));
  embedMs += performance.now() - te;
  embedCpu += cpuMs() - ce;
  embedded += texts.length;
  const docTokens = texts.map((t) => tokenize(t));
  // At most MAX_QUERIES per half, in a fixed pseudo-random order.
  const ordered = cands.flatMap((c, i) => c.query ? [{ c, i }] : [])
    .sort((a, b) => fnv(a.c.file + a.c.symbol) - fnv(b.c.file + b.c.symbol));
  const qs = [
    ...ordered.filter((q) => q.c.split === "dev").slice(0, MAX_QUERIES),
    ...ordered.filter((q) => q.c.split === "test").slice(0, MAX_QUERIES),
  ];
  const queries = qs.map(({ c, i }) => ({
    tokens: tokenize(c.query!),
    vector: model.embedOne(c.query!),
    target: i,
  }));
  const res = report(qs.map(({ c }) => c.split), evaluate(docTokens, vecs, queries));
  rows.push(
    `| ${language} | ${cands.length} | ${res.queries} | ${f3(res.dense.mrr)} / ${
      f3(res.dense.r5)
    } | ` +
      `${f3(res.lexical.mrr)} / ${f3(res.lexical.r5)} | ${f3(res.hybrid.mrr)} / ${
        f3(res.hybrid.r5)
      } | ` +
      `${res.alpha.toFixed(2)} | ${(res.dense.mrr / res.lexical.mrr).toFixed(2)} | ` +
      `${(res.hybrid.mrr / res.lexical.mrr).toFixed(2)} |`,
  );
  console.error(rows[rows.length - 1]);

  if (values["use-lite"]) {
    useRows.push(await useLiteRow(language, cands, texts, vecs));
    console.error(useRows[useRows.length - 1]);
  }
}

/**
 * USE-lite is ~10 ms a text here: it is compared on a sample (queries from both halves,
 * a pool of their answers plus random other functions), the same sample for every method;
 * hybrid weights are tuned on the sample's dev half.
 */
async function useLiteRow(
  language: string,
  cands: Candidate[],
  texts: string[],
  vecs: Float32Array[],
): Promise<string> {
  const { useLiteProvider } = await import("../src/search/embedders/use_lite.ts");
  const use = await useLiteProviderModel(useLiteProvider);
  const nq = Number(values["use-lite-queries"]), np = Number(values["use-lite-pool"]);
  const order = cands.map((_, i) => i).sort((a, b) =>
    fnv(`${cands[a].file}${cands[a].symbol}u`) - fnv(`${cands[b].file}${cands[b].symbol}u`)
  );
  const withQuery = order.filter((i) => cands[i].query);
  const picked = new Set([
    ...withQuery.filter((i) => cands[i].split === "dev").slice(0, nq),
    ...withQuery.filter((i) => cands[i].split === "test").slice(0, nq),
  ]);
  const pool = [
    ...picked,
    ...order.filter((i) => !picked.has(i)).slice(0, Math.max(0, np - picked.size)),
  ];
  const sub = pool.map((i) => cands[i]);
  const docTexts = sub.map((c) =>
    useLiteProvider.documentText({
      file: c.file,
      language,
      symbol: c.symbol,
      kind: "function",
      name: c.symbol.replace(/^.*\./, ""),
      parent: c.parent,
      signature: "",
      doc: "",
      text: c.code,
    })
  );
  const useVecs = await use.embed(docTexts);
  const qIdx = sub.flatMap((_c, k) => picked.has(pool[k]) ? [k] : []);
  const useQ = await use.embed(qIdx.map((k) => sub[k].query!));
  const split = qIdx.map((k) => sub[k].split);
  const docTokens = pool.map((i) => tokenize(texts[i]));
  const ours = evaluate(
    docTokens,
    pool.map((i) => vecs[i]),
    qIdx.map((k) => ({
      tokens: tokenize(sub[k].query!),
      vector: model.embedOne(sub[k].query!),
      target: k,
    })),
  );
  const theirs = evaluate(
    docTokens,
    useVecs,
    qIdx.map((k, j) => ({ tokens: tokenize(sub[k].query!), vector: useQ[j], target: k })),
  );
  const a = report(split, ours), b = report(split, theirs);
  return `| ${language} | ${pool.length} | ${a.queries} | ${f3(b.dense.mrr)} / ${
    f3(b.dense.r5)
  } | ` +
    `${f3(b.hybrid.mrr)} / ${f3(b.hybrid.r5)} | ${f3(a.dense.mrr)} / ${f3(a.dense.r5)} | ` +
    `${f3(a.hybrid.mrr)} / ${f3(a.hybrid.r5)} | ${f3(a.lexical.mrr)} / ${f3(a.lexical.r5)} |`;
}

async function useLiteProviderModel(
  p: { load(arg: string): Promise<{ embed(t: string[]): Promise<Float32Array[]> }> },
) {
  return await p.load("");
}

// Time to embed every chunk of the Python standard library (parse excluded).
const stdlib = (await fetchSource(EVAL_SOURCES[0], cache)).root;
const chunkTexts: string[] = [];
for await (const rel of sourceFiles(stdlib, stdlib, "python")) {
  const text = await Deno.readTextFile(`${stdlib}/${rel}`).catch(() => null);
  if (text === null || text.length > 1_048_576) continue;
  const parsed = await parseSource(rel, text, "python");
  for (const c of chunkFile(rel, "python", text, parsed.symbols)) {
    chunkTexts.push(`${rel}\n${c.text}`);
  }
}
const ts = performance.now(), cs = cpuMs();
for (const t of chunkTexts) model.embedOne(t);
const stdlibMs = performance.now() - ts;
const stdlibCpu = cpuMs() - cs;

console.log(`\n## codectx-code on code outside its training sources (test half of the queries)\n`);
console.log(
  "| language | functions | queries | codectx-code MRR@10 / R@5 | lexical (BM25) | hybrid | α (lexical) | code ÷ lexical | hybrid ÷ lexical |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
if (useRows.length) {
  console.log(`\n## USE-lite on a sample (same sample for every method)\n`);
  console.log(
    "| language | pool | queries | USE-lite | hybrid USE-lite + BM25 | codectx-code | hybrid codectx-code + BM25 | lexical |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of useRows) console.log(r);
}
console.log(`\n## Model\n`);
console.log(
  `- id ${model.id}, ${model.dimensions} dimensions, ${model.manifest.vocab_size} tokens`,
);
console.log(`- size ${(sizeBytes / 1e6).toFixed(1)} MB (vectors.bin + vocab.txt + manifest.json)`);
console.log(
  `- load: first ${loadMs.toFixed(0)} ms (${loadCpu.toFixed(0)} ms CPU), median of 5 more ` +
    `${loads[2].toFixed(0)} ms (${loadCpus[2].toFixed(0)} ms CPU)`,
);
console.log(
  `- throughput, one thread: ${
    (embedded / (embedCpu / 1000)).toFixed(0)
  } functions/s of CPU time ` +
    `(${
      (embedded / (embedMs / 1000)).toFixed(0)
    }/s wall on this shared machine) over ${embedded} evaluation functions`,
);
console.log(
  `- Python standard library: ${chunkTexts.length} chunks embedded in ${
    (stdlibCpu / 1000).toFixed(2)
  } s CPU ` +
    `(${(stdlibMs / 1000).toFixed(2)} s wall; ${
      (chunkTexts.length / (stdlibCpu / 1000)).toFixed(0)
    } chunks/s of CPU; parsing not included)`,
);
console.log(
  `- load average during the run: ${
    Deno.loadavg().map((x) => x.toFixed(1)).join(" ")
  } on ${navigator.hardwareConcurrency} cores`,
);
