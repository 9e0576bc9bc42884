/**
 * Connection hygiene of the bridge (`codectx serve`): its throughput for `--clients`
 * callers (`POST /request explain_file`) unloaded, then again while `--idle` TCP connections
 * sit open sending nothing (or half a header) and `--sse` subscribers of `/tools/stream`
 * never read; then how many of those connections the server has closed after its header
 * timeout, its resident memory, and how long a SIGTERM takes to end it with all of them
 * still open.
 *
 *   deno run -A bench/connections.ts [--idle 1000] [--sse 500] [--clients 8] [--duration 15]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { startServe } from "./serve.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    idle: { type: "string", default: "1000" },
    sse: { type: "string", default: "500" },
    clients: { type: "string", default: "8" },
    duration: { type: "string", default: "15" },
    path: { type: "string" },
  },
});
const IDLE = Number(values.idle);
const SSE = Number(values.sse);
const CLIENTS = Number(values.clients);
const DURATION_MS = Number(values.duration) * 1000;

const repo = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
const root = values.path ?? `${repo}/tests/fixtures/project`;
const load = () => Deno.readTextFileSync("/proc/loadavg").trim();

function rssMiB(pid: number): number {
  try {
    const st = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/VmRSS:\s+(\d+)/.exec(st)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Open TCP connections to `port` on this machine (both directions counted once). */
function establishedTo(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  let n = 0;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = Deno.readTextFileSync(file);
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // local address, remote address, state 01 = ESTABLISHED; the client side's remote is the port
      if (f.length > 3 && f[3] === "01" && f[2]?.endsWith(`:${hex}`)) n++;
    }
  }
  return n;
}

const indexDir = await Deno.makeTempDir({ prefix: "codectx-conn-" });
const { proc, url } = await startServe({ root, indexDir });
const port = Number(new URL(url).port);
let exited: number | null = null;
const exitedAt = proc.status.then((s) => {
  exited = s.code;
  return performance.now();
});

const body = JSON.stringify({ kind: "explain_file", params: { file_path: "app/main.py" } });
for (let i = 0; i < 300; i++) {
  const r = await fetch(`${url}/request`, { method: "POST", body }).catch(() => null);
  const ok = r?.ok;
  await r?.body?.cancel();
  if (ok) break;
  await new Promise((r) => setTimeout(r, 200));
}

/** Calls per second by `CLIENTS` callers over the duration; failures counted apart. */
async function throughput(): Promise<{ rps: number; failed: number; statuses: string }> {
  let done = 0;
  let failed = 0;
  const statuses = new Map<number, number>();
  const end = performance.now() + DURATION_MS;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < end) {
      try {
        const r = await fetch(`${url}/request`, {
          method: "POST",
          body,
          signal: AbortSignal.timeout(30_000),
        });
        await r.arrayBuffer();
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.ok) done++;
        else failed++;
      } catch {
        failed++;
      }
    }
  }));
  return {
    rps: done / (DURATION_MS / 1000),
    failed,
    statuses: [...statuses].map(([s, n]) => `${s}:${n}`).join(" "),
  };
}

console.log(`bridge ${url}; load ${load()}`);
const rss0 = rssMiB(proc.pid);
const base = await throughput();
console.log(
  `unloaded: ${base.rps.toFixed(1)} calls/s (${base.statuses}; failed ${base.failed}); RSS ${
    rss0.toFixed(0)
  } MiB; load ${load()}`,
);

// Idle connections: half send nothing, half send half a request header.
const idle: Deno.TcpConn[] = [];
const enc = new TextEncoder();
let refused = 0;
for (let i = 0; i < IDLE; i++) {
  try {
    const c = await Deno.connect({ hostname: "127.0.0.1", port });
    if (i % 2) await c.write(enc.encode(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`));
    idle.push(c);
  } catch {
    refused++;
  }
}
// Subscribers that never read.
const subscribers: Deno.TcpConn[] = [];
for (let i = 0; i < SSE; i++) {
  try {
    const c = await Deno.connect({ hostname: "127.0.0.1", port });
    await c.write(
      enc.encode(
        `GET /tools/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`,
      ),
    );
    subscribers.push(c);
  } catch {
    refused++;
  }
}
const openAtStart = establishedTo(port);
console.log(
  `opened ${idle.length} idle and ${subscribers.length} non-reading SSE connections (${refused} refused); ${openAtStart} established`,
);
const loaded = await throughput();
const rss1 = rssMiB(proc.pid);
console.log(
  `loaded: ${loaded.rps.toFixed(1)} calls/s (${loaded.statuses}; failed ${loaded.failed}) = ${
    (100 * loaded.rps / base.rps).toFixed(0)
  } % of unloaded; RSS ${rss1.toFixed(0)} MiB (+${(rss1 - rss0).toFixed(0)}); load ${load()}`,
);
const openAfter = establishedTo(port);
console.log(
  `after ${
    (DURATION_MS / 1000).toFixed(0)
  } s: ${openAfter} of ${openAtStart} connections still established`,
);

// Graceful shutdown with everything still open.
const t0 = performance.now();
proc.kill("SIGTERM");
const deadline = setTimeout(() => {
  if (exited === null) proc.kill("SIGKILL");
}, 60_000);
const t1 = await exitedAt;
clearTimeout(deadline);
console.log(`SIGTERM → exit ${exited} in ${((t1 - t0) / 1000).toFixed(1)} s`);
for (const c of [...idle, ...subscribers]) {
  try {
    c.close();
  } catch {
    // closed by the server
  }
}
await Deno.remove(indexDir, { recursive: true }).catch(() => {});
