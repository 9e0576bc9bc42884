/**
 * Embedders behind one interface, and the choice among them (`--embedder`):
 * `auto`, `codectx-code`, `transformers:<model-id-or-folder>`, `use-lite`, `none`.
 *
 * A provider knows how to render a chunk as the text its model embeds (pure, cheap, usable
 * without loading the model: the store keys vectors by the hash of that text) and how to
 * load the model. Vectors are unit length, so a dot product is the cosine.
 *
 * @module
 */

import { splitIdentifier } from "../util/tokens.ts";
import { STOP_WORDS } from "../util/tokens.ts";

/** A loaded model. */
export interface Embedder {
  /** Identity of the vectors it makes (stored with them; a different id never mixes). */
  readonly id: string;
  readonly dimensions: number;
  /** Unit vectors, one per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Frees what the model holds (optional). */
  close?(): void;
}

/** What an embedder is told about a chunk. */
export interface ChunkDocument {
  file: string;
  language: string;
  /** Qualified name of the enclosing symbol, or null. */
  symbol: string | null;
  kind: string | null;
  /** The symbol's own name and its parent's qualified name. */
  name: string | null;
  parent: string | null;
  signature: string;
  doc: string;
  /** The chunk's code. */
  text: string;
}

/** A family of models: `use-lite`, `codectx-code`, `transformers`. */
export interface EmbedderProvider {
  readonly name: string;
  /** The vectors' identity for `arg` (e.g. the model folder), known without loading. */
  id(arg: string): Promise<string>;
  /** Null when `arg` can be loaded here; otherwise what is missing and what to do. */
  check(arg: string): Promise<string | null>;
  load(arg: string): Promise<Embedder>;
  /** The text the model embeds for a chunk (pure; runs where chunks are). */
  documentText(doc: ChunkDocument): string;
  /** The text the model embeds for a query (default: the query). */
  queryText?(query: string): string;
  /**
   * False when the model must run on the main thread: a native addon (onnxruntime-node)
   * crashes Deno when the worker that loaded it ends. Default true.
   */
  inWorker?: boolean;
}

/** An embedder choice, resolved. */
export interface ResolvedEmbedder {
  provider: EmbedderProvider;
  arg: string;
  id: string;
}

/** The choices `--embedder` accepts. */
export const EMBEDDER_CHOICES = [
  "auto",
  "codectx-code",
  "transformers:<model-id-or-folder>",
  "use-lite",
  "none",
] as const;

/** The first sentence of a doc comment, at most `max` characters. */
export function firstSentence(doc: string, max = 200): string {
  const flat = doc.replace(/\s+/g, " ").trim();
  const m = /^(.*?[.!?])(?:\s|$)/.exec(flat);
  return (m ? m[1] : flat).slice(0, max);
}

/** Words of an identifier (`parseHttpURL` → `parse http url`). */
export function words(identifier: string): string {
  return splitIdentifier(identifier).join(" ");
}

/**
 * The distinct words of a chunk's identifiers in order of first appearance, stop words
 * and keywords dropped, at most `max`.
 */
export function identifierWords(text: string, max = 48): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of text.matchAll(/[\p{L}_$][\p{L}\p{N}_$]*/gu)) {
    for (const w of splitIdentifier(m[0])) {
      if (w.length < 2 || STOP_WORDS.has(w) || seen.has(w)) continue;
      seen.add(w);
      out.push(w);
      if (out.length >= max) return out;
    }
  }
  return out;
}

/**
 * A chunk as short descriptive text: kind, name, scope, file name, first doc sentence and
 * the first words of its identifiers. General-English models do far better on this than
 * on raw code, and short texts keep them fast.
 *
 * @example
 * ```ts
 * describeChunk({ file: "lib/http/client.py", name: "send_request", parent: "Client",
 *   kind: "method", ... });
 * // "method send request in client. file http client. ..."
 * ```
 */
export function describeChunk(d: ChunkDocument, maxWords = 12): string {
  const base = d.file.split("/").pop()?.replace(/\.[^.]+$/, "") ?? d.file;
  const dir = d.file.split("/").slice(-2, -1)[0] ?? "";
  const head: string[] = [];
  if (d.name) head.push(`${d.kind ?? "code"} ${words(d.name)}`);
  if (d.parent) head.push(`in ${words(d.parent)}`);
  const parts = [head.join(" "), `file ${words(dir)} ${words(base)}`.replace(/\s+/g, " ")];
  // USE-lite's cost grows faster than the text: keep the description to a few dozen words.
  if (d.doc) parts.push(firstSentence(d.doc).split(" ").slice(0, 16).join(" "));
  parts.push(identifierWords(d.text, maxWords).join(" "));
  return parts.filter((p) => p.trim()).join(". ");
}
