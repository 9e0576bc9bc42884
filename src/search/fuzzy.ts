/**
 * Fuzzy matching of a query against symbol names, in tiers as an editor's
 * "go to symbol": exact > case-insensitive exact > prefix > camel-hump / snake-part >
 * subsequence.
 */

import { splitIdentifier } from "../util/tokens.ts";

/** Match tiers, best first. */
export const Tier = { Exact: 0, CaseInsensitive: 1, Prefix: 2, Parts: 3, Subsequence: 4 } as const;
/** One of the tiers. */
export type Tier = (typeof Tier)[keyof typeof Tier];

/** How well a query matched a name: lower tier is better; within a tier higher score is. */
export interface FuzzyMatch {
  tier: Tier;
  score: number;
}

/** Matches `query` against `name`; null when it does not match at all. */
export function fuzzyMatch(query: string, name: string): FuzzyMatch | null {
  if (query === name) return { tier: Tier.Exact, score: 1 };
  const q = query.toLowerCase();
  const n = name.toLowerCase();
  if (q === n) return { tier: Tier.CaseInsensitive, score: 1 };
  if (n.startsWith(q)) {
    // Case-sensitive prefixes and longer coverage rank first.
    return {
      tier: Tier.Prefix,
      score: (name.startsWith(query) ? 1 : 0.5) + q.length / n.length / 10,
    };
  }
  const parts = splitIdentifier(name);
  const qParts = splitIdentifier(query);
  const compact = qParts.join("");
  if (compact.length > 0 && (partsMatch(qParts, parts) || humpMatch(compact, parts, 0, 0))) {
    return { tier: Tier.Parts, score: compact.length / Math.max(1, parts.join("").length) };
  }
  const span = subsequenceSpan(q, n);
  if (span > 0) return { tier: Tier.Subsequence, score: q.length / span };
  return null;
}

/** Each query part is the prefix of a later name part, in order. */
function partsMatch(qParts: string[], parts: string[]): boolean {
  if (qParts.length === 0) return false;
  let j = 0;
  for (const qp of qParts) {
    while (j < parts.length && !parts[j].startsWith(qp)) j++;
    if (j === parts.length) return false;
    j++;
  }
  return true;
}

/** `q` is a concatenation of prefixes of name parts taken in order (`gsf` ~ getSomeFile). */
function humpMatch(q: string, parts: string[], qi: number, pi: number): boolean {
  if (qi === q.length) return true;
  for (let p = pi; p < parts.length; p++) {
    const part = parts[p];
    let k = 0;
    while (k < part.length && qi + k < q.length && q[qi + k] === part[k]) {
      k++;
      if (humpMatch(q, parts, qi + k, p + 1)) return true;
    }
  }
  return false;
}

/** Length of the shortest window of `n` holding `q` as a subsequence (greedy), 0 if none. */
function subsequenceSpan(q: string, n: string): number {
  if (q.length === 0) return 0;
  let start = -1;
  let qi = 0;
  for (let i = 0; i < n.length && qi < q.length; i++) {
    if (n[i] === q[qi]) {
      if (qi === 0) start = i;
      qi++;
      if (qi === q.length) return i - start + 1;
    }
  }
  return 0;
}
