/**
 * Bridge load benchmark: spawns `codectx serve` on a project, then keeps N concurrent
 * connections busy for D seconds with `POST /request`. Prints requests/s, latency
 * percentiles, the count of non-2xx answers, of answers with `success: false` and of failed
 * requests, the latency of `GET /health` probed every 100 ms during the load (from this process
 * and from a process of its own, whose event loop the load does not delay), the machine's
 * load average, and the server's resident memory (VmRSS and VmHWM from /proc).
 *
 *   deno run -A bench/bridge_load.ts [--path DIR] [--file REL] [--connections 50] [--duration 20]
 *
 * With `--tool semantic_search` it sends `invoke_tool` semantic_search calls with varied
 * queries instead: distinct queries made deterministically from the words of the project's own
 * function and class names (split at `_` and case changes), never one query twice in a run
 * (past the names, a name plus a word of another name), so no per-query cache answers. It
 * then waits for the index and (unless `--no-vectors`) for every chunk to have a vector, up to
 * `--vectors-until HH:MM` (UTC) — `vectors_state` from `/health` when it shows it; else (the
 * bridge's `/health` shows only `vectors` and `chunks`) the vectors count as complete when they
 * reach the chunk count or stop growing for `--settle` seconds — and prints the server's memory
 * before any search, after 200 sequential searches, and after the load. `--modes default,lexical` runs one load per search mode
 * (`default` sends no `mode`). Throughout, the server's memory is sampled every 50 ms: each
 * phase (start to index ready, vectors, first request, the searches, warm-up, each load) prints
 * its peak VmRSS, when in the phase, and of what (RssAnon, RssFile, RssShmem, threads).
 *
 *   deno run -A bench/bridge_load.ts --tool semantic_search --path /tmp/stdlib \
 *     [--modes default,lexical] [--vectors-until 19:58] [--top-k 10] [--index-dir DIR]
 *
 * `--index-dir` keeps the index and its vectors in DIR for the next run (which then starts
 * in seconds); the figures of record use a fresh index (the default). `--v8-flags F` starts
 * the server with those V8 flags (default none); `--deno-flags="F G"` passes more `deno run`
 * flags to it (`--cpu-prof --cpu-prof-dir=DIR`: a profile written when the server ends).
 *
 * `--stages` has the server stamp each request at its stages (`$CODECTX_TRACE_STAGES`:
 * head parsed, queued for admission, admitted, handed to a search worker, scored, back,
 * presented, written) and prints, per load, where the time of the median requests and of
 * the slowest 1 % went, and how far the server kept arrival order (bench/stages.ts).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { startServe } from "./serve.ts";
import { printStages, type Sent } from "./stages.ts";
import { GcTrace } from "./gc_trace.ts";
import { loadQuery, projectQueries } from "./load_queries.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    path: { type: "string" },
    file: { type: "string" },
    connections: { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    rounds: { type: "string" },
    tool: { type: "string" },
    modes: { type: "string" },
    "top-k": { type: "string" },
    "vectors-until": { type: "string" },
    "no-vectors": { type: "boolean" },
    settle: { type: "string" },
    searches: { type: "string" },
    "index-dir": { type: "string" },
    "v8-flags": { type: "string" },
    "deno-flags": { type: "string" },
    stages: { type: "boolean" },
    gc: { type: "boolean" },
  },
});

const repo = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
const root = values.path ?? `${repo}/tests/fixtures/project`;
const file = values.file ?? "app/main.py";
const tool = values.tool ?? "explain_file";
if (tool !== "explain_file" && tool !== "semantic_search") {
  throw new Error(`--tool must be explain_file or semantic_search, not ${tool}`);
}
const connections = Number(values.connections ?? 50);
const durationS = Number(values.duration ?? 20);
const warmupS = Number(values.warmup ?? 5);
const rounds = Number(values.rounds ?? 1);
const modes = (values.modes ?? "default").split(",").map((m) => m.trim()).filter(Boolean);
const topK = Number(values["top-k"] ?? 10);
const settleS = Number(values.settle ?? 30);
const searches = Number(values.searches ?? 200);

/** Resident and peak memory of a process, in MiB (Linux). */
function memoryMiB(pid: number): { rss: number; hwm: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kib("VmRSS") / 1024, hwm: kib("VmHWM") / 1024 };
}

/** Resident memory by kind (MiB) and threads of a process, from /proc/PID/status (Linux). */
interface MemorySample {
  rss: number;
  anon: number;
  file: number;
  shmem: number;
  threads: number;
}

function memorySample(pid: number): MemorySample {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const num = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return {
    rss: num("VmRSS") / 1024,
    anon: num("RssAnon") / 1024,
    file: num("RssFile") / 1024,
    shmem: num("RssShmem") / 1024,
    threads: num("Threads"),
  };
}

/**
 * The server's resident memory sampled every 50 ms, by phase of the run: where its VmHWM was
 * reached, and of what (anonymous memory — heaps, malloc, wasm — or mapped files).
 */
class MemoryTrace {
  #phase = "start";
  #phaseStart = performance.now();
  #peak: MemorySample & { at: number } = { rss: 0, anon: 0, file: 0, shmem: 0, threads: 0, at: 0 };
  #timer: ReturnType<typeof setInterval>;
  constructor(readonly pid: number) {
    this.#timer = setInterval(() => this.#sample(), 50);
  }
  #sample(): void {
    try {
      const s = memorySample(this.pid);
      if (s.rss > this.#peak.rss) this.#peak = { ...s, at: performance.now() - this.#phaseStart };
    } catch { /* the server ended */ }
  }
  #heap = { used: 0, external: 0, probes: 0 };
  /** Takes `/health`'s `memory` (the server thread's heap and external memory) as seen. */
  health(memory?: { heap_used_mib?: number; external_mib?: number }): void {
    if (!memory) return;
    this.#heap.used = Math.max(this.#heap.used, memory.heap_used_mib ?? 0);
    this.#heap.external = Math.max(this.#heap.external, memory.external_mib ?? 0);
    this.#heap.probes++;
  }
  /** Prints the phase that ends and starts `next`. */
  phase(next: string): void {
    this.#sample();
    const p = this.#peak;
    const h = this.#heap;
    const seen = h.probes
      ? `; /health: main heap used ≤ ${fmt(h.used)}, external ≤ ${fmt(h.external)} MiB`
      : "";
    console.log(
      `  memory trace  ${this.#phase}: peak VmRSS ${fmt(p.rss)} MiB at +${
        fmt(p.at / 1000)
      } s (anon ${fmt(p.anon)}, file ${fmt(p.file)}, shmem ${
        fmt(p.shmem)
      } MiB; ${p.threads} threads)${seen}`,
    );
    this.#phase = next;
    this.#phaseStart = performance.now();
    this.#peak = { rss: 0, anon: 0, file: 0, shmem: 0, threads: 0, at: 0 };
    this.#heap = { used: 0, external: 0, probes: 0 };
  }
  stop(): void {
    this.phase("");
    clearInterval(this.#timer);
  }
}

/** CPU seconds (user + system) a process has used so far (Linux; `self` for this one). */
function cpuSeconds(pid: number | "self"): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** CPU clock ticks (user + system) of each thread of a process by thread id, with its name. */
function threadTicks(pid: number): Map<number, { name: string; ticks: number }> {
  const out = new Map<number, { name: string; ticks: number }>();
  for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/stat`);
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(t.name), { name, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/**
 * Per thread group, ms of CPU per request between two {@link threadTicks}: the main thread
 * (`main`: HTTP, JSON, presenting), each named worker, V8's helper threads (garbage
 * collection, compiling) and the rest.
 */
function threadShares(
  pid: number,
  before: Map<number, { name: string; ticks: number }>,
  after: Map<number, { name: string; ticks: number }>,
  requests: number,
): string {
  const groups = new Map<string, number>();
  for (const [tid, t] of after) {
    const name = tid === pid ? "main" : t.name.startsWith("V8 ") ? "V8 helpers" : t.name;
    const key = /^tokio/.test(name) ? "tokio" : name;
    groups.set(key, (groups.get(key) ?? 0) + t.ticks - (before.get(tid)?.ticks ?? 0));
  }
  return [...groups].filter(([, ticks]) => ticks > 0).sort((a, b) => b[1] - a[1])
    .map(([k, ticks]) => `${k} ${fmt((ticks * 10) / Math.max(1, requests))}`).join(", ");
}

function loadavg(): string {
  return Deno.readTextFileSync("/proc/loadavg").trim();
}

function utc(): string {
  return new Date().toISOString().slice(11, 19);
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const fmt = (x: number) => x.toFixed(2);

/** The vectors deadline: today at HH:MM UTC (epoch ms), or none. */
function deadline(hhmm: string | undefined): number {
  if (!hhmm) return Infinity;
  const [h, m] = hhmm.split(":").map(Number);
  const d = new Date();
  d.setUTCHours(h, m, 0, 0);
  return d.getTime();
}

type Health = {
  // deno-lint-ignore no-explicit-any
  index: { state: string; chunks: number; vectors: number; [k: string]: any };
  memory?: { heap_used_mib?: number; external_mib?: number };
};

// `--index-dir DIR` keeps the index (and its vectors) between runs; default: a fresh one.
const keepIndex = values["index-dir"] !== undefined;
const indexDir = values["index-dir"] ??
  (await Deno.makeTempDir({ prefix: "codectx-bridge-bench-" }));
const tStart = performance.now();
console.log(`bridge load: ${tool} on ${root}; ${utc()} UTC; loadavg ${loadavg()}`);
const queries = tool === "semantic_search" ? await projectQueries(root, 200) : [];
const queryAt = (seq: number) => loadQuery(queries, seq);
if (queries.length) {
  console.log(
    `  queries       ${queries.length} distinct, from the project's function/class names (e.g. "${
      queries.slice(0, 3).join('", "')
    }")`,
  );
}
const stagesFile = values.stages ? await Deno.makeTempFile({ prefix: "codectx-stages-" }) : "";
/** Per measured load (`--stages`): its mode and what this client sent and when. */
const stageLoads: { mode: string; sent: Sent[] }[] = [];
let sentNow: Sent[] | null = null;
const gc = values.gc ? new GcTrace() : null;
/** Per measured load (`--gc`): its mode, start and end (epoch ms) and what was sent. */
const gcLoads: { mode: string; from: number; to: number; sent: Sent[] | null }[] = [];
const v8Flags = gc
  ? [values["v8-flags"], "--trace-gc"].filter(Boolean).join(",")
  : values["v8-flags"];
const { proc, url } = await startServe({
  root,
  indexDir,
  v8Flags,
  denoFlags: values["deno-flags"]?.split(" ").filter(Boolean),
  env: stagesFile ? { CODECTX_TRACE_STAGES: stagesFile } : undefined,
  onStdout: gc ? (line) => gc.line(line) : undefined,
});
if (values["v8-flags"]) console.log(`  server        --v8-flags=${values["v8-flags"]}`);
const trace = new MemoryTrace(proc.pid);
try {
  const health = async (): Promise<Health> => await (await fetch(`${url}/health`)).json();
  // Wait for the background index.
  let h: Health;
  let lastPrint = 0;
  for (;;) {
    h = await health();
    trace.health(h.memory);
    if (h.index.state === "ready") break;
    if (performance.now() - lastPrint > 5000) {
      lastPrint = performance.now();
      console.log(
        `  waiting       index ${h.index.state}, ${
          fmt((performance.now() - tStart) / 1000)
        } s, RSS ${fmt(memoryMiB(proc.pid).rss)} MiB`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(
    `  index ready   ${
      fmt((performance.now() - tStart) / 1000)
    } s after start: ${h.index.files} files, ${h.index.chunks} chunks; ${utc()} UTC; loadavg ${loadavg()}`,
  );
  let vectorsNote = "not waited for";
  trace.phase("vectors");
  if (tool === "semantic_search" && !values["no-vectors"]) {
    const until = deadline(values["vectors-until"]);
    let last = -1;
    let lastChange = performance.now();
    for (;;) {
      h = await health();
      trace.health(h.memory);
      const { vectors, chunks } = h.index;
      if (vectors !== last) {
        last = vectors;
        lastChange = performance.now();
      }
      if (performance.now() - lastPrint > 10000) {
        lastPrint = performance.now();
        console.log(
          `  vectors       ${vectors}/${chunks}, ${
            fmt((performance.now() - tStart) / 1000)
          } s, RSS ${fmt(memoryMiB(proc.pid).rss)} MiB, loadavg ${loadavg()}`,
        );
      }
      const state = h.index.vectors_state as string | undefined;
      if (state === "complete" || state === "off" || state === "error") {
        vectorsNote = `${state} (${vectors}/${h.index.vectors_total ?? chunks}, from /health)`;
        break;
      }
      // Counted is not complete while /health says otherwise (the last vectors are sealed
      // after the count is reached): only a server without the state is judged by its count.
      if (state === undefined && chunks > 0 && vectors >= chunks) {
        vectorsNote = `complete (${vectors}/${chunks})`;
        break;
      }
      if (vectors > 0 && performance.now() - lastChange > settleS * 1000) {
        vectorsNote =
          `stopped growing at ${vectors}/${chunks} for ${settleS} s (taken as complete)`;
        break;
      }
      if (Date.now() > until) {
        vectorsNote = `NOT complete at the deadline: ${vectors}/${chunks} (lexical-ready only)`;
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(
      `  vectors       ${vectorsNote}; ${
        fmt((performance.now() - tStart) / 1000)
      } s after start; ${utc()} UTC`,
    );
  }

  let seq = 0;
  /** Every query sent so far (each load prints how many of its requests were distinct). */
  const sent = new Set<string>();
  const bodyFor = (mode: string): string => {
    if (tool === "explain_file") {
      return JSON.stringify({ kind: "explain_file", params: { file_path: file } });
    }
    const query = queryAt(seq++);
    sent.add(query);
    const args: Record<string, unknown> = { query, top_k: topK };
    if (mode !== "default") args.mode = mode;
    return JSON.stringify({
      request_id: `bench-${seq}`,
      kind: "invoke_tool",
      params: { tool_name: "semantic_search", arguments: args },
    });
  };
  /** One request: latency, HTTP status and whether the answer (and the tool) succeeded. */
  const once = async (mode: string): Promise<{ ms: number; status: number; ok: boolean }> => {
    const body = bodyFor(mode);
    const id = `bench-${seq}`;
    const t0 = performance.now();
    const res = await fetch(`${url}/request`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    sentNow?.push({
      id,
      sent: performance.timeOrigin + t0,
      received: performance.timeOrigin + t0 + ms,
    });
    let ok = false;
    try {
      const j = JSON.parse(text);
      ok = j.success === true && (tool !== "semantic_search" || j.data?.success === true);
    } catch { /* not JSON: counted as not ok */ }
    return { ms, status: res.status, ok };
  };
  trace.phase("first request");
  {
    const first = await fetch(`${url}/request`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: bodyFor(modes[0]),
    });
    const sample = await first.json();
    if (!sample.success || (tool === "semantic_search" && !sample.data?.success)) {
      throw new Error(`${tool} failed: ${JSON.stringify(sample).slice(0, 500)}`);
    }
    if (tool === "semantic_search") {
      const p = sample.data.result_payload;
      const v = p?.vectors ?? {};
      console.log(
        `  sample        mode ${p?.mode}, ${
          p?.snippets?.length ?? "?"
        } snippets, index ${p?.index_state}; vectors (from the tool) ${v.state} ${v.done}/${v.total}, embedder ${v.embedder}`,
      );
    }
  }

  if (tool === "semantic_search") {
    trace.phase(`${searches} sequential searches`);
    const m0 = memoryMiB(proc.pid);
    const lat: number[] = [];
    let bad = 0;
    const t0 = performance.now();
    for (let i = 0; i < searches; i++) {
      const r = await once(modes[0]);
      lat.push(r.ms);
      if (!r.ok || r.status < 200 || r.status > 299) bad++;
    }
    const m1 = memoryMiB(proc.pid);
    lat.sort((a, b) => a - b);
    console.log(
      `  memory        before searches: VmRSS ${fmt(m0.rss)} MiB, VmHWM ${
        fmt(m0.hwm)
      } MiB (vectors ${vectorsNote})`,
    );
    console.log(
      `  memory        after ${searches} sequential searches (mode ${modes[0]}): VmRSS ${
        fmt(m1.rss)
      } MiB, VmHWM ${fmt(m1.hwm)} MiB; ${fmt((performance.now() - t0) / 1000)} s, p50 ${
        fmt(percentile(lat, 50))
      } ms, p95 ${fmt(percentile(lat, 95))} ms, not ok ${bad}; loadavg ${loadavg()}`,
    );
  }

  /** `GET /health` every 100 ms until `end`, on its own connection: latencies in ms. */
  const probeHealth = async (end: number): Promise<{ ms: number[]; bad: number }> => {
    const ms: number[] = [];
    let bad = 0;
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${url}/health`);
        const body = await res.json().catch(() => null);
        if (!res.ok) bad++;
        trace.health(body?.memory);
      } catch {
        bad++;
      }
      ms.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { ms, bad };
  };

  /**
   * The same probe from a process of its own: this one's event loop is busy with the load's
   * answers, which delays its own probe's reads (what a monitor elsewhere would not see).
   */
  const probeHealthApart = async (seconds: number): Promise<{ ms: number[]; bad: number }> => {
    const code = `const end = performance.now() + ${seconds * 1000}; const ms = []; let bad = 0;
      while (performance.now() < end) { const t0 = performance.now();
        try { const r = await fetch(${
      JSON.stringify(`${url}/health`)
    }); await r.arrayBuffer(); if (!r.ok) bad++; }
        catch { bad++; }
        ms.push(performance.now() - t0); await new Promise((r) => setTimeout(r, 100)); }
      console.log(JSON.stringify({ ms, bad }));`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    try {
      return JSON.parse(new TextDecoder().decode(out.stdout));
    } catch {
      return { ms: [], bad: -1 };
    }
  };

  const load = async (seconds: number, mode: string) => {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let failures = 0;
    let notOk = 0;
    const end = performance.now() + seconds * 1000;
    const t0 = performance.now();
    const seq0 = seq;
    const distinct0 = sent.size;
    const healthProbe = probeHealth(end);
    const healthApart = probeHealthApart(seconds);
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < end) {
          try {
            const r = await once(mode);
            latencies.push(r.ms);
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            if (!r.ok) notOk++;
          } catch {
            failures++;
          }
        }
      }),
    );
    const elapsedS = (performance.now() - t0) / 1000;
    return {
      latencies,
      statuses,
      failures,
      notOk,
      elapsedS,
      requests: seq - seq0,
      distinct: sent.size - distinct0,
      health: await healthProbe,
      healthApart: await healthApart,
    };
  };

  for (const mode of modes) {
    trace.phase(`warm-up ${warmupS} s, mode ${mode}`);
    await load(warmupS, mode);
    const before = memoryMiB(proc.pid);
    for (let round = 1; round <= rounds; round++) {
      trace.phase(`load ${connections} × ${durationS} s, mode ${mode}, round ${round}`);
      const la0 = loadavg();
      const cpu0 = { server: cpuSeconds(proc.pid), client: cpuSeconds("self") };
      const threads0 = threadTicks(proc.pid);
      if (stagesFile || gc) sentNow = [];
      if (stagesFile) stageLoads.push({ mode, sent: sentNow! });
      const from = performance.timeOrigin + performance.now();
      const r = await load(durationS, mode);
      gcLoads.push({ mode, from, to: performance.timeOrigin + performance.now(), sent: sentNow });
      sentNow = null;
      const cpu1 = { server: cpuSeconds(proc.pid), client: cpuSeconds("self") };
      const threads1 = threadTicks(proc.pid);
      const after = memoryMiB(proc.pid);
      const sorted = r.latencies.sort((a, b) => a - b);
      const non2xx = [...r.statuses].filter(([s]) => s < 200 || s > 299).reduce(
        (n, [, c]) => n + c,
        0,
      );
      const what = tool === "explain_file"
        ? `explain_file ${file}`
        : `invoke_tool semantic_search (top_k ${topK}, mode ${mode}, varied queries)`;
      console.log(
        `bridge load${
          rounds > 1 ? ` round ${round}/${rounds}` : ""
        }: ${connections} connections, ${durationS} s, POST /request ${what}; ${utc()} UTC`,
      );
      console.log(
        `  requests      ${sorted.length} (${fmt(sorted.length / r.elapsedS)} req/s); ${
          tool === "semantic_search"
            ? `${r.requests} sent with ${r.distinct} queries not sent before in this run`
            : ""
        }`,
      );
      console.log(
        `  latency ms    p50 ${fmt(percentile(sorted, 50))}  p90 ${
          fmt(percentile(sorted, 90))
        }  p95 ${fmt(percentile(sorted, 95))}  p99 ${fmt(percentile(sorted, 99))}  max ${
          fmt(sorted.at(-1) ?? 0)
        }`,
      );
      console.log(
        `  errors        non-2xx ${non2xx}   success:false ${r.notOk}   failed requests ${r.failures}   statuses ${
          JSON.stringify(Object.fromEntries(r.statuses))
        }`,
      );
      console.log(
        `  server RSS    before ${fmt(before.rss)} MiB (after ${warmupS} s warm-up), now VmRSS ${
          fmt(after.rss)
        } MiB (${fmt(((after.rss - before.rss) / before.rss) * 100)}%), VmHWM ${
          fmt(after.hwm)
        } MiB`,
      );
      const serverCpu = cpu1.server - cpu0.server;
      const clientCpu = cpu1.client - cpu0.client;
      console.log(
        `  CPU           server ${fmt(serverCpu)} s (${
          fmt(serverCpu / r.elapsedS * 100)
        }% of one core, ${
          fmt(serverCpu * 1000 / Math.max(1, sorted.length))
        } ms/request); this client ${fmt(clientCpu)} s (${fmt(clientCpu / r.elapsedS * 100)}%, ${
          fmt(clientCpu * 1000 / Math.max(1, sorted.length))
        } ms/request)`,
      );
      console.log(
        `  threads       ms/request: ${threadShares(proc.pid, threads0, threads1, sorted.length)}`,
      );
      const hs = r.health.ms.sort((a, b) => a - b);
      console.log(
        `  /health       ${hs.length} probes during the load (one connection, every 100 ms): p50 ${
          fmt(percentile(hs, 50))
        } ms, p99 ${fmt(percentile(hs, 99))} ms, max ${
          fmt(hs.at(-1) ?? 0)
        } ms, failed ${r.health.bad}`,
      );
      const ha = r.healthApart.ms.sort((a, b) => a - b);
      console.log(
        `  /health       ${ha.length} probes from a process of their own: p50 ${
          fmt(percentile(ha, 50))
        } ms, p99 ${fmt(percentile(ha, 99))} ms, max ${
          fmt(ha.at(-1) ?? 0)
        } ms, failed ${r.healthApart.bad}`,
      );
      console.log(`  loadavg       before ${la0}; after ${loadavg()}`);
    }
  }
  console.log(`  server        ${url} (pid ${proc.pid})`);
} finally {
  trace.stop();
  proc.kill("SIGTERM");
  await proc.status;
  if (!keepIndex) await Deno.remove(indexDir, { recursive: true }).catch(() => {});
}
if (stagesFile) {
  // Written by the server as it went and when it ended.
  const traces = (await Deno.readTextFile(stagesFile)).split("\n").filter(Boolean)
    .map((l) => JSON.parse(l));
  for (const { mode, sent } of stageLoads) printStages(mode, sent, traces);
  await Deno.remove(stagesFile).catch(() => {});
}
for (const { mode, from, to, sent } of gcLoads) gc?.print(mode, from, to, sent ?? undefined);
