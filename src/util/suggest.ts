/**
 * Near-name suggestions for "not found" errors: a bounded edit distance and near paths.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";

/** Edit distance, bounded: returns `max + 1` as soon as it is exceeded. */
export function editDistance(a: string, b: string, max = 8): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        prev[j] + 1,
        cur[j - 1] + 1,
        prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** Up to `limit` paths that look like `wanted`: same file name first, then close spellings. */
export function nearPaths(wanted: string, paths: Iterable<string>, limit = 3): string[] {
  const base = wanted.split("/").pop()!.toLowerCase();
  const scored: Array<[number, string]> = [];
  for (const p of paths) {
    const b = p.split("/").pop()!.toLowerCase();
    const d = b === base ? 0 : editDistance(base, b, 3);
    if (d <= 3) scored.push([d * 1000 + editDistance(wanted, p, 50), p]);
  }
  return scored.sort((x, y) => x[0] - y[0]).slice(0, limit).map(([, p]) => p);
}

/**
 * The `not_found` error for a file the index does not hold, with near paths when there are.
 *
 * @example
 * ```ts
 * throw fileNotInIndex("src/ap.py", ["src/app.py"]); // "…; did you mean src/app.py?"
 * ```
 */
export function fileNotInIndex(rel: string, paths: Iterable<string>): CodectxError {
  const near = nearPaths(rel, paths);
  return new CodectxError(
    "not_found",
    `file '${rel}' is not in the index` +
      (near.length
        ? `; did you mean ${near.join(", ")}?`
        : "; check the path, or run index_project if it is new"),
  );
}
