/**
 * Exact and regular-expression search over the indexed files (`semantic_search` modes
 * `exact` and `regex`): what an assistant would otherwise run grep for, answered from the
 * index's own copy of the text (no file reads), with file, line and column.
 *
 * Both are smart-case: a query with no upper-case letter matches either case; with one, the
 * case must match. `regex` takes JavaScript (ECMAScript) regular-expression syntax with
 * the `u` flag: `\b`, `\d`, `\s`, classes `[a-z]`, groups `(…)`, alternation `|`, lazy
 * quantifiers `*?`, look-around `(?=…)` `(?<!…)`, named groups `(?<name>…)`; `.` does not
 * cross lines, `^`/`$` match at line ends.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import type { WireSearchItem } from "./item.ts";
import type { ChunkTable } from "./table.ts";
import type { SymbolRecord } from "../types.ts";

/** One file's text as the index holds it: its chunks' lines, joined. */
interface FileText {
  text: string;
  /** File line (1-based) of each line of `text`. */
  lineOf: Uint32Array;
  /** Offset in `text` where each of its lines starts. */
  starts: Uint32Array;
}

const texts = new WeakMap<ChunkTable, Array<FileText | undefined>>();

function fileText(table: ChunkTable, fi: number): FileText {
  let all = texts.get(table);
  if (!all) texts.set(table, all = new Array(table.files.length));
  const hit = all[fi];
  if (hit) return hit;
  const f = table.files[fi];
  const parts: string[] = [];
  const lineOf: number[] = [];
  for (let r = f.start; r < f.end; r++) {
    const c = table.chunks[r];
    parts.push(c.text);
    const n = c.text.split("\n").length;
    for (let i = 0; i < n; i++) lineOf.push(c.startLine + i);
  }
  const text = parts.join("\n");
  const starts = new Uint32Array(lineOf.length);
  let at = 0;
  for (let i = 0; i < lineOf.length; i++) {
    starts[i] = at;
    const nl = text.indexOf("\n", at);
    at = nl < 0 ? text.length : nl + 1;
  }
  const out = { text, lineOf: Uint32Array.from(lineOf), starts };
  all[fi] = out;
  return out;
}

/** Index of the line holding `offset` (binary search over line starts). */
function lineIndex(starts: Uint32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The innermost symbol around a line, if any. */
function innermost(symbols: readonly SymbolRecord[], line: number): SymbolRecord | undefined {
  let best: SymbolRecord | undefined;
  for (const s of symbols) {
    if (s.startLine <= line && line <= s.endLine) {
      if (!best || s.endLine - s.startLine <= best.endLine - best.startLine) best = s;
    }
  }
  return best;
}

/**
 * Compiles the query of an `exact` or `regex` search; a bad pattern is `invalid_argument`
 * naming it.
 */
export function compilePattern(query: string, mode: "exact" | "regex"): RegExp {
  const flags = /\p{Lu}/u.test(query) ? "gmu" : "gimu";
  const source = mode === "exact" ? query.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&") : query;
  try {
    return new RegExp(source, flags);
  } catch (e) {
    throw new CodectxError(
      "invalid_argument",
      `query '${query}' is not a valid regular expression (${
        (e as Error).message.replace(/^Invalid regular expression: /, "")
      }); the syntax is JavaScript's RegExp, e.g. 'def \\w+_config\\(' — or use mode exact for a literal`,
    );
  }
}

/**
 * Every match of `re` in the files `accept` lets through (in index order), at most `limit`,
 * as search items with the match's line and column (1-based) and its line as snippet.
 */
export function grepTable(
  table: ChunkTable,
  re: RegExp,
  limit: number,
  accept: (fileIndex: number) => boolean,
): WireSearchItem[] {
  const out: WireSearchItem[] = [];
  for (let fi = 0; fi < table.files.length && out.length < limit; fi++) {
    if (!accept(fi)) continue;
    const f = table.files[fi];
    const ft = fileText(table, fi);
    re.lastIndex = 0;
    let lastLine = -1;
    for (let m = re.exec(ft.text); m; m = re.exec(ft.text)) {
      // An empty match would loop forever: step past it.
      if (m[0] === "") re.lastIndex++;
      const li = lineIndex(ft.starts, m.index);
      if (li === lastLine) continue; // one result per line, like grep
      lastLine = li;
      const line = ft.lineOf[li];
      const endLine = ft.lineOf[lineIndex(ft.starts, m.index + Math.max(0, m[0].length - 1))];
      const lineEnd = ft.text.indexOf("\n", ft.starts[li]);
      const sym = innermost(table.index.symbolsByFile.get(f.path) ?? [], line);
      out.push({
        file: f.path,
        line,
        end_line: endLine,
        column: m.index - ft.starts[li] + 1,
        score: 1,
        snippet: ft.text.slice(ft.starts[li], lineEnd < 0 ? undefined : lineEnd),
        language: f.language,
        symbol: sym?.qualifiedName ?? null,
        kind: sym?.kind ?? null,
      });
      if (out.length >= limit) break;
    }
  }
  return out;
}
