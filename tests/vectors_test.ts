/**
 * The vector index's kernels and its sealed (sign-code) search: int8 SIMD scores against
 * plain JavaScript, scoring picked rows, and `nearest` on a sealed index against the exact
 * scan.
 */

import assert from "node:assert/strict";
import { FlatVectorIndex, normalize } from "../src/search/vectors.ts";

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
