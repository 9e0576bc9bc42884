/**
 * How deep a line leaves its brackets: what a statement or a value over several lines is read
 * by (a TOML array, a call whose arguments go on below its first line).
 *
 * @module
 */

/** What a line's brackets are counted by. */
export interface BracketRules {
  /** The opening brackets counted (`"(["`), each closed by the same place in `close`. */
  open: string;
  close: string;
  /** String quotes (`"'` or `"'\``): brackets inside a string are not counted. */
  quotes: string;
  /** Quotes whose strings take backslash escapes (TOML's `'…'` does not). */
  escapes: string;
  /** Whether a comment begins at `i` (the rest of the line is not counted). */
  comment: (text: string, i: number) => boolean;
}

/**
 * Brackets `text` opens less those it closes, outside strings and comments.
 *
 * @example
 * ```ts
 * const rules = { open: "(", close: ")", quotes: '"', escapes: '"', comment: () => false };
 * bracketBalance('f(a, "(", g(b)', rules); // 1
 * ```
 */
export function bracketBalance(text: string, rules: BracketRules): number {
  let depth = 0;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\" && rules.escapes.includes(quote)) i++;
      else if (c === quote) quote = "";
    } else if (rules.quotes.includes(c)) quote = c;
    else if (rules.comment(text, i)) break;
    else if (rules.open.includes(c)) depth++;
    else if (rules.close.includes(c)) depth--;
  }
  return depth;
}
