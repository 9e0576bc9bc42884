/**
 * The `/health` body the bridge and MCP over HTTP answer (DESIGN: `{status, version,
 * project_root, index: {state, files, chunks, symbols, vectors, last_indexed_at}, uptime_s}`),
 * plus how far the background embedding is (`vectors_total`, `vectors_state`), so a client
 * can wait for complete vectors.
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
    },
    ...(startedAt === undefined ? {} : { uptime_s: Math.round((Date.now() - startedAt) / 1000) }),
  };
}
