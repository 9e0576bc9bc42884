/**
 * The index format: what a codectx does when it opens an index another version wrote.
 *
 * Every store records its layout version under `["format"]` (`STORE_FORMAT` in `kv.ts`,
 * bumped whenever the stored shapes change). An index is a cache of the project, so an index
 * of another format is rebuilt: the store is emptied and the next index run parses every file
 * again. The user is told so in one line on stderr (stdout stays the command's output or the
 * MCP protocol), once: after the rebuild starts, the store carries the new format.
 *
 * An index written by a *newer* codectx is rebuilt the same way (a downgrade keeps working);
 * the line says that it was newer, so a user who switches back and forth knows why each
 * switch re-indexes (give each version its own `--index-dir` to avoid that).
 *
 * @module
 */

/** What opening a store requires. */
export interface FormatChange {
  /** The format found in the store (`null`: none recorded). */
  readonly found: number | null;
  /** The line to print, or `""` for a new, empty store (nothing to say). */
  readonly message: string;
}

/**
 * What to do with a store in `dir` whose recorded format is `found` (`hasData`: whether the
 * store holds any other key), for a codectx that writes format `expected`. `null` when the
 * store is current; otherwise the store is to be emptied and stamped with `expected`.
 *
 * @example
 * ```ts
 * formatChange("/idx", 2, true, 3)?.message;
 * // "codectx: the index in /idx was written in format 2 by an older codectx; rebuilding it in format 3 (the next index run parses every file)"
 * formatChange("/idx", 3, true, 3); // null
 * ```
 */
export function formatChange(
  dir: string,
  found: unknown,
  hasData: boolean,
  expected: number,
): FormatChange | null {
  if (found === expected) return null;
  const recorded = typeof found === "number" && Number.isInteger(found) ? found : null;
  if (recorded === null && !hasData) return { found: null, message: "" };
  const written = recorded === null
    ? "without a format version (an early codectx)"
    : `in format ${recorded} by ${recorded > expected ? "a newer" : "an older"} codectx`;
  return {
    found: recorded,
    message:
      `codectx: the index in ${dir} was written ${written}; rebuilding it in format ${expected} (the next index run parses every file)`,
  };
}
