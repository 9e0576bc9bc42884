/**
 * The text scan of an `exact` or `regex` search, apart from ranked search: the file weights of
 * a search's filters, the rows a literal may start in (by the lexical index when one is ready)
 * and the scan itself. Its own module so that `refs`' text check and a literal look-up load
 * neither the vectors' code nor the search workers (tests/install_test.ts).
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import type { Project } from "../project/project.ts";
import type { WireSearchItem } from "./item.ts";
import type { LexicalIndex } from "./lexical.ts";
import { readyLexicalIndex } from "./lexical_cache.ts";
import { codeTokens } from "../util/tokens.ts";
import { slot } from "../util/memo.ts";
import { type ChunkTable, chunkTable } from "./table.ts";
import { compilePattern, edgedSource, grepRows, grepTable, wordEdges } from "./grep.ts";
import { LITERAL_BATCH_BYTES, runLiteralScan, runScan } from "./grep_pool.ts";
import type { CallLimits } from "../util/bounded.ts";
import { classWeights, fileClasses } from "./scope.ts";
import type { SearchOptions } from "./options.ts";
import { DEFAULT_TOP_K } from "../types.ts";

/** A table's file weights per filter set (the last few asked). */
const FILE_WEIGHTS = slot("file weights", (_: ChunkTable) => new Map<string, Float32Array>());

/**
 * Per file of the table, the factor of its scores under the filters and the scope, 0 when
 * it is left out.
 */
export function fileWeights(
  project: Project,
  table: ChunkTable,
  opts: SearchOptions,
): Float32Array {
  let prefix = "";
  if (opts.path_prefix) {
    const rel = project.resolvePath(opts.path_prefix, "path_prefix");
    let dir = false;
    try {
      dir = rel === "" || Deno.statSync(`${project.root}/${rel}`).isDirectory;
    } catch {
      dir = false;
    }
    prefix = rel === "" ? "" : dir ? `${rel}/` : rel;
  }
  let language = "";
  if (opts.language) {
    language = opts.language.trim().toLowerCase();
    const present = new Set(table.files.map((f) => f.language));
    if (!present.has(language)) {
      throw new CodectxError(
        "invalid_argument",
        `language '${opts.language}' is not in this index; languages here: ${
          [...present].sort().join(", ") || "none"
        }`,
      );
    }
  }
  const classes = fileClasses(table);
  // The same filters give the same weights: kept per table (the last few filter sets).
  const key = JSON.stringify([prefix, language, opts.scope ?? "", opts.include_tests ?? false]);
  const cached = table.memo.get(FILE_WEIGHTS);
  const hit = cached.get(key);
  if (hit) return hit;
  const byClass = classWeights(opts.scope, opts.include_tests);
  const out = new Float32Array(table.files.length);
  table.files.forEach((f, i) => {
    const ok =
      (prefix === "" || f.path === prefix.replace(/\/$/, "") || f.path.startsWith(prefix)) &&
      (language === "" || f.language === language);
    out[i] = ok ? byClass[classes[i]] ?? 0 : 0;
  });
  if (cached.size >= 16) cached.delete(cached.keys().next().value!);
  cached.set(key, out);
  return out;
}

/**
 * The rows a match of an exact query's text may start in, by the lexical index, in no order:
 * a match holds each word between the query's first and last whole (`whole`: and those two),
 * and the index has every term of every row's (chunk's) text. A match on one line lies in
 * one row, which then has all those words' terms; a message split over string literals on two
 * lines may reach the next row: a match starts in row r when r or the row after it (same
 * file) holds each term. Null when the query has no such word with a term (one or two words,
 * stop words): every row may. The array is the table's scratch, valid until the next call.
 */
export function matchStarts(
  lex: LexicalIndex,
  table: ChunkTable,
  query: string,
  /** The query's first and last words are whole words of a match too. */
  whole = false,
): Int32Array | null {
  const all = query.trim().split(/\s+/);
  const words = whole ? all : all.slice(1, -1);
  const terms = [...new Set(words.flatMap((w) => codeTokens(w)))];
  if (terms.length === 0) return null;
  const { has, starts } = table.memo.get(SCAN_SCRATCH);
  if (terms.some((t) => lex.termId(t) < 0)) return starts.subarray(0, 0);
  // Rarest first: the rows that may start a match are few from the first term on.
  terms.sort((a, b) => lex.df(a) - lex.df(b));
  const { fileOfRow } = table;
  // The rows of the rarest term and the row before each, once each.
  let count = 0;
  for (const r of lex.rows(terms[0])) {
    if (r > 0 && fileOfRow[r - 1] === fileOfRow[r] && !has[r - 1]) {
      has[r - 1] = 1;
      starts[count++] = r - 1;
    }
    if (!has[r]) {
      has[r] = 1;
      starts[count++] = r;
    }
  }
  for (let i = 0; i < count; i++) has[starts[i]] = 0;
  for (let t = 1; t < terms.length && count > 0; t++) {
    const rows = lex.rows(terms[t]);
    let kept = 0;
    if (lex.rowsSorted() && count * 16 < rows.length) {
      // Few starts, a common term: each start looked up in the term's rows (ascending).
      for (let i = 0; i < count; i++) {
        const r = starts[i];
        const at = lowerBound(rows, r);
        const next = at < rows.length && rows[at] === r ? at + 1 : at;
        if (
          (at < rows.length && rows[at] === r) ||
          (next < rows.length && rows[next] === r + 1 && fileOfRow[r + 1] === fileOfRow[r])
        ) starts[kept++] = r;
      }
    } else {
      for (const r of rows) has[r] = 1;
      for (let i = 0; i < count; i++) {
        const r = starts[i];
        if (has[r] || (has[r + 1] && fileOfRow[r + 1] === fileOfRow[r])) starts[kept++] = r;
      }
      for (const r of rows) has[r] = 0;
    }
    count = kept;
  }
  return starts.subarray(0, count);
}

/** The first index of ascending `a` whose value is not below `x`. */
function lowerBound(a: Uint32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The files that can hold an exact query's text (1 per file that may, 0 else): those with a
 * row a match may start in ({@link matchStarts}); null when every file may. On the stdlib
 * (61,000 rows) a full scan takes ~100 ms, a phrase's few files ~2 ms.
 */
export function filesWithWords(
  lex: LexicalIndex,
  table: ChunkTable,
  query: string,
  /** The query's first and last words are whole words of a match too. */
  whole = false,
): Uint8Array | null {
  const starts = matchStarts(lex, table, query, whole);
  return starts === null ? null : filesOfRows(table, starts);
}

/** 1 per file of the table that holds one of `rows`, 0 else. */
function filesOfRows(table: ChunkTable, rows: ArrayLike<number>): Uint8Array {
  const files = new Uint8Array(table.files.length);
  for (let i = 0; i < rows.length; i++) files[table.fileOfRow[rows[i]]] = 1;
  return files;
}

/**
 * Buffers {@link matchStarts} reuses, one entry per row: marks (one more, all 0 between
 * calls) and the rows a match may start in.
 */
const SCAN_SCRATCH = slot("exact scan scratch", (t: ChunkTable) => ({
  has: new Uint8Array(t.chunks.length + 1),
  starts: new Int32Array(t.chunks.length),
}));

/**
 * Words a literal look-up has at most to scan its rows on this thread (`runLiteralScan`: its
 * time grows with the text times the words).
 */
const LITERAL_HERE_WORDS = 12;

/**
 * An `exact` or `regex` search's hits: the indexed text scanned for the query, lines in file
 * order. With `whole` (exact only), the query's words are whole words of the text (no letter
 * or digit just before or after a match) and every one of them, the first and last too,
 * narrows the files scanned (see {@link filesWithWords}). A current lexical index (held, or
 * `lexical.bin`) narrows the rows scanned; none is built here.
 */
export async function scanSnippets(
  project: Project,
  query: string,
  opts: SearchOptions & { mode: "exact" | "regex" },
  limits: CallLimits = {},
  whole = false,
): Promise<WireSearchItem[]> {
  const re = compilePattern(query, opts.mode);
  // Whole words: the query's ends are word edges of a match.
  const edges = whole && opts.mode === "exact" ? wordEdges(query) : undefined;
  const table = await chunkTable(project);
  const weights = fileWeights(project, table, opts);
  const held = opts.mode === "exact" ? await readyLexicalIndex(project, table) : null;
  const k = opts.top_k ?? DEFAULT_TOP_K;
  const starts = held ? matchStarts(held, table, query, whole) : null;
  let snippets: WireSearchItem[];
  if (whole && starts !== null) {
    // A literal look-up: the rows a match may start in; here, a slice at a time, for a query
    // of a few words (a scan's time grows with the text times the words).
    const accept = (fi: number) => weights[fi] > 0;
    snippets = query.trim().split(/\s+/).length <= LITERAL_HERE_WORDS
      ? await grepRows(table, re, k, starts, accept, runLiteralScan, limits, {
        batchBytes: LITERAL_BATCH_BYTES,
        edges,
      })
      : await grepRows(table, re, k, starts, accept, runScan, limits, { edges });
  } else {
    const within = starts && filesOfRows(table, starts);
    const accept = (fi: number) => weights[fi] > 0 && (within === null || within[fi] === 1);
    const edged = edges ? new RegExp(edgedSource(re.source, edges), re.flags) : re;
    snippets = await grepTable(table, edged, k, accept, runScan, limits);
  }
  return snippets;
}
