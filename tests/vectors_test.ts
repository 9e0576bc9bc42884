/**
 * The vector index's kernels and its sealed (sign-code) search: int8 SIMD scores against
 * plain JavaScript, scoring picked rows, and `nearest` on a sealed index against the exact
 * scan.
 */

import assert from "node:assert/strict";
import { FlatVectorIndex, normalize, topK, topKOf } from "../src/search/vectors.ts";
import { topEntries, topKPositive } from "../src/search/top_k.ts";
import { buildLexicalIndex } from "../src/search/lexical.ts";
import { fileTerms } from "../src/index/terms.ts";
import { queryTokens } from "../src/util/tokens.ts";

function rng(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5;
}

Deno.test("int8 index: the SIMD kernel scores like the plain loop, picked rows alike", () => {
  const rnd = rng(3);
  const dims = 40; // not a multiple of 16: rows are padded
  const rows = 300;
  const simd = new FlatVectorIndex(rows, dims, "int8");
  const plain = new FlatVectorIndex(rows, dims, "int8", false);
  assert.equal(simd.accelerated, true);
  assert.equal(plain.accelerated, false);
  for (let r = 0; r < rows; r++) {
    if (r % 5 === 2) continue; // absent rows
    const v = normalize(Float32Array.from({ length: dims }, rnd));
    simd.set(r, v);
    plain.set(r, v);
  }
  const q = normalize(Float32Array.from({ length: dims }, rnd));
  const a = new Float32Array(rows);
  const b = new Float32Array(rows);
  simd.scoreAll(q, a);
  plain.scoreAll(q, b);
  for (let r = 0; r < rows; r++) {
    if (r % 5 === 2) assert.ok(Number.isNaN(a[r]) && Number.isNaN(b[r]));
    // The kernel's query is int16: a difference of a few 1e-4 at most.
    else assert.ok(Math.abs(a[r] - b[r]) < 2e-3, `row ${r}: ${a[r]} vs ${b[r]}`);
  }
  const ids = Int32Array.from([7, 0, 299, 2, 7]);
  const out = new Float32Array(ids.length);
  simd.scoreIds(q, ids, ids.length, out);
  ids.forEach((r, i) => {
    if (r % 5 === 2) assert.ok(Number.isNaN(out[i]));
    else assert.equal(out[i], a[r]);
  });
  const sparse = new Float32Array(rows).fill(-1);
  simd.scoreRows(q, [0, 7], sparse);
  assert.deepEqual([sparse[0], sparse[7], sparse[1]], [a[0], a[7], -1]);
});

Deno.test("sealed int8 index: nearest scores a shortlist and finds the exact top 10", async () => {
  // Rows around 40 directions (code has topics); queries near some of them.
  const rnd = rng(11);
  const dims = 256; // the shipped model's: one code bit per dimension
  const rows = 5000;
  const centers = Array.from(
    { length: 40 },
    () => normalize(Float32Array.from({ length: dims }, rnd)),
  );
  const index = new FlatVectorIndex(rows, dims, "int8");
  for (let r = 0; r < rows; r++) {
    const c = centers[r % centers.length];
    index.set(r, normalize(Float32Array.from({ length: dims }, (_, i) => c[i] + 0.6 * rnd())));
  }
  const queries = Array.from({ length: 30 }, (_, j) => {
    const c = centers[(j * 7) % centers.length];
    return normalize(Float32Array.from({ length: dims }, (_, i) => c[i] + 0.8 * rnd()));
  });
  const exact = queries.map((q) => index.search(q, 10).map((h) => h.row));
  assert.equal(index.sealed, false);
  // Unsealed: every row scored, the same answer as the full scan.
  const flat = index.nearest(queries[0], 10);
  assert.equal(flat.scanned, rows);
  assert.deepEqual(flat.top.map((h) => h.row), exact[0]);

  assert.equal(await index.seal(), true);
  assert.equal(index.sealed, true);
  let found = 0;
  for (const [j, q] of queries.entries()) {
    const r = index.nearest(q, 10, undefined, 500);
    assert.equal(r.scanned, 500);
    // Scored rows hold their score, the others NaN.
    assert.equal(r.scores.filter((s) => !Number.isNaN(s)).length, 500);
    const got = new Set(r.top.map((h) => h.row));
    found += exact[j].filter((row) => got.has(row)).length;
  }
  // A random shortlist of 500 of 5,000 rows would keep 10% of the top 10; on this synthetic
  // data the codes keep ~92%. Recall on real vectors is bench/dense_recall.ts's (.99).
  assert.ok(found / (10 * queries.length) >= 0.85, `recall@10 ${found / 300}`);

  // A filter applies before the shortlist: every answer passes it.
  const even = index.nearest(queries[1], 10, (row) => row % 2 === 0, 500);
  assert.equal(even.top.length, 10);
  assert.ok(even.top.every((h) => h.row % 2 === 0));

  // Setting a row breaks the seal (its code would be stale).
  index.set(0, queries[0]);
  assert.equal(index.sealed, false);
  assert.equal(index.nearest(queries[0], 1).top[0].row, 0);
});

Deno.test("float32 index is never sealed", async () => {
  const index = new FlatVectorIndex(10, 8);
  index.set(0, normalize(Float32Array.from({ length: 8 }, (_, i) => i + 1)));
  assert.equal(await index.seal(), false);
});

Deno.test("topK: the k best of a full sort by score, then the lower row (ties, ±0, ±Infinity)", () => {
  const rnd = rng(13);
  const special = [0, -0, Infinity, -Infinity, 0.5];
  for (const n of [0, 1, 2, 9, 300, 2000]) {
    const scores = Array.from(
      { length: n },
      (_, i) => i % 13 === 5 ? special[i % 5] : Math.round(rnd() * 16) / 8 - 1,
    );
    const sorted = scores.map((score, row) => ({ row, score }))
      .sort((a, b) => (a.score > b.score ? -1 : a.score < b.score ? 1 : a.row - b.row));
    // The same scores as a map whose rows come in no order: the same best entries.
    const order = [...scores.keys()].sort((a, b) => ((a * 7919) % 1009) - ((b * 7919) % 1009));
    const entries = new Map(order.map((row) => [row, scores[row]]));
    for (const k of [1, 3, 64, 5000]) {
      assert.deepEqual(topK(n, k, (i) => scores[i]), sorted.slice(0, k), `n ${n}, k ${k}`);
      assert.deepEqual(topEntries(entries, k), sorted.slice(0, k), `entries: n ${n}, k ${k}`);
    }
  }
});

Deno.test("topKOf: the same rows and order as topK over the array (ties, NaN, a filter)", () => {
  const rnd = rng(5);
  for (const n of [0, 1, 7, 300, 2000]) {
    // Few distinct values: many ties, which go to the lower row in both.
    const scores = Float32Array.from({ length: n }, (_, i) => {
      const x = Math.round(rnd() * 8) / 8;
      return i % 11 === 3 ? NaN : x;
    });
    const accept = (i: number) => i % 3 !== 1;
    for (const k of [1, 5, 64, 5000]) {
      assert.deepEqual(
        topKOf(scores, k, 0, accept),
        topK(n, k, (i) => (scores[i] > 0 ? scores[i] : NaN), accept),
        `n ${n}, k ${k}, above 0`,
      );
      assert.deepEqual(topKOf(scores, k), topK(n, k, (i) => scores[i]), `n ${n}, k ${k}`);
    }
  }
});

Deno.test("topKPositive: the rows and order of topKOf above 0 under a mask (ties, NaN, ±0, ±Infinity, negatives)", () => {
  const rnd = rng(9);
  for (const n of [0, 1, 7, 300, 2000, 20000]) {
    // Few distinct values (ties straddling a bucket's edge too), and the odd special value.
    const special = [NaN, -0, Infinity, -Infinity, -1.5, 1e-40];
    const scores = Float32Array.from({ length: n }, (_, i) => {
      if (i % 13 === 5) return special[i % special.length];
      return rnd() < 0.4 ? 0 : Math.round(rnd() * 40) / 16;
    });
    if (n > 500) scores.fill(1.0625, 100, 400); // a long run of one score
    const mask = Uint8Array.from({ length: n }, (_, i) => (i % 3 === 1 ? 0 : 1));
    // The rows a scoring would list: every non-zero one (specials too), shuffled.
    const rows = Int32Array.from(
      [...scores.keys()].filter((i) => scores[i] !== 0).map((i) => [rnd(), i])
        .sort((a, b) => a[0] - b[0]).map(([, i]) => i),
    );
    for (const k of [1, 5, 64, 299, 5000, 30000]) {
      const want = topKOf(scores, k, 0, (i) => mask[i] === 1);
      assert.deepEqual(topKPositive(scores, k, mask), want, `n ${n}, k ${k}`);
      assert.deepEqual(
        topKPositive(scores, k, mask, { rows, count: rows.length }),
        want,
        `listed, n ${n}, k ${k}`,
      );
    }
  }
  // A view that starts inside its buffer.
  const buffer = new Float32Array([9, 0.5, 2, 0, 2, 7]);
  const view = buffer.subarray(1, 5);
  assert.deepEqual(topKPositive(view, 2, new Uint8Array(4).fill(1)), [
    { row: 1, score: 2 },
    { row: 3, score: 2 },
  ]);
});

Deno.test("lexical scoring lists each row it scores above 0 once, and those rows only", () => {
  const words = ["parse", "config", "read", "file", "socket", "close", "open", "buffer"];
  const rnd = rng(5);
  const pick = () => words[Math.floor((rnd() + 0.5) * words.length)];
  const files = Array.from({ length: 6 }, (_, f) => {
    const path = `m${f}.py`;
    const chunks = Array.from({ length: 9 }, (_, c) => ({
      id: `${path}#${c}`,
      file: path,
      startLine: c * 10 + 1,
      endLine: c * 10 + 9,
      symbol: `${pick()}_${pick()}`,
      kind: "function" as const,
      language: "python",
      text: `def ${pick()}_${pick()}():\n    ${pick()}(${pick()}, ${pick()})`,
    }));
    return { terms: fileTerms(path, chunks, []), rows: chunks.length };
  });
  const lex = buildLexicalIndex(files);
  for (
    const q of ["parse config", "read read file", "socket", "nothing here", "open buffer close"]
  ) {
    const plain = new Float32Array(lex.size);
    lex.score(queryTokens(q), plain, undefined, undefined);
    const out = new Float32Array(lex.size);
    const listed = { rows: new Int32Array(lex.size), count: 0 };
    lex.score(queryTokens(q), out, undefined, undefined, listed);
    assert.deepEqual(out, plain, q);
    const rows = [...listed.rows.subarray(0, listed.count)].sort((a, b) => a - b);
    assert.deepEqual(rows, [...out.keys()].filter((r) => out[r] > 0), q);
  }
});

/** The shortlist of a sealed index of `dims` dimensions against a full sort by code distance. */
async function shortlistUnderFilter(dims: number): Promise<void> {
  const rnd = rng(21);
  const rows = 3000;
  const index = new FlatVectorIndex(rows, dims, "int8");
  for (let r = 0; r < rows; r++) {
    if (r % 9 === 4) continue; // absent rows are never taken
    index.set(r, normalize(Float32Array.from({ length: dims }, rnd)));
  }
  assert.equal(await index.seal(), true);
  const q = normalize(Float32Array.from({ length: dims }, rnd));
  // The reference: every present row's code distance to the query's, sorted (distance, row).
  const mean = new Float32Array(dims);
  for (let r = 0; r < rows; r++) index.addTo(r, mean, 1 / index.count);
  const bits = (v: ArrayLike<number>) => Array.from({ length: dims }, (_, i) => v[i] > mean[i]);
  const qb = bits(q);
  const byCode: Array<[number, number]> = [];
  for (let r = 0; r < rows; r++) {
    const v = index.get(r);
    if (!v) continue;
    const b = bits(v);
    byCode.push([b.reduce((n, x, i) => n + (x !== qb[i] ? 1 : 0), 0), r]);
  }
  byCode.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  // A filter that lets few rows through makes the shortlist widen its cut more than once.
  for (const keep of [2, 17, 400]) {
    const accept = (r: number) => r % keep === 0;
    const want = byCode.filter(([, r]) => accept(r)).slice(0, 50).map(([, r]) => r);
    const got = index.nearest(q, 5, accept, 50);
    assert.equal(got.scanned, want.length, `keep 1 in ${keep}`);
    const scored = [...got.scores.keys()].filter((r) => !Number.isNaN(got.scores[r]));
    assert.deepEqual(scored, [...want].sort((a, b) => a - b), `keep 1 in ${keep}`);
  }
  // The same filters as row masks, each kept loaded until another comes: asked in turns,
  // every answer is the one of its own mask.
  const masks = [2, 17, 400].map((keep) =>
    Uint8Array.from({ length: rows }, (_, r) => r % keep === 0 ? 1 : 0)
  );
  for (const at of [0, 0, 1, 2, 1, 0]) {
    const want = byCode.filter(([, r]) => masks[at][r] === 1).slice(0, 50).map(([, r]) => r);
    const got = index.nearest(q, 5, masks[at], 50);
    const scored = [...got.scores.keys()].filter((r) => !Number.isNaN(got.scores[r]));
    assert.deepEqual(scored, [...want].sort((a, b) => a - b), `mask ${at}`);
  }
}

Deno.test("sealed shortlist under a filter: the accepted rows nearest by code, as a full sort takes them", async () => {
  await shortlistUnderFilter(64);
  // Codes of more than 256 bits take the Hamming kernel's general loop (two turns a row).
  await shortlistUnderFilter(300);
});
