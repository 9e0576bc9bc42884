/**
 * Maintainability index against radon: Debian's `radon mi -s -j` and codectx's analysis
 * (the code `analyze_quality` runs) on every Python file of a corpus, by default this
 * machine's Python standard library without `site-packages/`. Prints the mean absolute
 * difference, Pearson's r, rank agreement and the files that differ most.
 * Targets: difference ≤ 2 points, r ≥ 0.98.
 *
 *   deno run -A bench/mi_vs_radon.ts [--corpus DIR] [--radon-json FILE] [--save-radon FILE]
 *
 * `--radon-json` reuses a saved radon output (radon takes many minutes on the whole
 * library: its tokenizer is quadratic in long multi-line strings, so it runs in batches
 * with a time limit and a file it cannot finish is reported and left out);
 * `--save-radon` keeps this run's.
 */

import { parseArgs } from "node:util";
import { collectAnalyses } from "../src/analysis/quality.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    corpus: { type: "string" },
    "radon-json": { type: "string" },
    "save-radon": { type: "string" },
  },
});

async function pythonStdlib(): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

type RadonMi = Record<string, { mi?: number; rank?: string; error?: string }>;

/** Runs radon on `files`, killing it after `timeoutMs`; null when it ran out of time. */
async function radonOn(files: string[], timeoutMs: number): Promise<RadonMi | null> {
  const child = new Deno.Command("radon", {
    args: ["mi", "-s", "-j", ...files],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  const out = await child.output();
  clearTimeout(timer);
  if (timedOut) return null;
  return JSON.parse(new TextDecoder().decode(out.stdout) || "{}");
}

/**
 * radon on every file, in batches run two at a time. radon's raw tokenizer is quadratic
 * in the length of a multi-line string: a batch that runs out of time is retried file by
 * file, and a file radon cannot finish in `fileTimeoutMs` is reported and left out.
 */
async function runRadon(files: string[], timedOut: string[]): Promise<RadonMi> {
  const batches: string[][] = [];
  for (let i = 0; i < files.length; i += 40) batches.push(files.slice(i, i + 40));
  const result: RadonMi = {};
  const fileTimeoutMs = 120_000;
  const lane = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      const r = await radonOn(batch, 300_000);
      if (r) {
        Object.assign(result, r);
        continue;
      }
      for (const f of batch) {
        const one = await radonOn([f], fileTimeoutMs);
        if (one) Object.assign(result, one);
        else timedOut.push(f);
      }
    }
  };
  await Promise.all([lane(), lane()]);
  if (values["save-radon"]) await Deno.writeTextFile(values["save-radon"], JSON.stringify(result));
  return result;
}

function pearson(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

const corpus = await Deno.realPath(values.corpus ?? (await pythonStdlib()));
const exclude = values.corpus ? [] : ["site-packages/"];

let t0 = performance.now();
const { analyses } = await collectAnalyses(corpus, "", { exclude });
const oursSeconds = (performance.now() - t0) / 1000;

const pythonFiles = analyses.filter((a) => a.language === "python").map((a) =>
  `${corpus}/${a.file}`
);
const radonTimedOut: string[] = [];
t0 = performance.now();
const radon: RadonMi = values["radon-json"]
  ? JSON.parse(await Deno.readTextFile(values["radon-json"]))
  : await runRadon(pythonFiles, radonTimedOut);
const radonSeconds = (performance.now() - t0) / 1000;
const ours = new Map(
  analyses.filter((a) => a.language === "python" && a.metrics).map((a) => [a.file, a.metrics!]),
);

const pairs: Array<{ file: string; radon: number; ours: number; radonRank: string }> = [];
let radonErrors = 0;
let missing = 0;
for (const [path, r] of Object.entries(radon)) {
  if (typeof r.mi !== "number") {
    radonErrors++;
    continue;
  }
  const rel = path.startsWith(corpus + "/") ? path.slice(corpus.length + 1) : path;
  const m = ours.get(rel);
  if (!m) {
    missing++;
    continue;
  }
  pairs.push({ file: rel, radon: r.mi, ours: m.mi, radonRank: r.rank ?? "" });
}

const diffs = pairs.map((p) => Math.abs(p.ours - p.radon));
const mad = diffs.reduce((a, b) => a + b, 0) / diffs.length;
const r = pearson(pairs.map((p) => p.radon), pairs.map((p) => p.ours));
const within = (d: number) => (100 * diffs.filter((x) => x <= d).length / diffs.length).toFixed(1);
const rankOf = (mi: number) => (mi > 19 ? "A" : mi > 9 ? "B" : "C");
const sameRank = pairs.filter((p) => rankOf(p.ours) === (p.radonRank || rankOf(p.radon))).length;

console.log(`corpus: ${corpus}${exclude.length ? ` (without ${exclude.join(", ")})` : ""}`);
console.log(
  `files compared: ${pairs.length} (radon errors ${radonErrors}, radon out of time ${radonTimedOut.length}, not analyzed by codectx ${missing})`,
);
for (const f of radonTimedOut) console.log(`  radon gave no answer in 120 s: ${f}`);
console.log(`mean absolute difference: ${mad.toFixed(3)} points (target ≤ 2)`);
console.log(`Pearson r: ${r.toFixed(5)} (target ≥ 0.98)`);
console.log(
  `within 0.01: ${within(0.01)}%, within 0.5: ${within(0.5)}%, within 2: ${within(2)}%; ` +
    `max difference ${Math.max(...diffs).toFixed(2)}`,
);
console.log(`same rank (A/B/C): ${(100 * sameRank / pairs.length).toFixed(2)}%`);
console.log(
  `time: radon ${radonSeconds.toFixed(1)} s${values["radon-json"] ? " (saved output)" : ""}, ` +
    `codectx ${oursSeconds.toFixed(1)} s for ${analyses.length} files`,
);
const worst = [...pairs].sort((a, b) => Math.abs(b.ours - b.radon) - Math.abs(a.ours - a.radon))
  .slice(0, 8);
console.log("largest differences:");
for (const w of worst) {
  console.log(`  ${w.file}: radon ${w.radon.toFixed(2)}, codectx ${w.ours.toFixed(2)}`);
}
