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
  const list = table.index.symbolsByFile.get(c.file) ?? [];
  // Its place in the file's list, found once per row (presenting and the exact forms both ask,
  // and a file of thousands of definitions is scanned by name each time otherwise).
  const at = table.memo.get(SYMBOL_AT);
  const k = at[row];
  if (k !== 0) return k > 0 ? list[k - 1] : undefined;
  const i = symbolIndexOfChunk(list, c);
  at[row] = i + 1 || -1;
  return i < 0 ? undefined : list[i];
}

/** Each row's symbol's place in its file's list, plus one; −1: none; 0: not looked up yet. */
const SYMBOL_AT = slot("chunk symbol", (t: ChunkTable) => new Int32Array(t.chunks.length));

/**
 * Of `list` (the chunk's file's definitions), the one the chunk is named after: the first of
 * its name overlapping it, else the first of that name.
 */
export function symbolOfChunk(
  list: readonly SymbolRecord[],
  c: ChunkRecord,
): SymbolRecord | undefined {
  const i = symbolIndexOfChunk(list, c);
  return i < 0 ? undefined : list[i];
}

/** The index in `list` of {@link symbolOfChunk}'s answer, or −1. */
function symbolIndexOfChunk(list: readonly SymbolRecord[], c: ChunkRecord): number {
  const name = c.symbol;
  const start = c.startLine;
  const end = c.endLine;
  let fallback = -1;
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    if (s.qualifiedName !== name) continue;
    if (s.startLine <= end && s.endLine >= start) return i;
    if (fallback < 0) fallback = i;
  }
  return fallback;
}
