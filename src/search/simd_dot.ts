/**
 * WebAssembly SIMD dot-product kernels for float32 and int8 rows, the memory they scan, and
 * how a kernel module is built, compiled and attached to a (shared) memory, which the
 * sign-code kernels of `simd_hamming.ts` use too.
 *
 * The kernels are hand-assembled (no toolchain needed): `dot(q, a, rows, rowBytes, out)`
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
export function leb(n: number): number[] {
  const out: number[] = [];
  do {
    const b = n & 0x7f;
    n >>>= 7;
    out.push(n ? b | 0x80 : b);
  } while (n);
  return out;
}

export function section(id: number, content: number[]): number[] {
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

/**
 * The same module importing a shared memory (limits: shared, 1 page up to 4 GiB), so that
 * workers can scan the rows the main thread holds (a memory over a SharedArrayBuffer).
 */
function sharedVariant(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  // Our modules' sections are under 128 bytes but the code: one length byte each until then.
  let at = 8;
  while (bytes[at] !== 2) at += 2 + bytes[at + 1];
  const imports = [...bytes.subarray(at + 2, at + 2 + bytes[at + 1])];
  // The one import ends with its limits: no maximum (0x00), at least 1 page (0x01).
  const limits = [0x03, 0x01, 0x80, 0x80, 0x04]; // shared, 1 page up to 65,536 pages
  const content = [...imports.slice(0, -2), ...limits];
  return new Uint8Array([
    ...bytes.subarray(0, at),
    ...section(2, content),
    ...bytes.subarray(at + 2 + bytes[at + 1]),
  ]);
}

const sharedVariants = new Map<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>();

const compiled = new Map<Uint8Array<ArrayBuffer>, WebAssembly.Module | null>();

/** A kernel module compiled once, or null where the runtime lacks what it uses (SIMD). */
function kernel(bytes: Uint8Array<ArrayBuffer>): WebAssembly.Module | null {
  if (!compiled.has(bytes)) {
    let module: WebAssembly.Module | null = null;
    try {
      module = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      module = null;
    }
    compiled.set(bytes, module);
  }
  return compiled.get(bytes)!;
}

/**
 * An instance of a kernel module over a fresh memory of `bytes` bytes, and its one exported
 * function; null where the module cannot run here or the memory would exceed 4 GiB.
 */
export function instantiate(
  wasm: Uint8Array<ArrayBuffer>,
  name: string,
  bytes: number,
  share = false,
): Instance | null {
  const pages = Math.ceil(bytes / 65536);
  if (pages > 65536) return null;
  if (share) {
    try {
      const mem = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
      const k = attach(wasm, name, mem);
      if (k) return k;
    } catch {
      // No shared memory here: a memory of this thread's own.
    }
  }
  if (!kernel(wasm)) return null;
  return attach(wasm, name, new WebAssembly.Memory({ initial: pages }));
}

/** A kernel instance and the memory it works in. */
export interface Instance {
  memory: WebAssembly.Memory;
  buffer: ArrayBufferLike;
  fn: (...args: number[]) => void;
}

/** An instance of a kernel over an existing memory (shared: one made by another thread). */
export function attach(
  wasm: Uint8Array<ArrayBuffer>,
  name: string,
  memory: WebAssembly.Memory,
): Instance | null {
  const shared = typeof SharedArrayBuffer !== "undefined" &&
    memory.buffer instanceof SharedArrayBuffer;
  let bytes = wasm;
  if (shared) {
    if (!sharedVariants.has(wasm)) sharedVariants.set(wasm, sharedVariant(wasm));
    bytes = sharedVariants.get(wasm)!;
  }
  const module = kernel(bytes);
  if (!module) return null;
  const instance = new WebAssembly.Instance(module, { env: { mem: memory } });
  return {
    memory,
    buffer: memory.buffer,
    fn: instance.exports[name] as (...args: number[]) => void,
  };
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
  if (rows === 0) return null;
  const dataBytes = rows * stride * 4;
  const k = instantiate(DOT_WASM, "dot", dataBytes + stride * 4 + rows * 4);
  if (!k) return null;
  // dot(q, a, rows, rowBytes, out)
  const dot = k.fn;
  const data = new Float32Array(k.buffer, 0, rows * stride);
  const query = new Float32Array(k.buffer, dataBytes, stride);
  const out = new Float32Array(k.buffer, dataBytes + stride * 4, rows);
  return {
    data,
    query,
    out,
    run: (n) => dot(dataBytes, 0, n, stride * 4, dataBytes + stride * 4),
  };
}

/** `q + 2j` loaded as eight int16 (the query's values for bytes j… of a row), `at` bytes on. */
const Q8 = (at: number) => [0x20, 0x00, 0x20, 0x07, 0x41, 0x01, 0x74, 0x6a, 0xfd, 0x00, 0x01, at];

/** `acc += dot(i16x8(low or high half of v), the query's int16 there)`; locals by index. */
const DOT8_STEP = (acc: number, v: number, high: boolean) =>
  [
    [0x20, acc, 0x20, v, 0xfd, high ? 0x88 : 0x87, 0x01], // acc, i16x8 of half of v
    Q8(high ? 0x10 : 0x00),
    [0xfd, 0xba, 0x01, 0xfd, 0xae, 0x01, 0x21, acc], // acc += i32x4.dot_i16x8_s
  ].flat();

/** The sum of the four int32 lanes of local `acc`. */
const LANES = (acc: number) =>
  [
    [0x20, acc, 0xfd, 0x1b, 0x00, 0x20, acc, 0xfd, 0x1b, 0x01, 0x6a], // lane 0 + lane 1
    [0x20, acc, 0xfd, 0x1b, 0x02, 0x6a, 0x20, acc, 0xfd, 0x1b, 0x03, 0x6a], // + lanes 2, 3
  ].flat();

/** `local = a + ids[i] · rowBytes` (the row `at` bytes on in `ids`: 0 this one, 4 the next). */
const ROW_AT = (local: number, at: number) =>
  [
    [0x20, 0x01, 0x20, 0x02, 0x20, 0x06, 0x41, 0x02, 0x74, 0x6a, 0x28, 0x02, at],
    [0x20, 0x04, 0x6c, 0x6a, 0x21, local],
  ].flat();

const ZERO128 = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];

/**
 * The body of `dot8`: `dot8(q, a, ids, count, rowBytes, out)` writes, for each `i < count`,
 * `out[i] = Σ a[ids[i]]·q` in int32: rows of `rowBytes` int8 (a multiple of 16) at `a`,
 * the query as int16 at `q` (two bytes per dimension), row numbers (int32) at `ids`. Rows
 * are picked by number, so one call scans a whole index, a few partitions or a list of
 * candidates alike. Two rows a turn: a shortlist's rows lie scattered in memory, and the
 * reads of two rows wait for memory together; the last row of an odd count alone.
 */
const DOT8_BODY: number[] = [
  // locals: i (6), j (7), pa (8), pb (9) (i32); acc (10), acc2 (11), v (12), bcc (13),
  // bcc2 (14), w (15) (v128)
  [0x02, 0x04, 0x7f, 0x06, 0x7b],
  [0x02, 0x40, 0x03, 0x40], // block, loop (two rows a turn)
  [0x20, 0x06, 0x41, 0x01, 0x6a, 0x20, 0x03, 0x4f, 0x0d, 0x01], // i + 1 >= count → one left
  ROW_AT(0x08, 0x00), // pa = row ids[i]
  ROW_AT(0x09, 0x04), // pb = row ids[i + 1]
  [...ZERO128, 0x22, 0x0a, 0x22, 0x0b, 0x22, 0x0d, 0x21, 0x0e], // accs = 0
  [0x41, 0x00, 0x21, 0x07], // j = 0
  [0x03, 0x40], // loop (16 values of each row per turn)
  [0x20, 0x08, 0x20, 0x07, 0x6a, 0xfd, 0x00, 0x00, 0x00, 0x21, 0x0c], // v = load pa + j
  [0x20, 0x09, 0x20, 0x07, 0x6a, 0xfd, 0x00, 0x00, 0x00, 0x21, 0x0f], // w = load pb + j
  DOT8_STEP(0x0a, 0x0c, false),
  DOT8_STEP(0x0b, 0x0c, true),
  DOT8_STEP(0x0d, 0x0f, false),
  DOT8_STEP(0x0e, 0x0f, true),
  [0x20, 0x07, 0x41, 0x10, 0x6a, 0x22, 0x07], // j += 16
  [0x20, 0x04, 0x49, 0x0d, 0x00, 0x0b], // while j < rowBytes
  [0x20, 0x0a, 0x20, 0x0b, 0xfd, 0xae, 0x01, 0x21, 0x0a], // acc += acc2
  [0x20, 0x0d, 0x20, 0x0e, 0xfd, 0xae, 0x01, 0x21, 0x0d], // bcc += bcc2
  [0x20, 0x05, 0x20, 0x06, 0x41, 0x02, 0x74, 0x6a], // &out[i]
  LANES(0x0a),
  [0x36, 0x02, 0x00], // out[i] = …
  [0x20, 0x05, 0x20, 0x06, 0x41, 0x02, 0x74, 0x6a], // &out[i]
  LANES(0x0d),
  [0x36, 0x02, 0x04], // out[i + 1] = …
  [0x20, 0x06, 0x41, 0x02, 0x6a, 0x21, 0x06], // i += 2
  [0x0c, 0x00, 0x0b, 0x0b], // next pair; end loop, block
  [0x02, 0x40, 0x03, 0x40], // block, loop (one row a turn: the last of an odd count)
  [0x20, 0x06, 0x20, 0x03, 0x4f, 0x0d, 0x01], // i >= count → done
  ROW_AT(0x08, 0x00), // pa = row ids[i]
  [...ZERO128, 0x22, 0x0a, 0x21, 0x0b], // accs = 0
  [0x41, 0x00, 0x21, 0x07], // j = 0
  [0x03, 0x40], // loop (16 values per turn)
  [0x20, 0x08, 0x20, 0x07, 0x6a, 0xfd, 0x00, 0x00, 0x00, 0x21, 0x0c], // v = load pa + j
  DOT8_STEP(0x0a, 0x0c, false),
  DOT8_STEP(0x0b, 0x0c, true),
  [0x20, 0x07, 0x41, 0x10, 0x6a, 0x22, 0x07], // j += 16
  [0x20, 0x04, 0x49, 0x0d, 0x00, 0x0b], // while j < rowBytes
  [0x20, 0x0a, 0x20, 0x0b, 0xfd, 0xae, 0x01, 0x21, 0x0a], // acc += acc2
  [0x20, 0x05, 0x20, 0x06, 0x41, 0x02, 0x74, 0x6a], // &out[i]
  LANES(0x0a),
  [0x36, 0x02, 0x00], // out[i] = …
  [0x20, 0x06, 0x41, 0x01, 0x6a, 0x21, 0x06], // i++
  [0x0c, 0x00, 0x0b, 0x0b, 0x0b], // next row; end loop, block, function
].flat();

/** The int8 module: one function `dot8` over an imported memory `env.mem`. */
const DOT8_WASM = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [0x01, 0x60, 0x06, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]), // (i32 ×6) → ()
  ...section(2, [0x01, 0x03, 0x65, 0x6e, 0x76, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x01]),
  ...section(3, [0x01, 0x00]),
  ...section(7, [0x01, 0x04, 0x64, 0x6f, 0x74, 0x38, 0x00, 0x00]), // export "dot8"
  ...section(10, [0x01, ...leb(DOT8_BODY.length), ...DOT8_BODY]),
]);

/** Int8 rows in WebAssembly memory and the kernel that scores picked rows against a query. */
export interface Int8Scan {
  /** The memory of the rows (shared when made for several threads). */
  memory: WebAssembly.Memory;
  /** rows × stride int8 at offset 0. */
  data: Int8Array;
  /** The query, `stride` int16 (zero past the dimensions). */
  query: Int16Array;
  /** Row numbers to score (up to `rows`). */
  ids: Int32Array;
  /** One int32 dot product per entry of `ids` after `run`. */
  out: Int32Array;
  /** Scores the rows `ids[0…count)` against `query` into `out[0…count)`. */
  run(count: number): void;
}

/**
 * Memory for `rows` int8 rows of `stride` values (a multiple of 16) and the kernel, or null
 * where WebAssembly SIMD is missing, there are no rows, or they exceed 4 GiB.
 */
export function int8Scan(rows: number, stride: number, slots = 1): Int8Scan | null {
  if (rows === 0 || stride % 16 !== 0) return null;
  const k = instantiate(DOT8_WASM, "dot8", int8Layout(rows, stride, slots - 1).end, slots > 1);
  return k && int8View(k, rows, stride, 0);
}

/**
 * Where slot `slot`'s query, row numbers and scores lie after the rows: each thread that
 * scans the same rows works in a slot of its own.
 */
function int8Layout(rows: number, stride: number, slot: number) {
  const dataBytes = Math.ceil((rows * stride) / 16) * 16;
  const slotBytes = stride * 2 + rows * 8;
  const queryAt = dataBytes + slot * slotBytes;
  const idsAt = queryAt + stride * 2;
  const outAt = idsAt + rows * 4;
  return { queryAt, idsAt, outAt, end: outAt + rows * 4 };
}

/**
 * The int8 rows of `memory` (made by {@link int8Scan} with more than `slot` slots, maybe in
 * another thread), scanned in slot `slot`.
 */
export function int8ScanAt(
  memory: WebAssembly.Memory,
  rows: number,
  stride: number,
  slot: number,
): Int8Scan | null {
  const k = attach(DOT8_WASM, "dot8", memory);
  if (!k || int8Layout(rows, stride, slot).end > memory.buffer.byteLength) return null;
  return int8View(k, rows, stride, slot);
}

function int8View(k: Instance, rows: number, stride: number, slot: number): Int8Scan {
  const { queryAt, idsAt, outAt } = int8Layout(rows, stride, slot);
  // dot8(q, a, ids, count, rowBytes, out)
  const dot8 = k.fn;
  return {
    memory: k.memory,
    data: new Int8Array(k.buffer, 0, rows * stride),
    query: new Int16Array(k.buffer, queryAt, stride),
    ids: new Int32Array(k.buffer, idsAt, rows),
    out: new Int32Array(k.buffer, outAt, rows),
    run: (count) => dot8(queryAt, 0, idsAt, count, stride, outAt),
  };
}
