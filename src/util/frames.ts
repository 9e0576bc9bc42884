/**
 * Length-prefixed frames over a byte stream, for the parse process (`lean_process.ts`) and
 * its parent (`lean_pool.ts`): each frame is a JSON header and a byte payload, so a file's
 * bytes and the encoded blob parts cross the pipe without being turned into text.
 *
 * On the wire: `u32 frame length`, `u32 header length`, the header (UTF-8 JSON), the
 * payload; lengths little-endian.
 *
 * @module
 */

import { concatBytes } from "./bytes.ts";

/** One frame: what the header says, and the bytes after it. */
export interface Frame<H> {
  header: H;
  payload: Uint8Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The bytes of one frame. */
export function encodeFrame(header: unknown, payload: Uint8Array = new Uint8Array()): Uint8Array {
  const head = encoder.encode(JSON.stringify(header));
  const out = new Uint8Array(8 + head.length + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 4 + head.length + payload.length, true);
  view.setUint32(4, head.length, true);
  out.set(head, 8);
  out.set(payload, 8 + head.length);
  return out;
}

/** Joins byte arrays (blob parts) into one payload, with their names and lengths. */
export function packParts(
  parts: Record<string, Uint8Array>,
): { names: [string, number][]; payload: Uint8Array } {
  const names = Object.entries(parts).map(([k, v]): [string, number] => [k, v.length]);
  const payload = new Uint8Array(names.reduce((n, [, len]) => n + len, 0));
  let at = 0;
  for (const [k, len] of names) {
    payload.set(parts[k], at);
    at += len;
  }
  return { names, payload };
}

/** The parts {@link packParts} joined, as views of `payload`. */
export function unpackParts(
  names: [string, number][],
  payload: Uint8Array,
): Record<string, Uint8Array> {
  const parts: Record<string, Uint8Array> = {};
  let at = 0;
  for (const [k, len] of names) {
    parts[k] = payload.subarray(at, at + len);
    at += len;
  }
  return parts;
}

/** Reads the frames of a stream, in order, until it ends. */
export async function* readFrames<H>(stream: ReadableStream<Uint8Array>): AsyncGenerator<Frame<H>> {
  // Pieces not yet read, joined only when a whole frame is there (a large frame arrives in
  // many pieces; joining at each would copy it again and again).
  let pieces: Uint8Array[] = [];
  let buffered = 0;
  let need = 4;
  for await (const chunk of stream) {
    pieces.push(chunk);
    buffered += chunk.length;
    while (buffered >= need) {
      let buf = concatBytes(pieces);
      const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      const size = 4 + view.getUint32(0, true);
      if (buf.length < size) {
        pieces = [buf];
        need = size;
        break;
      }
      const headLength = view.getUint32(4, true);
      const header = JSON.parse(decoder.decode(buf.subarray(8, 8 + headLength))) as H;
      // A copy: the payload outlives the buffer it arrived in.
      const payload = buf.slice(8 + headLength, size);
      buf = buf.subarray(size);
      pieces = buf.length ? [buf] : [];
      buffered = buf.length;
      need = 4;
      yield { header, payload };
    }
  }
}
