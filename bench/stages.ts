/**
 * Where a loaded server's requests spend their time (`bench/bridge_load.ts --stages`): the
 * server's stamps per request (`src/util/request_trace.ts`) joined with the client's send
 * and receive times by request id, then the median of each stage among the requests of the
 * middle (40th–60th percentile of latency), of the slow (90th–95th) and of the slowest 1 %.
 * A stage the slowest requests spend much longer in than the middle ones is where the tail
 * is made. Also: how often admission took a call out of arrival order, and how many jobs a
 * search worker had ahead of a query when it was handed over.
 *
 * @module
 */

/** What the client sent: its request id, and when it sent it and read the whole answer. */
export interface Sent {
  id: string;
  /** Epoch milliseconds. */
  sent: number;
  received: number;
}

/** The stages, as spans between two stamps (a span is left out when a stamp is missing). */
const SPANS: [string, string, string][] = [
  ["sent", "parsed", "to the server (sent → head parsed)"],
  ["parsed", "queued", "body, routing, checks (→ queued)"],
  ["queued", "admitted", "admission wait (→ admitted)"],
  ["admitted", "posted", "gather on the main thread (→ to a worker)"],
  ["posted", "scoring", "worker queue (→ scoring starts)"],
  ["scoring", "scored", "scoring in the worker"],
  ["scored", "replied", "back to the main thread"],
  ["replied", "executed", "presenting (→ tool done)"],
  ["admitted", "executed", "admitted → tool done (all paths)"],
  ["executed", "written", "answer made and written"],
  ["written", "received", "to the client (→ answer read)"],
  ["sent", "received", "total"],
];

const fmt = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(2));

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Prints the stage table of one load. */
export function printStages(
  mode: string,
  sent: Sent[],
  traces: Record<string, number | string>[],
): void {
  const byId = new Map<string, Record<string, number | string>>();
  for (const t of traces) if (typeof t.id === "string") byId.set(t.id, t);
  const rows: (Record<string, number | string> & Sent)[] = sent.filter((s) => byId.has(s.id))
    .map((s) => ({ ...byId.get(s.id)!, ...s }))
    .sort((a, b) => a.received - a.sent - (b.received - b.sent));
  const n = rows.length;
  console.log(
    `stages (mode ${mode}): ${n} of ${sent.length} requests traced; ms, median of each band of requests by latency`,
  );
  if (n < 100) return;
  const band = (lo: number, hi: number) => rows.slice(Math.floor(lo * n), Math.ceil(hi * n));
  const bands = [band(0.4, 0.6), band(0.9, 0.95), band(0.99, 1)];
  console.log(
    `  ${"".padEnd(44)}${["p40–60", "p90–95", "p99–100"].map((b) => b.padStart(10)).join("")}`,
  );
  for (const [from, to, label] of SPANS) {
    const cells = bands.map((b) =>
      median(
        b.filter((r) => typeof r[from] === "number" && typeof r[to] === "number")
          .map((r) => (r[to] as number) - (r[from] as number)),
      )
    );
    if (cells.every(Number.isNaN)) continue;
    console.log(`  ${label.padEnd(44)}${cells.map((c) => fmt(c).padStart(10)).join("")}`);
  }
  // Arrival order: a call queued before another but admitted after it.
  const queued = rows.filter((r) => typeof r.queued === "number" && typeof r.admitted === "number")
    .sort((a, b) => (a.queued as number) - (b.queued as number));
  let latest = -Infinity;
  let overtaken = 0;
  for (const r of queued) {
    if ((r.admitted as number) < latest) overtaken++;
    latest = Math.max(latest, r.admitted as number);
  }
  const ahead = new Map<number, number>();
  let handed = 0;
  for (const r of rows) {
    if (typeof r.ahead !== "number") continue;
    handed++;
    ahead.set(Math.min(r.ahead, 3), (ahead.get(Math.min(r.ahead, 3)) ?? 0) + 1);
  }
  const pct = (x: number, of: number) => `${((x / Math.max(1, of)) * 100).toFixed(1)} %`;
  // Stalls or spread: the slowest 1 % bunched in a few moments of the load (the server, or
  // the machine, stopped for a while) or spread over it (something per request).
  const t0 = rows.reduce((m, r) => Math.min(m, r.sent), Infinity);
  const t1 = rows.reduce((m, r) => Math.max(m, r.sent), -Infinity);
  const slowest = band(0.99, 1);
  const windows = new Set(slowest.map((r) => Math.floor((r.sent - t0) / 250)));
  console.log(
    `  the slowest 1 % (${slowest.length}) were sent in ${windows.size} of the load's ${
      Math.floor((t1 - t0) / 250) + 1
    } quarter-seconds`,
  );
  console.log(
    `  order: ${pct(overtaken, queued.length)} of calls admitted after one queued later; ${
      pct(handed, n)
    } handed to a worker, with 0 / 1 / 2 / 3+ jobs ahead there: ${
      [0, 1, 2, 3].map((k) => pct(ahead.get(k) ?? 0, handed)).join(" / ")
    }`,
  );
}
