/**
 * Admission of tool calls (`src/service/admission.ts`): at most `slots` run at once, the
 * rest start first come, first served; a failing call frees its place; a long call gives
 * its place up after `releaseAfterMs`. Light and heavy calls have places of their own,
 * clients take turns, queues are bounded (`busy`), and an aborted wait leaves the queue.
 */

import assert from "node:assert/strict";
import { Admission, callWeight } from "../src/service/admission.ts";

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

Deno.test("admission: while places pass at once, the loop's next turn starts a new slice", async () => {
  // The clock moves by hand: 16 ms after the first slice began, but 8 after the loop last
  // turned (after b, which passed at once), c still passes at once.
  let now = 0;
  const admission = new Admission({
    slots: 1,
    releaseAfterMs: 60_000,
    sliceMs: 10,
    now: () => now,
  });
  const order: string[] = [];
  await handover(admission, order, "a");
  now = 8;
  await handover(admission, order, "b");
  now = 16;
  await handover(admission, order, "c");
  assert.deepEqual(order, [
    "task after a",
    "call after a",
    "call after b",
    "task after b",
    "call after c",
    "task after c",
  ]);
  // Held 10 ms with no turn of the loop, the next place passes on a later turn again.
  now = 40;
  await handover(admission, order, "d");
  assert.deepEqual(order.slice(6), ["task after d", "call after d"]);
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

Deno.test("admission: a light call starts while heavy calls fill their places and wait", async () => {
  const admission = new Admission({ slots: 1, heavy: { slots: 1 }, releaseAfterMs: 60_000 });
  const started: string[] = [];
  const heavy = [0, 1, 2].map((i) => pending(`heavy ${i}`));
  const heavyRuns = heavy.map((h, i) =>
    admission.run(() => {
      started.push(`heavy ${i}`);
      return h.call();
    }, { weight: "heavy", client: "flood" })
  );
  const light = admission.run(() => {
    started.push("light");
    return Promise.resolve("light");
  }, { client: "other" });
  assert.equal(await light, "light");
  // The light call ran while two heavy calls still wait for the one heavy place.
  assert.deepEqual(started, ["heavy 0", "light"]);
  assert.equal(admission.waitingOf("heavy"), 2);
  for (const h of heavy) h.finish();
  await Promise.all(heavyRuns);
  assert.deepEqual(started, ["heavy 0", "light", "heavy 1", "heavy 2"]);
});

Deno.test("admission: clients take turns — one client's queued calls let another's in after one of them", async () => {
  const admission = new Admission({ slots: 1, releaseAfterMs: 60_000, sliceMs: 60_000 });
  const started: string[] = [];
  const holder = pending("holder");
  const first = admission.run(holder.call, { client: "a" });
  const run = (client: string, label: string) =>
    admission.run(() => {
      started.push(label);
      return Promise.resolve(label);
    }, { client });
  const calls = [
    ...["a1", "a2", "a3", "a4"].map((l) => run("a", l)),
    run("b", "b1"),
    run("c", "c1"),
    run("b", "b2"),
  ];
  holder.finish();
  await first;
  await Promise.all(calls);
  // a's four calls came first, b's and c's after: each waits for at most one of a's.
  assert.deepEqual(started, ["a1", "b1", "c1", "a2", "b2", "a3", "a4"]);
});

Deno.test("admission: past a client's bound a call is refused at once with busy and a retry; others still queue", async () => {
  const admission = new Admission({
    slots: 1,
    releaseAfterMs: 60_000,
    light: { maxWaitingPerClient: 2, maxWaiting: 3 },
  });
  const holder = pending("holder");
  const first = admission.run(holder.call, { client: "a" });
  const queued = [admission.run(() => Promise.resolve(1), { client: "a" })];
  queued.push(admission.run(() => Promise.resolve(2), { client: "a" }));
  let ran = false;
  await assert.rejects(
    admission.run(() => {
      ran = true;
      return Promise.resolve(3);
    }, { client: "a" }),
    (err: Error & { code?: string }) =>
      err.code === "busy" && /calls of this client wait already; retry/.test(err.message),
  );
  // Another client still has room, until everyone's bound is reached.
  queued.push(admission.run(() => Promise.resolve(4), { client: "b" }));
  await assert.rejects(
    admission.run(() => Promise.resolve(5), { client: "c" }),
    (err: Error & { code?: string }) => err.code === "busy" && /retry/.test(err.message),
  );
  assert.equal(admission.waiting, 3);
  holder.finish();
  assert.equal(await first, "holder");
  assert.deepEqual(await Promise.all(queued), [1, 2, 4]);
  assert.equal(ran, false);
  assert.equal(admission.active, 0);
});

Deno.test("admission: a call whose wait is aborted leaves the queue unstarted; a heavy call past its limit frees its place", async () => {
  const admission = new Admission({ heavy: { slots: 1 } });
  const stuck = pending("stuck");
  const limit = new AbortController();
  // The running call never ends on its own (work that cannot be stopped): its limit passing
  // frees the place.
  const running = admission.run(stuck.call, { weight: "heavy", signal: limit.signal });
  const gaveUp = new AbortController();
  let abandonedRan = false;
  const abandoned = admission.run(() => {
    abandonedRan = true;
    return Promise.resolve("abandoned");
  }, { weight: "heavy", signal: gaveUp.signal });
  const next = admission.run(() => Promise.resolve("next"), { weight: "heavy" });
  gaveUp.abort(new Error("gave up"));
  await assert.rejects(abandoned, /gave up/);
  assert.equal(admission.waitingOf("heavy"), 1);
  limit.abort();
  assert.equal(await next, "next");
  assert.equal(abandonedRan, false);
  stuck.finish();
  assert.equal(await running, "stuck");
  assert.equal(admission.active, 0);
});

Deno.test("admission: callWeight — whole-project and unbounded inputs are heavy, look-ups light", () => {
  assert.equal(callWeight("search_symbols", { query: "parse" }), "light");
  assert.equal(callWeight("explain_file", { file_path: "a.py" }), "light");
  assert.equal(callWeight("analyze_quality", {}), "heavy");
  assert.equal(callWeight("validate_code", { code: "x = 1\n" }), "light");
  assert.equal(callWeight("validate_code", { code: "x = 1\n".repeat(20_000) }), "heavy");
  assert.equal(callWeight("get_context", { symbol_name: "f" }), "light");
  assert.equal(callWeight("get_context", { symbol_name: "f", max_tokens: 32000 }), "heavy");
  assert.equal(callWeight("get_call_graph", { symbol_name: "f", depth: 5 }), "heavy");
  assert.equal(callWeight("semantic_search", { query: "q" }), "light");
  assert.equal(callWeight("semantic_search", { query: "(a+)+$", mode: "regex" }), "heavy");
  assert.equal(callWeight("get_dependencies", {}), "heavy");
  assert.equal(callWeight("get_dependencies", { file_path: "a.py" }), "light");
});

Deno.test("admission: a call still waiting at its deadline leaves with busy and a retry, unstarted", async () => {
  const admission = new Admission({ heavy: { slots: 1 } });
  const holder = pending("holder");
  const running = admission.run(holder.call, { weight: "heavy" });
  let ran = false;
  await assert.rejects(
    admission.run(() => {
      ran = true;
      return Promise.resolve("late");
    }, { weight: "heavy", deadline: Date.now() }),
    (err: Error & { code?: string }) =>
      err.code === "busy" && /did not start; retry/.test(err.message),
  );
  assert.equal(ran, false);
  assert.equal(admission.waitingOf("heavy"), 0);
  holder.finish();
  assert.equal(await running, "holder");
  assert.equal(admission.active, 0);
});
