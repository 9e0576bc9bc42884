/**
 * A run of chunk texts as bytes: what a scan on another thread takes instead of strings. The
 * read model keeps texts in a file (a spill file, or `chunks.bin` for a large generation);
 * one file's chunks lie there one after another, so they are read in one piece, moved to the
 * other thread and decoded there — nothing is decoded on the server's thread.
 *
 * @module
 */

import type { ChunkRecord } from "../types.ts";
import { spilledTextBytes } from "../store/texts.ts";
import { columnTextBytes } from "./chunk_columns.ts";

/**
 * The texts of `chunks` as UTF-8 one after another, with each one's length in bytes: read in
 * one piece where they lie in order in a file, else encoded here.
 *
 * @example
 * ```ts
 * const { bytes, lengths } = chunkTextBytes(table.chunks.slice(f.start, f.end));
 * new TextDecoder().decode(bytes.subarray(0, lengths[0])); // the first chunk's text
 * ```
 */
export function chunkTextBytes(
  chunks: readonly ChunkRecord[],
): { bytes: Uint8Array; lengths: Uint32Array } {
  const read = spilledTextBytes(chunks) ?? columnTextBytes(chunks);
  if (read) return read;
  const enc = new TextEncoder();
  const parts = chunks.map((c) => enc.encode(c.text));
  const bytes = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of parts) {
    bytes.set(b, at);
    at += b.length;
  }
  return { bytes, lengths: Uint32Array.from(parts, (b) => b.length) };
}
