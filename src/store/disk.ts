/**
 * What a full disk, a read-only index folder or a database another process holds locked
 * means for the store: a few hundred KiB kept in a `reserve` file and given back when a run
 * fails on a full disk (so that removing what it wrote can itself be written), and the
 * sentence the user reads for a refused write.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";

/** Bytes kept in the `reserve` file beside the store. */
const RESERVE_BYTES = 512 * 1024;

const reservePath = (dir: string) => `${dir}/reserve`;

/** Keeps {@link RESERVE_BYTES} of the disk in `dir` for cleaning up after a full disk (best effort). */
export async function keepReserve(dir: string): Promise<void> {
  const path = reservePath(dir);
  try {
    const info = await Deno.stat(path).catch(() => null);
    if (info?.size === RESERVE_BYTES) return;
    await Deno.writeFile(path, new Uint8Array(RESERVE_BYTES));
  } catch {
    await Deno.remove(path).catch(() => {});
  }
}

/** Gives the reserve in `dir` back: on a full disk even a delete needs room (the write-ahead log). */
export async function releaseReserve(dir: string): Promise<void> {
  await Deno.remove(reservePath(dir)).catch(() => {});
}

const textOf = (err: unknown) => err instanceof Error ? `${err.name} ${err.message}` : String(err);

/** Whether SQLite refused a write because another connection holds the database. */
export function isLocked(err: unknown): boolean {
  return /database is locked|SQLITE_BUSY/i.test(textOf(err));
}

/** A write failure of the store as the user should read it. */
export function storeWriteError(err: unknown, dir: string): Error {
  const text = textOf(err);
  if (isLocked(err)) {
    return new CodectxError(
      "busy",
      `another codectx process kept the index in ${dir} locked; retry in a moment`,
    );
  }
  if (/disk is full|no space left|ENOSPC|SQLITE_FULL|quota/i.test(text)) {
    return new CodectxError(
      "unavailable",
      `disk full: free space under ${dir} and index again (the last complete index is still served)`,
    );
  }
  if (/read-?only|EROFS|EACCES|permission denied/i.test(text)) {
    return new CodectxError(
      "unavailable",
      `the index folder ${dir} is not writable: make it writable (or pass --index-dir) and index again`,
    );
  }
  return err instanceof Error ? err : new Error(text);
}
