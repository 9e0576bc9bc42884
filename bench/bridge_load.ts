/**
 * Bridge load benchmark: spawns `codectx serve` on a fixture, then keeps N concurrent
 * connections busy for D seconds with `POST /request` `explain_file`. Prints requests/s,
 * latency percentiles, the count of non-2xx answers and failed requests, and the server's
 * resident memory (VmRSS from /proc) before and after the load.
 *
 *   deno run -A bench/bridge_load.ts [--path DIR] [--file REL] [--connections 50] [--duration 20]
 *
 * @module
 */

import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    path: { type: "string" },
    file: { type: "string" },
    connections: { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    rounds: { type: "string" },
  },
});

const repo = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
const root = values.path ?? `${repo}/tests/fixtures/project`;
const file = values.file ?? "app/main.py";
const connections = Number(values.connections ?? 50);
const durationS = Number(values.duration ?? 20);
const warmupS = Number(values.warmup ?? 5);
const rounds = Number(values.rounds ?? 1);

/** Resident and peak memory of a process, in MiB (Linux). */
function memoryMiB(pid: number): { rss: number; hwm: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kib("VmRSS") / 1024, hwm: kib("VmHWM") / 1024 };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Starts the bridge and resolves with its base address once it answers. */
async function startBridge(indexDir: string) {
  const proc = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${repo}/cli.ts`,
      "serve",
      "--port",
      "0",
      "--path",
      root,
      "--index-dir",
      indexDir,
      "--no-watch",
    ],
    cwd: repo,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  const url = await new Promise<string>((resolve, reject) => {
    (async () => {
      const dec = new TextDecoder();
      for await (const chunk of proc.stderr) {
        log += dec.decode(chunk, { stream: true });
        const m = /listening on (http:\/\/\S+)/.exec(log);
        if (m) resolve(m[1]);
      }
      reject(new Error(`the bridge did not start:\n${log}`));
    })();
  });
  return { proc, url };
}

const indexDir = await Deno.makeTempDir({ prefix: "codectx-bridge-bench-" });
const { proc, url } = await startBridge(indexDir);
try {
  // Wait for the background index.
  for (;;) {
    const h = await (await fetch(`${url}/health`)).json();
    if (h.index.state === "ready") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const body = JSON.stringify({ kind: "explain_file", params: { file_path: file } });
  const once = async (): Promise<{ ms: number; status: number }> => {
    const t0 = performance.now();
    const res = await fetch(`${url}/request`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    await res.arrayBuffer();
    return { ms: performance.now() - t0, status: res.status };
  };
  const first = await fetch(`${url}/request`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  const sample = await first.json();
  if (!sample.success) throw new Error(`explain_file failed: ${sample.error}`);

  const load = async (seconds: number) => {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let failures = 0;
    const end = performance.now() + seconds * 1000;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < end) {
          try {
            const r = await once();
            latencies.push(r.ms);
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          } catch {
            failures++;
          }
        }
      }),
    );
    return { latencies, statuses, failures, elapsedS: (performance.now() - t0) / 1000 };
  };

  await load(warmupS);
  const fmt = (x: number) => x.toFixed(2);
  const before = memoryMiB(proc.pid);
  for (let round = 1; round <= rounds; round++) {
    const r = await load(durationS);
    const after = memoryMiB(proc.pid);
    const sorted = r.latencies.sort((a, b) => a - b);
    const non2xx = [...r.statuses].filter(([s]) => s < 200 || s > 299).reduce(
      (n, [, c]) => n + c,
      0,
    );
    console.log(
      `bridge load${
        rounds > 1 ? ` round ${round}/${rounds}` : ""
      }: ${connections} connections, ${durationS} s, POST /request explain_file ${file}`,
    );
    console.log(`  requests      ${sorted.length} (${fmt(sorted.length / r.elapsedS)} req/s)`);
    console.log(
      `  latency ms    p50 ${fmt(percentile(sorted, 50))}  p90 ${
        fmt(percentile(sorted, 90))
      }  p99 ${fmt(percentile(sorted, 99))}  max ${fmt(sorted.at(-1) ?? 0)}`,
    );
    console.log(`  non-2xx       ${non2xx}   failed requests ${r.failures}`);
    console.log(
      `  server RSS    before ${fmt(before.rss)} MiB (after ${warmupS} s warm-up), now ${
        fmt(after.rss)
      } MiB (${fmt(((after.rss - before.rss) / before.rss) * 100)}%), peak ${fmt(after.hwm)} MiB`,
    );
  }
  console.log(`  server        ${url} (pid ${proc.pid})`);
} finally {
  proc.kill("SIGTERM");
  await proc.status;
  await Deno.remove(indexDir, { recursive: true }).catch(() => {});
}
