/**
 * A flat vector index in pure TypeScript: one contiguous typed array (float32, or int8
 * with a scale per row), rows addressed like the chunk table, exhaustive dot products and
 * a bounded heap for the top k. Float32 rows are scanned by a WebAssembly SIMD kernel
 * where the runtime has one.
 *
 * @module
 */

import { type SimdScan, simdScan } from "./simd_dot.ts";
import { type Hit, topK } from "./top_k.ts";

export { type Hit, topK } from "./top_k.ts";

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

/** How rows are held in memory. */
export type Quantization = "float32" | "int8";

/** A fixed number of rows of `dimensions` each; a row is absent until set. */
export class FlatVectorIndex {
  readonly present: Uint8Array;
  /** Floats per row: `dimensions` rounded up to a multiple of 8 (two SIMD registers). */
  private readonly stride: number;
  private f32: Float32Array | null = null;
  private simd: SimdScan | null = null;
  private i8: Int8Array | null = null;
  private scales: Float32Array | null = null;
  private filled = 0;

  constructor(
    readonly rows: number,
    readonly dimensions: number,
    readonly quantization: Quantization = "float32",
    /** Use the WebAssembly SIMD kernel when available (default true). */
    useSimd = true,
  ) {
    this.present = new Uint8Array(rows);
    this.stride = Math.ceil(dimensions / 8) * 8;
    if (quantization === "int8") {
      this.i8 = new Int8Array(rows * dimensions);
      this.scales = new Float32Array(rows);
    } else {
      this.simd = useSimd ? simdScan(rows, this.stride) : null;
      this.f32 = this.simd?.data ?? new Float32Array(rows * this.stride);
    }
  }

  /** Whether scans run on the WebAssembly SIMD kernel. */
  get accelerated(): boolean {
    return this.simd !== null;
  }

  /** Rows that hold a vector. */
  get count(): number {
    return this.filled;
  }

  /** Stores a (unit) vector in `row`. */
  set(row: number, v: ArrayLike<number>): void {
    const d = this.dimensions;
    if (v.length !== d) throw new Error(`vector has ${v.length} dimensions, expected ${d}`);
    if (this.f32) {
      this.f32.set(v, row * this.stride);
    } else {
      let max = 0;
      for (let i = 0; i < d; i++) max = Math.max(max, Math.abs(v[i]));
      const scale = max / 127 || 1;
      const i8 = this.i8!;
      for (let i = 0; i < d; i++) i8[row * d + i] = Math.round(v[i] / scale);
      this.scales![row] = scale;
    }
    if (!this.present[row]) {
      this.present[row] = 1;
      this.filled++;
    }
  }

  /** The vector of `row` (a copy; dequantised for int8), or null when absent. */
  get(row: number): Float32Array | null {
    if (!this.present[row]) return null;
    const d = this.dimensions;
    if (this.f32) return this.f32.slice(row * this.stride, row * this.stride + d);
    const out = new Float32Array(d);
    const s = this.scales![row];
    for (let i = 0; i < d; i++) out[i] = this.i8![row * d + i] * s;
    return out;
  }

  /** Writes the dot product of `q` with every present row into `out` (NaN when absent). */
  scoreAll(q: Float32Array, out: Float32Array): void {
    const d = this.dimensions;
    const present = this.present;
    if (this.simd) {
      const { query, out: res } = this.simd;
      query.fill(0);
      query.set(q.subarray(0, d));
      this.simd.run(this.rows);
      for (let r = 0; r < this.rows; r++) out[r] = present[r] ? res[r] : NaN;
    } else if (this.f32) {
      scoreFloat32(this.f32, this.stride, d, present, q, out);
    } else {
      scoreInt8(this.i8!, this.scales!, d, present, q, out);
    }
  }

  /** The `k` rows most similar to `q` among those `accept` lets through. */
  search(q: Float32Array, k: number, accept?: (row: number) => boolean): Hit[] {
    const scores = new Float32Array(this.rows);
    this.scoreAll(q, scores);
    return topK(this.rows, k, (i) => scores[i], accept);
  }
}

// The float32 and int8 scans below are the same loop over two array types on purpose: one
// generic loop would see both element kinds and make V8's hot path polymorphic (slower).

/** Dot products of `q` with float32 rows `stride` floats apart (NaN where absent). */
function scoreFloat32(
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

/** Dot products of `q` with int8 rows of `d` values, each times its row's scale. */
function scoreInt8(
  a: Int8Array,
  scales: Float32Array,
  d: number,
  present: Uint8Array,
  q: Float32Array,
  out: Float32Array,
): void {
  for (let r = 0, o = 0; r < present.length; r++, o += d) {
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
