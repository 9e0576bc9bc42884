/**
 * Receiver chains (issue 13): a method reached through a field, a property, a parameter
 * or local of declared type, or a call's declared return type (`this.#cache.notify()`,
 * `c.parent.CommandPath()`, `this.getCache().notify()`, `x := newThing(); x.M()`) is a
 * reference and a call of that method, `inferred`. On a small project written here, through
 * the parser and through the tools (what the parser reads from snippets of its own:
 * `chains_bindings_test.ts`).
 */

import assert from "node:assert/strict";
import { declaredText, receiverText } from "../src/facts/text.ts";
import { parseSource } from "../src/parse/parser.ts";
import type { Executor } from "../src/tools/executor.ts";
import { callTool, type Payload, refLines, withExecutor } from "./helpers.ts";

const FILES: Record<string, string> = {
  "go.mod": "module example.com/chains\n\ngo 1.21\n",
  "ts/cache.ts": `export class QueryCache {
  notify(): void {}
  find(): Query {
    return new Query();
  }
}

export class Query {
  fetch(): void {}
}

export class Other {
  notify(): void {}
}
`,
  "ts/client.ts": `import { Query, QueryCache } from "./cache";

export interface Options {
  cache: QueryCache;
}

export class QueryClient {
  #queryCache: QueryCache;
  private later = new QueryCache();

  constructor(private readonly opts: Options) {
    this.#queryCache = new QueryCache();
  }

  getQueryCache(): QueryCache {
    return this.#queryCache;
  }

  run(query: Query): void {
    this.#queryCache.notify();
    this.getQueryCache()
      .notify();
    this.later?.notify();
    this.opts.cache.notify();
    const found = this.getQueryCache().find();
    found.fetch();
    query.fetch();
  }
}
`,
  "ts/sched.ts": `import { QueryCache } from "./cache";

export function schedule() {
  return function (this: QueryCache, x: number) {
    this.notify();
  };
}

export function maybe(c: QueryCache | null, d?: QueryCache | undefined) {
  const e: QueryCache | null = null;
  c.notify();
  d.notify();
  e.notify();
}
`,
  "java/p/Cache.java": `package p;

class Cache {
  void refresh() {}
  Item find() { return null; }
}
`,
  "java/p/Item.java": `package p;

class Item {
  void go() {}
}
`,
  "java/p/Holder.java": `package p;

class Holder {
  private Cache cache;
  Item[] items;

  Cache get() { return cache; }

  void run() {
    cache.refresh();
    this.cache.refresh();
    get().refresh();
    var x = get();
    x.find().go();
    for (Item i : items) { i.go(); }
    items[0].go();
  }
}
`,
  "ts/list.ts": `import { Query } from "./cache";

export class Queries {
  queries: Array<Query> = [];

  first(): void {
    const q = this.queries.find((x) => x !== null);
    q?.fetch();
  }
}
`,
  "ts/op.ts": `export class Sub {
  unsubscribe(): void {}
}

export class Obs {
  constructor(subscribe?: (this: Obs, subscriber: Sub) => void) {}
  pipe(): void {}
}

export function operate(init: (source: Obs, subscriber: Sub) => void): void {}
`,
  "ts/use.ts": `import { Obs, operate } from "./op";

operate((source, subscriber) => {
  subscriber.unsubscribe();
  source.pipe();
});
new Obs((s) => s.unsubscribe());
`,
  "cs/Holder.cs": `namespace P {
  class Cache { public void Refresh() {} public Item Find() { return null; } }
  class Item { public void Go() {} }
  class Holder {
    private Cache cache;
    public Cache Prop { get; set; }
    Item[] items;
    Cache Get() { return cache; }
    void Run() {
      cache.Refresh();
      Prop.Refresh();
      this.cache.Refresh();
      Get().Refresh();
      var x = Get();
      x.Find().Go();
      foreach (var i in items) { i.Go(); }
      foreach (Item j in items) { j.Go(); }
    }
  }
}
`,
  "js/store.js": `class Emitter {
  emit() {}
}

export class Store {
  constructor(opts) {
    this.events = new Emitter();
    this.opts = new Emitter();
    if (opts) this.opts = opts;
  }
  fire() {
    this.events.emit();
    this.opts.emit();
  }
  reset() {
    this.events = null;
  }
}
`,
  "cobra/command.go": `package cobra

type Command struct {
	parent *Command
	name   string
}

func NewCommand() *Command { return &Command{} }

func (c *Command) Root() *Command { return c }

func (c *Command) Lookup() (*Command, error) { return c, nil }

func (c *Command) CommandPath() string {
	if c.parent != nil {
		return c.parent.CommandPath() + c.Root().Name()
	}
	return c.name
}

func (c *Command) Name() string { return c.name }

func build() {
	x := NewCommand()
	x.CommandPath()
	y, _ := x.Lookup()
	y.Name()
}

type Commands []*Command

func visit(cs Commands, byName map[string]*Command) {
	for _, c := range cs {
		c.Name()
	}
	byName["x"].Name()
}

func (c *Command) Children() []*Command { return nil }

func (c *Command) Add(cmds ...*Command) {
	for _, x := range cmds {
		x.Name()
	}
	for _, k := range c.Children() {
		k.Name()
	}
}

func check(v interface{}) {
	if s, ok := v.(*Command); ok {
		s.Name()
	}
	switch t := v.(type) {
	case string:
		_ = t
	case *Command:
		t.Name()
	}
}
`,
  "pkg/core.py": `class Command:
    def get_usage(self):
        return ""


class Context:
    command: Command

    def __init__(self):
        self.helper = Command()

    def usage(self):
        self.helper.get_usage()
        return self.command.get_usage()
`,
};

function withProject(body: (ex: Executor) => Promise<void>): Promise<void> {
  return withExecutor(FILES, body);
}

/** `file:line resolution` of each caller's call site. */
async function callers(ex: Executor, symbol: string): Promise<string[]> {
  const g = await callTool(ex, "get_call_graph", { symbol_name: symbol });
  return (g.callers as Payload[]).map((c) => `${c.name} ${c.resolution}`).sort();
}

Deno.test("parser: declared types of fields, properties, parameters and return types", async () => {
  const client = await parseSource("ts/client.ts", FILES["ts/client.ts"]);
  assert.deepEqual(client.declared?.map(declaredText), [
    ["Options.cache", "QueryCache"],
    ["QueryClient.#queryCache", "QueryCache"],
    // `<=j>`: the type of parameter j (for functions passed where they are declared).
    ["QueryClient.constructor<=0>", "Options"],
    ["QueryClient.opts", "Options"],
    ["QueryClient.getQueryCache", "QueryCache"],
    ["QueryClient.run<=0>", "Query"],
    ["QueryClient.later", "=QueryCache()"],
  ]);
  // Values that disagree give no type (`this.opts = new Emitter()`, then `this.opts = opts`);
  // a literal (`this.events = null`) says nothing.
  const store = await parseSource("js/store.js", FILES["js/store.js"]);
  assert.deepEqual(store.declared?.map(declaredText), [["Store.events", "=Emitter()"]]);
  const go = await parseSource("cobra/command.go", FILES["cobra/command.go"]);
  assert.deepEqual(go.declared?.map(declaredText).slice(0, 5), [
    ["Command.parent", "Command"],
    ["Command.name", "string"],
    ["NewCommand", "Command"],
    ["Command.Root", "Command"],
    ["Command.Lookup", "Command"],
  ]);
  const py = await parseSource("pkg/core.py", FILES["pkg/core.py"]);
  assert.deepEqual(py.declared?.map(declaredText), [["Context.command", "Command"], [
    "Context.helper",
    "=Command()",
  ]]);
  // A receiver chain keeps its calls, without their arguments, across lines.
  const chain = client.references?.find((r) => r.line === 22 && r.name === "notify");
  assert.equal(chain?.receiver && receiverText(chain.receiver), "this.getQueryCache()");
  assert.equal(chain?.receiverKind, "self");
});

Deno.test("references: methods through fields, properties and return types are inferred", async () => {
  await withProject(async (ex) => {
    assert.deepEqual(await refLines(ex, "QueryCache.notify"), [
      "ts/cache.ts:2 definition exact",
      "ts/client.ts:20 call inferred",
      "ts/client.ts:22 call inferred",
      "ts/client.ts:23 call inferred",
      "ts/client.ts:24 call inferred",
      "ts/sched.ts:5 call inferred",
      "ts/sched.ts:11 call inferred",
      "ts/sched.ts:12 call inferred",
      "ts/sched.ts:13 call inferred",
    ]);
    // Other.notify has the same name and is reached by none of them.
    assert.deepEqual(await refLines(ex, "Other.notify"), ["ts/cache.ts:13 definition exact"]);
    assert.deepEqual(await refLines(ex, "Query.fetch"), [
      "ts/cache.ts:9 definition exact",
      "ts/client.ts:26 call inferred",
      "ts/client.ts:27 call inferred",
      "ts/list.ts:8 call inferred",
    ]);
    assert.deepEqual(await refLines(ex, "Emitter.emit"), [
      "js/store.js:2 definition exact",
      "js/store.js:12 call inferred",
      "js/store.js:13 call name",
    ]);
  });
});

Deno.test("references and callers: Go fields, results, locals bound to calls, range elements, variadics, type assertions and switches", async () => {
  await withProject(async (ex) => {
    assert.deepEqual(await refLines(ex, "Command.CommandPath"), [
      "cobra/command.go:14 definition exact",
      "cobra/command.go:16 call inferred",
      "cobra/command.go:25 call inferred",
    ]);
    assert.deepEqual(await refLines(ex, "Command.Name"), [
      "cobra/command.go:16 call inferred",
      "cobra/command.go:21 definition exact",
      "cobra/command.go:27 call inferred",
      "cobra/command.go:34 call inferred",
      "cobra/command.go:36 call inferred",
      "cobra/command.go:43 call inferred",
      "cobra/command.go:46 call inferred",
      "cobra/command.go:52 call inferred",
      "cobra/command.go:58 call inferred",
    ]);
    assert.deepEqual(await callers(ex, "Command.CommandPath"), ["build inferred"]);
  });
});

Deno.test("references: Python annotated class attributes and attributes set in __init__", async () => {
  await withProject(async (ex) => {
    assert.deepEqual(await refLines(ex, "Command.get_usage"), [
      "pkg/core.py:2 definition exact",
      "pkg/core.py:13 call inferred",
      "pkg/core.py:14 call inferred",
    ]);
  });
});

Deno.test("references: destructured properties, a local holding this or another local", async () => {
  const source = `import { QueryCache } from "./cache";

export class Holder {
  protected cache: QueryCache | null = null;

  run(): void {
    this.run();
    const { cache } = this;
    cache.notify();
    const self = this;
    const other = self.cache;
    other.notify();
  }
}
`;
  const parsed = await parseSource("ts/holder.ts", source);
  const sites = (parsed.references ?? []).filter((r) => r.name === "notify").map((r) =>
    `${r.line} ${r.receiverKind} ${r.receiver && receiverText(r.receiver)}`
  );
  assert.deepEqual(sites, ["9 self this.cache", "12 self this.cache"]);
});

Deno.test("references: elements of TS arrays through array methods' callbacks and find()", async () => {
  const source = `class Obs {
  refetch(): void {}
}

export class Query {
  observers: Array<Obs> = [];
  #list: ReadonlyArray<Obs> = [];

  run(): void {
    const observer = this.observers.find((x) => x.refetch());
    observer?.refetch();
    this.#list.forEach((o) => {
      o.refetch();
    });
  }
}
`;
  const parsed = await parseSource("ts/query.ts", source);
  const sites = (parsed.references ?? []).filter((r) => r.name === "refetch" && r.receiverKind)
    .map((r) => `${r.line} ${r.receiverKind} ${r.receiver && receiverText(r.receiver)}`);
  assert.deepEqual(sites, [
    "10 self this.observers.find<0:0>|this.observers[]",
    "11 self this.observers.find()|this.observers[]",
    "13 self this.#list.forEach<0:0>|this.#list[]",
  ]);
  assert.deepEqual(parsed.declared?.map(declaredText), [["Query.observers", "[]Obs"], [
    "Query.#list",
    "[]Obs",
  ]]);
});

Deno.test("references: Java fields (bare or through this), return types, for-each and index elements", async () => {
  await withProject(async (ex) => {
    assert.deepEqual(await refLines(ex, "Cache.refresh"), [
      "java/p/Cache.java:4 definition exact",
      "java/p/Holder.java:10 call inferred",
      "java/p/Holder.java:11 call inferred",
      "java/p/Holder.java:12 call inferred",
    ]);
    assert.deepEqual(await refLines(ex, "Item.go"), [
      "java/p/Holder.java:14 call inferred",
      "java/p/Holder.java:15 call inferred",
      "java/p/Holder.java:16 call inferred",
      "java/p/Item.java:4 definition exact",
    ]);
  });
});

Deno.test("references: a callback's parameters are typed by the callee's declaration", async () => {
  await withProject(async (ex) => {
    assert.deepEqual(await refLines(ex, "Sub.unsubscribe"), [
      "ts/op.ts:2 definition exact",
      "ts/use.ts:4 call inferred",
      "ts/use.ts:7 call inferred",
    ]);
    assert.deepEqual(await refLines(ex, "Obs.pipe"), [
      "ts/op.ts:7 definition exact",
      "ts/use.ts:5 call inferred",
    ]);
  });
});

Deno.test("references: C# fields, properties, return types and foreach variables", async () => {
  await withProject(async (ex) => {
    assert.deepEqual(await refLines(ex, "Cache.Refresh"), [
      "cs/Holder.cs:2 definition exact",
      "cs/Holder.cs:10 call inferred",
      "cs/Holder.cs:11 call inferred",
      "cs/Holder.cs:12 call inferred",
      "cs/Holder.cs:13 call inferred",
    ]);
    assert.deepEqual(await refLines(ex, "Item.Go"), [
      "cs/Holder.cs:3 definition exact",
      "cs/Holder.cs:15 call inferred",
      "cs/Holder.cs:16 call inferred",
      "cs/Holder.cs:17 call inferred",
    ]);
  });
});

Deno.test("parser: receivers are stored as chains, a typed one's steps after one space", async () => {
  // `super(C, self)` is the chain `super()`; `Op <=0>` and `.meta` make `Op <=0>.meta`.
  const py = await parseSource(
    "m.py",
    `class B(A):
    def f(self):
        super(B, self).f()
`,
  );
  assert.deepEqual(
    (py.references ?? []).filter((r) => r.receiverKind === "self").map((r) =>
      r.receiver && receiverText(r.receiver)
    ),
    ["super()"],
  );
  const ts = await parseSource(
    "m.ts",
    `type Op = (source: Obs) => void;
class Obs { meta = new Meta(); }
class Meta { run(): void {} }
export const op: Op = (source) => {
  const m = source.meta;
  m.run();
};
`,
  );
  const run = (ts.references ?? []).find((r) => r.name === "run" && r.receiverKind);
  assert.deepEqual([run?.receiverKind, run?.receiver && receiverText(run.receiver)], [
    "typed",
    "Op <=0>.meta",
  ]);
});
