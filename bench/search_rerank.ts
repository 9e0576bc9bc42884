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
 * `--extra N` adds up to N training queries per language of the `train` set
 * (`search_vs_bm25.ts`: other packages, which the shipped codectx-code was not trained on and
 * no evaluation holds; JavaScript and TypeScript have them).
 * `--examples FILE` keeps the training examples (candidates and features) in FILE, and a later
 * run with the same FILE reads them instead of searching again (same model; examples kept
 * before features were added train on the features they have). `--seed N`: the first
 * initial hidden layer (others follow from it). `--lr`: Adam's step.
 *
 * Distillation (`--distil`): the average of `--seeds K` trainings (or the model kept in
 * `--teacher FILE`, written there when the file does not exist) is the teacher, and one
 * network of the variant's size is trained on its softmax over each query's candidates at
 * `--temperature T`, mixed with the answer's label by `--alpha` (0: the teacher alone);
 * `--from-shipped` starts it from `DEFAULT_RERANK` (fine-tuning). Prints the teacher's and
 * the student's MRR@10.
 *
 * Last, the second stage's CPU per query (features and model over the re-scored candidates
 * of the evaluation queries) for the shipped model and each one trained, alternated.
 *
 *   deno run -A bench/search_rerank.ts [--train 400] [--extra 0] [--epochs 400] [--depth 20]
 *     [--variants "all;base"] [--seeds 1] [--seed 12345] [--examples FILE]
 *     [--distil [--teacher FILE] [--alpha 0] [--temperature 1] [--from-shipped]] [--lr 0.05]
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
  type Retrieved,
} from "../src/search/hybrid.ts";
import { present } from "../src/search/present.ts";
import {
  DEFAULT_RERANK,
  rerank,
  RERANK_FEATURES,
  rerankFeatures,
  type RerankModel,
  rerankScore,
} from "../src/search/rerank.ts";
import type { Project } from "../src/project/project.ts";
import {
  buildCorpus,
  LANGUAGES,
  mrrPerCorpus,
  openCorpus,
  openTuningSet,
  type Query,
  rankOf,
} from "./search_vs_bm25.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    train: { type: "string", default: "400" },
    extra: { type: "string", default: "0" },
    epochs: { type: "string", default: "400" },
    l2: { type: "string", default: "0.001" },
    depth: { type: "string", default: "20" },
    variants: { type: "string", default: "all" },
    seeds: { type: "string", default: "1" },
    examples: { type: "string" },
    distil: { type: "boolean", default: false },
    teacher: { type: "string" },
    alpha: { type: "string", default: "0" },
    temperature: { type: "string", default: "1" },
    "from-shipped": { type: "boolean", default: false },
    lr: { type: "string", default: "0.05" },
    seed: { type: "string", default: "12345" },
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

/**
 * Distillation targets: per example, a teacher's softmax over its candidates at
 * `temperature`, mixed with the answer's label by `alpha` (1: the label alone).
 */
interface Soft {
  targets: Float64Array[];
  alpha: number;
  temperature: number;
}

/** A teacher model's softened distribution over each example's candidates. */
function teach(data: Example[], teacher: RerankModel, temperature: number): Float64Array[] {
  return data.map((ex) => {
    const raw = ex.x.map((xi) => rerankScore(teacher, xi) / temperature);
    const mx = Math.max(...raw);
    const e = raw.map((r) => Math.exp(r - mx));
    const z = e.reduce((a, b) => a + b, 0);
    return Float64Array.from(e, (v) => v / z);
  });
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
  soft: Soft | null = null,
  start: RerankModel | null = null,
): Params {
  const f = mask.length;
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
  // Or from a model of this shape (fine-tuning it).
  if (start?.hidden?.out.length === h && (start.features ?? start.weights.length) === f) {
    p.w.set(start.weights);
    p.hw.set(start.hidden.w);
    p.hb.set(start.hidden.b);
    p.out.set(start.hidden.out);
  }
  const all = [p.w, p.hw, p.hb, p.out];
  const m = all.map((a) => new Float64Array(a.length));
  const v = all.map((a) => new Float64Array(a.length));
  const g = all.map((a) => new Float64Array(a.length));
  const lr = Number(values.lr), b1 = 0.9, b2 = 0.999;
  // Flat copies of the examples, and scratch for one example's scores and activations.
  const flat = data.map((ex) => ({ x: Float64Array.from(ex.x.flat()), y: ex.y, n: ex.y.length }));
  const temp = soft?.temperature ?? 1;
  const alpha = soft ? soft.alpha : 1;
  const most = Math.max(...flat.map((ex) => ex.n));
  const s = new Float64Array(most);
  const acts = new Float64Array(most * h);
  const [gw, ghw, ghb, gout] = g;
  for (let t = 1; t <= epochs; t++) {
    all.forEach((a, q) => {
      for (let j = 0; j < a.length; j++) g[q][j] = 2 * l2 * a[j];
    });
    let loss = 0;
    for (let e = 0; e < flat.length; e++) {
      const { x, y, n } = flat[e];
      const taught = soft?.targets[e];
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
        s[i] = Math.exp((s[i] - mx) / temp);
        z += s[i];
        pos += y[i];
      }
      for (let i = 0; i < n; i++) {
        // The answer's label, mixed with the teacher's softened distribution when distilling
        // (its gradient scaled by the temperature, as the soft part's is by T² in the loss).
        const target = alpha * y[i] / pos + (taught ? (1 - alpha) * taught[i] : 0);
        if (target > 0) loss -= target * Math.log(s[i] / z + 1e-12);
        const d = (s[i] / z - target) * temp / data.length;
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
  for (const language of Number(values.extra) > 0 ? LANGUAGES : []) {
    const c = await buildCorpus("train", language, Number(values.extra));
    if (c.queries.length === 0) continue;
    const p = await openCorpus(c, "codectx-code");
    for (const q of c.queries) {
      const ex = await example(p, q, base);
      if (ex) data.push(ex);
    }
    p.close();
    console.error(`${language} (train set): ${c.queries.length} queries, ${data.length} usable`);
  }
  if (values.examples) await Deno.writeTextFile(values.examples, JSON.stringify(data));
  return data;
}
const data = await collect();
/** Features per candidate (examples kept before later features were added have fewer). */
const width = data[0]?.x[0]?.length ?? RERANK_FEATURES.length;
console.log(`\nfeatures: ${RERANK_FEATURES.join(", ")}`);
const rows: Array<[string, number[]]> = [["fused", await mrrPerCorpus(opened, "hybrid", base)]];
/** The models trained here, for the timing. */
const trained: Array<[string, RerankModel]> = [];
/** A raw model with its logistic curve fitted on the training examples. */
function calibrated(raw: RerankModel): RerankModel {
  const cal = calibrate(data, raw);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { ...raw, scale: r(cal.scale), bias: r(cal.bias) };
}

/**
 * The teacher of `--distil`: the model kept in `--teacher FILE`, or else `average` (written
 * there when the option names a file that does not exist yet).
 */
async function teacherModel(average: () => RerankModel): Promise<RerankModel> {
  const file = values.teacher;
  const kept = file ? await Deno.readTextFile(file).then(JSON.parse).catch(() => null) : null;
  if (kept) return kept as RerankModel;
  const model = calibrated(average());
  if (file) await Deno.writeTextFile(file, JSON.stringify(model));
  return model;
}

for (const v of values.variants.split(";")) {
  const [name, hidden] = v.split(":");
  const seeds = Array.from(
    { length: Number(values.seeds) },
    (_, i) => Number(values.seed) + 7919 * i,
  );
  const fit = (seed: number, soft: Soft | null = null) =>
    train(
      data,
      Number(values.epochs),
      Number(values.l2),
      variantMask(name).slice(0, width),
      Number(hidden ?? 0),
      seed,
      soft,
      soft && values["from-shipped"] ? DEFAULT_RERANK : null,
    );
  const averaged = () => asModel(average(seeds.map((seed) => fit(seed))), width);
  if (!values.distil) {
    const model = calibrated(averaged());
    console.log(`model ${v}: ${JSON.stringify(model)}`);
    trained.push([v, model]);
    rows.push([v, await mrrPerCorpus(opened, "hybrid", { ...base, rerank: model })]);
    continue;
  }
  // Distillation: one network of this size trained on the teacher's scores.
  const teacher = await teacherModel(averaged);
  rows.push([`${v} teacher`, await mrrPerCorpus(opened, "hybrid", { ...base, rerank: teacher })]);
  const temperature = Number(values.temperature);
  const soft: Soft = {
    targets: teach(data, teacher, temperature),
    alpha: Number(values.alpha),
    temperature,
  };
  const model = calibrated(asModel(fit(seeds[0], soft), width));
  console.log(`model ${v} distilled: ${JSON.stringify(model)}`);
  trained.push([`${v} teacher`, teacher], [`${v} distilled`, model]);
  rows.push([`${v} distilled`, await mrrPerCorpus(opened, "hybrid", { ...base, rerank: model })]);
}
/**
 * CPU of the second stage per query (features and scores of its re-scored candidates) for
 * each model, over the evaluation queries: the searches once, then the models alternated
 * over them five times (the median pass counts; the machine is shared).
 */
async function stageMicros(models: Array<[string, RerankModel]>): Promise<number[]> {
  const passes = models.map(() => [] as number[]);
  let queries = 0;
  const total = models.map(() => 0);
  for (const { p, all } of opened) {
    const searched: Array<{ r: Retrieved; fused: Map<number, number> }> = [];
    for (const q of all.slice(0, EVAL)) {
      const r = await retrieve(p, q.query, { top_k: 10, mode: "hybrid" }, base);
      if (r.dense) searched.push({ r, fused: fuse(r, base) });
    }
    queries += searched.length;
    for (let pass = 0; pass < 5; pass++) {
      models.forEach(([, m], i) => {
        const t = performance.now();
        for (const { r, fused } of searched) rerank(m, rerankInput(r), fused, m.depth);
        passes[i][pass] = (passes[i][pass] ?? 0) + performance.now() - t;
      });
    }
  }
  passes.forEach((ps, i) => total[i] = ps.sort((a, b) => a - b)[2]);
  return total.map((ms) => ms * 1000 / queries);
}

console.log(`\n| tuning set, unseen queries | ${LANGUAGES.join(" | ")} | mean |`);
console.log(`|---|${LANGUAGES.map(() => "---").join("|")}|---|`);
for (const [name, xs] of rows) {
  const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
  console.log(`| ${name} | ${xs.map((x) => x.toFixed(3)).join(" | ")} | ${mean.toFixed(3)} |`);
}
const timed: Array<[string, RerankModel]> = [["shipped", DEFAULT_RERANK], ...trained];
const micros = await stageMicros(timed);
console.log(
  `\nsecond stage, µs per query (load ${Deno.loadavg().map((x) => x.toFixed(1)).join(" ")}):`,
);
timed.forEach(([name], i) => console.log(`  ${name}: ${micros[i].toFixed(1)}`));
for (const { p } of opened) p.close();
