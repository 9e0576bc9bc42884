/**
 * Gives the native heap's free pages back to the system. The runtime's own allocations (HTTP
 * bodies, KV reads, a terminated worker's isolate and thread) are freed into glibc malloc's
 * arenas, one per thread that allocated, which keep the pages resident: after a burst of
 * requests a server sat ~80 MiB above its start with its V8 heap back where it was.
 * `malloc_trim(0)` returns them; it is called through FFI when this process may (Linux,
 * `--allow-ffi` or `-A`), and is a no-op elsewhere.
 *
 * @module
 */

let trim: (() => void) | null | undefined;
let soon: ReturnType<typeof setTimeout> | undefined;

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
  if (trim === undefined) trim = loadTrim();
  trim?.();
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

function loadTrim(): (() => void) | null {
  if (Deno.build.os !== "linux") return null;
  try {
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
    });
    return () => void libc.symbols.malloc_trim(0n);
  } catch {
    return null;
  }
}
