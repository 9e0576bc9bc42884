/**
 * The lexical index of a project's current generation, rebuilt when the generation changes
 * from the per-file `terms` parts, of which only new blobs are read from the store.
 *
 * @module
 */

import type { Project } from "../index/project.ts";
import { type Bm25Params, buildLexicalIndex, DEFAULT_BM25, type LexicalIndex } from "./lexical.ts";
import type { ChunkTable } from "./table.ts";
import type { FileTerms } from "../index/terms.ts";

interface State {
  generation: number;
  params: Bm25Params;
  index: Promise<LexicalIndex>;
  terms: Map<string, FileTerms>;
}

const states = new WeakMap<Project, State>();

/**
 * The BM25F index of `table`'s generation (built once per generation and parameters).
 *
 * @example
 * ```ts
 * const lex = await lexicalIndexFor(project, await chunkTable(project));
 * ```
 */
export function lexicalIndexFor(
  project: Project,
  table: ChunkTable,
  params: Bm25Params = DEFAULT_BM25,
): Promise<LexicalIndex> {
  const prev = states.get(project);
  if (prev && prev.generation === table.generation && prev.params === params) return prev.index;
  const terms = prev?.terms ?? new Map<string, FileTerms>();
  const state: State = {
    generation: table.generation,
    params,
    terms,
    index: build(project, table, params, terms),
  };
  states.set(project, state);
  state.index.catch(() => {
    if (states.get(project) === state) states.delete(project);
  });
  return state.index;
}

async function build(
  project: Project,
  table: ChunkTable,
  params: Bm25Params,
  cache: Map<string, FileTerms>,
): Promise<LexicalIndex> {
  const wanted = new Set(table.files.map((f) => f.blob));
  for (const k of [...cache.keys()]) if (!wanted.has(k)) cache.delete(k);
  const need = new Set([...wanted].filter((k) => k && !cache.has(k)));
  if (need.size > 64) {
    for (const [k, v] of await project.store.readAllBlobs<FileTerms>("terms", need)) {
      cache.set(k, v);
    }
  } else {
    for (const k of need) {
      const v = await project.store.readBlob<FileTerms>("terms", k);
      if (v) cache.set(k, v);
    }
  }
  return buildLexicalIndex(
    table.files.map((f) => ({ terms: cache.get(f.blob) ?? null, rows: f.end - f.start })),
    params,
  );
}
