/**
 * Security findings against bandit: Debian's `bandit -f json -r` and codectx's analysis
 * (the code `analyze_quality` runs) on a corpus of Python code — by default this machine's
 * Python standard library without `site-packages/` and its test suites. Prints recall and
 * precision of (file, line, test id), per test id as well. Target ≥ 0.85 both.
 *
 *   deno run -A bench/security_vs_bandit.ts [--corpus DIR] [--exclude REL]… [--bandit-json FILE]
 *
 * `--exclude` paths are relative to the corpus (folders). `--bandit-json` reuses a saved
 * bandit output.
 *
 * Bandit 1.6.2 (Debian's) runs its string tests (B104 bind all interfaces, B105 password
 * strings, B108 temp paths, B608 SQL strings) on `ast.Str` nodes, which Python 3.8+ no
 * longer produces: on this Python it never reports them, while codectx does. Precision is
 * printed over all of codectx's findings and over the tests bandit can report here.
 */

import { parseArgs } from "node:util";
import { collectAnalyses } from "../src/analysis/quality.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    corpus: { type: "string" },
    exclude: { type: "string", multiple: true },
    "bandit-json": { type: "string" },
  },
});

const STDLIB_EXCLUDES = [
  "site-packages",
  "test",
  "idlelib/idle_test",
  "lib2to3/tests",
  "tkinter/test",
  "unittest/test",
  "distutils/tests",
  "ctypes/test",
  "sqlite3/test",
];

/** Tests bandit 1.6.2 cannot report on Python 3.8+ (they look for `ast.Str`). */
const STR_TESTS = new Set(["B104", "B105", "B108", "B608"]);

async function pythonStdlib(): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

interface BanditJson {
  results: Array<{ filename: string; line_number: number; test_id: string }>;
  errors: Array<{ filename: string; reason: string }>;
}

async function runBandit(corpus: string, excludes: string[]): Promise<BanditJson> {
  const out = await new Deno.Command("bandit", {
    args: [
      "-f",
      "json",
      "-r",
      corpus,
      ...(excludes.length ? ["-x", excludes.map((e) => `${corpus}/${e}`).join(",")] : []),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  // bandit exits with 1 when it finds issues.
  const text = new TextDecoder().decode(out.stdout);
  if (!text.trim()) {
    throw new Error(`bandit failed: ${new TextDecoder().decode(out.stderr).slice(0, 500)}`);
  }
  return JSON.parse(text);
}

const corpus = await Deno.realPath(values.corpus ?? (await pythonStdlib()));
const excludes = values.exclude ?? (values.corpus ? [] : STDLIB_EXCLUDES);

let t0 = performance.now();
const bandit: BanditJson = values["bandit-json"]
  ? JSON.parse(await Deno.readTextFile(values["bandit-json"]))
  : await runBandit(corpus, excludes);
const banditSeconds = (performance.now() - t0) / 1000;

t0 = performance.now();
const { analyses } = await collectAnalyses(corpus, "", {
  exclude: excludes.map((e) => `/${e}/`),
});
const oursSeconds = (performance.now() - t0) / 1000;

const rel = (path: string) => path.startsWith(corpus + "/") ? path.slice(corpus.length + 1) : path;
const skippedByBandit = new Set(bandit.errors.map((e) => rel(e.filename)));
const python = analyses.filter((a) => a.language === "python" && !skippedByBandit.has(a.file));
const analyzed = new Set(python.map((a) => a.file));

const theirs = new Set<string>();
for (const r of bandit.results) {
  const file = rel(r.filename);
  if (analyzed.has(file)) theirs.add(`${file}\t${r.line_number}\t${r.test_id}`);
}
const ours = new Set<string>();
for (const a of python) {
  for (const i of a.issues) {
    if (i.test_id.startsWith("B")) ours.add(`${i.file}\t${i.line}\t${i.test_id}`);
  }
}

const idOf = (k: string) => k.split("\t")[2];
const both = [...ours].filter((k) => theirs.has(k));
const oursReportable = [...ours].filter((k) => !STR_TESTS.has(idOf(k)));
const recall = both.length / theirs.size;
const precision = both.length / ours.size;
const precisionReportable = both.length / oursReportable.length;

console.log(`corpus: ${corpus} (without ${excludes.join(", ") || "nothing"})`);
console.log(
  `python files compared: ${analyzed.size} (bandit skipped ${skippedByBandit.size} with errors)`,
);
console.log(
  `findings: bandit ${theirs.size}, codectx ${ours.size} (${oursReportable.length} of tests bandit reports here), both ${both.length}`,
);
console.log(`recall: ${recall.toFixed(4)} (target ≥ 0.85)`);
console.log(
  `precision: ${precisionReportable.toFixed(4)} over the tests bandit 1.6.2 runs on this Python ` +
    `(target ≥ 0.85); ${precision.toFixed(4)} counting B104/B105/B108/B608 too`,
);
console.log(
  `time: bandit ${banditSeconds.toFixed(1)} s${values["bandit-json"] ? " (saved output)" : ""}, ` +
    `codectx ${oursSeconds.toFixed(1)} s for ${analyses.length} files`,
);

const ids = new Set([...theirs, ...ours].map(idOf));
console.log("\ntest   bandit  codectx  both");
for (const id of [...ids].sort()) {
  const t = [...theirs].filter((k) => idOf(k) === id).length;
  const o = [...ours].filter((k) => idOf(k) === id).length;
  const b = both.filter((k) => idOf(k) === id).length;
  console.log(
    `${id.padEnd(6)} ${String(t).padStart(6)} ${String(o).padStart(8)} ${String(b).padStart(5)}`,
  );
}
const missed = [...theirs].filter((k) => !ours.has(k)).slice(0, 10);
const extra = oursReportable.filter((k) => !theirs.has(k)).slice(0, 10);
if (missed.length) {
  console.log("\nbandit only (first 10):\n  " + missed.join("\n  ").replace(/\t/g, " "));
}
if (extra.length) {
  console.log("codectx only (first 10):\n  " + extra.join("\n  ").replace(/\t/g, " "));
}
