/**
 * The names of a symbol list, indexed once for fuzzy matching ({@link fuzzyMatch}) over
 * millions of symbols: each distinct name once, its symbols beside it, and per name the
 * set of characters it holds (one bit per letter class), so that a query looks at the
 * characters of only the names that hold all of its own, and scores only the names that
 * hold it as a subsequence — every tier of {@link fuzzyMatch} implies that much.
 *
 * @module
 */

import type { SymbolRecord } from "../types.ts";
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
  /** Distinct names, as written and lower-cased. */
  names: string[];
  lower: string[];
  /** Per name: the characters it holds (see {@link charBits}); 0 for a non-ASCII name. */
  bits: Uint32Array;
  /** Symbols of name `n`: `symbols[start[n] .. start[n + 1])`, in list order. */
  start: Uint32Array;
  symbols: Uint32Array;
}

const indexes = new WeakMap<readonly SymbolRecord[], Map<NameField, NameIndex>>();

/** One bit per lower-case letter, digits in four, `_`, and one for everything else. */
function charBits(lower: string): number {
  let bits = 0;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c >= 97 && c <= 122) bits |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) bits |= 1 << (26 + (c & 3));
    else if (c === 95) bits |= 1 << 30;
    else bits |= 1 << 31;
  }
  return bits >>> 0;
}

function nameIndex(symbols: readonly SymbolRecord[], field: NameField): NameIndex {
  let byField = indexes.get(symbols);
  if (!byField) indexes.set(symbols, byField = new Map());
  const hit = byField.get(field);
  if (hit) return hit;
  const ids = new Map<string, number>();
  const of = new Uint32Array(symbols.length);
  const names: string[] = [];
  for (let i = 0; i < symbols.length; i++) {
    const name = symbols[i][field];
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      ids.set(name, id);
      names.push(name);
    }
    of[i] = id;
  }
  const start = new Uint32Array(names.length + 1);
  for (let i = 0; i < of.length; i++) start[of[i] + 1]++;
  for (let n = 0; n < names.length; n++) start[n + 1] += start[n];
  const fill = start.slice(0, names.length);
  const list = new Uint32Array(symbols.length);
  for (let i = 0; i < of.length; i++) list[fill[of[i]]++] = i;
  const lower = names.map((n) => n.toLowerCase());
  // deno-lint-ignore no-control-regex
  const bits = Uint32Array.from(lower, (n) => /[^\x00-\x7f]/.test(n) ? 0 : charBits(n));
  const index = { names, lower, bits, start, symbols: list };
  byField.set(field, index);
  return index;
}

/** Whether `q` is a subsequence of `n`. */
function holds(n: string, q: string): boolean {
  let qi = 0;
  for (let i = 0; i < n.length && qi < q.length; i++) {
    if (n.charCodeAt(i) === q.charCodeAt(qi)) qi++;
  }
  return qi === q.length;
}

/**
 * The symbols of `symbols` whose `field` matches `query` ({@link fuzzyMatch}, non-empty),
 * among those `keep` accepts: how many, and the best `need` of them by tier and score,
 * ties at the end included. Only the names that hold the query's characters in order are
 * looked at, and only those that could rank among the best are scored in full.
 *
 * @example
 * ```ts
 * const { total, hits } = rankNames(index.symbols, "name", "kmalloc", 20, () => true);
 * ```
 */
export function rankNames(
  symbols: readonly SymbolRecord[],
  field: NameField,
  query: string,
  need: number,
  keep: (index: number) => boolean,
): RankedNames {
  const ix = nameIndex(symbols, field);
  const q = query.toLowerCase();
  const compact = splitIdentifier(query).join("");
  const qBits = charBits(q);
  const cBits = compact ? charBits(compact) : -1;
  // Pass 1: names that may match; the three tiers that need no parts, at once.
  const maybe: number[] = [];
  const tiers: number[] = [];
  const scores: number[] = [];
  const later: number[] = [];
  for (let n = 0; n < ix.names.length; n++) {
    const bits = ix.bits[n];
    const lower = ix.lower[n];
    if (bits !== 0) {
      const inQ = (bits & qBits) >>> 0 === qBits && holds(lower, q);
      if (!inQ && !((bits & cBits) >>> 0 === cBits >>> 0 && holds(lower, compact))) continue;
    }
    const name = ix.names[n];
    if (query === name) tiers.push(Tier.Exact), scores.push(1);
    else if (q === lower) tiers.push(Tier.CaseInsensitive), scores.push(1);
    else if (lower.startsWith(q)) {
      tiers.push(Tier.Prefix);
      scores.push((name.startsWith(query) ? 1 : 0.5) + q.length / lower.length / 10);
    } else {
      later.push(n);
      continue;
    }
    maybe.push(n);
  }
  const count = (n: number) => {
    let c = 0;
    for (let i = ix.start[n]; i < ix.start[n + 1]; i++) if (keep(ix.symbols[i])) c++;
    return c;
  };
  let found = 0;
  for (const n of maybe) found += count(n);
  // Pass 2: the other names are scored in full when the first three tiers fall short;
  // otherwise only how many symbols they hold matters (any name holding the query matches).
  let total = 0;
  for (const n of later) {
    if (found >= need && ix.bits[n] !== 0 && holds(ix.lower[n], q)) {
      total += count(n);
      continue;
    }
    const m = fuzzyMatch(query, ix.names[n]);
    if (!m) continue;
    if (found >= need) {
      total += count(n);
      continue;
    }
    maybe.push(n);
    tiers.push(m.tier);
    scores.push(m.score);
  }
  // The best names first; their symbols until `need`, then the ties of the last.
  const order = maybe.map((_, i) => i).sort((a, b) => tiers[a] - tiers[b] || scores[b] - scores[a]);
  const hits: NameHit[] = [];
  let lastTier = -1;
  let lastScore = 0;
  for (const k of order) {
    const n = maybe[k];
    const taking = hits.length < need || (tiers[k] === lastTier && scores[k] === lastScore);
    for (let i = ix.start[n]; i < ix.start[n + 1]; i++) {
      const s = ix.symbols[i];
      if (!keep(s)) continue;
      total++;
      if (taking) hits.push({ index: s, tier: tiers[k], score: scores[k] });
    }
    if (taking) {
      lastTier = tiers[k];
      lastScore = scores[k];
    }
  }
  return { total, hits: hits.sort((a, b) => a.index - b.index) };
}
