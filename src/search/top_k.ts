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
 * A min-heap of the `k` best (row, score) pairs offered so far; ties go to the lower row
 * (offered through {@link Best.admits}, in any order of rows).
 */
class Best {
  private readonly rows: Int32Array;
  private readonly vals: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.rows = new Int32Array(k);
    this.vals = new Float64Array(k);
  }

  /** Whether a row scoring `s` would enter. */
  admits(s: number, row: number): boolean {
    return this.size < this.k || s > this.vals[0] || (s === this.vals[0] && row < this.rows[0]);
  }

  /** Scores at or below this never enter once the heap is full (-Infinity before). */
  floor(): number {
    return this.size < this.k ? -Infinity : this.vals[0];
  }

  /** Adds a row that {@link admits} said enters. */
  add(row: number, s: number): void {
    const { rows, vals } = this;
    if (this.size < this.k) {
      rows[this.size] = row;
      vals[this.size] = s;
      let c = this.size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!this.less(c, p)) break;
        this.swap(c, p);
        c = p;
      }
      return;
    }
    rows[0] = row;
    vals[0] = s;
    this.siftDown(0);
  }

  /** Moves the entry at `i` down until neither child is worse. */
  private siftDown(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.less(l, m)) m = l;
      if (r < this.size && this.less(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  /**
   * Best first (score, then the lower row), taken out of the heap worst first: the heap is
   * empty after. Sorting the rows with a comparator instead cost ~4 % of a search worker.
   */
  hits(): Hit[] {
    const { rows, vals } = this;
    const out: Hit[] = [];
    while (this.size > 0) {
      out.push({ row: rows[0], score: vals[0] });
      const last = --this.size;
      rows[0] = rows[last];
      vals[0] = vals[last];
      this.siftDown(0);
    }
    return out.reverse();
  }

  private less(a: number, b: number): boolean {
    const { rows, vals } = this;
    return vals[a] < vals[b] || (vals[a] === vals[b] && rows[a] > rows[b]);
  }

  private swap(a: number, b: number): void {
    const { rows, vals } = this;
    const r = rows[a];
    rows[a] = rows[b];
    rows[b] = r;
    const v = vals[a];
    vals[a] = vals[b];
    vals[b] = v;
  }
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
  const best = new Best(k);
  for (let i = 0; i < n; i++) {
    const s = score(i);
    if (Number.isNaN(s)) continue;
    // The filter is asked only about rows that would enter the heap (it may cost more than
    // the score: most rows of a lexical query score nothing).
    if (!best.admits(s, i) || (accept && !accept(i))) continue;
    best.add(i, s);
  }
  return best.hits();
}

/**
 * The `k` best of `scores` (row → score; NaN never enters), best first, ties to the lower
 * row: the first `k` of the entries sorted by score, then row, without sorting them all.
 *
 * @example
 * ```ts
 * topEntries(new Map([[4, 0.5], [2, 0.9], [7, 0.5]]), 2); // rows 2, 4
 * ```
 */
export function topEntries(scores: ReadonlyMap<number, number>, k: number): Hit[] {
  if (k <= 0) return [];
  const best = new Best(k);
  for (const [row, s] of scores) {
    if (!Number.isNaN(s) && best.admits(s, row)) best.add(row, s);
  }
  return best.hits();
}

/**
 * The `k` best rows of a score array among those scoring above `above` (NaN never does),
 * best first, ties to the lower row; `accept` is asked only about rows that would enter.
 * The same answer as {@link topK} over `scores[i]` without a call per row: a lexical
 * query's scores are mostly 0, and a scan with a call per row cost more than the scoring.
 *
 * @example
 * ```ts
 * topKOf(Float32Array.of(0, 0.9, 0, 0.3), 2, 0); // [{row: 1, score: 0.9}, {row: 3, score: 0.3}]
 * ```
 */
export function topKOf(
  scores: Float32Array,
  k: number,
  above = -Infinity,
  accept?: (i: number) => boolean,
): Hit[] {
  if (k <= 0) return [];
  const best = new Best(k);
  let floor = above;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i];
    // At or below the heap's worst a row cannot enter (rows come in increasing order, so a
    // tie goes to the row already in).
    if (!(s > floor) || (accept && !accept(i))) continue;
    best.add(i, s);
    floor = Math.max(above, best.floor());
  }
  return best.hits();
}

/** Bucket counts {@link topKPositive} reuses call after call. */
const buckets = new Int32Array(1 << 12);

/** Rows a lexical scoring reached (`LexicalIndex.score`): each listed once, in any order. */
export interface ListedRows {
  rows: Int32Array;
  count: number;
}

/**
 * What {@link topKOf} answers for `above` 0 — the `k` best rows scoring above 0 (NaN never
 * does), best first, ties to the lower row — among the rows whose `mask` entry is not 0.
 * In two plain passes instead of one with a heap: the first counts the rows per score
 * bucket (the top bits of a float32, which order as its value does for positive floats),
 * which gives the lowest bucket that still holds `k` rows with the ones above it; only rows
 * from that bucket up reach the heap. A lexical
 * query's scores rise and fall with the rows (one file's chunks after another), so a heap
 * over all of them took a few thousand rows in and out (0.5 ms of a query on the stdlib; 0.37 then).
 *
 * With `listed` (every row that may score above 0, once each, in any order) both passes read
 * only those rows: a stdlib query's postings reach ~10,000 of 60,993 rows (0.31–0.36 →
 * 0.15–0.16 ms of a query). The heap admits by score and then row, so the order does not
 * change the answer.
 *
 * @example
 * ```ts
 * topKPositive(Float32Array.of(0, 0.9, 0, 0.3), 2, Uint8Array.of(1, 1, 1, 1)); // rows 1, 3
 * ```
 */
export function topKPositive(
  scores: Float32Array,
  k: number,
  mask: Uint8Array,
  listed?: ListedRows,
): Hit[] {
  if (k <= 0) return [];
  const bits = new Uint32Array(scores.buffer, scores.byteOffset, scores.length);
  const list = listed?.rows;
  const n = listed ? listed.count : scores.length;
  // Float32s above 0 (up to +Infinity) are the bit patterns 1…0x7f800000, in the order of
  // their values; `bits >>> 19` (exponent and 4 bits more) is then below 4096.
  buckets.fill(0);
  let taken = 0;
  for (let j = 0; j < n; j++) {
    const i = list ? list[j] : j;
    const u = bits[i];
    if ((u - 1) >>> 0 < 0x7f800000 && mask[i] !== 0) {
      buckets[u >>> 19]++;
      taken++;
    }
  }
  let from = 0;
  if (taken > k) {
    let count = 0;
    from = buckets.length - 1;
    while ((count += buckets[from]) < k) from--;
  }
  // Rows of lower buckets score below at least k rows of higher ones: none of them enters.
  const least = from << 19;
  const best = new Best(k);
  for (let j = 0; j < n; j++) {
    const i = list ? list[j] : j;
    const u = bits[i];
    if (u < least || (u - 1) >>> 0 >= 0x7f800000 || mask[i] === 0) continue;
    const s = scores[i];
    if (best.admits(s, i)) best.add(i, s);
  }
  return best.hits();
}
