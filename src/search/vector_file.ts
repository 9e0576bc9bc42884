/**
 * A generation's complete vectors in the form search reads them (`vectors.bin` beside the
 * store): the sealed int8 index — scales, presence, mean row, rows, sign codes — and each
 * row's text hash, named by what they were built from (codectx version, embedder, every
 * file's blob and row count). A process opening an unchanged index reads them straight into
 * the scan kernels' memory, one read per section, instead of reading every file's float32
 * block from the store, quantising and sealing again (the stdlib's 60,993 rows: ~1 s of CPU
 * at each fresh process's first search).
 *
 * The blocks in the store stay what a new generation reuses file by file; this file is only
 * ever the current generation's, written when its vectors are complete.
 *
 * @module
 */

import { sha256Hex } from "../util/hash.ts";
import { VERSION } from "../version.ts";
import { type Manifest, STORE_FORMAT } from "../store/kv.ts";
import { FlatVectorIndex } from "./vectors.ts";
import { writeFileAtomically } from "../index/columns_io.ts";

/** The file, in the index folder, that holds the last complete vectors. */
export const VECTORS_FILE = "vectors.bin";

const MAGIC = new TextEncoder().encode("CTXVEC01");

/** What the head of the file says. */
interface Head {
  key: string;
  embedder: string;
  rows: number;
  dimensions: number;
  /** Byte length of each section, in order: scales, presence, mean, rows, codes, hashes. */
  sections: number[];
}

/**
 * The vectors a file held: the sealed index and each row's text hash (made when first asked:
 * only a later generation that reuses rows reads them — 61k strings on the stdlib, a tenth
 * of a server's way to complete vectors).
 */
export interface StoredVectors {
  index: FlatVectorIndex;
  readonly hashes: string[];
}

/**
 * What vectors are built from: the codectx version and store format, the embedder, and each
 * file of the chunk table (its blob and row count), in table order.
 */
export async function vectorsKey(
  embedder: string,
  files: ReadonlyArray<{ blob: string; start: number; end: number }>,
): Promise<string> {
  const parts = [`${VERSION} ${STORE_FORMAT}`, embedder];
  for (const f of files) parts.push(`${f.blob} ${f.end - f.start}`);
  return await sha256Hex(new TextEncoder().encode(parts.join("\n")));
}

/**
 * The chunk table's files from the manifest alone (files with chunks, in manifest order:
 * the order the table lays them out), for {@link vectorsKey} without loading a chunk.
 */
export function manifestTableFiles(
  manifest: Manifest,
): Array<{ blob: string; start: number; end: number }> {
  const out: Array<{ blob: string; start: number; end: number }> = [];
  let start = 0;
  for (const f of manifest.files) {
    if (f.skipped || !f.blob || f.chunks === 0) continue;
    out.push({ blob: f.blob, start, end: start + f.chunks });
    start += f.chunks;
  }
  return out;
}

/** The key and embedder of the vectors file in `dir` (its head only), or null. */
export function storedVectorsHead(dir: string): { key: string; embedder: string } | null {
  try {
    const file = Deno.openSync(`${dir}/${VECTORS_FILE}`, { read: true });
    try {
      const first = new Uint8Array(12);
      if (!readFully(file, first) || MAGIC.some((b, i) => first[i] !== b)) return null;
      const json = new Uint8Array(new DataView(first.buffer).getUint32(8, true));
      if (!readFully(file, json)) return null;
      const head = JSON.parse(new TextDecoder().decode(json)) as Head;
      return { key: head.key, embedder: head.embedder };
    } finally {
      file.close();
    }
  } catch {
    return null;
  }
}

function pad8(n: number): number {
  return (8 - (n % 8)) % 8;
}

/** Each row's text hash (16 hex digits) as two little-endian words. */
function encodeHashes(hashes: readonly string[]): Uint8Array {
  const out = new Uint32Array(hashes.length * 2);
  hashes.forEach((h, r) => {
    out[2 * r] = parseInt(h.slice(0, 8), 16) >>> 0;
    out[2 * r + 1] = parseInt(h.slice(8, 16), 16) >>> 0;
  });
  return new Uint8Array(out.buffer);
}

function decodeHashes(bytes: Uint8Array, rows: number): string[] {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, rows * 2);
  const out = new Array<string>(rows);
  for (let r = 0; r < rows; r++) {
    out[r] = words[2 * r].toString(16).padStart(8, "0") +
      words[2 * r + 1].toString(16).padStart(8, "0");
  }
  return out;
}

/**
 * Writes the complete vectors of a generation (atomically); whether it was written. Never
 * throws: without the file, the next process reads the store's blocks.
 */
export function writeVectorsFile(
  dir: string,
  key: string,
  embedder: string,
  index: FlatVectorIndex,
  hashes: readonly string[],
): boolean {
  const sections = index.sections();
  if (!sections || hashes.length !== index.rows) return false;
  sections.push(encodeHashes(hashes));
  const head: Head = {
    key,
    embedder,
    rows: index.rows,
    dimensions: index.dimensions,
    sections: sections.map((s) => s.length),
  };
  const json = new TextEncoder().encode(JSON.stringify(head));
  const lead = new Uint8Array(12 + json.length + pad8(12 + json.length));
  lead.set(MAGIC);
  new DataView(lead.buffer).setUint32(8, json.length, true);
  lead.set(json, 12);
  const zeros = new Uint8Array(8);
  return writeFileAtomically(`${dir}/${VECTORS_FILE}`, [
    lead,
    ...sections.flatMap((s) => [s, zeros.subarray(0, pad8(s.length))]),
  ]);
}

/** Reads exactly `into.length` bytes from the file's position; false at an early end. */
function readFully(file: Deno.FsFile, into: Uint8Array): boolean {
  let got = 0;
  while (got < into.length) {
    const n = file.readSync(into.subarray(got));
    if (n === null) return false;
    got += n;
  }
  return true;
}

/**
 * The vectors in `dir` if they were built from `key` by `embedder`; null when absent, stale
 * or unreadable. `slots`: threads that will scan them (see `FlatVectorIndex`).
 */
export function readVectorsFile(
  dir: string,
  key: string,
  embedder: string,
  slots = 1,
): StoredVectors | null {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(`${dir}/${VECTORS_FILE}`, { read: true });
  } catch {
    return null;
  }
  try {
    const first = new Uint8Array(12);
    if (!readFully(file, first) || MAGIC.some((b, i) => first[i] !== b)) return null;
    const length = new DataView(first.buffer).getUint32(8, true);
    const json = new Uint8Array(length + pad8(12 + length));
    if (!readFully(file, json)) return null;
    const head = JSON.parse(new TextDecoder().decode(json.subarray(0, length))) as Head;
    if (head.key !== key || head.embedder !== embedder || head.sections.length !== 6) return null;
    const skip = (n: number) => readFully(file, new Uint8Array(pad8(n)));
    const index = FlatVectorIndex.sealedFrom(head.rows, head.dimensions, slots, (views) => {
      for (let i = 0; i < views.length; i++) {
        if (views[i].length !== head.sections[i]) return false;
        if (!readFully(file, views[i]) || !skip(views[i].length)) return false;
      }
      return true;
    });
    if (!index) return null;
    const hashBytes = new Uint8Array(head.sections[5]);
    if (hashBytes.length !== head.rows * 8 || !readFully(file, hashBytes)) return null;
    let hashes: string[] | null = null;
    return {
      index,
      get hashes() {
        return hashes ??= decodeHashes(hashBytes, head.rows);
      },
    };
  } catch {
    return null;
  } finally {
    file.close();
  }
}
