/**
 * The `/health` body the bridge and MCP over HTTP answer (DESIGN: `{status, version,
 * project_root, index: {state, files, chunks, symbols, vectors, last_indexed_at}, uptime_s}`),
 * plus how far the background embedding is (`vectors_total`, `vectors_state`), so a client
 * can wait for complete vectors, whether edits are seen (`watching`, and `watch_reason` when
 * not), and the process's memory (`memory`). `index.state` is `root_missing` while the
 * project's folder is gone.
 *
 * @module
 */

import type { Executor } from "../tools/executor.ts";
import { VERSION } from "../version.ts";

/**
 * Server and index state of `executor`'s project; `uptime_s` when `startedAt` (ms since the
 * epoch) is given.
 */
export async function healthBody(
  executor: Executor,
  startedAt?: number,
): Promise<Record<string, unknown>> {
  const s = await executor.service.health();
  return {
    status: "ok",
    version: VERSION,
    project_root: executor.service.root,
    index: {
      state: s.state,
      files: s.files,
      chunks: s.chunks,
      symbols: s.symbols,
      vectors: s.vectors,
      vectors_total: s.vectors_total,
      vectors_state: s.vectors_state,
      last_indexed_at: s.last_indexed_at,
      watching: s.watching,
      watch_reason: s.watch_reason,
    },
    memory: processMemory(),
    ...(startedAt === undefined ? {} : { uptime_s: Math.round((Date.now() - startedAt) / 1000) }),
  };
}

/**
 * The process's resident memory and, of it, the server thread's JavaScript heap and the
 * memory its objects hold outside the heap (buffers, WASM), in MiB: the rest is workers
 * (analysis, indexing) and native allocations.
 */
export function processMemory(): { rss_mib: number; heap_used_mib: number; external_mib: number } {
  const m = Deno.memoryUsage();
  const mib = (n: number) => Math.round(n / 1048576 * 10) / 10;
  return { rss_mib: mib(m.rss), heap_used_mib: mib(m.heapUsed), external_mib: mib(m.external) };
}
