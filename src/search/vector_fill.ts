/**
 * The stages of a vector pass that fill rows without the model (`vector_sync.ts` runs them):
 * whole files kept from the previous generation in memory, blocks read back from the store,
 * and each file's block written once its rows are present; also how a chunk is rendered for
 * an embedder.
 *
 * @module
 */

import type { Store } from "../store/kv.ts";
import type { ChunkDocument, ResolvedEmbedder } from "./embedder.ts";
import { chunkSymbol, type ChunkTable } from "./table.ts";
import { readAllBlocks, readBlock, type VectorBlock, writeBlock } from "./vector_store.ts";
import type { FlatVectorIndex } from "./vectors.ts";

/** The vectors of one generation, as search uses them. */
export interface GenerationVectors {
  generation: number;
  choice: ResolvedEmbedder;
  index: FlatVectorIndex;
}

/** Above this many missing files, one pass over all blocks beats one read per file. */
const SCAN_LIMIT = 64;

/** Renders row `row` of `table` as an embedder sees it. */
export function chunkDocument(table: ChunkTable, row: number): ChunkDocument {
  const c = table.chunks[row];
  const s = chunkSymbol(table, row);
  return {
    file: c.file,
    language: c.language,
    symbol: c.symbol,
    kind: c.kind,
    name: s?.name ?? c.symbol?.split(".").pop() ?? null,
    parent: s?.parent ?? null,
    signature: s?.signature ?? "",
    doc: s?.doc ?? "",
    text: c.text,
  };
}

/** The vectors being built or complete, with what they were built from. */
export type Current = GenerationVectors & { table: ChunkTable; hashes: string[] };

/** What one pass works on. */
export interface Run {
  store: Store;
  choice: ResolvedEmbedder;
  table: ChunkTable;
  /** The previous generation's vectors of the same embedder, if any. */
  prev: Current | null;
  dims: number;
  index: FlatVectorIndex;
  /** Text hash of each row's document. */
  hashes: string[];
  /** Files (table indexes) whose vectors are not all present yet. */
  missing: Set<number>;
  /** Vectors by text hash, for chunks that moved or whose file changed elsewhere. */
  reuse: Map<string, Float32Array>;
  /** Rows of the previous generation by text hash (their vectors are read when needed). */
  prevRows: Map<string, number>;
  /** Whether every stored block of the embedder was read, and how many had no file here. */
  scannedAll: boolean;
  strayBlocks: number;
}

/** Whole files from the previous generation in memory; every old row is reusable by hash. */
export function keepPrevious(run: Run): void {
  const { table, prev, index, hashes, missing, prevRows } = run;
  const prevStart = new Map(prev?.table.files.map((f) => [f.blob, f.start]) ?? []);
  table.files.forEach((f, fi) => {
    const at = prev ? prevStart.get(f.blob) : undefined;
    if (at === undefined) {
      missing.add(fi);
      return;
    }
    let complete = true;
    for (let r = f.start; r < f.end; r++) {
      const v = prev!.index.get(at + r - f.start);
      if (v) {
        index.set(r, v);
        hashes[r] = prev!.hashes[at + r - f.start];
      } else complete = false;
    }
    if (!complete) missing.add(fi);
  });
  if (!prev) return;
  // Row numbers only: copying every old vector here cost 1 KB per chunk per generation.
  for (let r = 0; r < prev.hashes.length; r++) {
    if (prev.index.present[r] && prev.hashes[r]) prevRows.set(prev.hashes[r], r);
  }
}

/** Blocks in the store: whole files, and rows of other files for reuse by hash. */
export async function readStored(run: Run, stopped: () => boolean): Promise<void> {
  const { store, choice, table, dims, index, hashes, missing, reuse } = run;
  const place = (fi: number, block: VectorBlock) => {
    const f = table.files[fi];
    if (block.dims !== dims || block.hashes.length !== f.end - f.start) return false;
    for (let r = f.start; r < f.end; r++) {
      const i = r - f.start;
      index.set(r, block.vectors.subarray(i * dims, (i + 1) * dims));
      hashes[r] = block.hashes[i];
    }
    return true;
  };
  if (missing.size <= SCAN_LIMIT) {
    for (const fi of [...missing]) {
      const block = await readBlock(store, choice.id, table.files[fi].blob);
      if (block && place(fi, block)) missing.delete(fi);
    }
    return;
  }
  const byBlob = new Map(table.files.map((f, fi) => [f.blob, fi]));
  for await (const block of readAllBlocks(store, choice.id)) {
    if (stopped()) return;
    const fi = byBlob.get(block.blob);
    if (fi === undefined) run.strayBlocks++;
    if (fi !== undefined && missing.has(fi) && place(fi, block)) {
      missing.delete(fi);
      continue;
    }
    if (block.dims !== dims) continue;
    block.hashes.forEach((h, i) => reuse.set(h, block.vectors.subarray(i * dims, (i + 1) * dims)));
  }
  run.scannedAll = true;
}

/** Writes the vector block of file `fi` (all its rows are present). */
export async function writeFile(run: Run, fi: number): Promise<void> {
  const { store, choice, table, dims, index, hashes } = run;
  const f = table.files[fi];
  const vectors = new Float32Array((f.end - f.start) * dims);
  for (let r = f.start; r < f.end; r++) vectors.set(index.get(r)!, (r - f.start) * dims);
  await writeBlock(store, choice.id, {
    blob: f.blob,
    dims,
    hashes: hashes.slice(f.start, f.end),
    vectors,
  });
}
