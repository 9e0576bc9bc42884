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

Deno.test("admission: past its slice, a freed place passes on a later turn of the event loop", async () => {
  const admission = new Admission({ slots: 1, releaseAfterMs: 60_000, sliceMs: 0 });
  const order: string[] = [];
  const a = pending("a");
  const first = admission.run(a.call);
  const second = admission.run(() => {
    order.push("next call");
    return Promise.resolve();
  });
  await turn();
  // Work that is already waiting for the event loop (here a timer; in a server, `/health`
  // read from its socket) runs before the next queued call starts.
  setTimeout(() => order.push("waiting task"), 0);
  a.finish();
  await first;
  await second;
  assert.deepEqual(order, ["waiting task", "next call"]);
});

Deno.test("admission: within its slice, a freed place passes at once", async () => {
  const admission = new Admission({ slots: 1, releaseAfterMs: 60_000, sliceMs: 60_000 });
  const order: string[] = [];
  const a = pending("a");
  const first = admission.run(a.call);
  const second = admission.run(() => {
    order.push("next call");
    return Promise.resolve();
  });
  await turn();
  // The first handover of a slice goes through the loop (no slice has started yet) …
  setTimeout(() => order.push("waiting task"), 0);
  a.finish();
  await first;
  await second;
  // … and the calls after it follow at once while the slice lasts.
  const b = pending("b");
  const third = admission.run(b.call);
  const fourth = admission.run(() => {
    order.push("call after b");
    return Promise.resolve();
  });
  await turn();
  setTimeout(() => order.push("task after b"), 0);
  b.finish();
  await third;
  await fourth;
  await turn();
  assert.deepEqual(order, ["waiting task", "next call", "call after b", "task after b"]);
});
