/**
 * Keeps the native heap from holding what the runtime freed. The runtime's own allocations
 * (HTTP bodies, KV reads, a terminated worker's isolate and thread) live in glibc malloc's
 * arenas, one per thread that allocated, which keep their pages resident.
 *
 * Two things are done about it, through FFI where this process may (Linux with glibc,
 * `--allow-ffi` or `-A`; elsewhere both are no-ops):
 *
 * - {@link tuneNativeHeap}, once at a server's start: a block of 128 KiB or more always gets
 *   a mapping of its own, given back to the system when it is freed. By default glibc raises
 *   that threshold to the largest such block freed so far (up to 32 MiB), so after one 1 MiB
 *   request body every later body, file read and parse buffer came out of the thread arenas,
 *   where long-lived small blocks pin the pages between them: in a 10,000-request fuzz the
 *   arenas grew 36 → 67 MiB on the bridge (RSS +19 %) although the V8 heap grew 3 MiB; with
 *   the threshold fixed they stayed at 6 → 7 MiB (RSS +6 %).
 * - {@link trimNativeHeap}, when a server is quiet: `malloc_trim(0)` returns the arenas' free
 *   pages.
 *
 * @module
 */

/** glibc's `mallopt` parameter for the size from which a block gets its own mapping. */
const M_MMAP_THRESHOLD = -3;
/** Blocks from this size on are mapped on their own (glibc's starting value, held fixed). */
const MMAP_THRESHOLD = 128 * 1024;

interface Libc {
  trim(): void;
  mallopt(param: number, value: number): number;
}

let libc: Libc | null | undefined;
let tuned = false;
let soon: ReturnType<typeof setTimeout> | undefined;

/**
 * Makes every block of 128 KiB or more a mapping of its own, returned to the system when
 * freed (glibc otherwise moves that threshold up as large blocks are freed, and later large
 * blocks stay in the arenas). Called once at a server's start; later calls do nothing.
 *
 * @example
 * ```ts
 * tuneNativeHeap();
 * ```
 */
export function tuneNativeHeap(): void {
  if (tuned) return;
  tuned = true;
  loadLibc()?.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD);
}

/**
 * Returns the native heap's free pages to the system now (~1 ms); does nothing where that
 * cannot be called (another OS or C library, FFI not allowed).
 *
 * @example
 * ```ts
 * trimNativeHeap();
 * ```
 */
export function trimNativeHeap(): void {
  loadLibc()?.trim();
}

/**
 * Gives freed memory back now: V8's memory-reducing full collection (its "last resort": it
 * compacts and releases the emptied pages, where a plain `gc()` keeps the heap's capacity —
 * measured 300 → 55 MiB RSS after dropping 250 MiB of objects, where `gc()` left 300), when
 * `--v8-flags=--expose-gc` exposed `gc`, then {@link trimNativeHeap}. Holds the thread for
 * the collection (tens of milliseconds on a server's heap): for the end of a burst or of a
 * background phase, not for a request's path.
 *
 * @example
 * ```ts
 * releaseFreedMemory();
 * ```
 */
export function releaseFreedMemory(): void {
  const gc = (globalThis as { gc?: (opts?: object) => void }).gc;
  gc?.({ type: "major", execution: "sync", flavor: "last-resort" });
  trimNativeHeap();
}

/**
 * Trims once, `ms` from now (later calls before then share it), e.g. after a worker was
 * terminated: its thread frees its memory as it exits. The timer does not keep the process
 * alive.
 */
export function trimNativeHeapSoon(ms = 1_000): void {
  if (soon !== undefined) return;
  soon = setTimeout(() => {
    soon = undefined;
    trimNativeHeap();
  }, ms);
  Deno.unrefTimer(soon as unknown as number);
}

function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (Deno.build.os !== "linux") return null;
  try {
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
    const lib = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
      mallopt: { parameters: ["i32", "i32"], result: "i32" },
    });
    libc = {
      trim: () => void lib.symbols.malloc_trim(0n),
      mallopt: (param, value) => lib.symbols.mallopt(param, value),
    };
  } catch {
    // musl or another C library: neither call exists
  }
  return libc;
}
