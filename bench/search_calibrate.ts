/**
 * Fits the curves that make a ranked search's `score` one scale in every mode: the chance
 * that a result is the answer. Hybrid search on vectors has it from its second stage
 * (`rerank.ts`); lexical mode (and hybrid before any vector) and dense mode get here a
 * logistic curve over their first-stage score (`FusionParams.calibration`), fitted on each
 * tuning package's training queries (positions 150–750, the second stage's; the held-out
 * packages are never opened here). Then, on the evaluated queries (0–150), per mode and
 * band of score: how many results, the mean score, and the share that are the answer —
 * what a `threshold` keeps.
 *
 *   deno run -A bench/search_calibrate.ts [--train 600]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { DEFAULT_FUSION, fuse, type FusionParams, retrieve } from "../src/search/hybrid.ts";
import { present } from "../src/search/present.ts";
import { type Opened, openTuningSet, type Query, rankOf } from "./search_vs_bm25.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { train: { type: "string", default: "600" } },
});
const EVAL = 150;
type Mode = "lexical" | "dense" | "hybrid";

/** Each of a query's top 10 results: its score, and whether it is the answer. */
async function scored(
  opened: readonly Opened[],
  mode: Mode,
  fusion: FusionParams,
  pick: (o: Opened) => Query[],
): Promise<Array<[number, number]>> {
  const out: Array<[number, number]> = [];
  for (const o of opened) {
    for (const q of pick(o)) {
      const r = await retrieve(o.p, q.query, { top_k: 10, mode }, fusion);
      for (const item of present(r, fuse(r, fusion, 20), 10)) {
        out.push([item.score, rankOf(q, [item]) === 1 ? 1 : 0]);
      }
    }
  }
  return out;
}

/** A logistic curve `1 / (1 + e^-(a·s + b))` fitted by Newton's method (log loss). */
function fitLogistic(data: ReadonlyArray<[number, number]>): [number, number] {
  let a = 1, b = -2;
  for (let step = 0; step < 50; step++) {
    let ga = 0, gb = 0, haa = 0, hab = 0, hbb = 0;
    for (const [s, y] of data) {
      const p = 1 / (1 + Math.exp(-(a * s + b)));
      const w = p * (1 - p);
      ga += (p - y) * s;
      gb += p - y;
      haa += w * s * s;
      hab += w * s;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (!(det > 0)) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return [Math.round(a * 1000) / 1000, Math.round(b * 1000) / 1000];
}

const BANDS = [0, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0001];

/** Per band of score: results, mean score, share that are the answer. */
function reliability(name: string, data: ReadonlyArray<[number, number]>): void {
  console.log(`\n${name}: ${data.length} results`);
  console.log("| score band | results | mean score | answers |");
  console.log("|---|---:|---:|---:|");
  for (let i = 0; i + 1 < BANDS.length; i++) {
    const inBand = data.filter(([s]) => s >= BANDS[i] && s < BANDS[i + 1]);
    if (inBand.length === 0) continue;
    const mean = inBand.reduce((t, [s]) => t + s, 0) / inBand.length;
    const hit = inBand.reduce((t, [, y]) => t + y, 0) / inBand.length;
    const hi = Math.min(1, BANDS[i + 1]);
    console.log(
      `| ${BANDS[i].toFixed(2)}–${hi.toFixed(2)} | ${inBand.length} | ${mean.toFixed(3)} | ${
        hit.toFixed(3)
      } |`,
    );
  }
}

const opened = await openTuningSet(EVAL);
const train = (o: Opened) => o.all.slice(EVAL, EVAL + Number(values.train));
const evaluated = (o: Opened) => o.c.queries;
const raw: FusionParams = { ...DEFAULT_FUSION, calibration: null };
const curves: Record<"lexical" | "dense", [number, number]> = {
  lexical: fitLogistic(await scored(opened, "lexical", raw, train)),
  dense: fitLogistic(await scored(opened, "dense", raw, train)),
};
console.log(`calibration: ${JSON.stringify(curves)}`);
const fitted: FusionParams = { ...DEFAULT_FUSION, calibration: curves };
for (const mode of ["lexical", "dense"] as const) {
  reliability(`${mode}, as fused (evaluated queries)`, await scored(opened, mode, raw, evaluated));
  reliability(`${mode}, fitted curve`, await scored(opened, mode, fitted, evaluated));
}
reliability("hybrid (second stage)", await scored(opened, "hybrid", DEFAULT_FUSION, evaluated));
for (const { p } of opened) p.close();
