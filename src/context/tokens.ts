/**
 * Token counting in OpenAI's `cl100k_base` encoding, by a byte-pair encoder of our own over the
 * encoding's vocabulary, loaded once per process on first use.
 *
 * The vocabulary is `cl100k_base.tokens.gz` beside this module (~0.4 MiB; written by
 * `bench/cl100k.ts write` from the published `cl100k_base` ranks, MIT-licensed by OpenAI): the
 * 100,256 tokens in rank order, as a gzip of a `u32` count, one length byte per token and then
 * every token's bytes. Counting follows the encoding's documented procedure: the text is split
 * by its pre-tokenizer pattern; each piece, as UTF-8 bytes, starts as single bytes, and the
 * adjacent pair whose joined bytes are the lowest-ranked token is merged until no pair is a
 * token; the piece's count is its parts. Special-token text (`<|endoftext|>`) is plain text.
 *
 * Pieces never merge across a split, so the sum of the pieces' counts is the count of the whole
 * text; counts of pieces are memoized (code repeats its pieces, and the budget search counts
 * the same text many times). `bench/cl100k.ts check` compares every count with js-tiktoken's on
 * a tree (the Python standard library: all equal); tests do the same on their texts.
 *
 * @module
 */

import { assetUrl } from "../util/assets.ts";

/** The encoding's name, for notes and tests. */
export const ENCODING = "cl100k_base";

/** The vocabulary file, from the repository root. */
export const VOCABULARY_PATH = "src/context/cl100k_base.tokens.gz";

/**
 * The encoding's pre-tokenizer: contractions (ASCII letters in any case, as js-tiktoken spells
 * it: `(?i:…)` with `u` would also take `ſ` for `s`), words with one leading non-letter, runs of
 * up to three digits, punctuation runs with their line breaks, line breaks with the
 * blanks before them, blanks not followed by a non-blank, other blanks.
 */
const PATTERN =
  /'(?:[sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

/** Counts text in tokens. */
export interface TokenCounter {
  /** Tokens of `text`. */
  count(text: string): number;
}

/** Pieces memoized (then the memo starts over): ~3 MiB at most. */
const MEMO_LIMIT = 50_000;
/**
 * Pieces longer than this (a minified line, an embedded blob) are counted as their UTF-8
 * length: BPE never makes more tokens than bytes, so the count stays an upper bound, and the
 * merge loop (quadratic in the piece's length) is not run on them.
 */
const LONG_PIECE = 1024;

/** The vocabulary: every token's bytes and an open-addressing table from bytes to rank. */
export interface Vocabulary {
  /** Every token's bytes, in rank order. */
  readonly bytes: Uint8Array;
  /** Token `r` is `bytes[offsets[r], offsets[r + 1])`. */
  readonly offsets: Uint32Array;
  /** Rank + 1 at a slot (0: empty); the slot of a byte string starts at its hash. */
  readonly slots: Int32Array;
}

/** FNV-1a over `b[start, end)`. */
function hash(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h >>> 0;
}

/**
 * The vocabulary of a decompressed vocabulary file (`u32` count, one length byte per token,
 * the tokens' bytes).
 */
export function readVocabulary(file: Uint8Array): Vocabulary {
  const count = new DataView(file.buffer, file.byteOffset, file.byteLength).getUint32(0, true);
  const lengths = file.subarray(4, 4 + count);
  const bytes = file.slice(4 + count);
  const offsets = new Uint32Array(count + 1);
  for (let r = 0; r < count; r++) offsets[r + 1] = offsets[r] + lengths[r];
  if (offsets[count] !== bytes.length) throw new Error("the token vocabulary file is damaged");
  let size = 1;
  while (size < count * 2.5) size *= 2;
  const slots = new Int32Array(size);
  const mask = size - 1;
  for (let r = 0; r < count; r++) {
    let at = hash(bytes, offsets[r], offsets[r + 1]) & mask;
    while (slots[at] !== 0) at = (at + 1) & mask;
    slots[at] = r + 1;
  }
  return { bytes, offsets, slots };
}

/** The rank of the token `b[start, end)`, or -1 when it is none. */
function rankOf(v: Vocabulary, b: Uint8Array, start: number, end: number): number {
  const mask = v.slots.length - 1;
  const length = end - start;
  for (let at = hash(b, start, end) & mask;; at = (at + 1) & mask) {
    const r = v.slots[at] - 1;
    if (r < 0) return -1;
    const from = v.offsets[r];
    if (v.offsets[r + 1] - from !== length) continue;
    let i = 0;
    while (i < length && v.bytes[from + i] === b[start + i]) i++;
    if (i === length) return r;
  }
}

/** No token: a pair that cannot merge. */
const NONE = 0x7fffffff;

/**
 * The number of tokens of the piece `b[0, n)`: byte-pair merges, the lowest-ranked first (the
 * leftmost of equals), on part starts `starts` and the rank of each part joined with the next
 * (`ranks`), both at least `n + 1` long.
 */
function mergeCount(
  v: Vocabulary,
  b: Uint8Array,
  n: number,
  starts: Int32Array,
  ranks: Int32Array,
): number {
  if (n <= 1 || rankOf(v, b, 0, n) >= 0) return Math.min(n, 1);
  // Part i is b[starts[i], starts[i + 1]); starts[parts] = n.
  let parts = n;
  for (let i = 0; i <= n; i++) starts[i] = i;
  const pairRank = (i: number): number => {
    if (i + 2 > parts) return NONE;
    const r = rankOf(v, b, starts[i], starts[i + 2]);
    return r < 0 ? NONE : r;
  };
  for (let i = 0; i < parts - 1; i++) ranks[i] = pairRank(i);
  for (;;) {
    let best = NONE;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (ranks[i] < best) {
        best = ranks[i];
        at = i;
      }
    }
    if (at < 0) return parts;
    // Part at+1 joins part at.
    starts.copyWithin(at + 1, at + 2, parts + 1);
    ranks.copyWithin(at + 1, at + 2, parts - 1);
    parts--;
    ranks[at] = pairRank(at);
    if (at > 0) ranks[at - 1] = pairRank(at - 1);
  }
}

/**
 * A token counter over a vocabulary (see {@link tokenCounter} for the process-wide one).
 *
 * @example
 * ```ts
 * const file = await readVocabularyFile(assetUrl(VOCABULARY_PATH));
 * createCounter(readVocabulary(file)).count("def parse_config(path):"); // 5
 * ```
 */
export function createCounter(v: Vocabulary): TokenCounter {
  const encoder = new TextEncoder();
  // A piece of LONG_PIECE UTF-16 units is at most 3 bytes a unit.
  const buffer = new Uint8Array(LONG_PIECE * 3 + 4);
  const starts = new Int32Array(buffer.length + 1);
  const ranks = new Int32Array(buffer.length + 1);
  const memo = new Map<string, number>();
  const piece = (p: string): number => {
    if (p.length > LONG_PIECE) return utf8Length(p);
    let n = memo.get(p);
    if (n === undefined) {
      const { written } = encoder.encodeInto(p, buffer);
      n = mergeCount(v, buffer, written, starts, ranks);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(p, n);
    }
    return n;
  };
  return {
    count(text) {
      let n = 0;
      PATTERN.lastIndex = 0;
      for (const m of text.matchAll(PATTERN)) n += piece(m[0]);
      return n;
    },
  };
}

/** The bytes of a vocabulary file (gzip), decompressed. */
export async function readVocabularyFile(url: URL): Promise<Uint8Array> {
  const stream = (await Deno.open(url)).readable.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

let loading: Promise<TokenCounter> | null = null;

/**
 * The process-wide token counter (the vocabulary is read on first call; later calls share it).
 *
 * @example
 * ```ts
 * const tokens = await tokenCounter();
 * tokens.count("def parse_config(path):"); // 5
 * ```
 */
export function tokenCounter(): Promise<TokenCounter> {
  loading ??= readVocabularyFile(assetUrl(VOCABULARY_PATH)).then((file) =>
    createCounter(readVocabulary(file))
  );
  return loading;
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
