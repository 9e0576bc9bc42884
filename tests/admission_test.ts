/**
 * Admission of tool calls (`src/service/admission.ts`): at most `slots` run at once, the
 * rest start first come, first served; a failing call frees its place; a long call gives
 * its place up after `releaseAfterMs`.
 */

import assert from "node:assert/strict";
import { Admission } from "../src/service/admission.ts";

/** A call that runs until `finish()` is called. */
function pending<T>(value: T) {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return { call: async () => (await done, value), finish };
}

const turn = () => new Promise((r) => setTimeout(r, 0));

Deno.test("admission: at most `slots` calls run; the others start in arrival order", async () => {
  const admission = new Admission({ slots: 2, releaseAfterMs: 60_000 });
  const started: number[] = [];
  const calls = [0, 1, 2, 3].map((i) => pending(i));
  const results = calls.map((c, i) =>
    admission.run(() => {
      started.push(i);
      return c.call();
    })
  );
  await turn();
  assert.deepEqual(started, [0, 1]);
  assert.equal(admission.active, 2);
  assert.equal(admission.waiting, 2);
  calls[1].finish();
  assert.equal(await results[1], 1);
  await turn();
  assert.deepEqual(started, [0, 1, 2]);
  calls[0].finish();
  calls[2].finish();
  calls[3].finish();
  assert.deepEqual(await Promise.all(results), [0, 1, 2, 3]);
  assert.equal(admission.active, 0);
  assert.equal(admission.waiting, 0);
});

Deno.test("admission: a failing call frees its place and its error is the caller's", async () => {
  const admission = new Admission({ slots: 1, releaseAfterMs: 60_000 });
  const failing = admission.run(() => Promise.reject(new Error("boom")));
  const next = admission.run(() => Promise.resolve("next"));
  await assert.rejects(failing, /boom/);
  assert.equal(await next, "next");
  assert.equal(admission.active, 0);
});

Deno.test("admission: a call running past releaseAfterMs lets the next one start", async () => {
  const admission = new Admission({ slots: 1, releaseAfterMs: 20 });
  const long = pending("long");
  const first = admission.run(long.call);
  let secondStarted = false;
  const second = admission.run(() => {
    secondStarted = true;
    return Promise.resolve("second");
  });
  // The first call never finishes on its own here: only the release lets the second in.
  assert.equal(await second, "second");
  assert.equal(secondStarted, true);
  long.finish();
  assert.equal(await first, "long");
  assert.equal(admission.active, 0);
});

/**
 * Frees `admission`'s one place while another call waits for it and a task already waits for
 * the event loop; `order` gets `call after <label>` and `task after <label>` as they run.
 */
async function handover(admission: Admission, order: string[], label: string): Promise<void> {
  const holder = pending(label);
  const first = admission.run(holder.call);
  const second = admission.run(() => {
    order.push(`call after ${label}`);
    return Promise.resolve();
  });
  await turn();
  // Work already waiting for the event loop (in a server, `/health` read from its socket).
  setTimeout(() => order.push(`task after ${label}`), 0);
  holder.finish();
  await first;
  await second;
  await turn();
}

Deno.test("admission: past its slice, a freed place passes on a later turn of the event loop", async () => {
  const order: string[] = [];
  await handover(new Admission({ slots: 1, releaseAfterMs: 60_000, sliceMs: 0 }), order, "a");
  assert.deepEqual(order, ["task after a", "call after a"]);
});

Deno.test("admission: within its slice, a freed place passes at once", async () => {
  const admission = new Admission({ slots: 1, releaseAfterMs: 60_000, sliceMs: 60_000 });
  const order: string[] = [];
  // The first handover goes through the loop (no slice has started yet); the next ones
  // follow at once while the slice lasts.
  await handover(admission, order, "a");
  await handover(admission, order, "b");
  assert.deepEqual(order, ["task after a", "call after a", "call after b", "task after b"]);
});

Deno.test("admission: callers start in arrival order when a place passes at once while another's turn is due", async () => {
  // Three places; the first two freed past the slice pass on later turns of the loop, the
  // third is freed at once inside the first turn's slice: it must go to the caller after the
  // one whose turn is still due, not jump it.
  const admission = new Admission({ slots: 3, releaseAfterMs: 60_000, sliceMs: 60_000 });
  const started: string[] = [];
  const [x, y, z] = ["x", "y", "z"].map((n) => pending(n));
  const running = [["x", x], ["y", y], ["z", z]].map(([n, c]) =>
    admission.run(() => {
      started.push(n as string);
      return (c as typeof x).call();
    })
  );
  const queued = ["b", "c", "d"].map((n) =>
    admission.run(() => {
      started.push(n);
      if (n === "b") z.finish(); // frees a place within the slice b's turn started
      return Promise.resolve(n);
    })
  );
  await turn();
  assert.deepEqual(started, ["x", "y", "z"]);
  x.finish();
  y.finish();
  await Promise.all([...running, ...queued]);
  assert.deepEqual(started, ["x", "y", "z", "b", "c", "d"]);
});
