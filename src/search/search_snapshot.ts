/**
 * What the server's thread and a search worker say to each other (`search_pool.ts`,
 * `search_worker.ts`): one generation's snapshot — its row tables, the BM25F index's bytes and
 * the sealed vectors, all in shared memory, built once and read by every worker — then queries
 * and their fused rows.
 *
 * @module
 */

import type { Bm25Params, LexicalIndex } from "./lexical.ts";
import type { ChunkTable } from "./table.ts";
import type { RowTraits } from "./rerank_names.ts";
import type { SharedVectors } from "./vectors.ts";
import type { RetrieveSources } from "./retrieve.ts";
import type { AnalysedQuery } from "./query.ts";
import type { SearchOptions } from "./options.ts";

/** File weight arrays a worker keeps (one per filter set recently asked). */
export const KEPT_WEIGHTS = 32;

/** What a worker holds of one generation (all arrays over shared memory). */
export interface SearchSnapshot {
  id: number;
  generation: number;
  /** Per row: its file (index in `files`), its chunk's kind (index in `kinds`) and lines. */
  fileOfRow: Uint32Array;
  kindOf: Uint16Array;
  startLine: Int32Array;
  endLine: Int32Array;
  /** Kind names; index 0 is a chunk named after no definition (kind null). */
  kinds: (string | null)[];
  files: { path: string; language: string; blob: string; start: number; end: number }[];
  /** The BM25F index as `LexicalIndex.encode` lays it out, and what decoding checks. */
  lexical: { bytes: Uint8Array; key: string; params: Bm25Params };
  /** The sealed vectors, or null (none yet, or still filling: hybrid then runs here). */
  vectors: SharedVectors | null;
  /** What the second stage's name features read of each row (`rerank_names.ts`). */
  traits: RowTraits;
}

/** A query for a worker. */
export interface SearchJob {
  id: number;
  snapshot: number;
  /** The question, analysed on the main thread (plain data: it is copied over). */
  query: AnalysedQuery;
  mode: RetrieveSources["mode"];
  opts: SearchOptions;
  /**
   * The filters' file weights: sent once per worker (then named by `weights` alone; both
   * sides keep the last {@link KEPT_WEIGHTS} they saw, in the same order).
   */
  weights: number;
  fileWeight: Float32Array | null;
  qv: Float32Array | null;
  depth: number;
  /** Stamp the scoring's start and end (`$CODECTX_TRACE_STAGES`). */
  trace?: boolean;
}

/** A worker's answer: the fused rows and scores, or an error (the query then runs here). */
export type SearchReply =
  | { type: "loaded"; snapshot: number }
  | {
    type: "fused";
    id: number;
    rows: Int32Array;
    scores: Float64Array;
    /** When the worker started and ended the scoring (epoch ms; traced jobs only). */
    started?: number;
    ended?: number;
  }
  | { type: "failed"; id: number; error: string };

let snapshotIds = 0;

/** A typed array over a SharedArrayBuffer holding a copy of `a`. */
function sharedCopy<T extends Uint32Array | Uint8Array>(a: T): T {
  const out = new (a.constructor as new (b: SharedArrayBuffer) => T)(
    new SharedArrayBuffer(a.byteLength),
  );
  out.set(a);
  return out;
}

function sharedOf<T>(make: new (b: SharedArrayBuffer) => T, n: number, bytesPer: number): T {
  return new make(new SharedArrayBuffer(n * bytesPer));
}

/** The snapshot of one generation: its row tables and lexical bytes copied to shared memory. */
export function snapshotOf(
  table: ChunkTable,
  lexical: LexicalIndex,
  vectors: SharedVectors | null,
  traits: RowTraits,
): SearchSnapshot {
  const n = table.chunks.length;
  const kinds: (string | null)[] = [null];
  const kindIds = new Map<string | null, number>([[null, 0]]);
  const kindOf = sharedOf(Uint16Array, n, 2);
  const startLine = sharedOf(Int32Array, n, 4);
  const endLine = sharedOf(Int32Array, n, 4);
  table.chunks.forEach((c, row) => {
    let k = kindIds.get(c.kind);
    if (k === undefined) {
      kindIds.set(c.kind, k = kinds.length);
      kinds.push(c.kind);
    }
    kindOf[row] = k;
    startLine[row] = c.startLine;
    endLine[row] = c.endLine;
  });
  const key = `snapshot-${table.generation}`;
  const parts = lexical.encodeParts(key);
  const bytes = sharedOf(Uint8Array, parts.reduce((s, p) => s + p.length, 0), 1);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return {
    id: ++snapshotIds,
    generation: table.generation,
    fileOfRow: sharedCopy(table.fileOfRow),
    kindOf,
    startLine,
    endLine,
    kinds,
    files: table.files.map(({ path, language, blob, start, end }) => ({
      path,
      language,
      blob,
      start,
      end,
    })),
    lexical: { bytes, key, params: lexical.params },
    vectors,
    traits,
  };
}
