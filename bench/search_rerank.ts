/**
 * Trains the second-stage model of hybrid search (`src/search/rerank.ts`) on the tuning
 * packages of `search_vs_bm25.ts`, on their queries past the ones that bench evaluates
 * (so the evaluation queries stay unseen; the held-out packages are never opened here).
 *
 * Per training query: the fused list's 50 best candidates with their features, labelled
 * by whether the result they make is the answer; a linear model trained by a listwise
 * softmax loss (L2-regularised, full-batch Adam), then a logistic curve fitted to its
 * scores. Prints the model (to paste into `DEFAULT_RERANK`) and MRR@10 per language on
 * the evaluation queries without and with it.
 *
 * Variants (`--variants`, `;`-separated): `all` (every feature), `-NAME,…` (every feature
 * but those; a trailing `*` matches a prefix, e.g. `-lexical_*`), `base` (the first 15);
 * `:H` after one adds a hidden layer of H tanh units (e.g. `all:8`). `--seeds K` trains each
 * variant K times from other initial hidden layers and ships their average (K × H units).
 * `--examples FILE` keeps the training examples (candidates and features) in FILE, and a later
 * run with the same FILE reads them instead of searching again (same model and features only).
 *
 *   deno run -A bench/search_rerank.ts [--train 400] [--epochs 400] [--depth 20]
 *     [--variants "all;base"] [--seeds 1] [--examples FILE]
 *
 * @module
 */

import { parseArgs } from "node:util";
import {
  DEFAULT_FUSION,
  fuse,
  type FusionParams,
  rerankInput,
  retrieve,
} from "../src/search/hybrid.ts";
import { present } from "../src/search/present.ts";
import {
  RERANK_FEATURES,
  rerankFeatures,
  type RerankModel,
  rerankScore,
} from "../src/search/rerank.ts";
import type { Project } from "../src/index/project.ts";
import { LANGUAGES, mrrPerCorpus, openTuningSet, type Query, rankOf } from "./search_vs_bm25.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    train: { type: "string", default: "400" },
    epochs: { type: "string", default: "400" },
    l2: { type: "string", default: "0.001" },
    depth: { type: "string", default: "20" },
    variants: { type: "string", default: "all" },
    seeds: { type: "string", default: "1" },
    examples: { type: "string" },
  },
});
const DEPTH = 50;
const EVAL = 150;

interface Example {
  x: number[][];
  y: number[];
}

/** Features and labels of one query's candidates (null: the answer is not among them). */
async function example(p: Project, q: Query, base: FusionParams): Promise<Example | null> {
  const r = await retrieve(p, q.query, { top_k: 10, mode: "hybrid" }, base);
  const fused = fuse(r, base);
  const top = [...fused].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, DEPTH);
  const input = rerankInput(r);
  const x: number[][] = [];
  const y: number[] = [];
  for (const [row, s] of top) {
    x.push(rerankFeatures(input, row, s));
    const item = present(r, new Map([[row, 1]]), 1)[0];
    y.push(item && rankOf(q, [item]) === 1 ? 1 : 0);
  }
  return y.includes(1) ? { x, y } : null;
}

/** The features a variant uses (a mask over `RERANK_FEATURES`). */
function variantMask(v: string): boolean[] {
  const names: readonly string[] = RERANK_FEATURES;
  if (v === "all") return names.map(() => true);
  if (v === "base") return names.map((_, i) => i < 15);
  if (!v.startsWith("-")) throw new Error(`unknown variant ${v}`);
  const drop = v.slice(1).split(",");
  return names.map((n) =>
    !drop.some((d) => d.endsWith("*") ? n.startsWith(d.slice(0, -1)) : n === d)
  );
}

/** Parameters being learned: the linear weights and, with `h` > 0, one tanh layer. */
interface Params {
  w: Float64Array;
  hw: Float64Array;
  hb: Float64Array;
  out: Float64Array;
}

function asModel(p: Params, f: number): RerankModel {
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    weights: Array.from(p.w, r),
    ...(p.out.length
      ? { hidden: { w: Array.from(p.hw, r), b: Array.from(p.hb, r), out: Array.from(p.out, r) } }
      : {}),
    scale: 1,
    bias: 0,
    depth: Number(values.depth),
    features: f,
  } as RerankModel;
}

/**
 * Listwise softmax training with Adam over the linear weights (and the hidden layer when
 * `h` > 0; seeded initialisation).
 */
function train(
  data: Example[],
  epochs: number,
  l2: number,
  mask: boolean[],
  h: number,
  seed0 = 12345,
): Params {
  const f = RERANK_FEATURES.length;
  const p: Params = {
    w: new Float64Array(f),
    hw: new Float64Array(h * f),
    hb: new Float64Array(h),
    out: new Float64Array(h),
  };
  p.w[0] = 1; // start from the fused order
  let seed = seed0;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 0.2;
  for (let i = 0; i < p.hw.length; i++) p.hw[i] = mask[i % f] ? rnd() : 0;
  const all = [p.w, p.hw, p.hb, p.out];
  const m = all.map((a) => new Float64Array(a.length));
  const v = all.map((a) => new Float64Array(a.length));
  const g = all.map((a) => new Float64Array(a.length));
  const lr = 0.05, b1 = 0.9, b2 = 0.999;
  // Flat copies of the examples, and scratch for one example's scores and activations.
  const flat = data.map((ex) => ({ x: Float64Array.from(ex.x.flat()), y: ex.y, n: ex.y.length }));
  const most = Math.max(...flat.map((ex) => ex.n));
  const s = new Float64Array(most);
  const acts = new Float64Array(most * h);
  const [gw, ghw, ghb, gout] = g;
  for (let t = 1; t <= epochs; t++) {
    all.forEach((a, q) => {
      for (let j = 0; j < a.length; j++) g[q][j] = 2 * l2 * a[j];
    });
    let loss = 0;
    for (const ex of flat) {
      const { x, y, n } = ex;
      let mx = -Infinity;
      for (let i = 0; i < n; i++) {
        const o = i * f;
        let sum = 0;
        for (let j = 0; j < f; j++) sum += p.w[j] * x[o + j];
        for (let k = 0; k < h; k++) {
          let z = p.hb[k];
          const ok = k * f;
          for (let j = 0; j < f; j++) z += p.hw[ok + j] * x[o + j];
          const a = Math.tanh(z);
          acts[i * h + k] = a;
          sum += p.out[k] * a;
        }
        s[i] = sum;
        if (sum > mx) mx = sum;
      }
      let z = 0, pos = 0;
      for (let i = 0; i < n; i++) {
        s[i] = Math.exp(s[i] - mx);
        z += s[i];
        pos += y[i];
      }
      for (let i = 0; i < n; i++) {
        const target = y[i] / pos;
        if (y[i]) loss -= target * Math.log(s[i] / z + 1e-12);
        const d = (s[i] / z - target) / data.length;
        if (d === 0) continue;
        const o = i * f;
        for (let j = 0; j < f; j++) gw[j] += d * x[o + j];
        for (let k = 0; k < h; k++) {
          const a = acts[i * h + k];
          gout[k] += d * a;
          const back = d * p.out[k] * (1 - a * a);
          ghb[k] += back;
          const ok = k * f;
          for (let j = 0; j < f; j++) ghw[ok + j] += back * x[o + j];
        }
      }
    }
    all.forEach((a, q) => {
      for (let j = 0; j < a.length; j++) {
        if ((q === 0 || q === 1) && !mask[j % f]) continue;
        m[q][j] = b1 * m[q][j] + (1 - b1) * g[q][j];
        v[q][j] = b2 * v[q][j] + (1 - b2) * g[q][j] * g[q][j];
        a[j] -= lr * (m[q][j] / (1 - b1 ** t)) / (Math.sqrt(v[q][j] / (1 - b2 ** t)) + 1e-8);
      }
    });
    if (t % 100 === 0) console.error(`  epoch ${t}: loss ${(loss / data.length).toFixed(4)}`);
  }
  return p;
}

/**
 * The mean of several trainings (the same data, other initial hidden layers) as one model:
 * linear weights averaged, hidden units side by side with their outputs divided by the
 * count — the average of the members' raw scores, with less of any one start's luck.
 */
function average(ps: Params[]): Params {
  const k = ps.length;
  const w = new Float64Array(ps[0].w.length);
  for (const p of ps) p.w.forEach((x, j) => w[j] += x / k);
  const cat = (pick: (p: Params) => Float64Array, div = 1) => {
    const out: number[] = [];
    for (const p of ps) for (const x of pick(p)) out.push(x / div);
    return Float64Array.from(out);
  };
  return { w, hw: cat((p) => p.hw), hb: cat((p) => p.hb), out: cat((p) => p.out, k) };
}

/** Logistic curve from raw score to the chance that a candidate is the answer. */
function calibrate(data: Example[], raw: RerankModel): { scale: number; bias: number } {
  const pts: Array<[number, number]> = [];
  for (const ex of data) ex.x.forEach((xi, i) => pts.push([rerankScore(raw, xi), ex.y[i]]));
  let a = 1, b = 0;
  for (let it = 0; it < 2000; it++) {
    let ga = 0, gb = 0;
    for (const [s, y] of pts) {
      const p = 1 / (1 + Math.exp(-(a * s + b)));
      ga += (p - y) * s;
      gb += p - y;
    }
    a -= 0.5 * ga / pts.length;
    b -= 0.5 * gb / pts.length;
  }
  return { scale: a, bias: b };
}

const base: FusionParams = { ...DEFAULT_FUSION, rerank: null };
const opened = await openTuningSet(EVAL);
/** The training examples, or those an earlier run kept in `--examples FILE` (same model). */
async function collect(): Promise<Example[]> {
  const kept = values.examples
    ? await Deno.readTextFile(values.examples).then(JSON.parse).catch(() => null)
    : null;
  if (kept) return kept as Example[];
  const data: Example[] = [];
  for (const { c, p, all } of opened) {
    let n = 0;
    for (const q of all.slice(EVAL, EVAL + Number(values.train))) {
      const ex = await example(p, q, base);
      if (ex) data.push(ex);
      n++;
    }
    console.error(`${c.language}: ${n} training queries, ${data.length} usable so far`);
  }
  if (values.examples) await Deno.writeTextFile(values.examples, JSON.stringify(data));
  return data;
}
const data = await collect();
console.log(`\nfeatures: ${RERANK_FEATURES.join(", ")}`);
const rows: Array<[string, number[]]> = [["fused", await mrrPerCorpus(opened, "hybrid", base)]];
for (const v of values.variants.split(";")) {
  const [name, hidden] = v.split(":");
  const seeds = Array.from({ length: Number(values.seeds) }, (_, i) => 12345 + 7919 * i);
  const raw = asModel(
    average(seeds.map((seed) =>
      train(
        data,
        Number(values.epochs),
        Number(values.l2),
        variantMask(name),
        Number(hidden ?? 0),
        seed,
      )
    )),
    RERANK_FEATURES.length,
  );
  const cal = calibrate(data, raw);
  const model: RerankModel = {
    ...raw,
    scale: Math.round(cal.scale * 1000) / 1000,
    bias: Math.round(cal.bias * 1000) / 1000,
  };
  console.log(`model ${v}: ${JSON.stringify(model)}`);
  rows.push([v, await mrrPerCorpus(opened, "hybrid", { ...base, rerank: model })]);
}
console.log(`\n| tuning set, unseen queries | ${LANGUAGES.join(" | ")} | mean |`);
console.log(`|---|${LANGUAGES.map(() => "---").join("|")}|---|`);
for (const [name, xs] of rows) {
  const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
  console.log(`| ${name} | ${xs.map((x) => x.toFixed(3)).join(" | ")} | ${mean.toFixed(3)} |`);
}
for (const { p } of opened) p.close();
