/**
 * Fitting rendered text to a token budget: the one place where the budget is searched.
 *
 * A renderer turns "how much" (a count of ranked items, of lines, of list entries) into
 * text; `fitBudget` finds, by binary search, the largest amount whose text fits, and
 * `clampText` is the last guard that makes `tokens ≤ max` hold for any text.
 *
 * @module
 */

import type { TokenCounter } from "./tokens.ts";

/** Text with its token count. */
export interface Fitted {
  text: string;
  tokens: number;
  /** The amount the text was rendered with. */
  amount: number;
}

/**
 * The largest `n` in `[lo, hi]` whose rendering fits `max` tokens (binary search; the
 * rendering is assumed to grow with `n`). Returns null when not even `lo` fits.
 *
 * @example
 * ```ts
 * const fit = fitBudget(0, lines.length, 500, counter, (n) => lines.slice(0, n).join("\n"));
 * ```
 */
export function fitBudget(
  lo: number,
  hi: number,
  max: number,
  counter: TokenCounter,
  render: (n: number) => string,
): Fitted | null {
  const at = (n: number): Fitted => {
    const text = render(n);
    return { text, tokens: counter.count(text), amount: n };
  };
  let best = at(lo);
  if (best.tokens > max) return null;
  if (hi <= lo) return best;
  const top = at(hi);
  if (top.tokens <= max) return top;
  let a = lo; // fits
  let b = hi; // does not fit
  while (b - a > 1) {
    const mid = a + Math.floor((b - a) / 2);
    const f = at(mid);
    if (f.tokens <= max) {
      a = mid;
      best = f;
    } else {
      b = mid;
    }
  }
  return best;
}

/**
 * `text` cut to at most `max` tokens: whole lines while they fit, then (when not even the
 * first line fits) the longest prefix of that line. Never exceeds `max`.
 */
export function clampText(text: string, max: number, counter: TokenCounter): Fitted {
  const tokens = counter.count(text);
  if (tokens <= max) return { text, tokens, amount: text.length };
  const lines = text.split("\n");
  const byLines = fitBudget(0, lines.length, max, counter, (n) => lines.slice(0, n).join("\n"));
  if (byLines && byLines.amount > 0) return byLines;
  const first = lines[0];
  const byChars = fitBudget(0, first.length, max, counter, (n) => first.slice(0, n));
  return byChars ?? { text: "", tokens: 0, amount: 0 };
}
