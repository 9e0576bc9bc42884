/**
 * Vectors in Deno KV, one block per file blob and embedder:
 * `["vec", embedder id, blob key, "p", i]` holds ≤ 60 KB parts of the rows (each row: the
 * 64-bit hash of the text that was embedded, then `dims` float32), and
 * `["vec", embedder id, blob key, "n"]` the header `{rows, dims, parts}`, written last.
 *
 * A block is content-addressed (blob key = path + content) and never changes once its
 * header exists; a reader ignores blocks without one, so a run killed mid-way leaves only
 * garbage, never a wrong vector. Row hashes let a changed file reuse the vectors of its
 * unchanged chunks.
 *
 * @module
 */

import type { Store } from "../store/kv.ts";

const PART_BYTES = 60_000;
const BATCH_BYTES = 600_000;

/** Header of a block. */
interface BlockHead {
  rows: number;
  dims: number;
  parts: number;
}

/** One file's vectors. */
export interface VectorBlock {
  blob: string;
  dims: number;
  /** Hash of each row's embedded text (16 hex digits). */
  hashes: string[];
  /** rows × dims, row-major. */
  vectors: Float32Array;
}

/**
 * A 64-bit hash (16 hex digits) of a string; keys the vector cache by embedded text.
 *
 * @example
 * ```ts
 * textHash("def f(): pass").length; // 16
 * ```
 */
export function textHash(s: string): string {
  let h1 = 0xdeadbeef ^ s.length;
  let h2 = 0x41c6ce57 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}

function encode(hashes: string[], vectors: Float32Array, dims: number): Uint8Array {
  const rowBytes = 8 + dims * 4;
  const buf = new ArrayBuffer(hashes.length * rowBytes);
  const view = new DataView(buf);
  for (let r = 0; r < hashes.length; r++) {
    const o = r * rowBytes;
    view.setUint32(o, parseInt(hashes[r].slice(0, 8), 16), true);
    view.setUint32(o + 4, parseInt(hashes[r].slice(8, 16), 16), true);
    for (let i = 0; i < dims; i++) view.setFloat32(o + 8 + i * 4, vectors[r * dims + i], true);
  }
  return new Uint8Array(buf);
}

function decode(blob: string, bytes: Uint8Array, head: BlockHead): VectorBlock | null {
  const rowBytes = 8 + head.dims * 4;
  if (bytes.length !== head.rows * rowBytes) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hashes: string[] = [];
  const vectors = new Float32Array(head.rows * head.dims);
  for (let r = 0; r < head.rows; r++) {
    const o = r * rowBytes;
    hashes.push(
      view.getUint32(o, true).toString(16).padStart(8, "0") +
        view.getUint32(o + 4, true).toString(16).padStart(8, "0"),
    );
    for (let i = 0; i < head.dims; i++) {
      vectors[r * head.dims + i] = view.getFloat32(o + 8 + i * 4, true);
    }
  }
  return { blob, dims: head.dims, hashes, vectors };
}

/** Writes a file's block, parts first and header last. */
export async function writeBlock(
  store: Store,
  embedder: string,
  block: VectorBlock,
): Promise<void> {
  const bytes = encode(block.hashes, block.vectors, block.dims);
  const n = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
  const prefix = ["vec", embedder, block.blob];
  let op = store.kv.atomic();
  let pending = 0;
  for (let i = 0; i < n; i++) {
    const part = bytes.slice(i * PART_BYTES, (i + 1) * PART_BYTES);
    op = op.set([...prefix, "p", i], part);
    pending += part.length + 64;
    if (pending >= BATCH_BYTES) {
      await mustCommit(op);
      op = store.kv.atomic();
      pending = 0;
    }
  }
  const head: BlockHead = { rows: block.hashes.length, dims: block.dims, parts: n };
  await mustCommit(op.set([...prefix, "n"], head));
}

/** Reads one complete block, or null. */
export async function readBlock(
  store: Store,
  embedder: string,
  blob: string,
): Promise<VectorBlock | null> {
  const head = await store.kv.get<BlockHead>(["vec", embedder, blob, "n"]);
  if (!head.value) return null;
  const parts: Uint8Array[] = [];
  for await (const e of store.kv.list<Uint8Array>({ prefix: ["vec", embedder, blob, "p"] })) {
    parts.push(e.value);
  }
  if (parts.length !== head.value.parts) return null;
  return decode(blob, concat(parts), head.value);
}

/** Every complete block of an embedder, in one pass over the store. */
export async function* readAllBlocks(
  store: Store,
  embedder: string,
): AsyncGenerator<VectorBlock> {
  let blob = "";
  let parts: Uint8Array[] = [];
  let head: BlockHead | null = null;
  const flush = () => {
    if (!blob || !head || parts.length !== head.parts) return null;
    return decode(blob, concat(parts), head);
  };
  for await (
    const e of store.kv.list<Uint8Array | BlockHead>({ prefix: ["vec", embedder] }, {
      batchSize: 500,
    })
  ) {
    const key = e.key as [string, string, string, string, number?];
    if (key[2] !== blob) {
      const done = flush();
      if (done) yield done;
      blob = key[2];
      parts = [];
      head = null;
    }
    if (key[3] === "n") head = e.value as BlockHead;
    else parts.push(e.value as Uint8Array);
  }
  const done = flush();
  if (done) yield done;
}

/** Whether a complete block exists. */
export async function hasBlock(store: Store, embedder: string, blob: string): Promise<boolean> {
  return (await store.kv.get(["vec", embedder, blob, "n"])).value !== null;
}

/** Deletes the blocks of some blobs (a few: each is listed on its own). */
export async function deleteBlocks(
  store: Store,
  embedder: string,
  blobs: Iterable<string>,
): Promise<void> {
  for (const blob of blobs) {
    let op = store.kv.atomic();
    let n = 0;
    for await (const e of store.kv.list({ prefix: ["vec", embedder, blob] })) {
      op = op.delete(e.key);
      if (++n % 500 === 0) {
        await mustCommit(op);
        op = store.kv.atomic();
      }
    }
    await mustCommit(op);
  }
}

/**
 * Deletes the blocks of `embedder` whose blob is not in `keep`, and every block of other
 * embedders (switching embedder re-embeds; vectors never mix). Reads every vector: for a
 * process's first run; later runs delete what they replaced with `deleteBlocks`.
 */
export async function collectVectorGarbage(
  store: Store,
  embedder: string,
  keep: Set<string>,
): Promise<number> {
  const keys: Deno.KvKey[] = [];
  const blobs = new Set<string>();
  for await (const e of store.kv.list({ prefix: ["vec"] }, { batchSize: 1000 })) {
    const [, id, blob] = e.key as [string, string, string];
    if (id !== embedder || !keep.has(blob)) {
      keys.push(e.key);
      blobs.add(`${id}\0${blob}`);
    }
  }
  for (let i = 0; i < keys.length; i += 500) {
    let op = store.kv.atomic();
    for (const k of keys.slice(i, i + 500)) op = op.delete(k);
    await mustCommit(op);
  }
  return blobs.size;
}

async function mustCommit(op: Deno.AtomicOperation): Promise<void> {
  const res = await op.commit();
  if (!res.ok) throw new Error("vector store write failed");
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
