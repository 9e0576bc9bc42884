/**
 * Content hashing shared by the store, the indexer and the model loader.
 *
 * @module
 */

/**
 * Hex SHA-256 of the concatenation of `parts`.
 *
 * @example
 * ```ts
 * await sha256Hex(new TextEncoder().encode("abc")); // "ba7816bf…"
 * ```
 */
export async function sha256Hex(...parts: Uint8Array[]): Promise<string> {
  let all: Uint8Array;
  if (parts.length === 1) all = parts[0];
  else {
    all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      all.set(p, o);
      o += p.length;
    }
  }
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", all as Uint8Array<ArrayBuffer>),
  );
  let s = "";
  for (const b of digest) s += b.toString(16).padStart(2, "0");
  return s;
}
