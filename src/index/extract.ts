/**
 * One file's extraction: parse, then chunk. Runs in a worker or inline.
 */

import { type GraphPart, packGraph, withoutGraph } from "./graph_part.ts";
import { parseSource } from "../parse/parser.ts";
import { type FileTerms, fileTerms } from "./terms.ts";
import type { ChunkRecord, ParsedFile } from "../types.ts";
import { chunkFile } from "./chunker.ts";

/** What indexing keeps of one file's content. */
export interface Extraction {
  parsed: ParsedFile;
  chunks: ChunkRecord[];
  /** Lexical term statistics of the chunks (the search index's share of this file). */
  terms: FileTerms;
  /** References, imports and package, packed (the code graph's share of this file). */
  graph: GraphPart;
}

/** Parses and chunks one file; never throws (a failure is recorded in `parsed.error`). */
export async function extract(path: string, text: string, language: string): Promise<Extraction> {
  let parsed: ParsedFile;
  try {
    parsed = await parseSource(path, text, language);
  } catch (err) {
    parsed = {
      language,
      symbols: [],
      lines: countLines(text),
      error: `parse failed: ${err instanceof Error ? err.message : String(err)}`,
      syntaxErrors: 0,
    };
  }
  const chunks = chunkFile(path, parsed.language, text, parsed.symbols);
  return {
    parsed: withoutGraph(parsed),
    chunks,
    terms: fileTerms(path, chunks, parsed.symbols),
    graph: packGraph(parsed),
  };
}

/** Number of lines, a trailing newline not starting a new one. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}
