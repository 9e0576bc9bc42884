/**
 * A line of a file in its definition: the definition's line, the heads the line sits under
 * (each whole) and the lines around it, numbered — where a message is raised and under which
 * conditions, in one answer. `codectx show FILE:N` and `explain_file`'s `line` print it (issue
 * 35: the blind answerers read 30–120 lines with `sed` to find the `if` above a hit).
 *
 * @module
 */

import { bodyLines, headsOf } from "./body_outline.ts";

/** Lines either side of the line asked for. */
const AROUND = 3;
/** Lines either side of a line no definition holds (nothing above it says more). */
export const OUTSIDE = 5;
/** A longer line is cut (a minified bundle's one line). */
export const MAX_LINE_CHARS = 400;

/** A definition as the view needs it (a symbol record's wire shape has these). */
export interface Definition {
  qualified_name: string;
  line: number;
  end_line: number;
}

/**
 * Line `n` of `lines` numbered (`n: text`, an empty line its number alone), cut at
 * {@link MAX_LINE_CHARS}.
 */
export function numberedLine(lines: readonly string[], n: number): string {
  const line = lines[n - 1] ?? "";
  const cut = line.length > MAX_LINE_CHARS
    ? `${line.slice(0, MAX_LINE_CHARS)}… (${line.length - MAX_LINE_CHARS} more characters)`
    : line;
  return cut ? `${n}: ${cut}` : `${n}:`;
}

/**
 * A file's text as its lines, the empty one after a final newline left out (a file of 19
 * lines ending in `\n` is 19 lines, as an index counts it).
 */
export function textLines(text: string): string[] {
  return text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
}

/** The innermost definition of `defs` that holds line `n` over more than one line. */
function holder<D extends Definition>(defs: readonly D[], n: number): D | undefined {
  let best: D | undefined;
  for (const s of defs) {
    if (s.line > n || s.end_line < n || s.end_line === s.line) continue;
    if (!best || s.end_line - s.line < best.end_line - best.line) best = s;
  }
  return best;
}

/**
 * Line `n` of a file's `lines` in the innermost of `defs` that holds it: `in Name (a-b)`, the
 * definition's line, the heads `n` sits under and `n` ± {@link AROUND}, numbered, a gap
 * marked `…`; undefined when no definition holds `n`.
 *
 * @example
 * ```ts
 * lineInContext(["def f(x):", "    if x:", "        raise E()"], [{ qualified_name: "f", line: 1, end_line: 3 }], 3);
 * // ["in f (1-3)", "1: def f(x):", "2:     if x:", "3:         raise E()"]
 * ```
 */
export function lineInContext(
  lines: readonly string[],
  defs: readonly Definition[],
  n: number,
): string[] | undefined {
  const def = holder(defs, n);
  if (!def || n > lines.length) return undefined;
  const end = Math.min(def.end_line, lines.length);
  const nested = defs.filter((s) => s !== def && s.line > def.line && s.line <= end);
  const body = bodyLines(lines.slice(def.line - 1, end), def.line, 1, nested.map((s) => s.line));
  const shown = new Set<number>([def.line]);
  for (const h of headsOf(body, n)) for (let l = h.line; l <= h.end; l++) shown.add(l);
  for (let l = Math.max(def.line, n - AROUND); l <= Math.min(end, n + AROUND); l++) shown.add(l);
  const out = [`in ${def.qualified_name} (${def.line}-${def.end_line})`];
  let last = 0;
  for (const l of [...shown].sort((a, b) => a - b)) {
    if (last && l > last + 1) out.push("…");
    out.push(numberedLine(lines, l));
    last = l;
  }
  return out;
}

/**
 * Line `n` of `text` as {@link lineInContext} shows it, or, when no definition holds it, the
 * lines within {@link OUTSIDE} of it, numbered.
 */
export function lineView(text: string, defs: readonly Definition[], n: number): string[] {
  const lines = textLines(text);
  const inside = lineInContext(lines, defs, n);
  if (inside) return inside;
  const out: string[] = [];
  for (let l = Math.max(1, n - OUTSIDE); l <= Math.min(lines.length, n + OUTSIDE); l++) {
    out.push(numberedLine(lines, l));
  }
  return out;
}
