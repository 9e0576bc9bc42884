/**
 * Byte helpers shared by the store, the safe file reader and the parse processes' frames.
 *
 * @module
 */

/**
 * The pieces joined into one array (the piece itself when there is only one).
 *
 * @example
 * ```ts
 * concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])]); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(pieces: Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0];
  let length = 0;
  for (const p of pieces) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
