/**
 * Exact and regular-expression search over the indexed files (`semantic_search` modes
 * `exact` and `regex`): what an assistant would otherwise run grep for, answered from the
 * index's own copy of the text (no file reads), with file, line and column.
 *
 * Both are smart-case: a query with no upper-case letter matches either case; with one, the
 * case must match (a regex's escapes, like `\S` or `\W`, are not letters of it). `regex` takes JavaScript (ECMAScript) regular-expression syntax with
 * the `u` flag: `\b`, `\d`, `\s`, classes `[a-z]`, groups `(…)`, alternation `|`, lazy
 * quantifiers `*?`, look-around `(?=…)` `(?<!…)`, named groups `(?<name>…)`; `.` does not
 * cross lines, `^`/`$` match at line ends.
 *
 * @module
 */

import { carriedFiles, fileClasses } from "./scope.ts";
import { CodectxError } from "../errors.ts";
import type { CallLimits } from "../util/bounded.ts";
import { chunkTextBytes } from "../index/chunk_text_bytes.ts";
import type { WireSearchItem } from "./item.ts";
import type { ChunkTable } from "./table.ts";
import type { SymbolRecord } from "../types.ts";

/**
 * Compiles the query of an `exact` or `regex` search; a bad pattern is `invalid_argument`
 * naming it.
 */
export function compilePattern(query: string, mode: "exact" | "regex"): RegExp {
  // Smart case reads the letters the pattern matches: in a regex, not those of an escape
  // (`\S`, `\W`, `\p{Lu}`) or a group's name — `todo:\s+\S+` still ignores case.
  const letters = mode === "regex"
    ? query.replace(/\\[pPk][{<][^}>]*[}>]|\\.|\(\?<[A-Za-z_$][\w$]*>/gu, "")
    : query;
  const flags = /\p{Lu}/u.test(letters) ? "gmu" : "gimu";
  const source = mode === "exact" ? literalSource(query) : query;
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
 * Where a message is split over string literals (`"is not "` then `"a valid"` on the next line,
 * joined by nothing, `+`, `.` or a `\\`): the quote that ends one, what joins them, the quote
 * that opens the next (with its prefix: `f"`, `r'`).
 */
const LITERAL_BREAK = String.raw`\s*["'\x60][\s+.\\]*[rbufRBUF]{0,2}["'\x60]\s*`;

/**
 * An exact query as a pattern: its text escaped, and each run of spaces in it also matching a
 * break between two string literals, so that a message written in two pieces is found by its
 * whole text (on Django, "is not a valid view function or pattern name" was split so, and an
 * exact search found nothing).
 */
function literalSource(query: string): string {
  return query.split(/(\s+)/).map((part, i) => {
    const text = part.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
    return i % 2 === 1 ? `(?:${text}|${LITERAL_BREAK})` : text;
  }).join("");
}

/**
 * One file's text as a scan takes it: its chunks' texts as UTF-8 one after another (their
 * lines joined make the file's indexed text), each one's length, and the line each starts on.
 */
export interface ScanFile {
  bytes: Uint8Array;
  lengths: Uint32Array;
  startLines: Uint32Array;
}

/** A match a scan found: the file (index in the files scanned), its lines, column and line text. */
export interface ScanHit {
  file: number;
  line: number;
  endLine: number;
  /** 1-based, in UTF-16 code units as JavaScript counts them. */
  column: number;
  snippet: string;
}

/** A file's text with where each of its lines starts and which file line it is (made on a hit). */
interface LineMap {
  /** File line (1-based) of each line of the text. */
  lineOf: Uint32Array;
  /** Offset in the text where each of its lines starts. */
  starts: Uint32Array;
}

function lineMap(text: string, chunkTexts: readonly string[], startLines: Uint32Array): LineMap {
  const lineOf: number[] = [];
  chunkTexts.forEach((t, i) => {
    let n = 1;
    for (let at = t.indexOf("\n"); at !== -1; at = t.indexOf("\n", at + 1)) n++;
    for (let k = 0; k < n; k++) lineOf.push(startLines[i] + k);
  });
  const starts = new Uint32Array(lineOf.length);
  let at = 0;
  for (let i = 0; i < lineOf.length; i++) {
    starts[i] = at;
    const nl = text.indexOf("\n", at);
    at = nl < 0 ? text.length : nl + 1;
  }
  return { lineOf: Uint32Array.from(lineOf), starts };
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

/** A word character at a match's edge: a whole-word match has none just outside it. */
const WORD = String.raw`[\p{L}\p{N}_$]`;

/**
 * Which ends of a pattern's matches must be word edges: no word character ({@link WORD}) just
 * before the match (`before`), just after it (`after`).
 */
export interface Edges {
  before: boolean;
  after: boolean;
}

/** A word character, as the first or last character of a query (one UTF-16 unit). */
const EDGE_CHAR = new RegExp(`^${WORD}|${WORD}$`, "u");

/**
 * The ends of `query` that are word characters: the ends of an exact search for it as whole
 * words that must be word edges.
 */
export function wordEdges(query: string): Edges {
  const t = query.trim();
  return { before: EDGE_CHAR.test(t[0] ?? ""), after: EDGE_CHAR.test(t.at(-1) ?? "") };
}

/**
 * `source` whose matches start and end at word edges (`edges`), as one pattern: a look-behind
 * and a look-ahead of {@link WORD}. Compiling it costs ~0.2 ms and its first match ~1 ms (the
 * Unicode classes): {@link scanFiles} compiles it only when a match is next to a non-ASCII
 * word character.
 */
export function edgedSource(source: string, edges: Edges, word = WORD): string {
  return `${edges.before ? `(?<!${word})` : ""}(?:${source})${edges.after ? `(?!${word})` : ""}`;
}

/** A word character at the start of a string, with and without `i` (compiled once). */
const wordStart = new Map<boolean, RegExp>();

/**
 * Whether the match `[start, end)` of `text` has no word character just before it (when
 * `edges.before`) and just after it (`edges.after`), as `edgedSource`'s look-arounds read them
 * under `flags`: a code point each side (a surrogate pair is one), with `i` its case variants
 * too. (Each is tested at the start of a string: V8 misses an astral letter before `$` in a
 * class such as `[\p{L}]$`.)
 */
function atEdges(text: string, start: number, end: number, edges: Edges, flags: string): boolean {
  const i = flags.includes("i");
  let word = wordStart.get(i);
  if (!word) wordStart.set(i, word = new RegExp(`^${WORD}`, i ? "iu" : "u"));
  if (edges.before && start > 0) {
    const low = text.charCodeAt(start - 1);
    const pair = start > 1 && low >= 0xdc00 && low <= 0xdfff &&
      text.charCodeAt(start - 2) >= 0xd800 && text.charCodeAt(start - 2) <= 0xdbff;
    if (word.test(text.slice(start - (pair ? 2 : 1), start))) return false;
  }
  return !edges.after || !word.test(text.slice(end, end + 2));
}

/**
 * Every match of `re` (a `g` pattern) in `files`, in order, at most `limit`, one per line as
 * grep reports them (a later match that starts on a reported line is skipped), with its lines,
 * column and line text. Pure and synchronous: a scan worker runs it under a hard time limit
 * (`util/bounded.ts`); the texts are decoded here, off the server's thread.
 *
 * With `edges`, the matches of `re` whose ends are word edges (what the pattern of
 * {@link edgedSource} matches): found with ASCII look-arounds (`[\w$]`, cheap to compile:
 * their matches include every edged match), each checked at its ends; a file where a match
 * fails the check is scanned again with the whole pattern.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode("abba");
 * scanFiles(/b+/g, [{ bytes, lengths: Uint32Array.of(4), startLines: Uint32Array.of(7) }], 10);
 * // [{ file: 0, line: 7, endLine: 7, column: 2, snippet: "abba" }]
 * ```
 */
export function scanFiles(
  re: RegExp,
  files: readonly ScanFile[],
  limit: number,
  edges?: Edges,
): ScanHit[] {
  const out: ScanHit[] = [];
  const dec = new TextDecoder();
  const fast = edges ? new RegExp(edgedSource(re.source, edges, String.raw`[\w$]`), re.flags) : re;
  let whole: RegExp | null = null;
  for (let file = 0; file < files.length && out.length < limit; file++) {
    const f = files[file];
    const chunkTexts: string[] = [];
    let at = 0;
    for (const n of f.lengths) {
      chunkTexts.push(dec.decode(f.bytes.subarray(at, at + n)));
      at += n;
    }
    const text = chunkTexts.join("\n");
    const check = edges &&
      ((t: string, m: RegExpExecArray) =>
        atEdges(t, m.index, m.index + m[0].length, edges, re.flags));
    const hits = fileHits(fast, text, chunkTexts, f.startLines, file, limit - out.length, check) ??
      fileHits(
        whole ??= new RegExp(edgedSource(re.source, edges!), re.flags),
        text,
        chunkTexts,
        f.startLines,
        file,
        limit - out.length,
      );
    out.push(...hits!);
  }
  return out;
}

/**
 * The matches of `re` in one file's `text` (see {@link scanFiles}), at most `limit`; null when
 * `check` refuses one of them.
 */
function fileHits(
  re: RegExp,
  text: string,
  chunkTexts: readonly string[],
  startLines: Uint32Array,
  file: number,
  limit: number,
  check?: (text: string, m: RegExpExecArray) => boolean,
): ScanHit[] | null {
  const out: ScanHit[] = [];
  let map: LineMap | null = null;
  re.lastIndex = 0;
  /** Offset of the newline that ends the last reported line (-1: none reported yet). */
  let lineEnd = -1;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (check && !check(text, m)) return null;
    // An empty match would loop forever: step past it.
    if (m[0] === "") re.lastIndex++;
    // A match is where its text is: `\s*import x` may begin with the blank lines above.
    const lead = m[0].length - m[0].trimStart().length;
    const start = lead < m[0].length ? m.index + lead : m.index;
    const last = Math.max(start, m.index + m[0].trimEnd().length - 1);
    if (start <= lineEnd) continue; // one result per line, like grep
    const nl = text.indexOf("\n", start);
    lineEnd = nl < 0 ? text.length : nl;
    map ??= lineMap(text, chunkTexts, startLines);
    const li = lineIndex(map.starts, start);
    out.push({
      file,
      line: map.lineOf[li],
      endLine: map.lineOf[lineIndex(map.starts, last)],
      column: start - map.starts[li] + 1,
      snippet: text.slice(map.starts[li], nl < 0 ? undefined : nl),
    });
    if (out.length >= limit) break;
  }
  return out;
}

/** Bytes of text sent to a scan at a time (the server's thread turns in between). */
const BATCH_BYTES = 8 * 1024 * 1024;

/** One batch of a scan, as a runner (a worker, or this thread) gets it. */
export interface ScanJob {
  source: string;
  flags: string;
  /** Matches whose ends are word edges only (see {@link scanFiles}). */
  edges?: Edges;
  files: ScanFile[];
  limit: number;
  /** `Date.now()` past which the scan stops (`Infinity`: a call without a limit). */
  deadline: number;
}

/** What a batch found, and whether its deadline cut it off. */
export interface ScanReply {
  hits: ScanHit[];
  timedOut: boolean;
}

/** Runs one scan where its time limit can stop it (a worker, or this thread). */
export type ScanRunner = (job: ScanJob) => Promise<ScanReply>;

/** Rows `[start, end)` of one file of the table (all of them, or a run of them) to scan. */
interface Piece {
  file: number;
  start: number;
  end: number;
}

/**
 * Every match of `re` in the files `accept` lets through (code, then docs, then tests, each in
 * index order), at most `limit`,
 * as search items with the match's line and column (1-based) and its line as snippet. The
 * files go to `scan` a batch at a time as bytes read from the index's text file (nothing is
 * decoded or kept here), so a pattern that backtracks is stopped at `limits.deadline` and the
 * calling thread stays free; past it the call fails `timeout`, saying how far it got and how
 * to write the pattern instead.
 */
export async function grepTable(
  table: ChunkTable,
  re: RegExp,
  limit: number,
  accept: (fileIndex: number) => boolean,
  scan: ScanRunner,
  limits: CallLimits,
): Promise<WireSearchItem[]> {
  const pieces: Piece[] = [];
  table.files.forEach((f, fi) => {
    if (accept(fi)) pieces.push({ file: fi, start: f.start, end: f.end });
  });
  return await grepPieces(table, re, limit, pieces, scan, limits);
}

/**
 * The same as {@link grepTable} over the given rows and the row after each (same file) only,
 * in the files `accept` lets through: each run of consecutive rows is scanned as one text, as
 * it lies in its file. A match found so is one a scan of the whole file finds, and every one
 * that starts in such a row and ends in it or the next is found.
 */
export async function grepRows(
  table: ChunkTable,
  re: RegExp,
  limit: number,
  rows: ArrayLike<number>,
  accept: (fileIndex: number) => boolean,
  scan: ScanRunner,
  limits: CallLimits,
  opts: {
    /** Bytes of text handed to `scan` at a time, at most (one piece may be more). */
    batchBytes?: number;
    /** Only matches of `re` whose ends are word edges (see {@link scanFiles}). */
    edges?: Edges;
  } = {},
): Promise<WireSearchItem[]> {
  const { fileOfRow } = table;
  const pieces: Piece[] = [];
  for (const r of Int32Array.from(rows).sort()) {
    for (const x of fileOfRow[r + 1] === fileOfRow[r] ? [r, r + 1] : [r]) {
      const file = fileOfRow[x];
      const last = pieces.at(-1);
      if (last && x < last.end) continue;
      if (!accept(file)) continue;
      if (last && last.end === x && last.file === file) last.end++;
      else pieces.push({ file, start: x, end: x + 1 });
    }
  }
  return await grepPieces(table, re, limit, pieces, scan, limits, opts);
}

async function grepPieces(
  table: ChunkTable,
  re: RegExp,
  limit: number,
  pieces: readonly Piece[],
  scan: ScanRunner,
  limits: CallLimits,
  { batchBytes = BATCH_BYTES, edges }: { batchBytes?: number; edges?: Edges } = {},
): Promise<WireSearchItem[]> {
  const out: WireSearchItem[] = [];
  const started = Date.now();
  // A call without a limit (the CLI, a library caller) scans to the end.
  const deadline = limits.deadline ?? Infinity;
  // Code, then docs, then tests: a capped answer holds the code's lines (git's `core.editor`:
  // 9 of the first 10 hits were in t/, issue 35); the project's own code before what it carries
  // (vendored, generated).
  const classes = fileClasses(table);
  const rank = { code: 0, docs: 2, tests: 3 };
  const carried = carriedFiles(table);
  const rankOf = (file: number) => rank[classes[file]] + (carried[file] ? 1 : 0);
  const ordered = [...pieces].sort((x, y) =>
    rankOf(x.file) - rankOf(y.file) || x.file - y.file || x.start - y.start
  );
  let done = 0;
  let batch: number[] = [];
  let files: ScanFile[] = [];
  let bytes = 0;
  const flush = async () => {
    // The thread turns between batches (a scan on this thread runs in slices).
    if (done > 0) await new Promise((next) => setTimeout(next, 0));
    limits.signal?.throwIfAborted();
    const { hits, timedOut } = await scan({
      source: re.source,
      flags: re.flags,
      edges,
      files,
      limit: limit - out.length,
      deadline,
    });
    if (timedOut) throw scanTimeout(Date.now() - started, done, pieces.length);
    for (const h of hits) out.push(item(table, batch[h.file], h));
    done += batch.length;
    batch = [];
    files = [];
    bytes = 0;
  };
  for (const p of ordered) {
    const chunks = table.chunks.slice(p.start, p.end);
    const { bytes: b, lengths } = chunkTextBytes(chunks);
    batch.push(p.file);
    files.push({ bytes: b, lengths, startLines: Uint32Array.from(chunks, (c) => c.startLine) });
    bytes += b.length;
    if (bytes >= batchBytes) {
      await flush();
      if (out.length >= limit) return out;
    }
  }
  if (batch.length) await flush();
  return out;
}

/** A hit as a search item: the file's path and language, the symbol around the line. */
function item(table: ChunkTable, fi: number, hit: ScanHit): WireSearchItem {
  const f = table.files[fi];
  const sym = innermost(table.index.symbolsByFile.get(f.path) ?? [], hit.line);
  return {
    file: f.path,
    line: hit.line,
    end_line: hit.endLine,
    column: hit.column,
    score: 1,
    snippet: hit.snippet,
    language: f.language,
    symbol: sym?.qualifiedName ?? null,
    kind: sym?.kind ?? null,
  };
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

/** The error of a scan stopped at its limit: how far it got, and how to write the pattern. */
function scanTimeout(elapsedMs: number, filesDone: number, filesTotal: number): CodectxError {
  return new CodectxError(
    "timeout",
    `the pattern was stopped after ${
      (elapsedMs / 1000).toFixed(1)
    } s, its time limit, with ${filesDone} of ${filesTotal} files searched. A repeated group that can match the same text in several ways (like (\\w+\\s?)* or (a|a)*) makes a regular expression try every way: write it without the nested repeat (\\w[\\w\\s]* instead of (\\w+\\s?)*), or narrow the search with path_prefix or language`,
  );
}
