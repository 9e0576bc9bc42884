/**
 * The binary `terms` part (src/index/terms.ts `encodeTerms`/`decodeTerms`): what is read
 * back is what `fileTerms` computed, numbers and vocabulary, from any byte offset, and the
 * lexical index built from it scores as the one built from JSON; bytes of another shape are
 * refused with a message, not misread.
 */

import assert from "node:assert/strict";
import {
  decodeTerms,
  encodeTerms,
  type FileTerms,
  fileTerms,
  isBinaryTerms,
} from "../src/index/terms.ts";
import { chunkFile } from "../src/index/chunker.ts";
import { parseSource } from "../src/parse/parser.ts";
import { buildLexicalIndexFrom, DEFAULT_BM25 } from "../src/search/lexical.ts";

const SOURCE = `"""Naïve parser — façade for the JSON décodeur."""
import json

class Décodeur(json.JSONDecoder):
    """Decodes 日本語 and ASCII alike."""

    def decode(self, s):
        # a comment with ünïcödé
        return super().decode(s)


def main():
    print(Décodeur().decode("{}"))
`;

function plain(t: { v: ArrayLike<string>; p: ArrayLike<number>; c: ArrayLike<ArrayLike<number>> }) {
  return { v: Array.from(t.v), p: Array.from(t.p), c: Array.from(t.c, (r) => Array.from(r)) };
}

Deno.test("binary terms: a real file's statistics read back the same", async () => {
  const parsed = await parseSource("pkg/naïve_parser.py", SOURCE, "python");
  const chunks = chunkFile("pkg/naïve_parser.py", "python", SOURCE, parsed.symbols);
  const terms = fileTerms("pkg/naïve_parser.py", chunks, parsed.symbols);
  assert.ok(terms.v.length > 10 && terms.c.length > 1, "the fixture has terms and rows");
  const bytes = encodeTerms(terms);
  assert.ok(isBinaryTerms(bytes));
  assert.deepEqual(plain(decodeTerms(bytes)), terms);
  // From an offset that is no multiple of 4 (a view into a larger buffer).
  const shifted = new Uint8Array(bytes.length + 3);
  shifted.set(bytes, 3);
  assert.deepEqual(plain(decodeTerms(shifted.subarray(3))), terms);
});

Deno.test("binary terms: empty vocabulary, empty rows", () => {
  const cases: FileTerms[] = [
    { v: [], p: [], c: [] },
    { v: [], p: [], c: [[0, 0, 0, 0]] },
    { v: ["x"], p: [0, 2], c: [] },
  ];
  for (const t of cases) assert.deepEqual(plain(decodeTerms(encodeTerms(t))), t);
});

Deno.test("binary terms: 16-bit numbers when all fit, 32-bit when one does not", () => {
  const small: FileTerms = { v: ["a", "b"], p: [0, 1], c: [[1, 0, 0, 65535, 0, 1, 5, 2]] };
  const narrow = encodeTerms(small);
  assert.equal(new TextDecoder().decode(narrow.subarray(0, 4)), "TRM2");
  assert.deepEqual(plain(decodeTerms(narrow)), small);
  // Each place a number can be past 16 bits: a path pair, a row's field length, its code, its tf.
  const wide: FileTerms[] = [
    { v: ["a"], p: [0, 70000], c: [] },
    { v: ["a"], p: [], c: [[65536, 0, 0, 0]] },
    { v: ["a"], p: [], c: [[1, 0, 0, 0, 4 * 16384, 1]] },
    { v: ["a"], p: [], c: [[1, 0, 0, 0, 0, 100000]] },
  ];
  for (const t of wide) {
    const bytes = encodeTerms(t);
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), "TRM1");
    assert.deepEqual(plain(decodeTerms(bytes)), t);
  }
  // Half the bytes of the numbers: 5 header words, then 2 bytes a number, then the vocabulary.
  assert.equal(narrow.length, 20 + (2 + 1 + 8) * 2 + 3);
  // A 16-bit part from an odd offset reads the same.
  const shifted = new Uint8Array(narrow.length + 1);
  shifted.set(narrow, 1);
  assert.deepEqual(plain(decodeTerms(shifted.subarray(1))), small);
});

Deno.test("binary terms: JSON and damaged bytes are refused", () => {
  const json = new TextEncoder().encode(JSON.stringify({ v: ["a"], p: [0, 1], c: [] }));
  assert.equal(isBinaryTerms(json), false);
  assert.throws(() => decodeTerms(json), /not a binary terms part/);
  const bytes = encodeTerms({ v: ["a", "b"], p: [0, 1], c: [[1, 0, 0, 0, 0, 1]] });
  assert.throws(() => decodeTerms(bytes.subarray(0, bytes.length - 1)), /wrong length/);
  const wide = encodeTerms({ v: ["a"], p: [0, 70000], c: [[1, 0, 0, 0, 0, 1]] });
  assert.throws(() => decodeTerms(wide.subarray(0, wide.length - 2)), /wrong length/);
  const other = bytes.slice();
  other[3] = 0x39; // "TRM9": a layout this version does not know
  assert.equal(isBinaryTerms(other), false);
  assert.throws(() => decodeTerms(other), /not a binary terms part/);
});

Deno.test("binary terms: the lexical index built from them scores as the one from JSON", async () => {
  const sources: Record<string, string> = {
    "pkg/naïve_parser.py": SOURCE,
    "pkg/util.py":
      'def helper(x):\n    """Help parse."""\n    return x + 1\n\nclass Loader:\n    def load(self):\n        return helper(2)\n',
    "pkg/empty.py": "",
  };
  const files: { key: string; start: number; rows: number }[] = [];
  const json = new Map<string, FileTerms>();
  const binary = new Map<string, Uint8Array>();
  let start = 0;
  for (const [path, text] of Object.entries(sources)) {
    const parsed = await parseSource(path, text, "python");
    const chunks = chunkFile(path, "python", text, parsed.symbols);
    const terms = fileTerms(path, chunks, parsed.symbols);
    files.push({ key: path, start, rows: chunks.length });
    start += chunks.length;
    json.set(path, JSON.parse(JSON.stringify(terms)));
    binary.set(path, encodeTerms(terms));
  }
  const fromJson = await buildLexicalIndexFrom(
    {
      files,
      each: (visit) => json.forEach((t, k) => visit(k, t)),
    },
    start,
    DEFAULT_BM25,
  );
  const fromBinary = await buildLexicalIndexFrom(
    {
      files,
      each: (visit) => binary.forEach((b, k) => visit(k, decodeTerms(b))),
    },
    start,
    DEFAULT_BM25,
  );
  const words = [...new Set([...json.values()].flatMap((t) => t.v))];
  assert.ok(words.length > 20);
  for (const w of words) {
    const a = new Float32Array(fromJson.size);
    const b = new Float32Array(fromBinary.size);
    assert.equal(fromBinary.score([w, "absent"], b), fromJson.score([w, "absent"], a), w);
    assert.deepEqual(b, a, w);
  }
});
