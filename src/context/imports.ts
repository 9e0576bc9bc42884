/**
 * The import statements of a file as a reader of one definition is shown them: the spans the
 * query's `@import.statement` captures recorded at indexing (`importLines` of the file's graph
 * part), those of the file itself — not one a function imports for its own use.
 *
 * @module
 */

import { CALLABLE_KINDS, type SymbolRecord } from "../types.ts";

/** One import statement as written (possibly several lines). */
export interface ImportLines {
  line: number;
  endLine: number;
  text: string[];
}

/**
 * The file's import statements in order, from the spans indexing recorded (first and last
 * line, pair by pair) and the file's lines; a statement inside a function, method or
 * constructor of `symbols` is that function's, not the file's, and is left out.
 *
 * @example
 * ```ts
 * fileImports([1, 1, 3, 4], ["import os", "def f():", "    from x import (", "        a)"], [
 *   { kind: "function", startLine: 2, endLine: 4 } as SymbolRecord,
 * ]); // [{ line: 1, endLine: 1, text: ["import os"] }]
 * ```
 */
export function fileImports(
  spans: readonly number[],
  lines: readonly string[],
  symbols: readonly SymbolRecord[],
): ImportLines[] {
  const callables = symbols.filter((s) => CALLABLE_KINDS.has(s.kind));
  const out: ImportLines[] = [];
  for (let i = 0; i + 1 < spans.length; i += 2) {
    const line = spans[i];
    const endLine = spans[i + 1];
    if (callables.some((s) => s.startLine <= line && endLine <= s.endLine)) continue;
    out.push({ line, endLine, text: lines.slice(line - 1, endLine) });
  }
  return out;
}
