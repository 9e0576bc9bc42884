/**
 * A flat vector index in pure TypeScript: one contiguous typed array (float32, or int8
 * with a scale per row), rows addressed like the chunk table, exhaustive dot products and
 * a bounded heap for the top k.
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

/** How rows are held in memory. */
export type Quantization = "float32" | "int8";

/** A scored row. */
export interface Hit {
  row: number;
  score: number;
}

/**
 * The `k` best of `n` scores (`score(i)`, skipped when `accept(i)` is false), best first,
 * with a bounded min-heap.
 *
 * @example
 * ```ts
 * topK(4, 2, (i) => [0.1, 0.9, 0.5, 0.3][i]); // [{row: 1, score: 0.9}, {row: 2, score: 0.5}]
 * ```
 */
export function topK(
  n: number,
  k: number,
  score: (i: number) => number,
  accept?: (i: number) => boolean,
): Hit[] {
  if (k <= 0) return [];
  const rows = new Int32Array(k);
  const vals = new Float64Array(k);
  let size = 0;
  const less = (a: number, b: number) =>
    vals[a] < vals[b] || (vals[a] === vals[b] && rows[a] > rows[b]);
  const swap = (a: number, b: number) => {
    const r = rows[a];
    rows[a] = rows[b];
    rows[b] = r;
    const v = vals[a];
    vals[a] = vals[b];
    vals[b] = v;
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && less(l, m)) m = l;
      if (r < size && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (let i = 0; i < n; i++) {
    if (accept && !accept(i)) continue;
    const s = score(i);
    if (Number.isNaN(s)) continue;
    if (size < k) {
      rows[size] = i;
      vals[size] = s;
      let c = size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!less(c, p)) break;
        swap(c, p);
        c = p;
      }
    } else if (s > vals[0] || (s === vals[0] && i < rows[0])) {
      rows[0] = i;
      vals[0] = s;
      down(0);
    }
  }
  const out: Hit[] = [];
  for (let i = 0; i < size; i++) out.push({ row: rows[i], score: vals[i] });
  return out.sort((a, b) => b.score - a.score || a.row - b.row);
}

/**
 * A WebAssembly SIMD kernel, `dot(q, a, rows, rowBytes, out)`: `out[r] = Σ a[r]·q` over rows
 * of `rowBytes` (a multiple of 32) laid out one after another in the imported memory.
 * Hand-assembled (no toolchain needed); 4 float32 lanes per instruction, two accumulators.
 */
const DOT_BODY = [
  0x02,
  0x03,
  0x7f,
  0x02,
  0x7b, // locals: r, j, pa (i32); acc, acc2 (v128)
  0x20,
  0x01,
  0x21,
  0x07, // pa = a
  0x02,
  0x40,
  0x03,
  0x40, // block, loop (rows)
  0x20,
  0x05,
  0x20,
  0x02,
  0x4f,
  0x0d,
  0x01, // r >= rows → done
  0xfd,
  0x0c,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0x22,
  0x08,
  0x21,
  0x09, // accs = 0
  0x41,
  0x00,
  0x21,
  0x06, // j = 0
  0x03,
  0x40, // loop (8 floats per turn, two accumulators)
  0x20,
  0x08,
  0x20,
  0x07,
  0x20,
  0x06,
  0x6a,
  0xfd,
  0x00,
  0x02,
  0x00, // v128.load pa + j
  0x20,
  0x00,
  0x20,
  0x06,
  0x6a,
  0xfd,
  0x00,
  0x02,
  0x00, // v128.load q + j
  0xfd,
  0xe6,
  0x01,
  0xfd,
  0xe4,
  0x01,
  0x21,
  0x08, // acc += a·q (f32x4)
  0x20,
  0x09,
  0x20,
  0x07,
  0x20,
  0x06,
  0x6a,
  0xfd,
  0x00,
  0x02,
  0x10, // v128.load pa + j + 16
  0x20,
  0x00,
  0x20,
  0x06,
  0x6a,
  0xfd,
  0x00,
  0x02,
  0x10, // v128.load q + j + 16
  0xfd,
  0xe6,
  0x01,
  0xfd,
  0xe4,
  0x01,
  0x21,
  0x09, // acc2 += a·q
  0x20,
  0x06,
  0x41,
  0x20,
  0x6a,
  0x22,
  0x06, // j += 32
  0x20,
  0x03,
  0x49,
  0x0d,
  0x00,
  0x0b, // while j < rowBytes
  0x20,
  0x08,
  0x20,
  0x09,
  0xfd,
  0xe4,
  0x01,
  0x21,
  0x08, // acc += acc2
  0x20,
  0x04,
  0x20,
  0x05,
  0x41,
  0x02,
  0x74,
  0x6a, // &out[r]
  0x20,
  0x08,
  0xfd,
  0x1f,
  0x00,
  0x20,
  0x08,
  0xfd,
  0x1f,
  0x01,
  0x92,
  0x20,
  0x08,
  0xfd,
  0x1f,
  0x02,
  0x92,
  0x20,
  0x08,
  0xfd,
  0x1f,
  0x03,
  0x92, // lane sum
  0x38,
  0x02,
  0x00, // out[r] = …
  0x20,
  0x07,
  0x20,
  0x03,
  0x6a,
  0x21,
  0x07, // pa += rowBytes
  0x20,
  0x05,
  0x41,
  0x01,
  0x6a,
  0x21,
  0x05, // r++
  0x0c,
  0x00,
  0x0b,
  0x0b,
  0x0b,
];

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    const b = n & 0x7f;
    n >>>= 7;
    out.push(n ? b | 0x80 : b);
  } while (n);
  return out;
}

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

const DOT_WASM = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00,
  ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]), // (i32 ×5) → ()
  ...section(2, [0x01, 0x03, 0x65, 0x6e, 0x76, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x01]), // env.mem
  ...section(3, [0x01, 0x00]),
  ...section(7, [0x01, 0x03, 0x64, 0x6f, 0x74, 0x00, 0x00]), // export "dot"
  ...section(10, [0x01, ...leb(DOT_BODY.length), ...DOT_BODY]),
]);

let dotModule: WebAssembly.Module | null | undefined;

/** The compiled kernel, or null where WebAssembly SIMD is missing. */
function simdModule(): WebAssembly.Module | null {
  if (dotModule === undefined) {
    try {
      dotModule = WebAssembly.validate(DOT_WASM) ? new WebAssembly.Module(DOT_WASM) : null;
    } catch {
      dotModule = null;
    }
  }
  return dotModule;
}

/** Float32 rows in WebAssembly memory, scanned by the SIMD kernel. */
interface SimdScan {
  /** rows × stride floats at offset 0. */
  data: Float32Array;
  query: Float32Array;
  out: Float32Array;
  run(rows: number): void;
}

function simdScan(rows: number, stride: number): SimdScan | null {
  const module = simdModule();
  if (!module || rows === 0) return null;
  const dataBytes = rows * stride * 4;
  const total = dataBytes + stride * 4 + rows * 4;
  const pages = Math.ceil(total / 65536);
  if (pages > 65536) return null;
  const mem = new WebAssembly.Memory({ initial: pages });
  const instance = new WebAssembly.Instance(module, { env: { mem } });
  const dot = instance.exports.dot as (
    q: number,
    a: number,
    rows: number,
    rowBytes: number,
    out: number,
  ) => void;
  const data = new Float32Array(mem.buffer, 0, rows * stride);
  const query = new Float32Array(mem.buffer, dataBytes, stride);
  const out = new Float32Array(mem.buffer, dataBytes + stride * 4, rows);
  return {
    data,
    query,
    out,
    run: (n) => dot(dataBytes, 0, n, stride * 4, dataBytes + stride * 4),
  };
}

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
      return;
    }
    if (this.f32) {
      const a = this.f32;
      const stride = this.stride;
      for (let r = 0, o = 0; r < this.rows; r++, o += stride) {
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
      return;
    }
    const a = this.i8!;
    const scales = this.scales!;
    for (let r = 0, o = 0; r < this.rows; r++, o += d) {
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

  /** The `k` rows most similar to `q` among those `accept` lets through. */
  search(q: Float32Array, k: number, accept?: (row: number) => boolean): Hit[] {
    const scores = new Float32Array(this.rows);
    this.scoreAll(q, scores);
    return topK(this.rows, k, (i) => scores[i], accept);
  }
}
