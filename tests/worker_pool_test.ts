import assert from "node:assert/strict";
import type { EncodedExtraction } from "../src/index/extract.ts";
import type { ParseJob } from "../src/index/pool.ts";
import { createPool } from "../src/util/worker_pool.ts";

const WORKER = new URL("../src/index/worker.ts", import.meta.url);
const encoder = new TextEncoder();

Deno.test(`worker pool: the parse worker answers every job`, async () => {
  const pool = createPool<ParseJob, EncodedExtraction>({
    member: { worker: WORKER },
    size: 2,
    name: "parse",
  });
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
    await pool.close();
  }
});

Deno.test(`worker pool: a worker that fails rejects its jobs, now and later`, async () => {
  const dir = await Deno.makeTempDir();
  const url = new URL(`file://${dir}/broken_worker.ts`);
  await Deno.writeTextFile(url, `throw new Error("broken on purpose");\n`);
  const pool = createPool<number, number>({
    member: { worker: url },
    size: 1,
    name: "broken",
  });
  try {
    await assert.rejects(pool.run(1), /broken worker failed/);
    await assert.rejects(pool.run(2), /broken worker failed/);
  } finally {
    await pool.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A worker module in a temporary folder whose jobs are `body` (a function of the job). */
async function workerOf(body: string): Promise<{ url: URL; dir: string }> {
  const dir = await Deno.makeTempDir();
  const url = new URL(`file://${dir}/worker.ts`);
  const serve = new URL("../src/util/worker_pool.ts", import.meta.url).href;
  await Deno.writeTextFile(
    url,
    `import { serveJobs } from ${JSON.stringify(serve)};\n` +
      `// deno-lint-ignore no-explicit-any\nserveJobs(self as any, ${body});\n`,
  );
  return { url, dir };
}

Deno.test(`worker pool: a worker that dies is replaced, and the next job runs on the new one`, async () => {
  // Before, a worker that failed stayed dead: every later job picked for it was refused.
  const { url, dir } = await workerOf(
    `(n: number) => n < 0 ? new Promise(() => setTimeout(() => { throw new Error("died on purpose"); })) : n * 2`,
  );
  const pool = createPool<number, number>({ member: { worker: url }, size: 1, name: "crash" });
  try {
    await assert.rejects(pool.run(-1), /crash worker failed: .*died on purpose/);
    assert.equal(await pool.run(3), 6);
    assert.equal(pool.started, 2);
    assert.equal(pool.failure, null);
  } finally {
    await pool.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(`worker pool: a job past its limit is answered at once, its worker stays taken until it is back`, async () => {
  const { url, dir } = await workerOf(
    `(ms: number) => { const end = Date.now() + ms; while (Date.now() < end); return ms; }`,
  );
  const pool = createPool<number, number>({
    member: { worker: url },
    size: 1,
    perMember: 1,
    name: "busy",
    recycle: { afterTimeout: true },
  });
  try {
    await pool.run(0); // the worker is up
    const long = pool.run(1500, { timeoutMs: 20 });
    let afterDone = false;
    const after = pool.run(1).then((x) => {
      afterDone = true;
      return x;
    });
    await assert.rejects(long, (e: Error & { code?: string }) => {
      assert.equal(e.code, "timeout");
      return true;
    });
    // Answered while the worker still runs the job: the next job waits for it, and no second
    // worker runs beside it (Deno cannot stop the busy one).
    assert.equal(afterDone, false);
    assert.equal(pool.members.length, 1);
    assert.equal(await after, 1);
    // The worker that ran past its limit was replaced once it was back.
    assert.equal(pool.started, 2);
  } finally {
    await pool.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(`worker pool: workers that die before answering send the jobs to the inline runner; restart: false fails at the first`, async () => {
  const dir = await Deno.makeTempDir();
  const url = new URL(`file://${dir}/broken_worker.ts`);
  await Deno.writeTextFile(url, `throw new Error("broken on purpose");\n`);
  const inline = createPool<number, number>({
    member: { worker: url },
    size: 1,
    name: "broken",
    inline: (n) => Promise.resolve(n + 1),
  });
  const once = createPool<number, number>({
    member: { worker: url },
    size: 1,
    name: "model",
    restart: false,
  });
  try {
    // Three workers die before any answer (each takes its job with it); then jobs run here.
    for (let i = 0; i < 3; i++) await assert.rejects(inline.run(i), /broken worker failed/);
    assert.match(inline.failure ?? "", /broken worker failed/);
    assert.equal(await inline.run(41), 42);
    assert.equal(inline.started, 3);
    // What a member held cannot be given to another: the first death fails the pool, and a
    // later job is refused with its message (before, the embedder posted it to the dead worker and got no answer).
    await assert.rejects(once.run(1), /model worker failed/);
    await assert.rejects(once.run(2), /model worker failed/);
    assert.equal(once.started, 1);
  } finally {
    await inline.close();
    await once.close();
    await Deno.remove(dir, { recursive: true });
  }
});
