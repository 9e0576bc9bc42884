/**
 * A search worker (see `search_pool.ts`): holds one generation's snapshot in shared memory
 * and answers queries with `rankQuery` of `pipeline.ts` (retrieve → fuse → rerank) over it.
 *
 * @module
 */

/// <reference lib="deno.worker" />

import type { ChunkRecord, SymbolKind } from "../types.ts";
import type { LoadedIndex } from "../project/project.ts";
import { DEFAULT_FUSION, rankQuery } from "./pipeline.ts";
import { analyseQuery } from "./query.ts";
import { decodeLexicalIndex, type LexicalIndex } from "./lexical.ts";
import {
  KEPT_WEIGHTS,
  type SearchJob,
  type SearchReply,
  type SearchSnapshot,
} from "./search_snapshot.ts";
import { type ChunkTable, newChunkTable } from "./table.ts";
import { FlatVectorIndex } from "./vectors.ts";
import { attachRowTraits } from "./rerank_names.ts";
import type { VectorProgress } from "./vector_sync.ts";
import { stamp } from "../util/request_trace.ts";

interface Held {
  id: number;
  /** Per-row arrays the scoring reuses query after query. */
  scratch: { lex: Float32Array; cover: Float32Array; dense: Float32Array; listed: Int32Array };
  table: ChunkTable;
  lexical: LexicalIndex | null;
  vectors: FlatVectorIndex | null;
}

let held: Held | null = null;
/** File weights by id, as the pool sent them (the pool knows which are kept). */
const weights = new Map<number, Float32Array>();

/** What the scoring reads of a chunk: its kind and lines (the rest is not in the snapshot). */
function rowsOf(s: SearchSnapshot): ChunkRecord[] {
  const n = s.fileOfRow.length;
  const cache = new Map<number, ChunkRecord>();
  const row = (r: number): ChunkRecord => {
    let c = cache.get(r);
    if (!c) {
      c = {
        id: "",
        file: s.files[s.fileOfRow[r]].path,
        startLine: s.startLine[r],
        endLine: s.endLine[r],
        symbol: null,
        kind: s.kinds[s.kindOf[r]] as SymbolKind | null,
        language: s.files[s.fileOfRow[r]].language,
        text: "",
      };
      if (cache.size > 4096) cache.clear();
      cache.set(r, c);
    }
    return c;
  };
  const index = (p: string | symbol): number => {
    if (typeof p !== "string") return -1;
    const r = Number(p);
    return Number.isInteger(r) && r >= 0 && r < n && String(r) === p ? r : -1;
  };
  return new Proxy([] as ChunkRecord[], {
    get(target, p) {
      if (p === "length") return n;
      const r = index(p);
      return r >= 0 ? row(r) : Reflect.get(target, p);
    },
    has(target, p) {
      return index(p) >= 0 || Reflect.has(target, p);
    },
  });
}

function load(s: SearchSnapshot, slot: number): Held {
  const table = newChunkTable({
    generation: s.generation,
    chunks: rowsOf(s),
    files: s.files,
    fileOfRow: s.fileOfRow,
    index: null as unknown as LoadedIndex,
  });
  // Its rows hold no names: the second stage reads the snapshot's traits instead.
  attachRowTraits(table, s.traits);
  const lexical = decodeLexicalIndex(s.lexical.bytes, s.lexical.key, s.lexical.params);
  const vectors = s.vectors ? FlatVectorIndex.attach(s.vectors, slot) : null;
  const n = s.fileOfRow.length;
  const scratch = {
    lex: new Float32Array(n),
    cover: new Float32Array(n),
    dense: new Float32Array(n),
    listed: new Int32Array(n),
  };
  return { id: s.id, table, lexical, vectors, scratch };
}

const NO_PROGRESS: VectorProgress = {
  embedder: "",
  dimensions: 0,
  done: 0,
  total: 0,
  embedded: 0,
  state: "complete",
};

/** The job's file weights: sent with it (kept from now on, as the pool counts), or kept. */
function weightsOf(job: SearchJob): Float32Array | undefined {
  if (job.fileWeight) {
    weights.set(job.weights, job.fileWeight);
    if (weights.size > KEPT_WEIGHTS) weights.delete(weights.keys().next().value!);
  }
  return weights.get(job.weights);
}

function answer(job: SearchJob, fileWeight: Float32Array | undefined): SearchReply {
  const h = held;
  if (!h || h.id !== job.snapshot || !h.lexical || (job.qv && !h.vectors) || !fileWeight) {
    return { type: "failed", id: job.id, error: "snapshot or file weights not held" };
  }
  const fused = rankQuery(
    {
      table: h.table,
      mode: job.mode,
      fileWeight,
      lexical: job.mode === "dense" ? null : h.lexical,
      vectors: job.qv ? h.vectors : null,
      qv: job.qv,
      progress: NO_PROGRESS,
      scratch: h.scratch,
    },
    job.query,
    job.opts,
    DEFAULT_FUSION,
    job.depth,
  );
  const rows = new Int32Array(fused.size);
  const scores = new Float64Array(fused.size);
  let i = 0;
  for (const [row, score] of fused) {
    rows[i] = row;
    scores[i++] = score;
  }
  return { type: "fused", id: job.id, rows, scores };
}

/**
 * One query of each kind before the first real one: the per-table arrays the scoring makes
 * once (kind factors, file classes) and the compiled code are ready when queries come.
 */
function warm(h: Held): void {
  const job: SearchJob = {
    id: 0,
    snapshot: h.id,
    query: analyseQuery("warm up the search"),
    mode: "lexical",
    opts: {},
    weights: 0,
    fileWeight: new Float32Array(h.table.files.length).fill(1),
    qv: null,
    depth: 20,
  };
  const all = job.fileWeight!;
  try {
    answer(job, all);
    if (h.vectors) {
      const qv = new Float32Array(h.vectors.dimensions).fill(0.05);
      answer({ ...job, mode: "hybrid", qv }, all);
    }
  } catch {
    // the first query will report its own error
  }
}

self.onmessage = (e: MessageEvent) => {
  const m = e.data as SearchJob | { type: "load"; snapshot: SearchSnapshot; slot: number };
  if ("type" in m) {
    held = load(m.snapshot, m.slot);
    warm(held);
    self.postMessage({ type: "loaded", snapshot: m.snapshot.id } satisfies SearchReply);
    return;
  }
  let reply: SearchReply;
  try {
    const started = m.trace ? stamp() : 0;
    reply = answer(m, weightsOf(m));
    if (m.trace && reply.type === "fused") {
      reply.started = started;
      reply.ended = stamp();
    }
  } catch (err) {
    reply = { type: "failed", id: m.id, error: String(err) };
  }
  const moved = reply.type === "fused" ? [reply.rows.buffer, reply.scores.buffer] : [];
  self.postMessage(reply, moved as ArrayBuffer[]);
};
