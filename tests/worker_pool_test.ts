import assert from "node:assert/strict";
import type { EncodedExtraction } from "../src/index/extract.ts";
import type { ParseJob } from "../src/index/pool.ts";
import { createWorkerPool } from "../src/util/worker_pool.ts";

const WORKER = new URL("../src/index/worker.ts", import.meta.url);
const encoder = new TextEncoder();

Deno.test(`worker pool: the parse worker answers every job`, async () => {
  const pool = createWorkerPool<ParseJob, EncodedExtraction>({
    url: WORKER,
    size: 2,
    name: "parse",
  });
  assert.ok(pool);
  try {
    const jobs = Array.from({ length: 6 }, (_, i) => ({
      path: `m${i}.py`,
      bytes: encoder.encode(`def f${i}():\n    return ${i}\n\nclass C${i}:\n    pass\n`),
      language: "python",
    }));
    const out = await Promise.all(jobs.map((j) => pool.run(j)));
    assert.deepEqual(out.map((x) => x.symbols), [2, 2, 2, 2, 2, 2]);
    const names = JSON.parse(new TextDecoder().decode(out[5].parts.symbols))
      .map((s: { qualifiedName: string }) => s.qualifiedName);
    assert.deepEqual(names, ["f5", "C5"]);
  } finally {
    pool.close();
  }
});

Deno.test(`worker pool: a worker that fails rejects its jobs, now and later`, async () => {
  const dir = await Deno.makeTempDir();
  const url = new URL(`file://${dir}/broken_worker.ts`);
  await Deno.writeTextFile(url, `throw new Error("broken on purpose");\n`);
  const pool = createWorkerPool<number, number>({
    url,
    size: 1,
    name: "broken",
  });
  assert.ok(pool);
  try {
    await assert.rejects(pool.run(1), /broken worker failed/);
    await assert.rejects(pool.run(2), /broken worker failed/);
  } finally {
    pool.close();
    await Deno.remove(dir, { recursive: true });
  }
});
