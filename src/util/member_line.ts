/**
 * What `explain` shows of a type's members and doc, shared by its budget (`context/explain.ts`
 * counts what the text will take) and its text (`tools/explain_symbol/render.ts`): a member's
 * line, how many members are named, how many lines of a doc are shown.
 *
 * @module
 */

import { CALLABLE_KINDS } from "../types.ts";

/** Lines of a doc the texts show whole (a longer one: its first paragraph, the rest counted). */
export const DOC_LINES = 6;

/** Longest member signature shown on a type's member line. */
const MEMBER_SIGNATURE = 80;
/** Members named on the compact lines of a type's explanation (`name :line`) before a count. */
export const MEMBER_NAMES = 120;

/**
 * A member's line as a type's explanation shows it: its file line and its signature from its
 * name on, without the keyword before it and the `:`/`{` after, cut to {@link MEMBER_SIGNATURE}
 * characters (its name alone when the signature does not hold it).
 *
 * @example
 * ```ts
 * memberLine({ name: "close", line: 344, signature: "def close(self):" }); // "344 close(self)"
 * ```
 */
export function memberLine(m: { name: string; line: number; signature: string }): string {
  const sig = m.signature.replace(/\s+/g, " ");
  const at = sig.indexOf(m.name);
  const from = at < 0 ? m.name : sig.slice(at)
    .replace(/\s+(#|\/\/).*$/, "")
    .replace(/\s*[:{]\s*$/, "");
  const cut = from.length > MEMBER_SIGNATURE ? `${from.slice(0, MEMBER_SIGNATURE - 1)}…` : from;
  return `${m.line} ${cut}`;
}

/** Whether a member is shown on a line of its own (a callable) rather than named compactly. */
export function hasMemberLine(m: { kind: string }): boolean {
  return CALLABLE_KINDS.has(m.kind);
}
