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
 *   deno run -A bench/search_rerank.ts [--train 400] [--epochs 400]
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
import { RERANK_FEATURES, rerankFeatures, type RerankModel } from "../src/search/rerank.ts";
import type { Project } from "../src/index/project.ts";
import { LANGUAGES, mrrPerCorpus, openTuningSet, type Query, rankOf } from "./search_vs_bm25.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    train: { type: "string", default: "400" },
    epochs: { type: "string", default: "400" },
    l2: { type: "string", default: "0.001" },
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

/** Listwise softmax training with Adam; returns the weights. */
function train(data: Example[], epochs: number, l2: number): number[] {
  const f = RERANK_FEATURES.length;
  const w = new Array(f).fill(0);
  w[0] = 1; // start from the fused order
  const m = new Array(f).fill(0);
  const v = new Array(f).fill(0);
  const lr = 0.05, b1 = 0.9, b2 = 0.999;
  for (let t = 1; t <= epochs; t++) {
    const g = w.map((wi) => 2 * l2 * wi);
    let loss = 0;
    for (const ex of data) {
      const s = ex.x.map((xi) => xi.reduce((a, xj, j) => a + xj * w[j], 0));
      const mx = Math.max(...s);
      const e = s.map((si) => Math.exp(si - mx));
      const z = e.reduce((a, b) => a + b, 0);
      const pos = ex.y.reduce((a, b) => a + b, 0);
      for (let i = 0; i < s.length; i++) {
        const p = e[i] / z;
        const target = ex.y[i] / pos;
        if (ex.y[i]) loss -= target * Math.log(p + 1e-12);
        for (let j = 0; j < f; j++) g[j] += (p - target) * ex.x[i][j] / data.length;
      }
    }
    for (let j = 0; j < f; j++) {
      m[j] = b1 * m[j] + (1 - b1) * g[j];
      v[j] = b2 * v[j] + (1 - b2) * g[j] * g[j];
      w[j] -= lr * (m[j] / (1 - b1 ** t)) / (Math.sqrt(v[j] / (1 - b2 ** t)) + 1e-8);
    }
    if (t % 100 === 0) console.error(`  epoch ${t}: loss ${(loss / data.length).toFixed(4)}`);
  }
  return w;
}

/** Logistic curve from raw score to the chance that a candidate is the answer. */
function calibrate(data: Example[], w: number[]): { scale: number; bias: number } {
  const pts: Array<[number, number]> = [];
  for (const ex of data) {
    ex.x.forEach((xi, i) => pts.push([xi.reduce((a, xj, j) => a + xj * w[j], 0), ex.y[i]]));
  }
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
const w = train(data, Number(values.epochs), Number(values.l2));
const cal = calibrate(data, w);
const model: RerankModel = {
  weights: w.map((x) => Math.round(x * 1000) / 1000),
  scale: Math.round(cal.scale * 1000) / 1000,
  bias: Math.round(cal.bias * 1000) / 1000,
  depth: 20,
};
console.log(`\nfeatures: ${RERANK_FEATURES.join(", ")}`);
console.log(`model: ${JSON.stringify(model)}`);
const before = await mrrPerCorpus(opened, "hybrid", base);
const after = await mrrPerCorpus(opened, "hybrid", { ...base, rerank: model });
console.log(`\n| tuning set, unseen queries | ${LANGUAGES.join(" | ")} | mean |`);
console.log(`|---|${LANGUAGES.map(() => "---").join("|")}|---|`);
for (const [name, xs] of [["fused", before], ["re-ranked", after]] as const) {
  const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
  console.log(`| ${name} | ${xs.map((x) => x.toFixed(3)).join(" | ")} | ${mean.toFixed(3)} |`);
}
for (const { p } of opened) p.close();
