/**
 * Indexing benchmark on real code (default: a copy of this machine's Python standard
 * library, site-packages left out, made at run time in a temporary folder). Each figure is
 * a whole `codectx index` process timed by `/usr/bin/time` (wall, CPU, peak RSS):
 *
 * - cold index, and the parse-only floor measured by this bench in the same way (walk,
 *   read, tree-sitter parse of every file on the same number of workers, nothing else;
 *   files of the huge-lexer grammars go, first, to a parse process of their own, as the
 *   index sends them),
 *   runs alternated (index, floor, index, floor…) so that a change of load hits both; the
 *   ratio is taken pair by pair and its median printed. A second floor runs the whole
 *   parse stage (tree, queries, definitions, references) for reference;
 * - re-index with nothing changed, and after appending a new function to one file, with a
 *   check that `search_symbols` and lexical `semantic_search` find it; then one more such
 *   re-index in a process of its own with its stages timed (the grammar and query compiled
 *   first, then the store's calls; the rest is the walk, the diff, reading and parsing);
 * - peak RSS of the cold `codectx index`, of its whole process tree: parse processes
 *   (`src/index/lean_pool.ts`) are separate processes, and `/usr/bin/time` reports only the
 *   largest one. The bench samples `/proc` every 100 ms and prints the largest sum of the
 *   tree's resident memory seen at one time, and the sum of each process's own peak
 *   (`VmHWM`; an upper bound, as if every process peaked at once).
 *
 * The machine's load average is printed beside the timings.
 *
 *   deno run -A bench/index.ts [--corpus DIR] [--runs N] [--workers N] [--max-memory MIB]
 *   deno run -A bench/index.ts --floor parse|queries --corpus DIR   (one floor run)
 *   deno run -A bench/index.ts --stages INDEX_DIR --corpus DIR      (one timed one-file re-index)
 *
 * @module
 */

import { parseArgs } from "node:util";
import { languageForPath } from "../src/parse/languages.ts";
import { walk } from "../src/index/walker.ts";
import { createLeanPool, isLeanFile, isLeanLanguage } from "../src/index/lean_pool.ts";
import { defaultPoolSize } from "../src/index/pool.ts";
import { createPool } from "../src/util/worker_pool.ts";
import type { FloorJob } from "./index_floor_worker.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    corpus: { type: "string" },
    runs: { type: "string", default: "3" },
    workers: { type: "string" },
    floor: { type: "string" },
    stages: { type: "string" },
    "max-memory": { type: "string" },
    keep: { type: "boolean" },
  },
});

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const SELF = new URL(import.meta.url).pathname;
/** The file the one-file re-index edits (in the Python standard library). */
const EDITED = "json/decoder.py";
/** The store calls of a run, timed by `--stages`. */
const STORE_STAGES = [
  "holdLease",
  "currentGeneration",
  "readCurrent",
  "hasBlob",
  "writeEncodedBlobs",
  "dropGenerationsExcept",
  "writeManifest",
  "commit",
  "collectGarbage",
  "releaseLease",
];
/** A new function appended to a Python file. */
const marker = (name: string) => `\n\ndef ${name}():\n    return 1\n`;

/** One timed process: wall and CPU seconds, peak RSS in MiB, and what it printed. */
interface Timed {
  wall: number;
  cpu: number;
  /** The largest process's peak (what `/usr/bin/time` reports). */
  rssMiB: number;
  /** The process tree: the largest sum of resident memory sampled at one time. */
  treeMiB: number;
  /** The process tree: the sum of each process's own peak. */
  treeHwmMiB: number;
  /** How many processes the tree had (all samples). */
  processes: number;
  stdout: string;
}

/** Parent pid of every process, from `/proc/<pid>/stat`. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const e of Deno.readDirSync("/proc")) {
    const pid = Number(e.name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      out.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** `VmRSS` and `VmHWM` of a process in KiB, or null when it is gone. */
function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kib = (key: string) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
    return { rss: kib("VmRSS"), hwm: kib("VmHWM") };
  } catch {
    return null;
  }
}

/** Samples the memory of `root`'s descendants until `stop` says so. */
function sampleTree(root: number): { stop: () => { tree: number; hwm: number; n: number } } {
  let tree = 0;
  const hwm = new Map<number, number>();
  const sample = () => {
    const ppid = parents();
    const inTree = new Set([root]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, parent] of ppid) {
        if (!inTree.has(pid) && inTree.has(parent)) {
          inTree.add(pid);
          grew = true;
        }
      }
    }
    inTree.delete(root); // /usr/bin/time itself
    let sum = 0;
    for (const pid of inTree) {
      const m = memoryOf(pid);
      if (!m) continue;
      sum += m.rss;
      hwm.set(pid, Math.max(hwm.get(pid) ?? 0, m.hwm));
    }
    tree = Math.max(tree, sum);
  };
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      return { tree, hwm: [...hwm.values()].reduce((a, b) => a + b, 0), n: hwm.size };
    },
  };
}

function loadavg(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

/** Runs `cmd` under /usr/bin/time; fails on a non-zero exit. */
async function timed(cmd: string[], env: Record<string, string> = {}): Promise<Timed> {
  const child = new Deno.Command("/usr/bin/time", {
    args: ["-f", "TIME %e %U %S %M", ...cmd],
    stdout: "piped",
    stderr: "piped",
    env,
  }).spawn();
  const sampler = sampleTree(child.pid);
  const out = await child.output();
  const tree = sampler.stop();
  const stderr = new TextDecoder().decode(out.stderr);
  const line = stderr.split("\n").reverse().find((l) => l.startsWith("TIME "));
  if (!out.success || !line) {
    throw new Error(`${cmd.join(" ")} failed (exit ${out.code}):\n${stderr.slice(-2000)}`);
  }
  const [wall, user, sys, kb] = line.split(" ").slice(1).map(Number);
  return {
    wall,
    cpu: user + sys,
    rssMiB: kb / 1024,
    treeMiB: Math.max(tree.tree, kb) / 1024,
    treeHwmMiB: Math.max(tree.hwm, kb) / 1024,
    processes: tree.n,
    stdout: new TextDecoder().decode(out.stdout),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const fmt = (xs: number[], digits = 2) =>
  `median ${median(xs).toFixed(digits)} (runs ${xs.map((x) => x.toFixed(digits)).join(", ")})`;

// ---- one floor run (a child process of the bench) ----
if (values.floor) {
  const mode = values.floor as FloorJob["mode"];
  const root = values.corpus!;
  const entries = await walk(root, { accept: (p) => languageForPath(p) !== undefined });
  const size = values.workers === undefined ? defaultPoolSize() : Number(values.workers);
  const pool = createPool<FloorJob, number>({
    member: { worker: new URL("./index_floor_worker.ts", import.meta.url) },
    size,
    name: "floor",
    affinity: (job) => job.language,
  });
  // As indexing orders them: the files parsed in processes first.
  entries.sort((a, b) =>
    Number(isLeanLanguage(languageForPath(b.path)!.id)) -
    Number(isLeanLanguage(languageForPath(a.path)!.id))
  );
  let next = 0;
  let inProcesses = 0;
  let lean: ReturnType<typeof createLeanPool> | undefined;
  const lane = async () => {
    while (next < entries.length) {
      const e = entries[next++];
      const bytes = await Deno.readFile(e.absPath);
      const language = languageForPath(e.path)!.id;
      // Files of the huge-lexer grammars (the stdlib's one .cpp and one .sh) go where
      // `codectx index` sends them, first: a process of its own with Liftoff (which runs
      // their whole extraction). Compiling those lexers with TurboFan in a worker costs
      // ~150 MiB of compiler memory and seconds of CPU that the index does not spend.
      if (isLeanFile(e.path, bytes, language)) {
        lean ??= createLeanPool(1);
        if (lean) {
          await lean.run({ path: e.path, bytes, language });
          inProcesses++;
          continue;
        }
      }
      await pool.run({ path: e.path, bytes, language, mode });
    }
  };
  await Promise.all(Array.from({ length: size * 2 }, lane));
  await pool.close();
  await lean?.close();
  console.log(JSON.stringify({ files: entries.length, in_processes: inProcesses }));
  Deno.exit(0);
}

// ---- one one-file re-index, its stages timed (a child process of the bench) ----
if (values.stages) {
  const { Store } = await import("../src/store/kv.ts");
  const { runIndex } = await import("../src/index/indexer.ts");
  const { loadGrammar } = await import("../src/parse/grammars.ts");
  const spent: Record<string, number> = {};
  let active = 0;
  const proto = Store.prototype as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const name of STORE_STAGES) {
    const method = proto[name];
    proto[name] = async function (this: unknown, ...args: unknown[]) {
      // Only the outermost call counts (collectGarbage asks currentGeneration too).
      const t = active++ === 0 ? performance.now() : -1;
      try {
        return await method.apply(this, args);
      } finally {
        active--;
        if (t >= 0) spent[name] = (spent[name] ?? 0) + performance.now() - t;
      }
    };
  }
  const store = await Store.open(values.stages);
  await Deno.writeTextFile(`${values.corpus}/${EDITED}`, marker(`stages_${Date.now()}`), {
    append: true,
  });
  const t0 = performance.now();
  await loadGrammar(languageForPath(EDITED)!.id);
  const grammar = performance.now() - t0;
  const report = await runIndex(values.corpus!, store, {});
  store.close();
  console.log(JSON.stringify({ grammar, run: report.elapsedMs, changed: report.changed, spent }));
  Deno.exit(0);
}

// ---- the bench ----
async function pythonStdlib(): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

/** A copy of the corpus to index and touch (the stdlib without site-packages, caches). */
async function copyCorpus(src: string, dest: string): Promise<void> {
  const cp = await new Deno.Command("cp", { args: ["-r", src, dest] }).output();
  if (!cp.success) throw new Error(`cp -r ${src} ${dest} failed`);
  await Deno.remove(`${dest}/site-packages`, { recursive: true }).catch(() => {});
  const find = await new Deno.Command("find", {
    args: [dest, "-name", "__pycache__", "-prune", "-exec", "rm", "-rf", "{}", "+"],
  }).output();
  if (!find.success) throw new Error("removing __pycache__ folders failed");
}

const work = await Deno.makeTempDir({ prefix: "codectx-bench-index-" });
const corpus = `${work}/corpus`;
const runs = Math.max(1, Number(values.runs));
const workerArgs = values.workers === undefined ? [] : ["--workers", values.workers];
const memArgs = values["max-memory"] === undefined ? [] : ["--max-memory", values["max-memory"]];
try {
  await copyCorpus(values.corpus ?? (await pythonStdlib()), corpus);
  const indexCmd = (dir: string) => [
    Deno.execPath(),
    "run",
    "-A",
    CLI,
    "index",
    "--json",
    "--path",
    corpus,
    "--index-dir",
    dir,
    ...memArgs,
  ];
  const floorCmd = (mode: string) => [
    Deno.execPath(),
    "run",
    "-A",
    SELF,
    "--floor",
    mode,
    "--corpus",
    corpus,
    ...workerArgs,
  ];
  // Warm-up: the module graph and the OS file cache, for both.
  await timed(floorCmd("parse"));
  const cold: Timed[] = [];
  const floor: Timed[] = [];
  const floorQ: Timed[] = [];
  const loads: string[] = [];
  let report: Record<string, unknown> = {};
  for (let i = 0; i < runs; i++) {
    loads.push(loadavg());
    const dir = `${work}/index-${i}`;
    const c = await timed(indexCmd(dir));
    report = JSON.parse(c.stdout);
    cold.push(c);
    floor.push(await timed(floorCmd("parse")));
    floorQ.push(await timed(floorCmd("queries")));
    if (i < runs - 1) await Deno.remove(dir, { recursive: true });
  }
  const dir = `${work}/index-${runs - 1}`;
  const noChange: number[] = [];
  const noChangeWall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await timed(indexCmd(dir));
    const p = JSON.parse(r.stdout);
    if (p.changed !== 0) throw new Error(`re-index saw ${p.changed} changes`);
    noChange.push(p.elapsed_ms / 1000);
    noChangeWall.push(r.wall);
  }
  const touched: number[] = [];
  const touchedWall: number[] = [];
  const found: string[] = [];
  for (let i = 0; i < runs; i++) {
    const name = `codectx_bench_marker_${Date.now()}_${i}`;
    await Deno.writeTextFile(`${corpus}/${EDITED}`, marker(name), { append: true });
    const r = await timed(indexCmd(dir));
    const p = JSON.parse(r.stdout);
    if (p.changed !== 1) throw new Error(`re-index after one edit saw ${p.changed} changes`);
    touched.push(p.elapsed_ms / 1000);
    touchedWall.push(r.wall);
    found.push(await searchable(dir, name));
  }
  const stages = JSON.parse(
    new TextDecoder().decode(
      (await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", SELF, "--stages", dir, "--corpus", corpus],
        stdout: "piped",
      }).output()).stdout,
    ),
  ) as { grammar: number; run: number; changed: number; spent: Record<string, number> };
  const ratio = cold.map((c, i) => c.wall / floor[i].wall);
  const cpuRatio = cold.map((c, i) => c.cpu / floor[i].cpu);
  console.log(`corpus: copy of ${values.corpus ?? "the Python standard library"} (${corpus})`);
  console.log(
    `files ${report.files} (${
      Object.entries(report.languages as Record<string, number>).map(([l, n]) => `${l} ${n}`)
        .join(", ")
    }); ${report.chunks} chunks, ${report.symbols} symbols; skipped ${report.skipped}`,
  );
  console.log(`load average before each cold run: ${loads.join(" | ")}; now ${loadavg()}`);
  console.log(`cold index (process wall, s):          ${fmt(cold.map((c) => c.wall))}`);
  console.log(`cold index (process CPU, s):           ${fmt(cold.map((c) => c.cpu))}`);
  console.log(`parse-only floor (wall, s):            ${fmt(floor.map((c) => c.wall))}`);
  console.log(`parse-only floor (CPU, s):             ${fmt(floor.map((c) => c.cpu))}`);
  console.log(`cold / floor, pair by pair (wall):     ${fmt(ratio)}`);
  console.log(`cold / floor, pair by pair (CPU):      ${fmt(cpuRatio)}`);
  console.log(`parse stage floor, queries too (wall): ${fmt(floorQ.map((c) => c.wall))}`);
  console.log(`parse stage floor, queries too (CPU):  ${fmt(floorQ.map((c) => c.cpu))}`);
  console.log(
    `cold / parse stage floor (wall):       ${fmt(cold.map((c, i) => c.wall / floorQ[i].wall))}`,
  );
  console.log(`re-index, nothing changed (in-process s): ${fmt(noChange, 3)}`);
  console.log(`re-index, nothing changed (process wall): ${fmt(noChangeWall)}`);
  console.log(`re-index, one file edited (in-process s): ${fmt(touched, 3)}`);
  console.log(`re-index, one file edited (process wall): ${fmt(touchedWall)}`);
  console.log(`the edit searchable: ${found.join("; ")}`);
  const storeMs = Object.values(stages.spent).reduce((a, b) => a + b, 0);
  console.log(
    `one-file re-index, stages (ms, a process of its own, load ${loadavg()}): grammar and query ` +
      `compiled ${stages.grammar.toFixed(0)}, then the run ${stages.run}: store ${
        storeMs.toFixed(0)
      } (${
        Object.entries(stages.spent).filter(([, ms]) => ms >= 1).map(([k, ms]) =>
          `${k} ${ms.toFixed(0)}`
        ).join(", ")
      }), walk, diff, read and parse ${(stages.run - storeMs).toFixed(0)}`,
  );
  console.log(`codectx index peak RSS (MiB):          ${fmt(cold.map((c) => c.rssMiB), 0)}`);
  console.log(`  its process tree, sampled sum (MiB): ${fmt(cold.map((c) => c.treeMiB), 0)}`);
  console.log(`  its process tree, sum of peaks (MiB): ${fmt(cold.map((c) => c.treeHwmMiB), 0)}`);
  console.log(`  processes in the tree: ${cold.map((c) => c.processes).join(", ")}`);
  console.log(
    `floor peak RSS (MiB):                  ${fmt(floor.map((c) => c.rssMiB), 0)}`,
  );
} finally {
  if (!values.keep) await Deno.remove(work, { recursive: true }).catch(() => {});
}

/** Whether `search_symbols` and lexical `semantic_search` find the new function. */
async function searchable(dir: string, name: string): Promise<string> {
  const tool = async (tool: string, args: unknown) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        CLI,
        "tool",
        tool,
        "--args",
        JSON.stringify(args),
        "--path",
        corpus,
        "--index-dir",
        dir,
      ],
      stdout: "piped",
      stderr: "null",
      env: { CODECTX_EMBEDDER: "none" },
    }).output();
    return new TextDecoder().decode(out.stdout);
  };
  const symbols = (await tool("search_symbols", { query: name })).includes(EDITED);
  const lexical = (await tool("semantic_search", { query: name, mode: "lexical" })).includes(
    EDITED,
  );
  return `search_symbols ${symbols ? "found it" : "MISSED it"}, lexical search ${
    lexical ? "found it" : "MISSED it"
  }`;
}
