/**
 * A WebAssembly SIMD dot-product kernel for float32 rows, and the memory it scans.
 *
 * The kernel is hand-assembled (no toolchain needed): `dot(q, a, rows, rowBytes, out)`
 * writes `out[r] = Σ a[r]·q` over rows of `rowBytes` (a multiple of 32) laid out one after
 * another in the imported memory, 4 float32 lanes per instruction, two accumulators.
 *
 * @module
 */

/** The body of `dot`: one instruction group per line. */
const DOT_BODY: number[] = [
  [0x02, 0x03, 0x7f, 0x02, 0x7b], // locals: r, j, pa (i32); acc, acc2 (v128)
  [0x20, 0x01, 0x21, 0x07], // pa = a
  [0x02, 0x40, 0x03, 0x40], // block, loop (rows)
  [0x20, 0x05, 0x20, 0x02, 0x4f, 0x0d, 0x01], // r >= rows → done
  [0xfd, 0x0c, ...new Array<number>(16).fill(0), 0x22, 0x08, 0x21, 0x09], // accs = 0
  [0x41, 0x00, 0x21, 0x06], // j = 0
  [0x03, 0x40], // loop (8 floats per turn, two accumulators)
  [0x20, 0x08, 0x20, 0x07, 0x20, 0x06, 0x6a, 0xfd, 0x00, 0x02, 0x00], // v128.load pa + j
  [0x20, 0x00, 0x20, 0x06, 0x6a, 0xfd, 0x00, 0x02, 0x00], // v128.load q + j
  [0xfd, 0xe6, 0x01, 0xfd, 0xe4, 0x01, 0x21, 0x08], // acc += a·q (f32x4)
  [0x20, 0x09, 0x20, 0x07, 0x20, 0x06, 0x6a, 0xfd, 0x00, 0x02, 0x10], // v128.load pa + j + 16
  [0x20, 0x00, 0x20, 0x06, 0x6a, 0xfd, 0x00, 0x02, 0x10], // v128.load q + j + 16
  [0xfd, 0xe6, 0x01, 0xfd, 0xe4, 0x01, 0x21, 0x09], // acc2 += a·q
  [0x20, 0x06, 0x41, 0x20, 0x6a, 0x22, 0x06], // j += 32
  [0x20, 0x03, 0x49, 0x0d, 0x00, 0x0b], // while j < rowBytes
  [0x20, 0x08, 0x20, 0x09, 0xfd, 0xe4, 0x01, 0x21, 0x08], // acc += acc2
  [0x20, 0x04, 0x20, 0x05, 0x41, 0x02, 0x74, 0x6a], // &out[r]
  [0x20, 0x08, 0xfd, 0x1f, 0x00, 0x20, 0x08, 0xfd, 0x1f, 0x01, 0x92], // lane 0 + lane 1
  [0x20, 0x08, 0xfd, 0x1f, 0x02, 0x92, 0x20, 0x08, 0xfd, 0x1f, 0x03, 0x92], // + lanes 2, 3
  [0x38, 0x02, 0x00], // out[r] = …
  [0x20, 0x07, 0x20, 0x03, 0x6a, 0x21, 0x07], // pa += rowBytes
  [0x20, 0x05, 0x41, 0x01, 0x6a, 0x21, 0x05], // r++
  [0x0c, 0x00, 0x0b, 0x0b, 0x0b], // next row; end loop, block, function
].flat();

/** Unsigned LEB128, the integer encoding of WebAssembly binaries. */
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

/** The whole module: one function `dot` over an imported memory `env.mem`. */
const DOT_WASM = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
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
export interface SimdScan {
  /** rows × stride floats at offset 0. */
  data: Float32Array;
  /** The query, `stride` floats (zero-padded past the dimensions). */
  query: Float32Array;
  /** One score per row after `run`. */
  out: Float32Array;
  /** Scores the first `rows` rows against `query` into `out`. */
  run(rows: number): void;
}

/**
 * Memory for `rows` rows of `stride` floats (a multiple of 8) and a kernel over it, or
 * null where WebAssembly SIMD is missing, there are no rows, or the rows exceed 4 GiB.
 */
export function simdScan(rows: number, stride: number): SimdScan | null {
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
