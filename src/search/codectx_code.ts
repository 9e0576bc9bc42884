/**
 * The `codectx-code` runtime: codectx's own static code-search model (trained by
 * `model/train.py`, shipped in `model/codectx-code/`). A text's vector is the weighted
 * mean of its tokens' vectors, normalised to unit length:
 *
 * 1. tokens are the lexical index's code-aware tokens (`codeTokens` of `./tokens.ts`:
 *    identifier parts, stemmed, plus whole identifiers; stop words dropped), the same for
 *    code and for plain-word queries, exactly as in training;
 * 2. each distinct known token weighs `1 + ln(count)`; its IDF is folded into its row;
 *    an unknown token falls into one of a few thousand hashed bucket rows (fixed random
 *    vectors, hashed sign), so that a rare identifier shared by query and code still counts;
 * 3. rows are int8 with one float32 scale per row.
 *
 * Files: `vectors.bin` (rows × dimensions int8, then rows float32 scales), `vocab.txt`
 * (one token per line, row order), `manifest.json` (dimensions, rows, checksum, sources,
 * hyper-parameters, validation figures).
 *
 * @module
 */

import { codeTokens, identifierTokens, type TokenCache } from "../util/tokens.ts";
import { sha256Hex } from "../util/hash.ts";
import { assetUrl } from "../util/assets.ts";

/** Identifiers, exactly as `codeTokens` (./tokens.ts) finds them. */
const IDENT = /[\p{L}_$][\p{L}\p{N}_$]*/gu;
const ASCII = /^\p{ASCII}*$/u;

/** Character classes of ASCII identifiers: 1 may start one, 2 may only continue one. */
const IDENT_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  IDENT_CLASS[c] = /[A-Za-z_$]/.test(ch) ? 1 : /[0-9]/.test(ch) ? 2 : 0;
}

/**
 * Calls `visit` with each identifier of an ASCII text: the matches of `IDENT`, found by a
 * scan over character codes (several times faster than the Unicode regex).
 */
function forEachAsciiIdentifier(text: string, visit: (word: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (IDENT_CLASS[text.charCodeAt(i)] !== 1) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && IDENT_CLASS[text.charCodeAt(j)] !== 0) j++;
    visit(text.slice(i, j));
    i = j;
  }
}

/** Where the shipped model lives. */
export const MODEL_DIR: URL = assetUrl("model/codectx-code/");

/** The parts of `manifest.json` the runtime reads. */
export interface CodectxCodeManifest {
  name: string;
  version: string;
  dimensions: number;
  vocab_size: number;
  /** Rows after the vocabulary for unknown tokens (hashed); 0 or absent: none. */
  oov_buckets?: number;
  /** SHA-256 (hex) of `vectors.bin` followed by `vocab.txt`. */
  sha256: string;
  [key: string]: unknown;
}

/** A loaded model. */
export interface CodectxCodeModel {
  /** `codectx-code@<first 12 hex digits of the checksum>`. */
  readonly id: string;
  readonly dimensions: number;
  readonly manifest: CodectxCodeManifest;
  /** Unit vectors (all zeros for a text with no known token), one per text. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** The same, synchronously, for one text. */
  embedOne(text: string): Float32Array;
}

/**
 * The tokens the model sees for a text (code or a query): the lexical index's tokens.
 *
 * @example
 * ```ts
 * tokenize("Return the parsed HTTP headers"); // ["parsed", "http", "header"]
 * ```
 */
export function tokenize(text: string, cache?: TokenCache): string[] {
  return codeTokens(text, [], cache);
}

/**
 * The text the model embeds for a chunk: its file path, its enclosing definition and its
 * code (training used the same layout).
 *
 * @example
 * ```ts
 * codeDocumentText("http/client.py", "HTTPConnection", "def request(self, method, url): ...");
 * ```
 */
export function codeDocumentText(file: string, parent: string | null, code: string): string {
  return parent ? `${file}\n${parent}\n${code}` : `${file}\n${code}`;
}

/** 32-bit FNV-1a over UTF-16 code units (the unknown-token hash; training uses the same). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Null when the shipped model is present in `dir`; otherwise what is missing. */
export async function checkCodectxCode(dir: URL = MODEL_DIR): Promise<string | null> {
  for (const f of ["manifest.json", "vectors.bin", "vocab.txt"]) {
    try {
      await Deno.stat(new URL(f, dir));
    } catch {
      return `codectx-code model file missing: ${new URL(f, dir).pathname}; ` +
        "rebuild it with `deno task model:data && deno task model:train`, or use --embedder use-lite";
    }
  }
  return null;
}

/** Reads the manifest alone (cheap: for the vectors' id without loading the model). */
export async function readManifest(dir: URL = MODEL_DIR): Promise<CodectxCodeManifest> {
  return JSON.parse(await Deno.readTextFile(new URL("manifest.json", dir)));
}

/** The vectors' identity for a manifest. */
export function modelId(manifest: CodectxCodeManifest): string {
  return `codectx-code@${manifest.sha256.slice(0, 12)}`;
}

/**
 * Loads the model from `dir` (the shipped one by default). With `verify`, the checksum of
 * the files is checked against the manifest first.
 *
 * @example
 * ```ts
 * const model = await loadCodectxCode();
 * const [q, c] = await model.embed(["read a file", "def read_file(path): ..."]);
 * ```
 */
export async function loadCodectxCode(
  dir: URL = MODEL_DIR,
  opts: { verify?: boolean } = {},
): Promise<CodectxCodeModel> {
  const [manifest, bin, vocabBytes] = await Promise.all([
    readManifest(dir),
    Deno.readFile(new URL("vectors.bin", dir)),
    Deno.readFile(new URL("vocab.txt", dir)),
  ]);
  if (opts.verify) {
    const sum = await sha256Hex(bin, vocabBytes);
    if (sum !== manifest.sha256) {
      throw new Error(
        `codectx-code model in ${dir.pathname} does not match its manifest checksum; ` +
          "restore model/codectx-code/ from the repository",
      );
    }
  }
  const dims = manifest.dimensions;
  const known = manifest.vocab_size;
  const buckets = manifest.oov_buckets ?? 0;
  const rows = known + buckets;
  if (bin.length !== rows * dims + rows * 4) {
    throw new Error(
      `codectx-code vectors.bin has ${bin.length} bytes, expected ${rows * (dims + 4)}`,
    );
  }
  const vectors = new Int8Array(bin.buffer, bin.byteOffset, rows * dims);
  // The scales follow the rows; copy them to an aligned array.
  const scales = new Float32Array(bin.slice(rows * dims).buffer);
  const vocab = new Map<string, number>();
  const words = new TextDecoder().decode(vocabBytes).split("\n");
  for (let i = 0; i < known; i++) vocab.set(words[i], i);
  if (vocab.size !== known) throw new Error("codectx-code vocab.txt does not match its manifest");

  // Identifier → its tokens' row ids (and unknown tokens), shared across calls: identifiers
  // repeat across chunks, so most are split and looked up once.
  const idCache = new Map<string, { rows: Int32Array; unknown: readonly string[] }>();
  const idsOf = (word: string) => {
    let e = idCache.get(word);
    if (!e) {
      const rowsOf: number[] = [];
      const unknownOf: string[] = [];
      for (const t of identifierTokens(word)) {
        const id = vocab.get(t);
        if (id !== undefined) rowsOf.push(id);
        else if (buckets > 0) unknownOf.push(t);
      }
      e = { rows: Int32Array.from(rowsOf), unknown: unknownOf };
      if (idCache.size >= 200_000) idCache.clear();
      idCache.set(word, e);
    }
    return e;
  };
  const counts = new Uint32Array(rows);
  const touched = new Int32Array(rows);
  const unknown = new Map<string, number>();

  // One float64 accumulator, reused: no float32 rounding on every add.
  const acc = new Float64Array(dims);
  const add = (row: number, w: number) => {
    const base = row * dims;
    let j = 0;
    for (; j + 4 <= dims; j += 4) {
      acc[j] += w * vectors[base + j];
      acc[j + 1] += w * vectors[base + j + 1];
      acc[j + 2] += w * vectors[base + j + 2];
      acc[j + 3] += w * vectors[base + j + 3];
    }
    for (; j < dims; j++) acc[j] += w * vectors[base + j];
  };

  const embedOne = (text: string): Float32Array => {
    acc.fill(0);
    let n = 0;
    const visit = (word: string) => {
      const e = idsOf(word);
      for (let i = 0; i < e.rows.length; i++) {
        const id = e.rows[i];
        if (counts[id]++ === 0) touched[n++] = id;
      }
      for (const t of e.unknown) unknown.set(t, (unknown.get(t) ?? 0) + 1);
    };
    // The tokens of `codeTokens` (./tokens.ts): each identifier's `identifierTokens`.
    if (ASCII.test(text)) forEachAsciiIdentifier(text, visit);
    else for (const m of text.matchAll(IDENT)) visit(m[0]);
    for (let k = 0; k < n; k++) {
      const id = touched[k];
      add(id, scales[id] * (1 + Math.log(counts[id])));
      counts[id] = 0;
    }
    // Unknown tokens: a hashed bucket row with a hashed sign (see model/train.py).
    for (const [token, count] of unknown) {
      const h = fnv1a(token);
      const row = known + (h >>> 1) % buckets;
      add(row, (h & 1 ? -1 : 1) * scales[row] * (1 + Math.log(count)));
    }
    unknown.clear();
    let norm = 0;
    for (let j = 0; j < dims; j++) norm += acc[j] * acc[j];
    const out = new Float32Array(dims);
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let j = 0; j < dims; j++) out[j] = acc[j] * inv;
    }
    return out;
  };

  return {
    id: modelId(manifest),
    dimensions: dims,
    manifest,
    embedOne,
    embed: (texts) => Promise.resolve(texts.map(embedOne)),
  };
}
