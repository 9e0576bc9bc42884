/**
 * The vector arithmetic of `vectors.ts` that needs no index: unit length, a filter as a row
 * mask, the sign code of a row, and the plain-JavaScript scans used where the WebAssembly
 * kernels cannot run.
 *
 * @module
 */

/** Scales `v` to unit length in place (a zero or NaN vector becomes zero) and returns it. */
export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  if (s > 0 && Number.isFinite(s)) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  } else {
    // A model that yields nothing for an input (all-special tokens) scores 0 everywhere.
    v.fill(0);
  }
  return v;
}

const masks = new WeakMap<Float32Array, Uint8Array>();

/**
 * Per row, 1 when its file's weight lets it enter a result (`fileWeight[fileOfRow[row]] >
 * 0`), else 0: the filter `nearest` takes as an array; made once per weights array.
 */
export function filterMask(fileOfRow: Uint32Array, fileWeight: Float32Array): Uint8Array {
  let mask = masks.get(fileWeight);
  if (!mask) {
    mask = new Uint8Array(fileOfRow.length);
    for (let r = 0; r < mask.length; r++) mask[r] = fileWeight[fileOfRow[r]] > 0 ? 1 : 0;
    masks.set(fileWeight, mask);
  }
  return mask;
}

/** A typed array of `n` elements over a SharedArrayBuffer when sharing (else a plain one). */
export function sharedArray<T>(
  make: new (buffer: ArrayBufferLike) => T,
  n: number,
  bytesPer: number,
  share: boolean,
): T {
  const canShare = share && typeof SharedArrayBuffer !== "undefined";
  return new make(canShare ? new SharedArrayBuffer(n * bytesPer) : new ArrayBuffer(n * bytesPer));
}

/** Resolves after the event loop has run (a timer, so that I/O callbacks run too). */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Writes the code of one int8 row: bit i set when its value i is above the mean's. */
export function encodeSigns(
  i8: Int8Array,
  at: number,
  scale: number,
  mean: Float32Array,
  codes: Uint8Array,
  to: number,
): void {
  for (let i = 0; i < mean.length; i++) {
    if (i8[at + i] * scale > mean[i]) codes[to + (i >> 3)] |= 1 << (i & 7);
  }
}

// The float32 and int8 scans below are the same loop over two array types on purpose: one
// generic loop would see both element kinds and make V8's hot path polymorphic (slower).

/** Dot products of `q` with float32 rows `stride` floats apart (NaN where absent). */
export function scoreFloat32(
  a: Float32Array,
  stride: number,
  d: number,
  present: Uint8Array,
  q: Float32Array,
  out: Float32Array,
): void {
  for (let r = 0, o = 0; r < present.length; r++, o += stride) {
    if (!present[r]) {
      out[r] = NaN;
      continue;
    }
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    let i = 0;
    for (; i + 3 < d; i += 4) {
      s0 += a[o + i] * q[i];
      s1 += a[o + i + 1] * q[i + 1];
      s2 += a[o + i + 2] * q[i + 2];
      s3 += a[o + i + 3] * q[i + 3];
    }
    for (; i < d; i++) s0 += a[o + i] * q[i];
    out[r] = s0 + s1 + s2 + s3;
  }
}

/** Dot products of `q` with int8 rows `stride` apart, each times its row's scale. */
export function scoreInt8(
  a: Int8Array,
  scales: Float32Array,
  stride: number,
  d: number,
  present: Uint8Array,
  q: Float32Array,
  out: Float32Array,
): void {
  for (let r = 0, o = 0; r < present.length; r++, o += stride) {
    if (!present[r]) {
      out[r] = NaN;
      continue;
    }
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    let i = 0;
    for (; i + 3 < d; i += 4) {
      s0 += a[o + i] * q[i];
      s1 += a[o + i + 1] * q[i + 1];
      s2 += a[o + i + 2] * q[i + 2];
      s3 += a[o + i + 3] * q[i + 3];
    }
    for (; i < d; i++) s0 += a[o + i] * q[i];
    out[r] = (s0 + s1 + s2 + s3) * scales[r];
  }
}
