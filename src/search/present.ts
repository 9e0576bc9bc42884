/**
 * Stage 3 of a ranked search: from fused scores to search items — best first, one per
 * symbol, each pointing at the member that matched, with the most relevant lines.
 *
 * @module
 */

import { chunkSymbol, type ChunkTable } from "./table.ts";
import type { WireSearchItem } from "./item.ts";
import {
  type MemberSimilarity,
  overloadImplementation,
  pointAtMember,
  sortByStart,
} from "./members.ts";
import { slot } from "../util/memo.ts";
import type { SymbolRecord } from "../types.ts";
import { codeTokens } from "../util/tokens.ts";

/** Most lines in a snippet. */
export const SNIPPET_LINES = 20;

/** What presenting needs of a retrieval: the rows, the query's terms and their weights. */
export interface Presentable {
  table: ChunkTable;
  terms: ReadonlySet<string>;
  /** A term's weight for pointing at members: its idf when in the query, else 0. */
  termWeight: (term: string) => number;
  /** The query's cosine with a member's code, when the embedder is cheap enough for it. */
  similarity?: MemberSimilarity;
  /** Added to a member's pointing score for its name (`exact.ts` `memberPreference`). */
  byName?: (qualifiedName: string) => number;
}

/** Stage 3: best first, one result per symbol, threshold, top k, as search items. */
export function present(
  r: Presentable,
  scored: Map<number, number>,
  topN = 10,
  threshold = 0,
): WireSearchItem[] {
  const ranked = [...scored].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const seen = new Set<string>();
  const out: WireSearchItem[] = [];
  for (const [row, score] of ranked) {
    if (out.length >= topN || score < threshold) break;
    const item = toItem(r, row, score);
    const key = item.symbol === null ? `${item.file}\0#${row}` : `${item.file}\0${item.symbol}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

/**
 * The most relevant lines of a chunk (at most {@link SNIPPET_LINES}): the window with the
 * most query-token hits, else the head of the chunk. `lines` are `text`'s lines when the
 * caller has them split already. With `keep` (a line number of the chunk: a definition's
 * name line), only windows that show it are chosen — a long doc comment full of the query's
 * words no longer hides the signature — and with no hit the window starts at it when the
 * head does not show it.
 */
export function bestSnippet(
  text: string,
  startLine: number,
  terms: ReadonlySet<string>,
  lines: readonly string[] = text.split("\n"),
  keep?: number,
): { text: string; line: number } {
  if (lines.length <= SNIPPET_LINES) return { text, line: startLine };
  // The first and last window starts allowed (every one without `keep`).
  const last = lines.length - SNIPPET_LINES;
  const k = keep === undefined ? -1 : keep - startLine;
  const inside = k >= 0 && k < lines.length;
  const lo = inside ? Math.max(0, k - SNIPPET_LINES + 1) : 0;
  const hi = inside ? Math.min(k, last) : last;
  const hits = new Int32Array(lines.length);
  if (terms.size > 0) {
    // A line holds a query term only if its lower case holds the term (a term is a
    // lower-case part of an identifier, or one with a plural ending cut; `ies` became `y`):
    // only such lines are tokenized. They are found by searching the whole text's lower case
    // (a term holds no line break), not line by line.
    const probes = [...terms].map((t) => (t.endsWith("y") ? t.slice(0, -1) : t));
    const candidate = new Uint8Array(lines.length);
    if (probes.includes("")) candidate.fill(1);
    else {
      const lower = text.toLowerCase();
      const starts = [0];
      for (let i = lower.indexOf("\n"); i >= 0; i = lower.indexOf("\n", i + 1)) starts.push(i + 1);
      for (const p of probes) {
        let line = 0;
        for (let at = lower.indexOf(p); at >= 0; at = lower.indexOf(p, at + 1)) {
          while (line + 1 < starts.length && starts[line + 1] <= at) line++;
          candidate[line] = 1;
          if (line + 1 === starts.length) break;
          at = starts[line + 1] - 1; // on to the next line
        }
      }
    }
    // Only the lines an allowed window can show.
    for (let i = lo; i < hi + SNIPPET_LINES; i++) {
      if (candidate[i] === 0) continue;
      let n = 0;
      for (const t of codeTokens(lines[i])) if (terms.has(t)) n++;
      hits[i] = n;
    }
  }
  // The window starting at `start` holds hits[start .. start + SNIPPET_LINES).
  let sum = 0;
  for (let i = lo; i < lo + SNIPPET_LINES; i++) sum += hits[i];
  let best = sum;
  let at = lo;
  for (let start = lo + 1; start <= hi; start++) {
    sum += hits[start + SNIPPET_LINES - 1] - hits[start - 1];
    if (sum > best) {
      best = sum;
      at = start;
    }
  }
  // No hit: the head of the chunk, or the definition from its name line on.
  if (best === 0) at = lo === 0 ? 0 : hi;
  return { text: lines.slice(at, at + SNIPPET_LINES).join("\n"), line: startLine + at };
}

/** The row of the chunk that holds `line` of the file of `row` (or `row` itself). */
function rowAt(table: ChunkTable, row: number, line: number): number {
  const f = table.files[table.fileOfRow[row]];
  for (let i = f.start; i < f.end; i++) {
    const c = table.chunks[i];
    if (c.startLine <= line && line <= c.endLine) return i;
  }
  return row;
}

function toItem(r: Presentable, hitRow: number, score: number): WireSearchItem {
  let row = hitRow;
  const symbols = r.table.index.symbolsByFile.get(r.table.chunks[row].file) ?? [];
  let own = chunkSymbol(r.table, row);
  // The chunk's text is split once and shared (each read of `text` goes to the text file).
  let c = r.table.chunks[row];
  let full = c.text;
  let lines = full.split("\n");
  const impl = overloadImplementation(own, c, symbols, lines);
  if (impl) {
    row = rowAt(r.table, row, impl.line);
    own = impl;
    c = r.table.chunks[row];
    full = c.text;
    lines = full.split("\n");
  }
  const at = pointAtMember(
    c,
    own,
    symbols,
    r.termWeight,
    r.similarity,
    lines,
    sortedSymbols(r.table, c.file, symbols),
    r.byName,
  );
  const whole = at.from === 0 && at.to === lines.length;
  const span = whole ? lines : lines.slice(at.from, at.to);
  const text = whole ? full : span.join("\n");
  const snippet = bestSnippet(text, c.startLine + at.from, r.terms, span, at.line);
  return {
    file: c.file,
    line: at.line,
    end_line: at.endLine,
    score: Math.round(Math.min(1, Math.max(0, score)) * 10000) / 10000,
    snippet: snippet.text,
    ...(snippet.line !== at.line ? { snippet_line: snippet.line } : {}),
    language: c.language,
    symbol: at.symbol,
    kind: at.kind,
  };
}

/** Each file's symbols sorted by start line, made when a result in it is first presented. */
const SORTED_SYMBOLS = slot(
  "symbols by start line",
  (_: ChunkTable) => new Map<string, readonly SymbolRecord[]>(),
);

function sortedSymbols(
  table: ChunkTable,
  path: string,
  symbols: readonly SymbolRecord[],
): readonly SymbolRecord[] {
  const byFile = table.memo.get(SORTED_SYMBOLS);
  let sorted = byFile.get(path);
  if (!sorted) byFile.set(path, sorted = sortByStart(symbols));
  return sorted;
}
