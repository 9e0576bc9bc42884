/**
 * Contextual types (issue 13): a value typed by where it stands, as the TypeScript service
 * reads it. An object literal's methods stand for the members of the literal's type (`const
 * self: Observable = { subscribe() {} }`, `return { cancel() {} }` from a function returning
 * `Retryer`), both ways; an untyped function's returned literal gives its methods to callers
 * (`memo().read()`); a function's parameters take the types of the function type it is
 * returned as, assigned to or held in (`return (source) => source.subscribe()` from a function
 * returning `Op`, `{ onFetch: (context) => … }` typed `Behavior`); a name narrowed by
 * `instanceof`, and a name used in a closure inside its own value, keep their types. The
 * constructs are those of rxjs and query-core (the tuned repositories), on a project written here.
 */

import assert from "node:assert/strict";
import { declaredText, receiverText } from "../src/facts/text.ts";
import { parseSource } from "../src/parse/parser.ts";
import type { Executor } from "../src/tools/executor.ts";
import { callTool, type Payload, refLines, withExecutor } from "./helpers.ts";

const FILES: Record<string, string> = {
  "types.ts": `export interface Observer {
  next(value: number): void;
}

export interface Subscription {
  unsubscribe(): void;
}

export interface Subscribable {
  subscribe(observer: Observer): Subscription;
}

export interface Observable extends Subscribable {
  pipe(): Observable;
}

export type Operator = (source: Observable) => Observable;

export interface Retryer {
  cancel(): void;
  start: () => void;
}

export interface FetchContext {
  fetchFn(): void;
}

export interface Behavior {
  onFetch: (context: FetchContext) => void;
}
`,
  "observable.ts":
    `import type { Behavior, Observable, Observer, Operator, Retryer, Subscription } from "./types";

export function observable(): Observable {
  const self: Observable = {
    subscribe(observer) {
      observer.next(1);
      return { unsubscribe() {} };
    },
    pipe() {
      return self;
    },
  };
  return self;
}

export function map(): Operator {
  return (source) => {
    source.subscribe({
      next(value) {},
    });
    return source;
  };
}

export function createRetryer(): Retryer {
  return {
    cancel() {},
    start: () => {},
  };
}

export function behavior(): Behavior {
  return {
    onFetch: (context) => {
      context.fetchFn();
    },
  };
}

function memo(read: () => number) {
  return {
    read: () => read(),
  };
}

export const api = {
  go() {},
};

export function use(o: Observer): void {
  const retryer = createRetryer();
  retryer.cancel();
  retryer.start();
  const cached = memo(() => 1);
  cached.read();
  api.go();
  const stop = setup(() => stop.unsubscribe());
}

declare function setup(f: () => void): Subscription;
`,
  "generic.ts": `export interface Observable {
  pipe(): Observable;
}
export interface UnaryFunction<T, R> {
  (source: T): R;
}
export interface OperatorFunction<T, R> extends UnaryFunction<Observable<T>, Observable<R>> {}
export interface MonoTypeOperatorFunction<T> extends OperatorFunction<T, T> {}

export function share<T>(): MonoTypeOperatorFunction<T> {
  return (source) => {
    source.pipe();
    return source;
  };
}

export class Box<T> {
  value: T;
}
export class Retry {
  cancel(): void {}
}
export class RetryBox extends Box<Retry> {
  run(): void {
    this.value.cancel();
  }
}

export type OpAlias<T, R> = UnaryFunction<Observable<T>, Observable<R>>;
export type MonoAlias<T> = OpAlias<T, T>;

export function shareAlias<T>(): MonoAlias<T> {
  return (source) => source.pipe();
}
`,
  "narrow.ts": `export class Subscription {
  add(): void {}
}

export function addAll(teardown: unknown): void {
  if (teardown instanceof Subscription) {
    teardown.add();
  }
}
`,
};

function withProject(body: (ex: Executor) => Promise<void>): Promise<void> {
  return withExecutor(FILES, body);
}

/** `file:line kind resolution` of each reference of `symbol`. */
/** The callers of `symbol` and how each is resolved. */
async function callers(ex: Executor, symbol: string): Promise<string[]> {
  const g = await callTool(ex, "get_call_graph", { symbol_name: symbol });
  return (g.callers as Payload[]).map((c) => `${c.name} ${c.resolution}`).sort();
}

Deno.test("parser: object literal methods and parameters take the type where they stand", async () => {
  const parsed = await parseSource("observable.ts", FILES["observable.ts"]);
  const types = new Map(parsed.declared?.map(declaredText));
  assert.equal(
    types.get("observable.self.subscribe in") ?? types.get("observable.subscribe in"),
    "Observable",
  );
  assert.equal(types.get("createRetryer.cancel in"), "Retryer");
  assert.equal(types.get("behavior.onFetch in"), "Behavior");
  const receivers = (parsed.references ?? []).filter((r) => r.receiverKind).map((r) =>
    `${r.line} ${r.name} ${r.receiverKind} ${r.receiver && receiverText(r.receiver)}`
  );
  assert.ok(receivers.includes("6 next typed Observable .subscribe<=0>"), receivers.join("\n"));
  assert.ok(receivers.includes("18 subscribe typed Operator <=0>"), receivers.join("\n"));
  assert.ok(receivers.includes("35 fetchFn typed Behavior .onFetch<=0>"), receivers.join("\n"));
});

Deno.test("references: an object literal's methods and the members of its type, both ways", async () => {
  await withProject(async (ex) => {
    assert.deepEqual(await refLines(ex, "Subscribable.subscribe"), [
      "observable.ts:5 definition inferred",
      "observable.ts:18 call inferred",
      "types.ts:10 definition exact",
    ]);
    assert.deepEqual(await refLines(ex, "Retryer.cancel"), [
      "observable.ts:27 definition inferred",
      "observable.ts:52 call inferred",
      "types.ts:20 definition exact",
    ]);
    // The literal's own method: the interface's declaration and the calls through it.
    assert.deepEqual(await refLines(ex, "createRetryer.cancel"), [
      "observable.ts:27 definition exact",
      "observable.ts:52 call inferred",
      "types.ts:20 definition inferred",
    ]);
    assert.deepEqual(await callers(ex, "createRetryer.cancel"), ["use inferred"]);
    // A method passed in a literal argument stands for the parameter type's member.
    assert.deepEqual(await refLines(ex, "Observer.next"), [
      "observable.ts:6 call inferred",
      "observable.ts:19 definition inferred",
      "types.ts:2 definition exact",
    ]);
  });
});

Deno.test("references: parameters typed by the function type where the function stands", async () => {
  await withProject(async (ex) => {
    assert.deepEqual(await refLines(ex, "FetchContext.fetchFn"), [
      "observable.ts:35 call inferred",
      "types.ts:25 definition exact",
    ]);
    assert.deepEqual(await callers(ex, "FetchContext.fetchFn"), ["behavior.onFetch inferred"]);
  });
});

Deno.test("references: an untyped function's returned literal, a constant's literal, narrowing, closures", async () => {
  await withProject(async (ex) => {
    assert.deepEqual(await refLines(ex, "memo.read"), [
      "observable.ts:42 definition exact",
      "observable.ts:55 call inferred",
    ]);
    assert.deepEqual(await refLines(ex, "api.go"), [
      "observable.ts:47 definition exact",
      "observable.ts:56 call exact",
    ]);
    assert.deepEqual(await refLines(ex, "Subscription.add"), [
      "narrow.ts:2 definition exact",
      "narrow.ts:7 call inferred",
    ]);
    // Used in a closure inside its own value: the binding being made.
    assert.deepEqual(await refLines(ex, "Subscription.unsubscribe"), [
      "observable.ts:57 call inferred",
      "types.ts:6 definition exact",
    ]);
  });
});

Deno.test("references: a member typed by a type parameter takes the type argument it is reached through", async () => {
  const parsed = await parseSource("generic.ts", FILES["generic.ts"]);
  const types = new Map(parsed.declared?.map(declaredText));
  assert.equal(types.get("UnaryFunction<=0>"), "%0");
  assert.equal(types.get("OperatorFunction.UnaryFunction base"), "Observable,Observable");
  assert.equal(types.get("MonoTypeOperatorFunction.OperatorFunction base"), "%0,%0");
  await withProject(async (ex) => {
    assert.deepEqual(await refLines(ex, "Observable.pipe", "generic.ts"), [
      "generic.ts:2 definition exact",
      "generic.ts:12 call inferred",
      // Through type aliases of generic types.
      "generic.ts:33 call inferred",
    ]);
    assert.deepEqual(await refLines(ex, "Retry.cancel"), [
      "generic.ts:21 definition exact",
      "generic.ts:25 call inferred",
    ]);
  });
});
