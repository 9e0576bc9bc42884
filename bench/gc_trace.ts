/**
 * The server's garbage-collection pauses during a load (`bench/bridge_load.ts --gc`): the
 * server runs with V8's `--trace-gc`, each line it prints is stamped when it arrives here,
 * and per load this prints each isolate's collections (count, summed and longest pause, the
 * full collections among them) and, with `--stages`, how many of the middle and of the
 * slowest requests had a main-thread pause of 10 ms or more while they were in flight — a
 * pause stops every request the main thread holds, so pauses that come with the slowest
 * requests are what makes the tail.
 *
 * @module
 */

import type { Sent } from "./stages.ts";

/** One collection: when its line arrived (epoch ms), its isolate, kind, pause and heap after. */
export interface Pause {
  at: number;
  isolate: string;
  full: boolean;
  ms: number;
  /** Live heap after the collection and the heap's committed size, MB. */
  liveMB: number;
  committedMB: number;
}

// [pid:0xADDR]   12345 ms: Scavenge 78.0 (107.6) -> 54.5 (109.6) MB, pooled: 0.0 MB, 7.64 / 0.00 ms …
const LINE =
  /^\[\d+:(0x[0-9a-f]+)\]\s+\d+ ms: ([A-Za-z -]+?) [\d.]+ \([\d.]+\) -> ([\d.]+) \(([\d.]+)\) MB, .*?([\d.]+) \/ [\d.]+ ms/;

/** Collects `--trace-gc` lines; the first isolate to collect is the main thread's. */
export class GcTrace {
  readonly pauses: Pause[] = [];
  private main = "";

  /** Takes one line of the server's stdout. */
  line(text: string): void {
    const m = LINE.exec(text);
    if (!m) return;
    if (!this.main) this.main = m[1];
    this.pauses.push({
      at: performance.timeOrigin + performance.now(),
      isolate: m[1],
      full: /Mark/.test(m[2]),
      ms: Number(m[5]),
      liveMB: Number(m[3]),
      committedMB: Number(m[4]),
    });
  }

  /** Prints the collections between `from` and `to` (epoch ms), per isolate. */
  print(mode: string, from: number, to: number, sent?: Sent[]): void {
    const within = this.pauses.filter((p) => p.at >= from && p.at <= to);
    const isolates = [...new Set(within.map((p) => p.isolate))]
      .sort((a, b) => (a === this.main ? -1 : b === this.main ? 1 : 0));
    const parts = isolates.map((iso, i) => {
      const ps = within.filter((p) => p.isolate === iso);
      const sum = ps.reduce((s, p) => s + p.ms, 0);
      const max = ps.reduce((s, p) => Math.max(s, p.ms), 0);
      const full = ps.filter((p) => p.full).length;
      const committed = ps.reduce((s, p) => Math.max(s, p.committedMB), 0);
      return `${iso === this.main ? "main" : `isolate ${i}`} ${ps.length} (${full} full), ${
        sum.toFixed(0)
      } ms in all, longest ${max.toFixed(1)} ms; heap live ${ps[0].liveMB} → ${
        ps.at(-1)!.liveMB
      } MB, committed at most ${committed} MB`;
    });
    console.log(
      `gc (mode ${mode}): ${((to - from) / 1000).toFixed(1)} s; ${parts.join("; ") || "none"}`,
    );
    if (!sent || sent.length < 100) return;
    // A pause's line is printed as it ends: it covered [at - ms, at].
    const long = within.filter((p) => p.isolate === this.main && p.ms >= 10);
    const hit = (r: Sent) => long.some((p) => p.at - p.ms < r.received && p.at > r.sent);
    const byLatency = [...sent].sort((a, b) => a.received - a.sent - (b.received - b.sent));
    const n = byLatency.length;
    const share = (rows: Sent[]) =>
      `${((rows.filter(hit).length / Math.max(1, rows.length)) * 100).toFixed(0)} %`;
    console.log(
      `  main-thread pauses ≥ 10 ms (${long.length}) during the request: p40–60 ${
        share(byLatency.slice(Math.floor(0.4 * n), Math.ceil(0.6 * n)))
      }, p99–100 ${share(byLatency.slice(Math.floor(0.99 * n)))} of requests`,
    );
  }
}
