/**
 * Reading a project file safely, at index time and at answer time: the path is resolved
 * and must stay inside the root, the file it names must be a regular file (a FIFO, socket
 * or device is never opened, so nothing blocks), and the handle that was opened must be
 * that same file (device and inode), so a file swapped for a symlink or a FIFO between the
 * check and the open is refused instead of read through. An open that still blocks (a
 * FIFO swapped in at that very moment) is given up after a few seconds.
 *
 * @module
 */

import { concatBytes } from "../util/bytes.ts";

/** Why a project file was not read. */
export type UnsafeReason =
  | "outside_root"
  | "not_regular"
  | "changed"
  | "too_large"
  | "unreadable";

/** A refused read, with its reason. */
export class UnsafeFileError extends Error {
  constructor(readonly reason: UnsafeReason, readonly path: string, detail: string) {
    super(`'${path}' was not read: ${detail}`);
    this.name = "UnsafeFileError";
  }
}

/** Options of {@link readProjectFile}. */
export interface SafeReadOptions {
  /** Refuse files larger than this (default 1 MiB). */
  maxBytes?: number;
  /** Give up an open that blocks after this long (default 3 s). */
  openTimeoutMs?: number;
}

const DEFAULT_MAX_BYTES = 1_048_576;
const OPEN_TIMEOUT_MS = 3_000;
/** How much longer an open of what is still a regular file may take (see `openBounded`). */
const SLOW_OPEN_MS = 30_000;

/** Whether `real` is `root` or below it (`root` a real path). */
export function insideRoot(root: string, real: string): boolean {
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return real === root || real.startsWith(prefix);
}

/**
 * The bytes of `rel` under `root` (a real path), read through the checks above; throws
 * {@link UnsafeFileError} when refused.
 *
 * @example
 * ```ts
 * const bytes = await readProjectFile("/repo", "src/app.py");
 * ```
 */
export async function readProjectFile(
  root: string,
  rel: string,
  opts: SafeReadOptions = {},
): Promise<Uint8Array> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  let real: string;
  let seen: Deno.FileInfo;
  try {
    real = await Deno.realPath(`${root}/${rel}`);
    seen = await Deno.lstat(real);
  } catch (err) {
    throw new UnsafeFileError("unreadable", rel, String(err));
  }
  if (!insideRoot(root, real)) {
    throw new UnsafeFileError("outside_root", rel, "it leads outside the project");
  }
  if (!seen.isFile) throw new UnsafeFileError("not_regular", rel, "it is not a regular file");
  if (seen.size > maxBytes) {
    throw new UnsafeFileError("too_large", rel, `it is larger than ${maxBytes} bytes`);
  }
  const file = await openBounded(real, rel, opts.openTimeoutMs ?? OPEN_TIMEOUT_MS);
  try {
    checkSame(await file.stat(), seen, rel);
    return await readAtMost(file, maxBytes, rel);
  } finally {
    try {
      file.close();
    } catch {
      // already closed
    }
  }
}

/**
 * {@link readProjectFile} for synchronous callers. The same checks, but an open cannot be
 * given up: a FIFO swapped in between the check and the open blocks it (the async version
 * does not).
 */
export function readProjectFileSync(
  root: string,
  rel: string,
  opts: Pick<SafeReadOptions, "maxBytes"> = {},
): Uint8Array {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  let real: string;
  let seen: Deno.FileInfo;
  try {
    real = Deno.realPathSync(`${root}/${rel}`);
    seen = Deno.lstatSync(real);
  } catch (err) {
    throw new UnsafeFileError("unreadable", rel, String(err));
  }
  checkSeen(root, real, seen, rel, maxBytes);
  const file = Deno.openSync(real, { read: true });
  try {
    const info = file.statSync();
    checkSame(info, seen, rel);
    const bytes = new Uint8Array(info.size);
    let at = 0;
    while (at < bytes.length) {
      const n = file.readSync(bytes.subarray(at));
      if (n === null) break;
      at += n;
    }
    return bytes.subarray(0, at);
  } finally {
    file.close();
  }
}

/** The checks before the open: inside the root, a regular file, not too large. */
function checkSeen(root: string, real: string, seen: Deno.FileInfo, rel: string, max: number) {
  if (!insideRoot(root, real)) {
    throw new UnsafeFileError("outside_root", rel, "it leads outside the project");
  }
  if (!seen.isFile) throw new UnsafeFileError("not_regular", rel, "it is not a regular file");
  if (seen.size > max) {
    throw new UnsafeFileError("too_large", rel, `it is larger than ${max} bytes`);
  }
}

/** The check after the open: the handle is the file that was checked. */
function checkSame(info: Deno.FileInfo, seen: Deno.FileInfo, rel: string): void {
  if (!info.isFile || info.dev !== seen.dev || info.ino !== seen.ino) {
    throw new UnsafeFileError("changed", rel, "it was replaced while being opened");
  }
}

/** Opens for reading, giving up after `ms` (an open of a FIFO waits for a writer). */
async function openBounded(path: string, rel: string, ms: number): Promise<Deno.FsFile> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const opening = Deno.open(path, { read: true });
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    let file = await Promise.race([opening, late]);
    if (file) return file;
    // Still a regular file: the open is slow (a machine under load), not waiting for a FIFO's
    // writer. It gets longer, still bounded (a regular file read as "unreadable" leaves the
    // index without it).
    if ((await Deno.lstat(path).catch(() => null))?.isFile) {
      file = await Promise.race([
        opening,
        new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), SLOW_OPEN_MS)),
      ]);
      if (file) return file;
    }
    // Whoever unblocks the open later gets the handle closed.
    opening.then((f) => f.close(), () => {});
    throw new UnsafeFileError("not_regular", rel, "opening it blocked (a FIFO?)");
  } catch (err) {
    if (err instanceof UnsafeFileError) throw err;
    throw new UnsafeFileError("unreadable", rel, String(err));
  } finally {
    clearTimeout(timer);
  }
}

/** Reads to the end, refusing past `max` bytes (a file that grew since it was checked). */
async function readAtMost(file: Deno.FsFile, max: number, rel: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  const buf = new Uint8Array(65_536);
  for (;;) {
    const n = await file.read(buf);
    if (n === null) break;
    size += n;
    if (size > max) throw new UnsafeFileError("too_large", rel, `it is larger than ${max} bytes`);
    parts.push(buf.slice(0, n));
  }
  return concatBytes(parts);
}
