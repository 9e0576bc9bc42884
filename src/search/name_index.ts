/**
 * The names of a symbol list, indexed once for fuzzy matching ({@link fuzzyMatch}) over
 * millions of symbols: each distinct name once, its symbols beside it, and per name the
 * set of characters it holds (one bit per letter class), so that a query looks at the
 * characters of only the names that hold all of its own, and scores only the names that
 * hold it as a subsequence — every tier of {@link fuzzyMatch} implies that much.
 *
 * @module
 */

import type { SymbolColumns } from "../index/symbol_columns.ts";
import { slot } from "../util/memo.ts";
import { fuzzyMatch, Tier } from "./fuzzy.ts";
import { splitIdentifier } from "../util/tokens.ts";

/** The field of a symbol a query is matched against. */
export type NameField = "name" | "qualifiedName";

/** A symbol (its place in the list) and how its name matched. */
export interface NameHit {
  index: number;
  tier: number;
  score: number;
}

/** What {@link rankNames} found. */
export interface RankedNames {
  /** How many kept symbols match at all. */
  total: number;
  /**
   * The kept symbols whose match (tier, then score) is among the best `need`, with every
   * symbol that ties the last of them: in list order, for the caller's own full ordering.
   */
  hits: NameHit[];
}

interface NameIndex {
  /** Distinct name `n` as written, and lower-cased (made when a query first looks at it). */
  name(n: number): string;
  lower(n: number): string;
  /** String ids of the distinct names in the columns' table. */
  ids: Uint32Array;
  /** Per name: the characters it holds (see {@link charBits}); 0 for a non-ASCII name. */
  bits: Uint32Array;
  /** Symbols of name `n`: `symbols[start[n] .. start[n + 1])`, in list order. */
  start: Uint32Array;
  symbols: Uint32Array;
  /** Per-query scratch, one entry per name (reused: a query runs to its end at once). */
  tier: Uint8Array;
  score: Float64Array;
  picked: Uint32Array;
  later: Uint32Array;
}

/** The name indexes of a generation's columns, by field (made when first asked). */
const NAME_INDEXES = slot(
  "name indexes",
  (_: SymbolColumns) => new Map<NameField, NameIndex>(),
);

/**
 * One bit per letter (either case), digits in four, `_`, and one for everything else, of
 * `text[from, to)`; 0 when it holds a non-ASCII character (such a name is asked in full).
 */
function charBits(text: string, from = 0, to = text.length): number {
  let bits = 0;
  for (let i = from; i < to; i++) {
    let c = text.charCodeAt(i);
    if (c > 127) return 0;
    if (c >= 65 && c <= 90) c += 32;
    if (c >= 97 && c <= 122) bits |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) bits |= 1 << (26 + (c & 3));
    else if (c === 95) bits |= 1 << 30;
    else bits |= 1 << 31;
  }
  return bits >>> 0;
}

function nameIndex(columns: SymbolColumns, field: NameField): NameIndex {
  const byField = columns.memo.get(NAME_INDEXES);
  const hit = byField.get(field);
  if (hit) return hit;
  // The columns group the symbols by distinct value already.
  const { ids, start, symbols } = columns.fieldGroups(field);
  const { pool, poolStart } = columns;
  // Read in the string table: no string is made until a query looks at its name.
  const bits = Uint32Array.from(ids, (id) => charBits(pool, poolStart[id], poolStart[id + 1]));
  const n = ids.length;
  const lowered: (string | undefined)[] = [];
  const index = {
    name: (k: number) => columns.string(ids[k]),
    lower: (k: number) => lowered[k] ??= columns.string(ids[k]).toLowerCase(),
    ids,
    bits,
    start,
    symbols,
    tier: new Uint8Array(n),
    score: new Float64Array(n),
    picked: new Uint32Array(n),
    later: new Uint32Array(n),
  };
  byField.set(field, index);
  return index;
}

/**
 * Whether lower-case `q` is a subsequence of the ASCII name `text[from, to)` lower-cased,
 * read in place (no string is made).
 */
function holdsAt(text: string, from: number, to: number, q: string): boolean {
  let at = from;
  for (let i = 0; i < q.length; i++) {
    const want = q.charCodeAt(i);
    for (;;) {
      if (at >= to) return false;
      let c = text.charCodeAt(at++);
      if (c >= 65 && c <= 90) c += 32;
      if (c === want) break;
    }
  }
  return true;
}

/** `later` marks: the name holds the query itself (a sure match), or only its parts. */
const HOLDS_QUERY = 1;
const HOLDS_PARTS = 2;

/**
 * The symbols of `columns` whose `field` matches `query` ({@link fuzzyMatch}, non-empty),
 * among those `keep` accepts (all without it): how many, and the best `need` of them by
 * tier and score, ties at the end included. Only the names that hold the query's
 * characters in order are looked at, and only those that could rank among the best are
 * scored in full.
 *
 * @example
 * ```ts
 * const { total, hits } = rankNames(index.columns, "name", "kmalloc", 20);
 * ```
 */
export function rankNames(
  columns: SymbolColumns,
  field: NameField,
  query: string,
  need: number,
  keep?: (index: number) => boolean,
): RankedNames {
  const ix = nameIndex(columns, field);
  const { bits, start, tier, score, picked, later, ids } = ix;
  const { pool, poolStart } = columns;
  const q = query.toLowerCase();
  const compact = splitIdentifier(query).join("");
  const qBits = charBits(q);
  const cBits = compact ? charBits(compact) : -1 >>> 0;
  // An ASCII query's parts are pieces of it in order, lower-cased: holding them is the weaker
  // test, asked first (and once, when the query is its parts).
  // deno-lint-ignore no-control-regex
  const partsInQuery = compact.length > 0 && !/[^\x00-\x7f]/.test(query);
  const count = (n: number) => {
    if (!keep) return start[n + 1] - start[n];
    let c = 0;
    for (let i = start[n]; i < start[n + 1]; i++) if (keep(ix.symbols[i])) c++;
    return c;
  };
  // Pass 1: names that may match; the three tiers that need no parts, at once.
  let nPicked = 0;
  let nLater = 0;
  let found = 0;
  for (let n = 0; n < bits.length; n++) {
    const b = bits[n];
    // A name without the query's (or its parts') characters is skipped before any string.
    if (
      b !== 0 && (b & cBits) >>> 0 !== cBits && (partsInQuery || (b & qBits) >>> 0 !== qBits)
    ) continue;
    let mark = HOLDS_QUERY;
    if (b === 0) mark = HOLDS_PARTS; // not ASCII: asked in full
    else {
      // Asked in the string table: a name's strings are made only once it holds the query.
      const from = poolStart[ids[n]];
      const to = poolStart[ids[n] + 1];
      if (partsInQuery) {
        // The parts' letters are a subsequence of the query's: a name without them matches no tier.
        if ((b & cBits) >>> 0 !== cBits || !holdsAt(pool, from, to, compact)) continue;
        if (compact !== q && !((b & qBits) >>> 0 === qBits && holdsAt(pool, from, to, q))) {
          mark = HOLDS_PARTS;
        }
      } else if ((b & qBits) >>> 0 === qBits && holdsAt(pool, from, to, q)) mark = HOLDS_QUERY;
      else if ((b & cBits) >>> 0 === cBits && holdsAt(pool, from, to, compact)) mark = HOLDS_PARTS;
      else continue;
    }
    const low = ix.lower(n);
    const name = ix.name(n);
    if (query === name) (tier[n] = Tier.Exact), (score[n] = 1);
    else if (q === low) (tier[n] = Tier.CaseInsensitive), (score[n] = 1);
    else if (low.startsWith(q)) {
      tier[n] = Tier.Prefix;
      score[n] = (name.startsWith(query) ? 1 : 0.5) + q.length / low.length / 10;
    } else {
      later[nLater++] = n;
      tier[n] = mark; // kept until pass 2 reads it
      continue;
    }
    picked[nPicked++] = n;
    found += count(n);
  }
  // Pass 2: the other names are scored in full when the first three tiers fall short;
  // otherwise only how many symbols they hold matters (a name holding the query matches).
  let total = 0;
  for (let k = 0; k < nLater; k++) {
    const n = later[k];
    if (found >= need && tier[n] === HOLDS_QUERY) {
      total += count(n);
      continue;
    }
    const m = fuzzyMatch(query, ix.name(n));
    if (!m) continue;
    if (found >= need) {
      total += count(n);
      continue;
    }
    tier[n] = m.tier;
    score[n] = m.score;
    picked[nPicked++] = n;
  }
  // The best names first; their symbols until `need`, then the ties of the last.
  const order = Array.from(picked.subarray(0, nPicked))
    .sort((a, b) => tier[a] - tier[b] || score[b] - score[a]);
  const hits: NameHit[] = [];
  let lastTier = -1;
  let lastScore = 0;
  for (const n of order) {
    const taking = hits.length < need || (tier[n] === lastTier && score[n] === lastScore);
    if (!taking) {
      total += count(n);
      continue;
    }
    for (let i = start[n]; i < start[n + 1]; i++) {
      const s = ix.symbols[i];
      if (keep && !keep(s)) continue;
      total++;
      hits.push({ index: s, tier: tier[n], score: score[n] });
    }
    lastTier = tier[n];
    lastScore = score[n];
  }
  return { total, hits: hits.sort((a, b) => a.index - b.index) };
}

/**
 * Builds the name index of both fields ahead of the first query (a server's start): on the
 * Linux kernel the first `search_symbols` otherwise pays it.
 *
 * @example
 * ```ts
 * warmNames((await project.index()).columns);
 * ```
 */
export function warmNames(columns: SymbolColumns): void {
  nameIndex(columns, "name");
  nameIndex(columns, "qualifiedName");
}
