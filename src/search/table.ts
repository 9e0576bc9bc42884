/**
 * The row layout shared by the lexical and the vector index of one generation: every chunk
 * of the index gets a row, files in manifest order, chunks in blob order. Both indexes and
 * the background embedder address chunks by these rows.
 *
 * @module
 */

import type { Generation, LoadedIndex, Project } from "../project/project.ts";
import { Memo, slot } from "../util/memo.ts";
import type { ChunkRecord, SymbolRecord } from "../types.ts";

/** One file's rows. */
export interface TableFile {
  path: string;
  /** Key of the file's blob (content-addressed). */
  blob: string;
  language: string;
  /** Rows [start, end). */
  start: number;
  end: number;
}

/** The chunks of one generation, in row order. */
export interface ChunkTable {
  generation: number;
  chunks: ChunkRecord[];
  files: TableFile[];
  /** Index into `files` of each row. */
  fileOfRow: Uint32Array;
  /** The loaded index it was built from. */
  index: LoadedIndex;
  /** What the search builds over these rows (file classes, weights, traits…), made once. */
  readonly memo: Memo<ChunkTable>;
}

/**
 * A chunk table over `rows`, with its memo.
 *
 * @example
 * ```ts
 * const t = newChunkTable({ generation: 1, chunks: [], files: [], fileOfRow: new Uint32Array(), index });
 * t.memo.held(); // []
 * ```
 */
export function newChunkTable(
  rows: Omit<ChunkTable, "memo">,
  /** The table of the generation before, whose values may be carried over. */
  previous?: ChunkTable,
): ChunkTable {
  const table: ChunkTable = { ...rows, memo: null as unknown as Memo<ChunkTable> };
  (table as { memo: Memo<ChunkTable> }).memo = new Memo(table, previous?.memo ?? null);
  return table;
}

/** The chunk table a generation holds (the rows both indexes and the embedder address). */
const CHUNK_TABLE = slot<Generation, Promise<ChunkTable>>(
  "chunk table",
  ({ index }, previous) => buildTable(index, previous),
);

/**
 * The chunk table of the project's current generation (built once per generation).
 *
 * @example
 * ```ts
 * const table = await chunkTable(project);
 * console.log(table.chunks.length, table.files.length);
 * ```
 */
export async function chunkTable(project: Project): Promise<ChunkTable> {
  return await (await project.index()).memo.get(CHUNK_TABLE);
}

async function buildTable(
  index: LoadedIndex,
  previous: Promise<ChunkTable> | undefined,
): Promise<ChunkTable> {
  const before = await previous?.catch(() => undefined);
  const chunks = await index.chunks();
  const files: TableFile[] = [];
  const fileOfRow = new Uint32Array(chunks.length);
  let i = 0;
  while (i < chunks.length) {
    const path = chunks[i].file;
    const start = i;
    while (i < chunks.length && chunks[i].file === path) fileOfRow[i++] = files.length;
    const entry = index.files.get(path);
    files.push({
      path,
      blob: entry?.blob ?? "",
      language: entry?.language ?? chunks[start].language,
      start,
      end: i,
    });
  }
  return newChunkTable({ generation: index.generation, chunks, files, fileOfRow, index }, before);
}

/** The symbol a chunk is named after (overlapping it), if any. */
export function chunkSymbol(table: ChunkTable, row: number): SymbolRecord | undefined {
  const c = table.chunks[row];
  if (c.symbol === null) return undefined;
  return symbolOfChunk(table.index.symbolsByFile.get(c.file) ?? [], c);
}

/**
 * Of `list` (the chunk's file's definitions), the one the chunk is named after: the first of
 * its name overlapping it, else the first of that name.
 */
export function symbolOfChunk(
  list: readonly SymbolRecord[],
  c: ChunkRecord,
): SymbolRecord | undefined {
  let fallback: SymbolRecord | undefined;
  for (const s of list) {
    if (s.qualifiedName !== c.symbol) continue;
    if (s.startLine <= c.endLine && s.endLine >= c.startLine) return s;
    fallback ??= s;
  }
  return fallback;
}
