/**
 * A vector index in pure TypeScript: one contiguous typed array (float32, or int8 with a
 * scale per row), rows addressed like the chunk table, dot products and a bounded heap for
 * the top k. Both kinds are scanned by WebAssembly SIMD kernels where the runtime has them.
 *
 * A complete int8 index is sealed (`seal`): each row also gets a code of one bit per
 * dimension (the sign of its difference from the mean row), and `nearest` first ranks every
 * row by the bits where its code differs from the query's (a 64-bit `popcnt` per word: 32
 * bytes per row instead of 256), then scores only the best thousand or so rows exactly.
 * `bench/dense_recall.ts` measures what this keeps of the exact answer.
 *
 * @module
 */

import { type Int8Scan, int8Scan, int8ScanAt, type SimdScan, simdScan } from "./simd_dot.ts";
import { type HammingScan, hammingScan, hammingScanAt } from "./simd_hamming.ts";
import { type Hit, topKOf } from "./top_k.ts";
import { encodeSigns, scoreFloat32, scoreInt8, sharedArray, yieldToLoop } from "./vector_math.ts";

export { filterMask, normalize } from "./vector_math.ts";
export { type Hit, topK, topKOf } from "./top_k.ts";

/** How rows are held in memory. */
export type Quantization = "float32" | "int8";

/** What `nearest` found: the best rows, and the score of every row it looked at. */
export interface Nearest {
  /** Best first. */
  top: Hit[];
  /** One entry per row: its score where scanned, NaN elsewhere (and for absent rows). */
  scores: Float32Array;
  /** Rows scored exactly (every present row when the index is not sealed). */
  scanned: number;
}

/** Rows a sealed index scores exactly for `nearest(q, k)`, by default: max(this, 4k). */
export const MIN_SHORTLIST = 1000;

/** Bits past the last shortlist's cut that the next one's is expected within. */
const GUESS_MARGIN = 8;

/**
 * A sealed int8 index as other threads attach to it (`FlatVectorIndex.attach`): its rows,
 * scales, presence and codes in shared memory, nothing copied.
 */
export interface SharedVectors {
  rows: number;
  dimensions: number;
  filled: number;
  /** Threads that can scan at once (each in a slot of its own; the owner uses slot 0). */
  slots: number;
  rowsMemory: WebAssembly.Memory;
  codesMemory: WebAssembly.Memory;
  scales: Float32Array;
  present: Uint8Array;
  mean: Float32Array;
}

/** A fixed number of rows of `dimensions` each; a row is absent until set. */
export class FlatVectorIndex {
  readonly present: Uint8Array;
  /** Values per row: `dimensions` rounded up to the SIMD kernel's step (8 floats, 16 int8). */
  private readonly stride: number;
  private f32: Float32Array | null = null;
  private simd: SimdScan | null = null;
  private i8: Int8Array | null = null;
  private simd8: Int8Scan | null = null;
  private scales: Float32Array | null = null;
  private filled = 0;
  /** The sign codes of a sealed index, and the mean row they are taken from. */
  private codes: { scan: HammingScan; mean: Float32Array } | null = null;

  constructor(
    readonly rows: number,
    readonly dimensions: number,
    readonly quantization: Quantization = "float32",
    /** Use the WebAssembly SIMD kernels when available (default true). */
    useSimd = true,
    /**
     * Threads that may scan a sealed int8 index at once (`share`, `attach`): above 1 the
     * rows live in shared memory, with scratch room for each.
     */
    readonly slots = 1,
  ) {
    const share = slots > 1 && quantization === "int8";
    this.present = sharedArray(Uint8Array, rows, 1, share);
    if (quantization === "int8") {
      this.stride = Math.ceil(dimensions / 16) * 16;
      this.simd8 = useSimd ? int8Scan(rows, this.stride, slots) : null;
      this.i8 = this.simd8?.data ?? new Int8Array(rows * this.stride);
      this.scales = sharedArray(Float32Array, rows, 4, share);
    } else {
      this.stride = Math.ceil(dimensions / 8) * 8;
      this.simd = useSimd ? simdScan(rows, this.stride) : null;
      this.f32 = this.simd?.data ?? new Float32Array(rows * this.stride);
    }
  }

  /**
   * What another thread needs to scan this index in slot 1…slots-1 (`attach`), or null
   * when it cannot: not sealed, not int8 in shared memory.
   */
  share(): SharedVectors | null {
    const codes = this.codes;
    const rowsMemory = this.simd8?.memory;
    const shared = (m?: WebAssembly.Memory) =>
      m !== undefined && typeof SharedArrayBuffer !== "undefined" &&
      m.buffer instanceof SharedArrayBuffer;
    if (!codes || !shared(rowsMemory) || !shared(codes.scan.memory)) return null;
    if (!(this.scales!.buffer instanceof SharedArrayBuffer)) return null;
    return {
      rows: this.rows,
      dimensions: this.dimensions,
      filled: this.filled,
      slots: this.slots,
      rowsMemory: rowsMemory!,
      codesMemory: codes.scan.memory,
      scales: this.scales!,
      present: this.present,
      mean: codes.mean,
    };
  }

  /**
   * A sealed index over the memory of another thread's (`share`), scanning in slot `slot`
   * (1…slots-1); it answers as that index does. Null when the kernels cannot run here.
   */
  static attach(s: SharedVectors, slot: number): FlatVectorIndex | null {
    if (slot < 1 || slot >= s.slots) return null;
    const index = new FlatVectorIndex(0, s.dimensions, "int8", false);
    const simd8 = int8ScanAt(s.rowsMemory, s.rows, index.stride, slot);
    const scan = hammingScanAt(s.codesMemory, s.rows, s.dimensions, slot);
    if (!simd8 || !scan) return null;
    const self = index as unknown as {
      rows: number;
      present: Uint8Array;
      simd8: Int8Scan;
      i8: Int8Array;
      scales: Float32Array;
      filled: number;
      codes: { scan: HammingScan; mean: Float32Array };
    };
    self.rows = s.rows;
    self.present = s.present;
    self.simd8 = simd8;
    self.i8 = simd8.data;
    self.scales = s.scales;
    self.filled = s.filled;
    self.codes = { scan, mean: s.mean };
    return index;
  }

  /**
   * The arrays a sealed int8 index is made of, as views (nothing copied), in the order a
   * file holds them (`vector_file.ts`): scales, presence, the mean row, the rows, the codes.
   * Null when the index is not a sealed int8 one on the kernels.
   */
  sections(): Uint8Array[] | null {
    const codes = this.codes;
    if (!codes || !this.simd8 || !this.scales) return null;
    const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    return [
      bytes(this.scales),
      bytes(this.present),
      bytes(codes.mean),
      bytes(this.simd8.data.subarray(0, this.rows * this.stride)),
      bytes(codes.scan.codes),
    ];
  }

  /**
   * A sealed int8 index of `rows` × `dimensions` whose arrays `fill` writes in place, in the
   * order of {@link sections} (each into the view it is given: the rows and codes straight
   * into the kernels' memory); null when the kernels cannot run here. `fill` returns false
   * when it could not fill them (then so does this: null).
   */
  static sealedFrom(
    rows: number,
    dimensions: number,
    slots: number,
    fill: (views: Uint8Array[]) => boolean,
  ): FlatVectorIndex | null {
    const index = new FlatVectorIndex(rows, dimensions, "int8", true, slots);
    const scan = hammingScan(rows, dimensions, slots);
    if (!index.simd8 || !scan) return null;
    const mean = new Float32Array(dimensions);
    index.codes = { scan, mean };
    const views = index.sections();
    if (!views || !fill(views)) return null;
    let filled = 0;
    for (let r = 0; r < rows; r++) filled += index.present[r];
    index.filled = filled;
    return index;
  }

  /** Whether scans run on a WebAssembly SIMD kernel. */
  get accelerated(): boolean {
    return this.simd !== null || this.simd8 !== null;
  }

  /** Rows that hold a vector. */
  get count(): number {
    return this.filled;
  }

  /** Bytes the rows take (vectors and scales). */
  get bytes(): number {
    return this.rows * this.stride * (this.f32 ? 4 : 1) + (this.scales ? this.rows * 4 : 0);
  }

  /** Whether `nearest` ranks by sign codes first (see `seal`). */
  get sealed(): boolean {
    return this.codes !== null;
  }

  /** Stores a (unit) vector in `row`. A seal made before is broken. */
  set(row: number, v: ArrayLike<number>): void {
    const d = this.dimensions;
    if (v.length !== d) throw new Error(`vector has ${v.length} dimensions, expected ${d}`);
    this.codes = null;
    if (this.f32) {
      this.f32.set(v, row * this.stride);
    } else {
      let max = 0;
      for (let i = 0; i < d; i++) max = Math.max(max, Math.abs(v[i]));
      const scale = max / 127 || 1;
      const i8 = this.i8!;
      const o = row * this.stride;
      for (let i = 0; i < d; i++) i8[o + i] = Math.round(v[i] / scale);
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
    const o = row * this.stride;
    if (this.f32) return this.f32.slice(o, o + d);
    const out = new Float32Array(d);
    const s = this.scales![row];
    for (let i = 0; i < d; i++) out[i] = this.i8![o + i] * s;
    return out;
  }

  /** Adds `weight` × the vector of `row` (dequantised) into `acc`; false when absent. */
  addTo(row: number, acc: Float32Array, weight = 1): boolean {
    if (!this.present[row]) return false;
    const d = this.dimensions;
    const o = row * this.stride;
    if (this.f32) {
      for (let i = 0; i < d; i++) acc[i] += weight * this.f32[o + i];
    } else {
      const w = weight * this.scales![row];
      for (let i = 0; i < d; i++) acc[i] += w * this.i8![o + i];
    }
    return true;
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
    } else if (this.simd8) {
      const ids = this.simd8.ids;
      for (let r = 0; r < this.rows; r++) ids[r] = r;
      const qs = this.loadQuery8(q);
      this.simd8.run(this.rows);
      const res = this.simd8.out;
      const scales = this.scales!;
      for (let r = 0; r < this.rows; r++) out[r] = present[r] ? res[r] * scales[r] * qs : NaN;
    } else if (this.f32) {
      scoreFloat32(this.f32, this.stride, d, present, q, out);
    } else {
      scoreInt8(this.i8!, this.scales!, this.stride, d, present, q, out);
    }
  }

  /**
   * Scores the rows `ids[0…count)` against `q`: `out[i]` for `ids[i]` (NaN when absent).
   * With the int8 kernel this touches only those rows.
   */
  scoreIds(q: Float32Array, ids: Int32Array, count: number, out: Float32Array): void {
    const present = this.present;
    if (this.simd8) {
      const qs = this.loadQuery8(q);
      const res = this.simd8.out;
      const scales = this.scales!;
      const cap = this.simd8.ids.length;
      for (let at = 0; at < count; at += cap) {
        const n = Math.min(cap, count - at);
        this.simd8.ids.set(ids.subarray(at, at + n));
        this.simd8.run(n);
        for (let i = 0; i < n; i++) {
          const r = ids[at + i];
          out[at + i] = present[r] ? res[i] * scales[r] * qs : NaN;
        }
      }
      return;
    }
    for (let i = 0; i < count; i++) out[i] = this.dot(q, ids[i]);
  }

  /** Sets `out[row]` to the score of each of `rows` (a hybrid search's other candidates). */
  scoreRows(q: Float32Array, rows: ArrayLike<number>, out: Float32Array): void {
    const ids = Int32Array.from(rows);
    const res = new Float32Array(ids.length);
    this.scoreIds(q, ids, ids.length, res);
    for (let i = 0; i < ids.length; i++) out[ids[i]] = res[i];
  }

  /** The `k` rows most similar to `q` among those `accept` lets through (every row scanned). */
  search(q: Float32Array, k: number, accept?: (row: number) => boolean): Hit[] {
    const scores = new Float32Array(this.rows);
    this.scoreAll(q, scores);
    return topKOf(scores, k, -Infinity, accept);
  }

  /**
   * The `k` rows most similar to `q` among those `accept` lets through. A sealed index
   * scores exactly only the `shortlist` rows whose sign codes are nearest to the query's
   * (approximate: see `bench/dense_recall.ts`); otherwise every row is scored. A filter
   * given as a row mask (1: may enter) must not change once passed: the index keeps it
   * loaded for the next query with the same array.
   */
  nearest(
    q: Float32Array,
    k: number,
    accept?: ((row: number) => boolean) | Uint8Array,
    shortlist = Math.max(MIN_SHORTLIST, 4 * k),
    /** Where to write the scores (one per row; default a new array). */
    scores: Float32Array = new Float32Array(this.rows),
  ): Nearest {
    const codes = this.codes;
    if (!codes || shortlist >= this.filled) {
      this.scoreAll(q, scores);
      const mask = accept;
      const ok = mask instanceof Uint8Array ? (row: number) => mask[row] !== 0 : mask;
      return { top: topKOf(scores, k, -Infinity, ok), scores, scanned: this.filled };
    }
    scores.fill(NaN);
    const ids = this.shortlist(codes, q, shortlist, this.maskOf(accept));
    const res = new Float32Array(ids.length);
    this.scoreIds(q, ids, ids.length, res);
    for (let i = 0; i < ids.length; i++) scores[ids[i]] = res[i];
    const top = topKOf(res, k);
    for (const h of top) h.row = ids[h.row];
    return { top, scores, scanned: ids.length };
  }

  /**
   * Seals a complete int8 index for `nearest`: the mean row, and each row's code (one bit
   * per dimension: above the mean or not). Works in slices of rows, yielding to the event
   * loop between them; false when left unsealed (float32, no kernel, a row set meanwhile).
   */
  async seal(): Promise<boolean> {
    const i8 = this.i8;
    if (!i8 || this.filled === 0) return false;
    const scan = hammingScan(this.rows, this.dimensions, this.slots);
    if (!scan) return false;
    const filled = this.filled;
    const d = this.dimensions;
    const mean = new Float32Array(d);
    const SLICE = 4096;
    for (let r = 0; r < this.rows; r++) {
      this.addTo(r, mean, 1 / filled);
      if (r % SLICE === SLICE - 1) await yieldToLoop();
    }
    const rowBytes = scan.codes.length / this.rows;
    for (let r = 0; r < this.rows; r++) {
      if (this.present[r]) {
        encodeSigns(i8, r * this.stride, this.scales![r], mean, scan.codes, r * rowBytes);
      }
      if (r % SLICE === SLICE - 1) await yieldToLoop();
    }
    if (this.filled !== filled) return false;
    this.codes = { scan, mean };
    return true;
  }

  /** Every row may enter: the mask of a search without a filter. */
  private allRows: Uint8Array | null = null;

  /** A filter as a row mask (1: may enter); a function is asked once per row. */
  private maskOf(accept?: ((row: number) => boolean) | Uint8Array): Uint8Array {
    if (accept instanceof Uint8Array) return accept;
    if (!accept) {
      if (this.allRows?.length !== this.rows) this.allRows = new Uint8Array(this.rows).fill(1);
      return this.allRows;
    }
    const mask = new Uint8Array(this.rows);
    for (let r = 0; r < this.rows; r++) mask[r] = accept(r) ? 1 : 0;
    return mask;
  }

  /**
   * The `n` present rows of `mask` (1: may enter) whose codes differ least from `q`'s,
   * nearest first, ties to the lower row, in two passes over the rows whatever the filter
   * leaves out (a filter asked only about the nearest rows had to widen and gather again
   * when it left out many of them; it was a second shortlist beside this one). Both passes
   * run in the Hamming kernel's module: the distances with their counts by distance, then
   * the rows within the cut those counts give (in JavaScript they cost ~0.2–0.3 ms a query).
   * With 256-bit codes one pass does it when the cut lies within the last cut + 8 (cuts of
   * 1,000 of 60,993 stdlib rows: 99–130 bits, median 108; within the guess ~98 % of the
   * time): it keeps only the rows within that, and the rows within the cut are taken from
   * those; else the two passes run.
   */
  private shortlist(
    codes: { scan: HammingScan; mean: Float32Array },
    q: Float32Array,
    n: number,
    mask: Uint8Array,
  ): Int32Array {
    const { scan, mean } = codes;
    this.loadMask(scan, mask);
    scan.query.fill(0);
    for (let i = 0; i < this.dimensions; i++) {
      if (q[i] > mean[i]) scan.query[i >> 3] |= 1 << (i & 7);
    }
    const d = this.dimensions;
    const { hist, starts, order } = scan;
    const guess = this.guess;
    if (scan.near && guess < d) {
      hist.fill(0);
      const kept = scan.near(this.rows, guess);
      let cut = 0;
      let before = 0;
      while (cut <= guess && before + hist[cut] < n) before += hist[cut++];
      if (cut <= guess) {
        // The cut lies within the guess: every row within it was kept, in row order.
        this.guess = Math.min(d, cut + GUESS_MARGIN);
        starts[0] = 0;
        for (let i = 1; i <= cut; i++) starts[i] = starts[i - 1] + hist[i - 1];
        const { cand, out: dist } = scan;
        for (let i = 0; i < kept; i++) {
          const x = dist[i];
          if (x <= cut) order[starts[x]++] = cand[i];
        }
        return order.slice(0, Math.min(n, before + hist[cut]));
      }
    }
    hist.fill(0);
    scan.run(this.rows);
    let cut = 0;
    let before = 0;
    while (cut < d && before + hist[cut] < n) before += hist[cut++];
    this.guess = Math.min(d, cut + GUESS_MARGIN);
    starts[0] = 0;
    for (let i = 1; i <= cut; i++) starts[i] = starts[i - 1] + hist[i - 1];
    scan.gather(this.rows, cut);
    return order.slice(0, Math.min(n, before + hist[cut]));
  }

  /**
   * The distance the next shortlist's cut is expected within (the last cut + a margin; the
   * dimensions: unknown), so that only rows within it are kept and counted (`near`).
   */
  private guess = Infinity;

  /** What a scan's row mask holds: which filter, over how many present rows. */
  private loaded: { scan: HammingScan; mask: Uint8Array; filled: number } | null = null;

  /**
   * Puts `present & mask` into the scan's row mask, unless it holds that already (a filter
   * is one array per filter set, reused query after query).
   */
  private loadMask(scan: HammingScan, mask: Uint8Array): void {
    const l = this.loaded;
    if (l?.scan === scan && l.mask === mask && l.filled === this.filled) return;
    const present = this.present;
    const out = scan.mask;
    for (let r = 0; r < this.rows; r++) out[r] = present[r] & mask[r];
    this.loaded = { scan, mask, filled: this.filled };
  }

  /** Loads `q` into the int8 kernel's int16 query; returns the factor of its scores. */
  private loadQuery8(q: Float32Array): number {
    const d = this.dimensions;
    const query = this.simd8!.query;
    let max = 0;
    for (let i = 0; i < d; i++) max = Math.max(max, Math.abs(q[i]));
    // |Σ row·q| ≤ d · 127 · limit must fit an int32.
    const limit = Math.min(32767, Math.floor(0x7fffffff / (d * 127)));
    const qs = max / limit || 1;
    query.fill(0);
    for (let i = 0; i < d; i++) query[i] = Math.round(q[i] / qs);
    return qs;
  }

  /** The dot product of `q` with one row in plain JavaScript (NaN when absent). */
  private dot(q: Float32Array, row: number): number {
    if (!this.present[row]) return NaN;
    const d = this.dimensions;
    const o = row * this.stride;
    let s = 0;
    if (this.f32) {
      for (let i = 0; i < d; i++) s += this.f32[o + i] * q[i];
      return s;
    }
    for (let i = 0; i < d; i++) s += this.i8![o + i] * q[i];
    return s * this.scales![row];
  }
}
