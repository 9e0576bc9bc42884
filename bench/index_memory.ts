/**
 * Where every MiB of an indexing process is at its peak. Runs one `codectx index` (or one
 * parse-only floor of `bench/index.ts`) on a corpus, samples `/proc/PID/smaps` every 200 ms
 * and keeps the sample with the largest resident memory; each mapping of it is put in one
 * class:
 *
 * - the `deno` binary's file pages, other files (libc, the KV store's files…);
 * - glibc's main arena (`[heap]`), glibc's thread arenas (64 MiB-aligned anonymous heaps
 *   with their reserved tail), thread stacks;
 * - wasm linear memories (read/write pages at the start of a reservation of ≥ 1 GiB);
 * - code (anonymous executable pages: V8's and wasm's compiled code);
 * - other anonymous pages aligned to 256 KiB (V8's heap pages are 256 KiB), the rest.
 *
 * Every thread that runs JavaScript logs its V8 heap by space at the same time
 * (`bench/index_memory_hook.ts`, preloaded), and the sample nearest the peak is printed per
 * thread. With `--strace` the run goes under `strace -f` (mmap, munmap, mprotect only) and
 * each thread arena is attributed to the threads that grew it (names from
 * `/proc/PID/task/TID/comm`); strace slows the run, so take sizes from a run without it.
 *
 *   deno run -A bench/index_memory.ts [--corpus DIR] [--floor parse|queries]
 *     [--workers N] [--strace] [--env NAME=VALUE]... [--v8-flags FLAGS]
 *     [--json FILE]
 *
 * The corpus defaults to a copy of this machine's Python standard library made by
 * `bench/index.ts --keep`; pass `--corpus` to reuse one.
 *
 * @module
 */

import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    corpus: { type: "string" },
    floor: { type: "string" },
    workers: { type: "string" },
    strace: { type: "boolean" },
    env: { type: "string", multiple: true },
    "v8-flags": { type: "string" },
    json: { type: "string" },
  },
});

const CLI = new URL("../cli.ts", import.meta.url).pathname;
const INDEX_BENCH = new URL("./index.ts", import.meta.url).pathname;
const HOOK = new URL("./index_memory_hook.ts", import.meta.url).pathname;
const MIB = 1024 * 1024;
const ARENA = 64 * MIB;

/** One mapping of `/proc/PID/smaps`. */
interface Mapping {
  start: number;
  end: number;
  perms: string;
  path: string;
  /** Resident KiB. */
  rss: number;
}

function parseSmaps(text: string): Mapping[] {
  const out: Mapping[] = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      out.push({
        start: parseInt(head[1], 16),
        end: parseInt(head[2], 16),
        perms: head[3],
        path: head[4].trim(),
        rss: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && out.length) out[out.length - 1].rss = Number(rss[1]);
  }
  return out;
}

/** The class of each mapping (same order), see the module's comment. */
function classify(maps: Mapping[], denoPath: string): string[] {
  // Contiguous anonymous runs: a wasm memory is its read/write start and a long reserved tail.
  const runSize = new Array<number>(maps.length).fill(0);
  for (let i = 0; i < maps.length;) {
    let j = i;
    while (
      j + 1 < maps.length && maps[j + 1].start === maps[j].end && !maps[j + 1].path &&
      !maps[i].path
    ) j++;
    for (let k = i; k <= j; k++) runSize[k] = maps[j].end - maps[i].start;
    i = j + 1;
  }
  return maps.map((m, i) => {
    if (m.path === denoPath) return "deno binary (file pages)";
    if (m.path === "[heap]") return "glibc main arena ([heap])";
    if (m.path === "[stack]") return "stacks";
    if (m.path.startsWith("/")) return `other files`;
    if (m.path) return `other (${m.path})`;
    if (m.perms.includes("x")) return "code (anonymous executable: V8 and wasm)";
    if (m.perms === "---p") return "reserved (---p)";
    const next = maps[i + 1];
    const arenaTail = next && next.start === m.end && next.perms === "---p" &&
      next.end <= m.start + ARENA;
    if (m.start % ARENA === 0 && (m.end - m.start === ARENA || arenaTail)) {
      return "glibc thread arenas";
    }
    if (runSize[i] >= 1024 * MIB) return "wasm linear memories (in ≥ 1 GiB reservations)";
    if (m.start % (256 * 1024) === 0 && (m.end - m.start) % (256 * 1024) === 0) {
      return "anonymous, 256 KiB-aligned (V8 heap pages, large mallocs)";
    }
    const prev = maps[i - 1];
    if (prev && prev.end === m.start && prev.perms === "---p" && prev.end - prev.start <= 65536) {
      return "thread stacks (after a guard page)";
    }
    return "anonymous, other";
  });
}

/** Each thread's name, CPU seconds and minor faults (pages it touched first). */
function threads(pid: number): Map<number, { name: string; cpu: number; minflt: number }> {
  const out = new Map<number, { name: string; cpu: number; minflt: number }>();
  try {
    for (const e of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        const name = Deno.readTextFileSync(`/proc/${pid}/task/${e.name}/comm`).trim();
        const stat = Deno.readTextFileSync(`/proc/${pid}/task/${e.name}/stat`);
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        out.set(Number(e.name), {
          name,
          cpu: (Number(f[11]) + Number(f[12])) / 100,
          minflt: Number(f[7]),
        });
      } catch {
        // The thread ended.
      }
    }
  } catch {
    // The process ended.
  }
  return out;
}

/** The process to measure: the child of strace when traced, else the spawned one. */
function target(root: number, traced: boolean): number | null {
  if (!traced) return root;
  try {
    const kids = Deno.readTextFileSync(`/proc/${root}/task/${root}/children`).trim();
    return kids ? Number(kids.split(" ")[0]) : null;
  } catch {
    return null;
  }
}

// ---- the run ----
const work = await Deno.makeTempDir({ prefix: "codectx-bench-memory-" });
const log = `${work}/heap.jsonl`;
const corpus = values.corpus;
if (!corpus) throw new Error("--corpus DIR is needed (e.g. a stdlib copy kept by bench/index.ts)");
const workerArgs = values.workers === undefined ? [] : ["--workers", values.workers];
const v8Flags = values["v8-flags"] ? [`--v8-flags=${values["v8-flags"]}`] : [];
const program = values.floor
  ? [
    INDEX_BENCH,
    "--floor",
    values.floor,
    "--corpus",
    corpus,
    ...workerArgs,
  ]
  : [CLI, "index", "--json", "--path", corpus, "--index-dir", `${work}/index`];
let cmd = [Deno.execPath(), "run", "-A", ...v8Flags, "--preload", HOOK, ...program];
const straceLog = `${work}/strace.txt`;
if (values.strace) {
  cmd = [
    "strace",
    "-f",
    "--seccomp-bpf",
    "-e",
    "trace=mmap,munmap,mprotect",
    "-o",
    straceLog,
    ...cmd,
  ];
}
// The hook's one-line worker modules are temporary files: in the work folder, removed with it.
const env: Record<string, string> = { CODECTX_MEM_LOG: log, TMPDIR: work };
for (const kv of values.env ?? []) {
  const eq = kv.indexOf("=");
  env[kv.slice(0, eq)] = kv.slice(eq + 1);
}

const load0 = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
const t0 = performance.now();
const child = new Deno.Command(cmd[0], {
  args: cmd.slice(1),
  env,
  stdout: "piped",
  stderr: "piped",
}).spawn();
let best = {
  rss: 0,
  t: 0,
  smaps: "",
  threads: new Map<number, { name: string; cpu: number; minflt: number }>(),
};
let pid: number | null = null;
let cpu = 0;
const names = new Map<number, string>();
const timer = setInterval(() => {
  pid ??= target(child.pid, values.strace ?? false);
  if (pid === null) return;
  let smaps: string;
  try {
    smaps = Deno.readTextFileSync(`/proc/${pid}/smaps`);
  } catch {
    return;
  }
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    cpu = (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    // Ended.
  }
  const th = threads(pid);
  for (const [tid, t] of th) names.set(tid, t.name);
  const rss = parseSmaps(smaps).reduce((a, m) => a + m.rss, 0);
  if (rss > best.rss) best = { rss, t: Date.now(), smaps, threads: th };
}, 200);
const out = await child.output();
clearInterval(timer);
const wall = (performance.now() - t0) / 1000;
if (!out.success) {
  console.error(new TextDecoder().decode(out.stderr).slice(-3000));
  throw new Error(`the measured run failed (exit ${out.code})`);
}
const load1 = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

// ---- the peak, by class ----
const denoPath = Deno.realPathSync(Deno.execPath());
const maps = parseSmaps(best.smaps);
const classes = classify(maps, denoPath);
const byClass = new Map<string, { rss: number; n: number }>();
maps.forEach((m, i) => {
  const c = byClass.get(classes[i]) ?? { rss: 0, n: 0 };
  c.rss += m.rss;
  c.n++;
  byClass.set(classes[i], c);
});
const mib = (kib: number) => (kib / 1024).toFixed(1);
console.log(
  `${values.floor ? `floor ${values.floor}` : "codectx index"} of ${corpus}` +
    `${values.workers ? `, ${values.workers} workers` : ""}${
      values.env?.length ? `, env ${values.env.join(" ")}` : ""
    }${values.strace ? ", under strace" : ""}; wall ${wall.toFixed(1)} s, CPU ≥ ${
      cpu.toFixed(1)
    } s (last sample); load ${load0} → ${load1}`,
);
console.log(`peak Rss (smaps, sampled every 200 ms): ${mib(best.rss)} MiB`);
const rows = [...byClass].sort((a, b) => b[1].rss - a[1].rss);
for (const [name, c] of rows) {
  console.log(`  ${mib(c.rss).padStart(7)} MiB  ${name} (${c.n} mappings)`);
}
const arenas = maps.filter((_, i) => classes[i] === "glibc thread arenas");
console.log(
  `  thread arenas: ${arenas.map((m) => `${m.start.toString(16)} ${mib(m.rss)}`).join(", ")}`,
);
const wasm = maps.filter((m, i) => classes[i].startsWith("wasm") && m.rss > 0);
console.log(
  `  wasm memories: ${wasm.map((m) => `${m.start.toString(16)} ${mib(m.rss)}`).join(", ")}`,
);

// ---- V8 heaps per thread, nearest the peak ----
const samples = Deno.readTextFileSync(log).trim().split("\n").map((l) => JSON.parse(l)) as {
  t: number;
  tid: number;
  kind: string;
  spaces: Record<string, number>;
  heapTotal: number;
  heapUsed: number;
  external: number;
}[];
const nearest = new Map<number, (typeof samples)[number]>();
for (const s of samples) {
  const n = nearest.get(s.tid);
  if (!n || Math.abs(s.t - best.t) < Math.abs(n.t - best.t)) nearest.set(s.tid, s);
}
let heapSum = 0;
for (const [tid, s] of nearest) {
  const physical = Object.values(s.spaces).reduce((a, b) => a + b, 0);
  heapSum += physical;
  const spaces = Object.entries(s.spaces).filter(([, b]) => b >= 512 * 1024).map(([k, b]) =>
    `${k.replace(/_space$/, "")} ${(b / MIB).toFixed(1)}`
  ).join(", ");
  console.log(
    `  V8 heap of ${s.kind} ${tid} (${names.get(tid) ?? "?"}), ${
      ((s.t - best.t) / 1000).toFixed(1)
    } s from the peak: ${(physical / MIB).toFixed(1)} MiB physical (${spaces}); used ${
      (s.heapUsed / MIB).toFixed(1)
    }, external ${(s.external / MIB).toFixed(1)}`,
  );
}
console.log(`  V8 heaps, all threads: ${(heapSum / MIB).toFixed(1)} MiB physical`);
console.log(
  `  threads at the peak: ${
    [...best.threads].map(([tid, t]) =>
      `${t.name}(${tid}) cpu ${t.cpu.toFixed(1)} s, ${(t.minflt * 4 / 1024).toFixed(0)} MiB faulted`
    ).join("; ")
  }`,
);

// ---- thread arenas by the threads that grew them (strace) ----
if (values.strace) {
  const bases = new Set(arenas.map((m) => m.start));
  const grew = new Map<string, number>();
  const text = Deno.readTextFileSync(straceLog);
  for (const line of text.split("\n")) {
    const m = /^(\d+)\s+mprotect\(0x([0-9a-f]+), (\d+), PROT_READ\|PROT_WRITE\)/.exec(line);
    if (!m) continue;
    const addr = parseInt(m[2], 16);
    const base = addr - (addr % ARENA);
    if (!bases.has(base)) continue;
    const key = `${base.toString(16)} ${names.get(Number(m[1])) ?? "?"}(${m[1]})`;
    grew.set(key, (grew.get(key) ?? 0) + Number(m[3]));
  }
  console.log("  thread arenas grown by (mprotect to read/write, bytes summed):");
  for (const [k, b] of [...grew].sort()) console.log(`    ${k}: ${(b / MIB).toFixed(1)} MiB`);
}
if (values.json) {
  Deno.writeTextFileSync(
    values.json,
    JSON.stringify({
      rss: best.rss,
      classes: Object.fromEntries(byClass),
      wall,
      cpu,
      load0,
      load1,
    }),
  );
}
await Deno.remove(work, { recursive: true });
