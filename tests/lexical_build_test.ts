/**
 * The BM25F index built from terms handed over one file at a time, in any order (as the
 * store streams them), scores every query as the index built from the list in row order.
 */

import assert from "node:assert/strict";
import { buildLexicalIndex, buildLexicalIndexFrom, DEFAULT_BM25 } from "../src/search/lexical.ts";
import type { FileTerms } from "../src/index/terms.ts";

/** Random but fixed term statistics: `files` files of 1–6 chunks over a small vocabulary. */
function corpus(files: number): FileTerms[] {
  let seed = 11;
  const next = (n: number) => Math.floor((seed = (seed * 16807) % 2147483647) / 2147483647 * n);
  const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
  return Array.from({ length: files }, () => {
    const v = [...new Set(Array.from({ length: 3 + next(12) }, () => words[next(words.length)]))];
    const p = [0, 1 + next(2)];
    const c = Array.from({ length: 1 + next(6) }, () => {
      const row = [next(4), next(8), next(5), 5 + next(40)];
      const seen = new Set<number>();
      for (let k = 0; k < 1 + next(10); k++) {
        const code = next(v.length) * 4 + next(4);
        if (seen.has(code)) continue;
        seen.add(code);
        row.push(code, 1 + next(4));
      }
      return row;
    });
    return { v, p, c };
  });
}

Deno.test("a streamed build scores every query as the build in row order", async () => {
  const terms = corpus(120);
  // One file whose terms do not fit its rows, and one without terms: rows left empty.
  const inputs = terms.map((t, i) => ({
    terms: i === 7 ? null : t,
    rows: t.c.length + (i === 9 ? 1 : 0),
  }));
  const inOrder = buildLexicalIndex(inputs);
  let start = 0;
  const files = inputs.map((f, i) => {
    const placed = { key: `k${i}`, start, rows: f.rows };
    start += f.rows;
    return placed;
  });
  const each = (visit: (key: string, t: FileTerms) => void) => {
    for (let i = inputs.length - 1; i >= 0; i--) {
      const t = inputs[i].terms;
      if (t) visit(`k${i}`, t);
      if (t && i % 10 === 0) visit(`k${i}`, t); // a key handed over twice counts once
    }
    visit("unknown", terms[0]);
  };
  const streamed = await buildLexicalIndexFrom({ files, each }, start, DEFAULT_BM25);
  assert.equal(streamed.size, inOrder.size);
  const words = [...new Set(terms.flatMap((t) => t.v))];
  for (let i = 0; i < words.length; i++) {
    const query = [words[i], words[(i * 7) % words.length], "absent"];
    const a = new Float32Array(inOrder.size);
    const b = new Float32Array(streamed.size);
    const ca = new Float32Array(inOrder.size);
    const cb = new Float32Array(streamed.size);
    assert.equal(streamed.score(query, b, cb), inOrder.score(query, a, ca), words[i]);
    assert.deepEqual(b, a, words[i]);
    assert.deepEqual(cb, ca, words[i]);
    assert.equal(streamed.df(words[i]), inOrder.df(words[i]));
  }
  // Name terms, read back as words through each index's own term ids.
  const word = (lex: typeof inOrder) => new Map(words.map((w) => [lex.termId(w), w]));
  const [wa, wb] = [word(inOrder), word(streamed)];
  for (let r = 0; r < inOrder.size; r++) {
    const names = (lex: typeof inOrder, w: Map<number, string>) =>
      [...lex.nameTerms(r)].map((g) => w.get(g));
    assert.deepEqual(names(streamed, wb), names(inOrder, wa), `row ${r}`);
  }
  // Rows of the file without terms and of the one whose terms do not fit score nothing.
  const all = new Float32Array(inOrder.size);
  streamed.score(words, all);
  for (const f of [files[7], files[9]]) {
    for (let r = f.start; r < f.start + f.rows; r++) assert.equal(all[r], 0);
  }
});
