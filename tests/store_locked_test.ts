/**
 * Two processes on one index: a commit with a `check` (the generation flip, the writer lease,
 * the dirty mark) fails at once with SQLite's "database is locked" while another process
 * writes, where a plain write would wait. The store tries such a commit again; it does not
 * fail the run (a server's watcher once printed "database is locked" and lost its re-index
 * while another server on the same project pinned the generation it read).
 */

import assert from "node:assert/strict";
import { Store } from "../src/store/kv.ts";

/** A second process that writes small values into the store's KV file until it has written `n`. */
function otherWriter(path: string, n: number): Deno.ChildProcess {
  const code = `
    const kv = await Deno.openKv(${JSON.stringify(path)});
    for (let i = 0; i < ${n}; i++) {
      await kv.set(["other", i % 8], { i, at: Date.now() });
      if (i === 0) console.log("ready");
    }
    kv.close();
  `;
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", "--unstable-kv", code],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

Deno.test("checked commits go through while another process writes the same index", async () => {
  const dir = await Deno.makeTempDir({ prefix: "codectx-locked-" });
  const store = await Store.open(dir);
  const child = otherWriter(`${dir}/index.kv`, 1000);
  try {
    // Start once the other process writes, and go on until it has finished.
    const out = child.stdout.getReader();
    const first = new TextDecoder().decode((await out.read()).value);
    assert.match(first, /ready/);
    let done = false;
    const exited = child.status.then((s) => {
      done = true;
      return s;
    });
    let rounds = 0;
    let generation: number | null = null;
    while (!done) {
      assert.equal(await store.acquireLease(), true);
      const next: number = (generation ?? 0) + 1;
      assert.equal(await store.commit(next, generation), true);
      generation = next;
      await store.releaseLease();
      rounds++;
    }
    assert.equal((await exited).success, true, "the other writer failed");
    out.releaseLock();
    await child.stdout.cancel();
    assert.ok(rounds > 0);
    assert.equal(await store.currentGeneration(), generation);
    assert.equal(await store.leaseHolder(), null);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
