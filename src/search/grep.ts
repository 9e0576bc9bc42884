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
import type { CallLimits } from "../util/bounded.ts";
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

/**
 * A file's text from its chunks' lines. Made for each search and dropped after it: kept, the
 * texts of a large tree would stay on the heap (the read model keeps them in a spill file).
 */
function fileText(table: ChunkTable, fi: number): FileText {
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
  return { text, lineOf: Uint32Array.from(lineOf), starts };
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

/** One file's text, as a scan reads it. */
export interface ScanFile {
  text: string;
}

/** A match a scan found: the file (index in the files scanned) and where it starts and ends. */
export interface ScanHit {
  file: number;
  at: number;
  end: number;
}

/**
 * Every match of `re` (a `g` pattern) in `files`, in order, at most `limit`, one per line as
 * grep reports them (a later match that starts on a reported line is skipped). Pure, and
 * synchronous: a search worker runs it under a hard time limit (`util/bounded.ts`).
 *
 * @example
 * ```ts
 * scanTexts(/b+/g, [{ text: "abba\nbb" }], 10); // [{file: 0, at: 1, end: 3}, {file: 0, at: 5, end: 7}]
 * ```
 */
export function scanTexts(re: RegExp, files: readonly ScanFile[], limit: number): ScanHit[] {
  const out: ScanHit[] = [];
  for (let file = 0; file < files.length && out.length < limit; file++) {
    const { text } = files[file];
    re.lastIndex = 0;
    /** Offset of the newline that ends the last reported line (-1: none reported yet). */
    let lineEnd = -1;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      // An empty match would loop forever: step past it.
      if (m[0] === "") re.lastIndex++;
      if (m.index <= lineEnd) continue; // one result per line, like grep
      const nl = text.indexOf("\n", m.index);
      lineEnd = nl < 0 ? text.length : nl;
      out.push({ file, at: m.index, end: m.index + m[0].length });
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** Characters of text sent to a scan at a time (the server's thread turns in between). */
const BATCH_CHARS = 4 * 1024 * 1024;

/** Runs one scan where its time limit can stop it (a worker, or this thread). */
export type ScanRunner = (
  job: { source: string; flags: string; files: ScanFile[]; limit: number; deadline: number },
) => Promise<{ hits: ScanHit[]; timedOut: boolean }>;

/**
 * Every match of `re` in the files `accept` lets through (in index order), at most `limit`,
 * as search items with the match's line and column (1-based) and its line as snippet. The
 * files go to `scan` a batch at a time, so a pattern that backtracks is stopped at
 * `limits.deadline` and the calling thread stays free; past it the call fails `timeout`,
 * saying how far it got and how to write the pattern instead.
 */
export async function grepTable(
  table: ChunkTable,
  re: RegExp,
  limit: number,
  accept: (fileIndex: number) => boolean,
  scan: ScanRunner,
  limits: CallLimits,
): Promise<WireSearchItem[]> {
  const out: WireSearchItem[] = [];
  const started = Date.now();
  const deadline = limits.deadline ?? started + DEFAULT_SCAN_MS;
  const wanted: number[] = [];
  for (let fi = 0; fi < table.files.length; fi++) if (accept(fi)) wanted.push(fi);
  let done = 0;
  let batch: { fi: number; ft: FileText }[] = [];
  let chars = 0;
  const flush = async () => {
    limits.signal?.throwIfAborted();
    const { hits, timedOut } = await scan({
      source: re.source,
      flags: re.flags,
      files: batch.map((b) => ({ text: b.ft.text })),
      limit: limit - out.length,
      deadline,
    });
    if (timedOut) throw scanTimeout(Date.now() - started, done, wanted.length);
    for (const h of hits) out.push(item(table, batch[h.file].fi, batch[h.file].ft, h));
    done += batch.length;
    batch = [];
    chars = 0;
  };
  for (const fi of wanted) {
    const ft = fileText(table, fi);
    batch.push({ fi, ft });
    chars += ft.text.length;
    if (chars >= BATCH_CHARS) {
      await flush();
      if (out.length >= limit) return out;
    }
  }
  if (batch.length) await flush();
  return out;
}

/** A scan's time limit when the call gave none (a library caller): the executor's default. */
const DEFAULT_SCAN_MS = 30_000;

/** A match as a search item: its line and column, its line as snippet, the symbol around it. */
function item(table: ChunkTable, fi: number, ft: FileText, hit: ScanHit): WireSearchItem {
  const f = table.files[fi];
  const li = lineIndex(ft.starts, hit.at);
  const line = ft.lineOf[li];
  const endLine = ft.lineOf[lineIndex(ft.starts, Math.max(hit.at, hit.end - 1))];
  const lineEnd = ft.text.indexOf("\n", ft.starts[li]);
  const sym = innermost(table.index.symbolsByFile.get(f.path) ?? [], line);
  return {
    file: f.path,
    line,
    end_line: endLine,
    column: hit.at - ft.starts[li] + 1,
    score: 1,
    snippet: ft.text.slice(ft.starts[li], lineEnd < 0 ? undefined : lineEnd),
    language: f.language,
    symbol: sym?.qualifiedName ?? null,
    kind: sym?.kind ?? null,
  };
}

/** The error of a scan stopped at its limit: how far it got, and how to write the pattern. */
function scanTimeout(elapsedMs: number, filesDone: number, filesTotal: number): CodectxError {
  return new CodectxError(
    "timeout",
    `the pattern was stopped after ${
      (elapsedMs / 1000).toFixed(1)
    } s, its time limit, with ${filesDone} of ${filesTotal} files searched. A repeated group that can match the same text in several ways (like (\\w+\\s?)* or (a|a)*) makes a regular expression try every way: write it without the nested repeat (\\w[\\w\\s]* instead of (\\w+\\s?)*), or narrow the search with path_prefix or language`,
  );
}
