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
import { lexicalIndexFor } from "./lexical_cache.ts";
import { chunkTable } from "./table.ts";
import { fileWeights, scanSnippets } from "./scan.ts";
import type { CallLimits } from "../util/bounded.ts";
import { SCOPES } from "./scope.ts";
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
import { Lru } from "../util/lru.ts";

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

const QUERY_CACHE = 256;

const queryVectors = new Lru<string, Float32Array>(QUERY_CACHE);

/** Members' vectors kept across queries (a popular result's members are embedded once). */
const MEMBER_VECTORS = 2048;
/** Characters of member text their keys may hold in all (a long member is rarely presented). */
const MEMBER_TEXT_CHARS = 2_000_000;

const memberVectors = new Lru<string, Float32Array>(MEMBER_VECTORS, MEMBER_TEXT_CHARS);

/** Forgets the cached query and member vectors (benchmarks measure the embedding too). */
export function clearQueryVectorCache(): void {
  queryVectors.clear();
  memberVectors.clear();
}

async function embedQuery(choice: ResolvedEmbedder, query: string): Promise<Float32Array> {
  const key = `${choice.id}\0${query}`;
  const hit = queryVectors.get(key);
  if (hit) return hit;
  const embedder = await inProcessEmbedder(choice);
  const [v] = await embedder.embed([choice.provider.queryText?.(query) ?? query]);
  queryVectors.set(key, v);
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
 * in microseconds (`codectx-code`); undefined for the others. A member's vector depends on
 * its text alone: the {@link MEMBER_VECTORS} most recently used are kept (the load's queries presented the
 * same member text again in 61 % of 7,595 look-ups; embedding one cost ~6 % of the server
 * thread's time under 50 hybrid clients).
 */
function memberSimilarity(
  choice: ResolvedEmbedder,
  embedder: Embedder,
  qv: Float32Array,
): MemberSimilarity | undefined {
  const one = (embedder as Partial<SyncEmbedder>).embedOne;
  if (typeof one !== "function") return undefined;
  return (file, parent, code) => {
    const text = choice.provider.documentText({
      file,
      language: "",
      symbol: null,
      kind: null,
      name: null,
      parent,
      signature: "",
      doc: "",
      text: code,
    });
    const key = `${choice.id}\0${text}`;
    let v = memberVectors.get(key);
    if (v === undefined) {
      v = one.call(embedder, text);
      memberVectors.set(key, v);
    }
    let s = 0;
    for (let i = 0; i < v.length; i++) s += v[i] * qv[i];
    return s;
  };
}

/**
 * An `exact` or `regex` search: the indexed text scanned for the query, lines in file order.
 * With `whole` (exact only), the query's words are whole words of the text (no letter or
 * digit just before or after a match) and every one of them, the first and last too, narrows
 * the files scanned (see `filesWithWords` in scan.ts).
 */
export async function scanText(
  project: Project,
  query: string,
  opts: SearchOptions & { mode: "exact" | "regex" },
  limits: CallLimits = {},
  whole = false,
): Promise<SearchOutcome> {
  const snippets = await scanSnippets(project, query, opts, limits, whole);
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
  const fused = await workers?.fuse(sources, q, opts, 2 * k, limits.signal) ??
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
