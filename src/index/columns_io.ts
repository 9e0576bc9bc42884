/**
 * What the column files beside the store (`symbols.bin`, `chunks.bin`) share: positioned
 * reads and whole writes, padding, and typed arrays grown by doubling.
 *
 * @module
 */

/** `length` bytes of `fd` from `at`. */
export function readAt(fd: Deno.FsFile, at: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  fd.seekSync(at, Deno.SeekMode.Start);
  let got = 0;
  while (got < length) {
    const n = fd.readSync(out.subarray(got));
    if (n === null) throw new Error("column file ends early");
    got += n;
  }
  return out;
}

/** Writes all of `bytes` at the file's position. */
export function writeAll(fd: Deno.FsFile, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += fd.writeSync(bytes.subarray(at));
}

/** How many zero bytes bring `length` to a multiple of 8. */
export function padLength(length: number): number {
  return (8 - (length % 8)) % 8;
}

/** The bytes of a typed array (a view). */
export function bytesOf(a: Uint32Array | Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** `a`, or a copy at least `need` long (sizes double). */
export function grow<T extends Uint32Array | Int32Array | Float64Array | Uint8Array>(
  a: T,
  need: number,
): T {
  if (need <= a.length) return a;
  let size = a.length || 1024;
  while (size < need) size *= 2;
  const out = new (a.constructor as { new (n: number): T })(size);
  out.set(a);
  return out;
}
