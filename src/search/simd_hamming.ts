/**
 * The sign-code kernels of a sealed vector index (hand-assembled WebAssembly, as in
 * `simd_dot.ts`): the Hamming distance of every row's code to the query's, counted by
 * distance for the rows a filter lets through, and the gathering of the rows within a cut.
 *
 * @module
 */

import { attach, type Instance, instantiate, leb, section } from "./simd_dot.ts";

/** `out[r] = d; hist[d] += mask[r]` (parameters out 4, mask 5, hist 6; locals `r`, `d`). */
const STORE_AND_COUNT = (r: number, d: number) =>
  [
    [0x20, 0x04, 0x20, r, 0x41, 0x02, 0x74, 0x6a, 0x20, d, 0x36, 0x02, 0x00], // out[r] = d
    [0x20, 0x06, 0x20, d, 0x41, 0x02, 0x74, 0x6a], // &hist[d]
    [0x20, 0x06, 0x20, d, 0x41, 0x02, 0x74, 0x6a, 0x28, 0x02, 0x00], // hist[d]
    [0x20, 0x05, 0x20, r, 0x6a, 0x2d, 0x00, 0x00, 0x6a, 0x36, 0x02, 0x00], // += mask[r]
  ].flat();

/**
 * The body of `ham`: `ham(q, a, rows, rowBytes, out, mask, hist)` writes `out[r]` = the
 * number of bits where row `r` (of `rowBytes`, a multiple of 32, at `a`) differs from the
 * code at `q`, and adds `mask[r]` (a byte, 0 or 1) to `hist[out[r]]` (int32): the rows a
 * filter lets through, counted by distance in the same pass. Plain 64-bit `popcnt`, four
 * words per turn (one turn for a 256-bit code: with a turn per word it took ~4.5 ns a row).
 */
const HAM_BODY: number[] = [
  [0x02, 0x06, 0x7f, 0x01, 0x7e], // locals: r, j, pa, d, pj, qj (i32); acc (i64)
  [0x20, 0x01, 0x21, 0x09], // pa = a
  [0x02, 0x40, 0x03, 0x40], // block, loop (rows)
  [0x20, 0x07, 0x20, 0x02, 0x4f, 0x0d, 0x01], // r >= rows → done
  [0x42, 0x00, 0x21, 0x0d, 0x41, 0x00, 0x21, 0x08], // acc = 0, j = 0
  [0x03, 0x40], // loop (32 bytes per turn)
  [0x20, 0x09, 0x20, 0x08, 0x6a, 0x21, 0x0b], // pj = pa + j
  [0x20, 0x00, 0x20, 0x08, 0x6a, 0x21, 0x0c], // qj = q + j
  [0x20, 0x0d], // acc
  ...[0, 8, 16, 24].map((at) => [
    [0x20, 0x0b, 0x29, 0x03, at, 0x20, 0x0c, 0x29, 0x03, at], // i64.load pj + at, qj + at
    [0x85, 0x7b, 0x7c], // + popcnt(a ^ q)
  ]).flat(),
  [0x21, 0x0d], // → acc
  [0x20, 0x08, 0x41, 0x20, 0x6a, 0x22, 0x08], // j += 32
  [0x20, 0x03, 0x49, 0x0d, 0x00, 0x0b], // while j < rowBytes
  [0x20, 0x0d, 0xa7, 0x21, 0x0a], // d = i32(acc)
  STORE_AND_COUNT(0x07, 0x0a),
  [0x20, 0x09, 0x20, 0x03, 0x6a, 0x21, 0x09], // pa += rowBytes
  [0x20, 0x07, 0x41, 0x01, 0x6a, 0x21, 0x07], // r++
  [0x0c, 0x00, 0x0b, 0x0b, 0x0b], // next row; end loop, block, function
].flat();

/** A module whose one function `ham` (i32 ×7 → nothing, over `env.mem`) has `body`. */
const hamModule = (body: number[]) =>
  new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [0x01, 0x60, 0x07, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]), // (i32 ×7) → ()
    ...section(2, [0x01, 0x03, 0x65, 0x6e, 0x76, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x01]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, 0x03, 0x68, 0x61, 0x6d, 0x00, 0x00]), // export "ham"
    ...section(10, [0x01, ...leb(body.length), ...body]),
  ]);

const HAM_WASM = hamModule(HAM_BODY);

/** Loads the query's four words (its code at parameter 0) into locals `q0`…`q0 + 3`. */
const QUERY256 = (q0: number) =>
  [0, 8, 16, 24].map((at, k) => [0x20, 0x00, 0x29, 0x03, at, 0x21, q0 + k]).flat();

/** `d = Σ popcnt(word k of the row at local pa ^ local q0 + k)`: a 256-bit code's distance. */
const DISTANCE256 = (pa: number, q0: number, d: number) =>
  [
    [0x20, pa, 0x29, 0x03, 0x00, 0x20, q0, 0x85, 0x7b], // popcnt(pa[0] ^ q0)
    ...[8, 16, 24].map((at, k) => [0x20, pa, 0x29, 0x03, at, 0x20, q0 + 1 + k, 0x85, 0x7b, 0x7c]),
    [0xa7, 0x21, d], // d = i32(sum)
  ].flat();

/**
 * `ham` for codes of exactly 32 bytes (256 bits: the codes of a 256-dimension model), with
 * the query's four words held in locals and no inner loop: ~20 % less a row than `ham`.
 */
const HAM32_BODY: number[] = [
  [0x02, 0x03, 0x7f, 0x04, 0x7e], // locals: r, pa, d (i32); q0…q3 (i64)
  QUERY256(0x0a),
  [0x20, 0x01, 0x21, 0x08], // pa = a
  [0x02, 0x40, 0x03, 0x40], // block, loop (rows)
  [0x20, 0x07, 0x20, 0x02, 0x4f, 0x0d, 0x01], // r >= rows → done
  DISTANCE256(0x08, 0x0a, 0x09),
  STORE_AND_COUNT(0x07, 0x09),
  [0x20, 0x08, 0x41, 0x20, 0x6a, 0x21, 0x08], // pa += 32
  [0x20, 0x07, 0x41, 0x01, 0x6a, 0x21, 0x07], // r++
  [0x0c, 0x00, 0x0b, 0x0b, 0x0b], // next row; end loop, block, function
].flat();

const HAM32_WASM = hamModule(HAM32_BODY);

/**
 * The body of `near`: `near(q, a, rows, guess, mask, hist, cand, dist)` → count, for codes
 * of exactly 32 bytes: only the rows of `mask` at a distance ≤ `guess` are kept, in row
 * order (`cand[i]`, their distance `dist[i]`), and counted by distance into `hist`. Counting
 * every row (`ham`) made each row wait for the count before it when both fell at the same
 * distance (most rows lie within a few bits of the middle): ~2 ns a row without it, ~4.5
 * with it. A shortlist's cut lies far below the middle, where few rows are.
 */
const NEAR_BODY: number[] = [
  [0x02, 0x04, 0x7f, 0x04, 0x7e], // locals: r, pa, d, n (i32); q0…q3 (i64)
  QUERY256(0x0c),
  [0x20, 0x01, 0x21, 0x09], // pa = a
  [0x02, 0x40, 0x03, 0x40], // block, loop (rows)
  [0x20, 0x08, 0x20, 0x02, 0x4f, 0x0d, 0x01], // r >= rows → done
  DISTANCE256(0x09, 0x0c, 0x0a),
  [0x20, 0x0a, 0x20, 0x03, 0x4d], // d <= guess
  [0x20, 0x04, 0x20, 0x08, 0x6a, 0x2d, 0x00, 0x00, 0x71], // and mask[r]
  [0x04, 0x40], // if
  [0x20, 0x06, 0x20, 0x0b, 0x41, 0x02, 0x74, 0x6a, 0x20, 0x08, 0x36, 0x02, 0x00], // cand[n] = r
  [0x20, 0x07, 0x20, 0x0b, 0x41, 0x02, 0x74, 0x6a, 0x20, 0x0a, 0x36, 0x02, 0x00], // dist[n] = d
  [0x20, 0x05, 0x20, 0x0a, 0x41, 0x02, 0x74, 0x6a], // &hist[d]
  [0x20, 0x05, 0x20, 0x0a, 0x41, 0x02, 0x74, 0x6a, 0x28, 0x02, 0x00], // hist[d]
  [0x41, 0x01, 0x6a, 0x36, 0x02, 0x00], // += 1
  [0x20, 0x0b, 0x41, 0x01, 0x6a, 0x21, 0x0b, 0x0b], // n++; end if
  [0x20, 0x09, 0x41, 0x20, 0x6a, 0x21, 0x09], // pa += 32
  [0x20, 0x08, 0x41, 0x01, 0x6a, 0x21, 0x08], // r++
  [0x0c, 0x00, 0x0b, 0x0b], // next row; end loop, block
  [0x20, 0x0b, 0x0b], // → n; end function
].flat();

const NEAR_WASM = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [0x01, 0x60, 0x08, ...new Array<number>(8).fill(0x7f), 0x01, 0x7f]), // (i32 ×8) → i32
  ...section(2, [0x01, 0x03, 0x65, 0x6e, 0x76, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x01]),
  ...section(3, [0x01, 0x00]),
  ...section(7, [0x01, 0x04, 0x6e, 0x65, 0x61, 0x72, 0x00, 0x00]), // export "near"
  ...section(10, [0x01, ...leb(NEAR_BODY.length), ...NEAR_BODY]),
]);

/**
 * The body of `gat`: `gat(dist, mask, rows, cut, starts, order)` puts each row `r` whose
 * `mask[r]` is 1 and distance `dist[r]` (int32) is at most `cut` at `order[starts[d]++]`:
 * the rows of a shortlist, by distance, in increasing row order within one distance.
 */
const GATHER_BODY: number[] = [
  [0x01, 0x03, 0x7f], // locals: r, x, p (i32)
  [0x02, 0x40, 0x03, 0x40], // block, loop (rows)
  [0x20, 0x06, 0x20, 0x02, 0x4f, 0x0d, 0x01], // r >= rows → done
  [0x20, 0x00, 0x20, 0x06, 0x41, 0x02, 0x74, 0x6a, 0x28, 0x02, 0x00, 0x22, 0x07], // x = dist[r]
  [0x20, 0x03, 0x4d], // x <= cut
  [0x20, 0x01, 0x20, 0x06, 0x6a, 0x2d, 0x00, 0x00, 0x71], // and mask[r]
  [0x04, 0x40], // if
  [0x20, 0x04, 0x20, 0x07, 0x41, 0x02, 0x74, 0x6a, 0x28, 0x02, 0x00, 0x21, 0x08], // p = starts[x]
  [0x20, 0x05, 0x20, 0x08, 0x41, 0x02, 0x74, 0x6a, 0x20, 0x06, 0x36, 0x02, 0x00], // order[p] = r
  [0x20, 0x04, 0x20, 0x07, 0x41, 0x02, 0x74, 0x6a], // &starts[x]
  [0x20, 0x08, 0x41, 0x01, 0x6a, 0x36, 0x02, 0x00, 0x0b], // = p + 1; end if
  [0x20, 0x06, 0x41, 0x01, 0x6a, 0x21, 0x06], // r++
  [0x0c, 0x00, 0x0b, 0x0b, 0x0b], // next row; end loop, block, function
].flat();

const GATHER_WASM = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [0x01, 0x60, 0x06, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]), // (i32 ×6) → ()
  ...section(2, [0x01, 0x03, 0x65, 0x6e, 0x76, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x01]),
  ...section(3, [0x01, 0x00]),
  ...section(7, [0x01, 0x03, 0x67, 0x61, 0x74, 0x00, 0x00]), // export "gat"
  ...section(10, [0x01, ...leb(GATHER_BODY.length), ...GATHER_BODY]),
]);

/** Bit codes of rows in WebAssembly memory and the kernels that pick the nearest. */
export interface HammingScan {
  /** The memory of the codes (shared when made for several threads). */
  memory: WebAssembly.Memory;
  /** rows × 32-byte blocks of code (as bytes), at offset 0. */
  codes: Uint8Array;
  /** The query's code. */
  query: Uint8Array;
  /** One distance per row after `run`. */
  out: Int32Array;
  /** Per row, 1 when `run` counts it and `gather` may take it, else 0. */
  mask: Uint8Array;
  /** Per distance (0…bits), the rows of `mask` at it: `run` adds to it. */
  hist: Int32Array;
  /** Per distance, where `gather` puts the next row at it in `order` (it advances them). */
  starts: Int32Array;
  /** The rows `gather` took. */
  order: Int32Array;
  /**
   * Counts, for each of the first `rows` rows, the bits where its code differs from `query`
   * into `out`, and adds each row of `mask` to `hist` at its distance.
   */
  run(rows: number): void;
  /** Puts each row of `mask` at a distance ≤ `cut` at `order[starts[distance]++]`. */
  gather(rows: number, cut: number): void;
  /**
   * For 256-bit codes (else null): keeps, of the first `rows` rows, those of `mask` at a
   * distance ≤ `guess` from `query`, in row order, in `cand` (their distances in `out`),
   * adds them to `hist` at their distance, and returns how many it kept.
   */
  near: ((rows: number, guess: number) => number) | null;
  /** The rows `near` kept. */
  cand: Int32Array;
}

/**
 * Memory for `rows` codes of `bits` bits (rounded up to 256) and the Hamming kernel, or
 * null where WebAssembly is missing or there are no rows.
 */
export function hammingScan(rows: number, bits: number, slots = 1): HammingScan | null {
  if (rows === 0) return null;
  const k = instantiate(HAM_WASM, "ham", hammingLayout(rows, bits, slots - 1).end, slots > 1);
  return k && hammingView(k, rows, bits, 0);
}

/**
 * Where slot `slot`'s query code, distances, row mask, counts by distance, starts, picked
 * rows and kept rows lie after the codes.
 */
function hammingLayout(rows: number, bits: number, slot: number) {
  // Whole turns of the kernel (32 bytes); the bits past `bits` are 0 in every code.
  const rowBytes = Math.ceil(bits / 256) * 32;
  const distances = rowBytes * 8 + 1;
  const maskBytes = Math.ceil(rows / 8) * 8;
  const slotBytes = rowBytes + rows * 4 + maskBytes + distances * 8 + rows * 8;
  const queryAt = rows * rowBytes + slot * Math.ceil(slotBytes / 8) * 8;
  const outAt = queryAt + rowBytes;
  const maskAt = outAt + rows * 4;
  const histAt = maskAt + maskBytes;
  const startsAt = histAt + distances * 4;
  const orderAt = startsAt + distances * 4;
  const candAt = orderAt + rows * 4;
  return {
    rowBytes,
    distances,
    queryAt,
    outAt,
    maskAt,
    histAt,
    startsAt,
    orderAt,
    candAt,
    end: candAt + rows * 4,
  };
}

/** The codes of `memory` (made by {@link hammingScan}, maybe in another thread), in `slot`. */
export function hammingScanAt(
  memory: WebAssembly.Memory,
  rows: number,
  bits: number,
  slot: number,
): HammingScan | null {
  const k = attach(HAM_WASM, "ham", memory);
  if (!k || hammingLayout(rows, bits, slot).end > memory.buffer.byteLength) return null;
  return hammingView(k, rows, bits, slot);
}

function hammingView(k: Instance, rows: number, bits: number, slot: number): HammingScan | null {
  const at = hammingLayout(rows, bits, slot);
  const g = attach(GATHER_WASM, "gat", k.memory);
  if (!g) return null;
  // ham(q, a, rows, rowBytes, out, mask, hist); gat(dist, mask, rows, cut, starts, order)
  const ham = (at.rowBytes === 32 && attach(HAM32_WASM, "ham", k.memory)?.fn) || k.fn;
  const gat = g.fn;
  const near = at.rowBytes === 32
    ? attach(NEAR_WASM, "near", k.memory)?.fn as ((...args: number[]) => number) | undefined
    : undefined;
  return {
    memory: k.memory,
    codes: new Uint8Array(k.buffer, 0, rows * at.rowBytes),
    query: new Uint8Array(k.buffer, at.queryAt, at.rowBytes),
    out: new Int32Array(k.buffer, at.outAt, rows),
    mask: new Uint8Array(k.buffer, at.maskAt, rows),
    hist: new Int32Array(k.buffer, at.histAt, at.distances),
    starts: new Int32Array(k.buffer, at.startsAt, at.distances),
    order: new Int32Array(k.buffer, at.orderAt, rows),
    run: (n) => ham(at.queryAt, 0, n, at.rowBytes, at.outAt, at.maskAt, at.histAt),
    gather: (n, cut) => gat(at.outAt, at.maskAt, n, cut, at.startsAt, at.orderAt),
    // near(q, a, rows, guess, mask, hist, cand, dist)
    near: near
      ? (n, guess) => near(at.queryAt, 0, n, guess, at.maskAt, at.histAt, at.candAt, at.outAt)
      : null,
    cand: new Int32Array(k.buffer, at.candAt, rows),
  };
}
