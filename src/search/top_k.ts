/**
 * The `k` best of many scores, with a bounded min-heap: memory stays `k` however many
 * rows are scored.
 *
 * @module
 */

/** A scored row. */
export interface Hit {
  row: number;
  score: number;
}

/**
 * The `k` best of `n` scores (`score(i)`, skipped when `accept(i)` is false or the score
 * is NaN), best first; ties go to the lower row.
 *
 * @example
 * ```ts
 * topK(4, 2, (i) => [0.1, 0.9, 0.5, 0.3][i]); // [{row: 1, score: 0.9}, {row: 2, score: 0.5}]
 * ```
 */
export function topK(
  n: number,
  k: number,
  score: (i: number) => number,
  accept?: (i: number) => boolean,
): Hit[] {
  if (k <= 0) return [];
  const rows = new Int32Array(k);
  const vals = new Float64Array(k);
  let size = 0;
  const less = (a: number, b: number) =>
    vals[a] < vals[b] || (vals[a] === vals[b] && rows[a] > rows[b]);
  const swap = (a: number, b: number) => {
    const r = rows[a];
    rows[a] = rows[b];
    rows[b] = r;
    const v = vals[a];
    vals[a] = vals[b];
    vals[b] = v;
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && less(l, m)) m = l;
      if (r < size && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (let i = 0; i < n; i++) {
    const s = score(i);
    if (Number.isNaN(s)) continue;
    // The filter is asked only about rows that would enter the heap (it may cost more than
    // the score: most rows of a lexical query score nothing).
    if (size === k && (s < vals[0] || (s === vals[0] && i > rows[0]))) continue;
    if (accept && !accept(i)) continue;
    if (size < k) {
      rows[size] = i;
      vals[size] = s;
      let c = size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!less(c, p)) break;
        swap(c, p);
        c = p;
      }
    } else if (s > vals[0] || (s === vals[0] && i < rows[0])) {
      rows[0] = i;
      vals[0] = s;
      down(0);
    }
  }
  const out: Hit[] = [];
  for (let i = 0; i < size; i++) out.push({ row: rows[i], score: vals[i] });
  return out.sort((a, b) => b.score - a.score || a.row - b.row);
}
