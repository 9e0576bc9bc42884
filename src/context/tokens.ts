/**
 * Token counting with a real BPE tokenizer (`js-tiktoken`, `cl100k_base`), loaded once per
 * process on first use.
 *
 * The text is split with the encoding's own pre-tokenizer pattern and each piece is encoded
 * by the library; pieces never merge across a split, so the sum of the pieces' counts is
 * the count of the whole text. Counts of pieces are memoized: code repeats its pieces, and
 * the budget search counts the same text many times.
 *
 * @module
 */

import { Tiktoken, type TiktokenBPE } from "npm:/js-tiktoken@1.0.21/lite";

/** The encoding's name, for notes and tests. */
export const ENCODING = "cl100k_base";

/** Counts and cuts text in tokens. */
export interface TokenCounter {
  /** Tokens of `text`. */
  count(text: string): number;
  /** Tokens of `text` as the library's whole-text encoder counts them (for checks). */
  countExact(text: string): number;
}

/** Pieces memoized (then the memo starts over): ~3 MiB at most. */
const MEMO_LIMIT = 50_000;
/**
 * Pieces longer than this (a minified line, an embedded blob) are counted as their UTF-8
 * length: BPE never makes more tokens than bytes, so the count stays an upper bound, and
 * the library's merge loop (quadratic in the piece's length) is not run on them.
 */
const LONG_PIECE = 1024;

let loading: Promise<TokenCounter> | null = null;

/**
 * The process-wide token counter (the ranks are parsed on first call; later calls share it).
 *
 * @example
 * ```ts
 * const tokens = await tokenCounter();
 * tokens.count("def parse_config(path):"); // 6
 * ```
 */
export function tokenCounter(): Promise<TokenCounter> {
  loading ??= (async () => {
    const { default: ranks } = await import("npm:/js-tiktoken@1.0.21/ranks/cl100k_base") as {
      default: TiktokenBPE;
    };
    return createCounter(ranks);
  })();
  return loading;
}

function createCounter(ranks: TiktokenBPE): TokenCounter {
  const enc = new Tiktoken(ranks);
  // Only encoding is used: the decoder's table (one Uint8Array per token, 100k of them,
  // ~20 MiB of heap for the life of the process) goes. A field of js-tiktoken 1.0.21.
  const decoderTable = (enc as unknown as { textMap?: unknown }).textMap;
  if (decoderTable instanceof Map) decoderTable.clear();
  const pattern = new RegExp(ranks.pat_str, "gu");
  const memo = new Map<string, number>();
  const piece = (p: string): number => {
    if (p.length > LONG_PIECE) return utf8Length(p);
    let n = memo.get(p);
    if (n === undefined) {
      // Special-token text (`<|endoftext|>`) is plain text here.
      n = enc.encode(p, [], []).length;
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(p, n);
    }
    return n;
  };
  return {
    count(text) {
      let n = 0;
      pattern.lastIndex = 0;
      for (const m of text.matchAll(pattern)) n += piece(m[0]);
      return n;
    },
    countExact(text) {
      return enc.encode(text, [], []).length;
    },
  };
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
