/**
 * The binary `terms` part (src/index/terms.ts `encodeTerms`/`decodeTerms`): what is read
 * back is what `fileTerms` computed, numbers and vocabulary, from any byte offset; bytes of
 * another shape are refused with a message, not misread.
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

Deno.test("binary terms: JSON and damaged bytes are refused", () => {
  const json = new TextEncoder().encode(JSON.stringify({ v: ["a"], p: [0, 1], c: [] }));
  assert.equal(isBinaryTerms(json), false);
  assert.throws(() => decodeTerms(json), /not a binary terms part/);
  const bytes = encodeTerms({ v: ["a", "b"], p: [0, 1], c: [[1, 0, 0, 0, 0, 1]] });
  assert.throws(() => decodeTerms(bytes.subarray(0, bytes.length - 1)), /wrong length/);
});
