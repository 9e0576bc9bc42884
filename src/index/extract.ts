/**
 * One file's extraction: parse, then chunk, term statistics and the packed graph, each
 * from the one parse. Runs in a worker or inline. What leaves the worker is the blob's
 * parts already JSON-encoded (bytes copy cheaply between threads; an object graph costs a
 * structured clone on each side) and the few counts the manifest entry needs.
 */

import { encodeFacts, type StoredPart } from "../facts/codec.ts";
import { parseSource } from "../parse/parser.ts";
import { encodeTerms, type FileTerms, fileTerms } from "./terms.ts";
import type { ChunkRecord, ParsedFile } from "../types.ts";
import type { ParsedSource } from "../facts/records.ts";
import { chunkFile } from "./chunker.ts";

/** What indexing keeps of one file's content. */
export interface Extraction {
  parsed: ParsedFile;
  chunks: ChunkRecord[];
  /** Lexical term statistics of the chunks (the search index's share of this file). */
  terms: FileTerms;
  /** References, imports, package and declared types, packed (the code graph's share of this file). */
  graph: StoredPart;
}

/** An extraction as stored: the blob parts as JSON bytes, and the counts of the entry. */
export interface EncodedExtraction {
  /** The language parsed (a `.h` file may turn out C++). */
  language: string;
  lines: number;
  symbols: number;
  chunks: number;
  error?: string;
  /** Blob parts by kind (`symbols`, `chunks`, `graph` JSON-encoded; `terms` binary: `encodeTerms`). */
  parts: Record<string, Uint8Array>;
}

/** Parses and chunks one file; never throws (a failure is recorded in `parsed.error`). */
export async function extract(path: string, text: string, language: string): Promise<Extraction> {
  let parsed: ParsedSource;
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
  const { file, graph } = encodeFacts(parsed);
  const chunks = chunkFile(path, file.language, text, file.symbols);
  return { parsed: file, chunks, terms: fileTerms(path, chunks, file.symbols), graph };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** {@link extract} of a file's bytes (UTF-8), encoded for the store. */
export async function extractEncoded(
  path: string,
  bytes: Uint8Array,
  language: string,
): Promise<EncodedExtraction> {
  const text = decoder.decode(bytes);
  const { parsed, chunks, terms, graph } = await extract(path, text, language);
  const json = (value: unknown) => encoder.encode(JSON.stringify(value));
  return {
    language: parsed.language,
    lines: parsed.lines || countLines(text),
    symbols: parsed.symbols.length,
    chunks: chunks.length,
    ...(parsed.error ? { error: parsed.error } : {}),
    parts: {
      symbols: json(parsed.symbols),
      chunks: json(chunks),
      terms: encodeTerms(terms),
      graph: json(graph),
    },
  };
}

/** Number of lines, a trailing newline not starting a new one. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}
