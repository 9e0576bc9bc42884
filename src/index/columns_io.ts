/**
 * What the column files beside the store (`symbols.bin`, `chunks.bin`) share: positioned
 * reads and whole writes, padding, typed views cut one after another from a read buffer, the
 * key check of a file's head, and typed arrays grown by doubling.
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

/** The buffer {@link readScratch} reads into, grown by doubling. */
let scratch = new Uint8Array(64 * 1024);

/**
 * `length` bytes of `fd` from `at`, in a buffer shared by every call: valid until the next
 * call (for bytes decoded at once: a chunk's text read for presenting allocates no buffer).
 */
export function readScratch(fd: Deno.FsFile, at: number, length: number): Uint8Array {
  if (scratch.length < length) {
    let size = scratch.length;
    while (size < length) size *= 2;
    scratch = new Uint8Array(size);
  }
  const out = scratch.subarray(0, length);
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

/**
 * A file written through a temporary file renamed over `path` at {@link finish}, so a reader
 * never sees half of it. Never throws: a failed write drops the temporary file, and without
 * the file the next process builds again.
 */
export class AtomicFile {
  private readonly tmp: string;
  private file: Deno.FsFile | null = null;

  constructor(private readonly path: string) {
    this.tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    try {
      this.file = Deno.openSync(this.tmp, { write: true, create: true, truncate: true });
    } catch {
      this.abort();
    }
  }

  /** Appends `bytes` (nothing once a write failed). */
  write(bytes: Uint8Array): void {
    if (!this.file) return;
    try {
      writeAll(this.file, bytes);
    } catch {
      this.abort();
    }
  }

  /** Puts the file in place; whether it was written. */
  finish(): boolean {
    if (!this.file) return false;
    try {
      this.file.close();
      this.file = null;
      Deno.renameSync(this.tmp, this.path);
      return true;
    } catch {
      this.abort();
      return false;
    }
  }

  /** Drops what was written. */
  abort(): void {
    try {
      this.file?.close();
    } catch {
      // closed already
    }
    this.file = null;
    try {
      Deno.removeSync(this.tmp);
    } catch {
      // nothing was written
    }
  }
}

/**
 * Writes `parts` to `path` through a temporary file renamed over it (see {@link AtomicFile});
 * whether it was written.
 */
export function writeFileAtomically(path: string, parts: Iterable<Uint8Array>): boolean {
  const file = new AtomicFile(path);
  try {
    for (const part of parts) file.write(part);
  } catch {
    file.abort();
    return false;
  }
  return file.finish();
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

/** Typed views cut one after another from a buffer read from a column file. */
export class ViewCursor {
  constructor(readonly buf: ArrayBufferLike, public off = 0) {}

  /** The next `length` 32-bit words. */
  u32(length: number): Uint32Array {
    const a = new Uint32Array(this.buf, this.off, length);
    this.off += length * 4;
    return a;
  }

  /** The next `length` 64-bit floats. */
  f64(length: number): Float64Array {
    const a = new Float64Array(this.buf, this.off, length);
    this.off += length * 8;
    return a;
  }
}

/**
 * Opens the column file at `path` and reads its head with `readHead`; the head and the open
 * file when the head was built from `key` (any key when `key` is null), else null (the file
 * closed). Null too when the file is absent or unreadable.
 */
export function openKeyed<H extends { key: string }>(
  path: string,
  key: string | null,
  readHead: (fd: Deno.FsFile) => H | null,
): { fd: Deno.FsFile; head: H } | null {
  let fd: Deno.FsFile | null = null;
  try {
    fd = Deno.openSync(path, { read: true });
    const head = readHead(fd);
    if (head && (key === null || head.key === key)) return { fd, head };
  } catch {
    // absent or unreadable: built again
  }
  try {
    fd?.close();
  } catch {
    // closed already
  }
  return null;
}
