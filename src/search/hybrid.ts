/**
 * `semantic_search` over an open project: the filters checked, the sources of a ranked
 * search gathered (the rows, the filters' file weights, the lexical index, the vectors and
 * the query's vector), then the stages of `pipeline.ts` — analyse → retrieve → fuse →
 * rerank (in a search worker when one holds the generation) → exact forms → present; modes
 * `exact` and `regex` scan instead (`grep.ts`).
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import type { Project } from "../project/project.ts";
import type { WireSearchItem } from "./item.ts";
import type { Embedder, ResolvedEmbedder } from "./embedder.ts";
import type { MemberSimilarity } from "./members.ts";

/** An embedder that also embeds one text synchronously (`codectx-code`). */
interface SyncEmbedder extends Embedder {
  embedOne(text: string): Float32Array;
}
import { inProcessEmbedder } from "./providers.ts";
import { heldLexicalIndex, lexicalIndexFor } from "./lexical_cache.ts";
import type { LexicalIndex } from "./lexical.ts";
import { codeTokens } from "../util/tokens.ts";
import { slot } from "../util/memo.ts";
import { type ChunkTable, chunkTable } from "./table.ts";
import { compilePattern, edgedSource, grepRows, grepTable, wordEdges } from "./grep.ts";
import { LITERAL_BATCH_BYTES, runLiteralScan, runScan } from "./grep_pool.ts";
import type { CallLimits } from "../util/bounded.ts";
import { classWeights, fileClasses, SCOPES } from "./scope.ts";
import { projectVectors, type VectorProgress } from "./vector_sync.ts";
import { searchWorkers } from "./search_pool.ts";
import { analyseQuery } from "./query.ts";
import { type Retrieved, retrieveFrom, type RetrieveSources, termWeights } from "./retrieve.ts";
import type { FusionParams } from "./fuse.ts";
import { DEFAULT_FUSION, presentRanked, rankQuery } from "./pipeline.ts";

export { analyseQuery } from "./query.ts";
export { fileClasses } from "./scope.ts";
export { type Retrieved, retrieveFrom, type RetrieveSources } from "./retrieve.ts";
export type { FusionParams } from "./fuse.ts";
export { rerankInput } from "./rerank.ts";
export { DEFAULT_FUSION, fuse, presentRanked, rankQuery } from "./pipeline.ts";

export { type RankedMode, SEARCH_MODES, type SearchMode, type SearchOptions } from "./options.ts";
import { SEARCH_MODES, type SearchMode, type SearchOptions } from "./options.ts";
import { DEFAULT_TOP_K } from "../types.ts";

/** What `semantic_search` answers. */
export interface SearchOutcome {
  query: string;
  snippets: WireSearchItem[];
  /** `ready`, `indexing` or `empty`. */
  index_state: string;
  mode: SearchMode;
  vectors: VectorProgress;
}

/** Longest query accepted, in UTF-8 bytes. */
export const MAX_QUERY_BYTES = 4096;

/** Checks the options; throws `invalid_argument` naming the parameter. */
export function validateSearch(query: unknown, opts: SearchOptions): void {
  const bad = (msg: string) => new CodectxError("invalid_argument", msg);
  if (typeof query !== "string" || query.trim() === "") {
    throw bad("query is empty; pass what to find, in plain words or code");
  }
  if (new TextEncoder().encode(query).length > MAX_QUERY_BYTES) {
    throw bad(`query is longer than ${MAX_QUERY_BYTES} bytes; shorten it`);
  }
  const k = opts.top_k;
  if (k !== undefined && (!Number.isInteger(k) || k < 1 || k > 100)) {
    throw bad(`top_k must be an integer from 1 to 100, got ${k}`);
  }
  const t = opts.threshold;
  if (t !== undefined && (typeof t !== "number" || !(t >= 0 && t <= 1))) {
    throw bad(`threshold must be a number from 0 to 1, got ${t}`);
  }
  if (opts.mode !== undefined && !SEARCH_MODES.includes(opts.mode)) {
    throw bad(`mode must be one of ${SEARCH_MODES.join(", ")}, got '${opts.mode}'`);
  }
  if (opts.scope !== undefined && !SCOPES.includes(opts.scope)) {
    throw bad(`scope must be one of ${SCOPES.join(", ")}, got '${opts.scope}'`);
  }
  if (opts.include_tests !== undefined && typeof opts.include_tests !== "boolean") {
    throw bad(`include_tests must be true or false, got '${opts.include_tests}'`);
  }
}

/** A table's file weights per filter set (the last few asked). */
const FILE_WEIGHTS = slot("file weights", (_: ChunkTable) => new Map<string, Float32Array>());

/**
 * Per file of the table, the factor of its scores under the filters and the scope, 0 when
 * it is left out.
 */
function fileWeights(project: Project, table: ChunkTable, opts: SearchOptions): Float32Array {
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

const QUERY_CACHE = 256;

const queryVectors = new Map<string, Float32Array>();

/** Forgets the cached query vectors (benchmarks measure the embedding too). */
export function clearQueryVectorCache(): void {
  queryVectors.clear();
}

async function embedQuery(choice: ResolvedEmbedder, query: string): Promise<Float32Array> {
  const key = `${choice.id}\0${query}`;
  const hit = queryVectors.get(key);
  if (hit) {
    queryVectors.delete(key);
    queryVectors.set(key, hit);
    return hit;
  }
  const embedder = await inProcessEmbedder(choice);
  const [v] = await embedder.embed([choice.provider.queryText?.(query) ?? query]);
  queryVectors.set(key, v);
  if (queryVectors.size > QUERY_CACHE) queryVectors.delete(queryVectors.keys().next().value!);
  return v;
}

/**
 * Stage 1: scores every row on the side(s) `opts.mode` asks for, with the filters, and
 * takes each side's best candidates.
 */
export async function retrieve(
  project: Project,
  query: string,
  opts: SearchOptions = {},
  fusion: FusionParams = DEFAULT_FUSION,
): Promise<Retrieved> {
  const g = await gather(project, query, opts, fusion);
  return {
    ...retrieveFrom(g.sources, analyseQuery(query), opts, fusion.candidates),
    similarity: g.similarity,
  };
}

/** The sources of a query, and what presenting its results needs besides. */
export interface Gathered {
  sources: RetrieveSources;
  similarity?: MemberSimilarity;
}

/**
 * Stage 1, the part bound to the project: the table, the filters' file weights, the
 * vectors (starting the background embedding), the query's vector, the lexical index.
 */
export async function gather(
  project: Project,
  query: string,
  opts: SearchOptions = {},
  fusion: FusionParams = DEFAULT_FUSION,
): Promise<Gathered> {
  validateSearch(query, opts);
  const mode = opts.mode ?? "hybrid";
  if (mode === "exact" || mode === "regex") {
    throw new CodectxError("invalid_argument", `mode ${mode} is not ranked; use searchProject`);
  }
  const table = await chunkTable(project);
  const fileWeight = fileWeights(project, table, opts);

  // Dense side: vectors of this generation, if the embedder has any yet.
  const sync = projectVectors(project);
  let progress = sync.progress();
  if (mode !== "lexical" && progress.state !== "off") {
    if (opts.wait_for_vectors) progress = await sync.settle();
    else {
      await sync.openStored(table);
      sync.start();
      progress = sync.progress();
    }
  }
  if (mode === "dense" && progress.state === "off") {
    throw new CodectxError(
      "invalid_argument",
      "mode 'dense' needs vectors, but this project's embedder is 'none'; use mode lexical or hybrid",
    );
  }
  let similarity: MemberSimilarity | undefined;
  const vectors = mode === "lexical" ? null : sync.vectorsFor(table);
  const qv = vectors && vectors.index.count > 0 ? await embedQuery(vectors.choice, query) : null;
  if (vectors && qv) {
    similarity = memberSimilarity(vectors.choice, await inProcessEmbedder(vectors.choice), qv);
  }
  const lexical = mode === "dense" ? null : await lexicalIndexFor(project, table, fusion.bm25);
  return {
    sources: {
      table,
      mode,
      fileWeight,
      lexical,
      vectors: qv ? vectors!.index : null,
      qv,
      progress: sync.progress(),
    },
    similarity,
  };
}

/**
 * The query's cosine with a member's code, for embedders that embed one text synchronously
 * in microseconds (`codectx-code`); undefined for the others.
 */
function memberSimilarity(
  choice: ResolvedEmbedder,
  embedder: Embedder,
  qv: Float32Array,
): MemberSimilarity | undefined {
  const one = (embedder as Partial<SyncEmbedder>).embedOne;
  if (typeof one !== "function") return undefined;
  return (file, parent, code) => {
    const v = one.call(
      embedder,
      choice.provider.documentText({
        file,
        language: "",
        symbol: null,
        kind: null,
        name: null,
        parent,
        signature: "",
        doc: "",
        text: code,
      }),
    );
    let s = 0;
    for (let i = 0; i < v.length; i++) s += v[i] * qv[i];
    return s;
  };
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
 * An `exact` or `regex` search: the indexed text scanned for the query, lines in file order.
 * With `whole` (exact only), the query's words are whole words of the text (no letter or
 * digit just before or after a match) and every one of them, the first and last too, narrows
 * the files scanned (see {@link filesWithWords}).
 */
export async function scanText(
  project: Project,
  query: string,
  opts: SearchOptions & { mode: "exact" | "regex" },
  limits: CallLimits = {},
  whole = false,
): Promise<SearchOutcome> {
  const re = compilePattern(query, opts.mode);
  // Whole words: the query's ends are word edges of a match.
  const edges = whole && opts.mode === "exact" ? wordEdges(query) : undefined;
  const table = await chunkTable(project);
  const weights = fileWeights(project, table, opts);
  const held = opts.mode === "exact" ? heldLexicalIndex(table) : null;
  const k = opts.top_k ?? DEFAULT_TOP_K;
  const starts = held ? matchStarts(await held, table, query, whole) : null;
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
  return {
    query,
    snippets,
    index_state: await project.state(),
    mode: opts.mode,
    vectors: projectVectors(project).progress(),
  };
}

/**
 * Runs a search and answers in the tool's shape.
 *
 * @example
 * ```ts
 * const r = await searchProject(project, "parse the config file", { top_k: 5 });
 * for (const s of r.snippets) console.log(`${s.file}:${s.line} ${s.score}`);
 * ```
 */
export async function searchProject(
  project: Project,
  query: string,
  opts: SearchOptions = {},
  fusion: FusionParams = DEFAULT_FUSION,
  /** The call's limits: a worker scoring the query, or a scan, is stopped past them. */
  limits: CallLimits = {},
): Promise<SearchOutcome> {
  validateSearch(query, opts);
  if (opts.mode === "exact" || opts.mode === "regex") {
    return await scanText(project, query, { ...opts, mode: opts.mode }, limits);
  }
  const g = await gather(project, query, opts, fusion);
  const { sources } = g;
  const k = opts.top_k ?? DEFAULT_TOP_K;
  // The question read once; every stage below reads this value.
  const q = analyseQuery(query);
  // Retrieve → fuse → rerank in a search worker when one holds this generation (the
  // default fusion only), else here; the results are the same.
  const workers = fusion === DEFAULT_FUSION ? searchWorkers(project) : null;
  const fused = await workers?.fuse(sources, q, opts, 2 * k, limits.signal, limits.away) ??
    rankQuery(sources, q, opts, fusion, 2 * k);
  const termWeight = termWeights(q, sources.lexical, sources.table.chunks.length);
  const presentable = {
    table: sources.table,
    terms: q.terms,
    termWeight,
    similarity: g.similarity,
  };
  const snippets = presentRanked(
    q,
    presentable,
    fused,
    fusion,
    k,
    opts.threshold,
    // Hybrid before any vector is lexical.
    sources.qv ? sources.mode : "lexical",
  );
  return {
    query,
    snippets,
    index_state: await project.state(),
    mode: sources.mode,
    vectors: sources.progress,
  };
}

/**
 * Hybrid (lexical + vector) search over an open project: ranked search items, best first.
 *
 * @example
 * ```ts
 * const project = await Project.open("./my-repo");
 * const hits = await hybridSearch(project, "retry a failed request", { top_k: 5 });
 * for (const h of hits) console.log(`${h.file}:${h.line} ${h.score.toFixed(3)}`);
 * ```
 */
export async function hybridSearch(
  project: Project,
  query: string,
  opts: SearchOptions = {},
): Promise<WireSearchItem[]> {
  return (await searchProject(project, query, opts)).snippets;
}
