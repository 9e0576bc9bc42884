/**
 * Exact answers about references and call edges: how sure each answer is, and the
 * reference defects of issue 13 (Rust binary crates, TS multi-line/default imports and
 * re-exports, Python super/submodules/stdlib shadowing, overloads, name-only and builtin
 * callees). On a small project written here, through the tools. Definitions:
 * `exactness_test.ts`.
 */

import assert from "node:assert/strict";
import type { Executor } from "../src/tools/executor.ts";
import { callTool, has, type Payload, referenceLines, withExecutor } from "./helpers.ts";

const REFS: Record<string, string> = {
  // A binary crate whose root is set in Cargo.toml (ripgrep's layout), a workspace crate
  // reached through `extern crate … as`, grouped and fully qualified paths.
  "Cargo.toml": `[package]
name = "rg"

[[bin]]
path = "crates/core/main.rs"
name = "rg"
`,
  "crates/core/main.rs": `use crate::flags::{HiArgs, SearchMode};

mod flags;
mod search;
mod util;

fn main() {
    let args = HiArgs::new();
    let mode = SearchMode::Fast;
    let low = crate::flags::LowArgs::default();
    let bin = grep::searcher::BinaryDetection::none();
    search::run(&args);
}
`,
  "crates/core/flags/mod.rs": `pub(crate) use crate::flags::{
    hiargs::HiArgs,
    lowargs::{LowArgs, SearchMode},
};

mod hiargs;
mod lowargs;
`,
  "crates/core/flags/hiargs.rs": `pub(crate) struct HiArgs {}

impl HiArgs {
    pub(crate) fn new() -> HiArgs {
        HiArgs {}
    }
}
`,
  "crates/core/flags/lowargs.rs": `#[derive(Default)]
pub(crate) struct LowArgs {}

pub(crate) enum SearchMode {
    Fast,
}
`,
  "crates/core/search.rs": `use crate::{flags::LowArgs, util::helper};

pub(crate) fn run() -> LowArgs {
    helper();
    LowArgs::default()
}

use termcolor::{ColorChoice, SearchMode as TermMode};
`,
  "crates/core/util.rs": "pub(crate) fn helper() {}\n",
  // `self` in a use list binds the module: `fs::metadata` is the standard library's.
  "crates/core/entry.rs": `use std::fs::{self, ReadDir};

pub struct Entry;

impl Entry {
    pub fn metadata(&self) -> u32 { 1 }
}

pub fn stat(dir: ReadDir) {
    let _ = fs::metadata("x");
    let _ = dir.count();
}
`,
  "crates/grep/Cargo.toml": '[package]\nname = "grep"\n',
  "crates/grep/src/lib.rs": "pub extern crate grep_searcher as searcher;\n",
  "crates/searcher/Cargo.toml": '[package]\nname = "grep-searcher"\n',
  "crates/searcher/src/lib.rs": "pub use crate::searcher::BinaryDetection;\n\nmod searcher;\n",
  "crates/searcher/src/searcher/mod.rs": `pub struct BinaryDetection(u8);

impl BinaryDetection {
    pub fn none() -> BinaryDetection {
        BinaryDetection(0)
    }
}
`,
  // TypeScript: a multi-line import, a default import, re-exports.
  "web/util/slug.ts": `export function slugify(s: string): string {
  return s.toLowerCase();
}

export default function defaultSlug(s: string): string {
  return slugify(s);
}

export class Options {}
`,
  "web/util/index.ts": `export * from "./slug";
export { slugify as slug } from "./slug";
export { default as makeSlug } from "./slug";
`,
  "web/main.ts": `import {
  slugify,
  Options,
} from "./util/slug";
import defaultSlug from "./util/slug";
import { makeSlug, slug } from "./util";

export function main(): string {
  const o = new Options();
  return slugify("a") + defaultSlug("b") + slug("c") + makeSlug("d");
}
`,
  // TypeScript: an override and the method it overrides are one family (a call of the
  // base's method may run the override); Python keeps them apart (pyright's rule).
  "web/sub.ts": `export class Subscribable {
  subscribe(): void {
    this.onSubscribe();
  }
  protected onSubscribe(): void {}
}

export class Observer extends Subscribable {
  protected onSubscribe(): void {}
}

export class Other {
  onSubscribe(): void {}
}

export class Sibling extends Subscribable {
  protected onSubscribe(): void {}
  notify(): void {}
}

export class Cousin extends Subscribable {
  notify(): void {}
}
`,
  // Python: super(), a submodule imported from its package, the stdlib's typing beside a
  // tests/typing folder, overload stubs, name-only member calls, builtins, tests.
  "pkg/__init__.py":
    "from .core import Engine, run\nfrom . import types\nfrom .progress import ProgressBar as ProgressBar\n",
  "pkg/types.py": "class Kind:\n    pass\n",
  "pkg/core.py": `import typing as t


class Base:
    def save(self):
        return 1


class Engine(Base):
    def save(self):
        return super().save() + 1

    def start(self):
        return self.save()


@t.overload
def run(x: int) -> int: ...
@t.overload
def run(x: str) -> str: ...
def run(x):
    e = Engine()
    items = {1, 2}
    items.update({3})
    return len(str(e.start()))


__all__ = ["Engine", "run"]
`,
  "pkg/progress.py": `class ProgressBar:
    def update(self, n):
        return n
`,
  "pkg/counter.py": `class Counter:
    def tick(self):
        return 1


class Clock:
    def tick(self):
        return 2


def spin(thing):
    return thing.tick()
`,
  "app.py": `import typing

from pkg import Engine, run, types


def main() -> typing.Optional[int]:
    kind = types.Kind()
    return run(Engine().start())
`,
  "pkg/deco.py": `def define(maybe_cls=None):
    def wrap(cls):
        return cls

    if maybe_cls is None:
        return wrap
    return wrap(maybe_cls)
`,
  "cobra/command.go": `package cobra

type Command struct{}

func (c *Command) MarkFlagFilename(name string) error {
	return MarkFlagFilename(c, name)
}

func MarkFlagFilename(c *Command, name string) error {
	return nil
}

func use(c *Command) {
	c.MarkFlagFilename("x")
}
`,
  "pkg/fwd.py": `import typing as t


class Tree:
    parent: "Tree"
    children: t.List["Tree"]


def walk(node: t.Optional[t.List["Tree"]]) -> "Tree":
    pass
`,
  "cobra/flag.go": `package cobra

type Flag interface {
	Apply(set string) error
	Names() []string
}

type BoolFlag struct{}

func (f *BoolFlag) Apply(set string) error { return nil }
func (f *BoolFlag) Names() []string        { return nil }

type Lonely struct{}

func (l *Lonely) Apply(set string) error { return nil }

func applyOne(f Flag) error {
	return f.Apply("y")
}
`,
  // CommonJS: a method assigned to a property binds no name; the bare name is the import.
  "web/response.js": `var vary = require("vary");
var res = {};
module.exports = res;

res.vary = function (field) {
  vary(this, field);
  return this;
};
`,
  "go.mod": "module example.com/refs\n\ngo 1.21\n",
  "cobra/doc/doc.go": `package doc

import "example.com/refs/cobra"

func Gen(cmd *cobra.Command) {
	cmd.MarkFlagFilename("y")
}
`,
  "tests/typing/__init__.py": "def Optional():\n    pass\n",
  "tests/test_app.py": "from pkg import run\n\n\ndef test_run():\n    assert run(1)\n",
};

function withRefs(body: (ex: Executor) => Promise<void>): Promise<void> {
  return withExecutor(REFS, body);
}

/** `file:line kind resolution` of each reference of a find_references call. */
async function refsOf(ex: Executor, args: Payload): Promise<string[]> {
  return referenceLines(await callTool(ex, "find_references", args));
}

Deno.test("references: Rust binary crate roots from Cargo.toml, grouped uses, qualified paths", async () => {
  await withRefs(async (ex) => {
    const low = await refsOf(ex, { symbol_name: "LowArgs" });
    has(
      low,
      "crates/core/flags/mod.rs:3 import exact",
      "crates/core/main.rs:10 read exact",
      "crates/core/search.rs:1 import exact",
      "crates/core/search.rs:3 type exact",
      "crates/core/search.rs:5 read exact",
    );
    const hi = await refsOf(ex, { symbol_name: "HiArgs" });
    has(hi, "crates/core/main.rs:1 import exact");
    has(hi, "crates/core/main.rs:8 read exact");
    const helper = await refsOf(ex, { symbol_name: "helper" });
    has(helper, "crates/core/search.rs:4 call exact");
    const none = await refsOf(ex, { symbol_name: "BinaryDetection.none" });
    has(none, "crates/core/main.rs:11 call exact");
  });
});

Deno.test("references: TS multi-line and default imports, re-exports", async () => {
  await withRefs(async (ex) => {
    const slug = await refsOf(ex, { symbol_name: "slugify", file_path: "web/util/slug.ts" });
    has(
      slug,
      "web/main.ts:2 import exact",
      "web/main.ts:10 call exact",
      "web/util/index.ts:2 import exact",
    );
    has(await refsOf(ex, { symbol_name: "Options" }), "web/main.ts:3 import exact");
    const def = await refsOf(ex, { symbol_name: "defaultSlug" });
    has(
      def,
      "web/main.ts:5 import exact",
      "web/util/index.ts:3 import exact",
      "web/main.ts:6 import exact",
    );
    // `makeSlug("d")` and `defaultSlug("b")`, both on line 10.
    assert.equal(def.filter((l) => l === "web/main.ts:10 call exact").length, 2, def.join("\n"));
  });
});

Deno.test("references: Python super(), submodules of a package, stdlib beside tests/", async () => {
  await withRefs(async (ex) => {
    const save = await refsOf(ex, { symbol_name: "Base.save" });
    has(save, "pkg/core.py:11 call exact");
    const init = await callTool(ex, "get_dependencies", { file_path: "pkg/__init__.py" });
    const resolved = (init.imports as Payload[]).map((i) => `${i.line} ${i.resolved}`);
    assert.deepEqual(resolved, ["1 pkg/core.py", "2 pkg/types.py", "3 pkg/progress.py"]);
    const app = await callTool(ex, "get_dependencies", { file_path: "app.py" });
    const typing = (app.imports as Payload[]).find((i) => i.module === "typing")!;
    assert.deepEqual([typing.resolved, typing.external], [null, true]);
    const optional = await refsOf(ex, { symbol_name: "Optional" });
    assert.deepEqual(optional, ["tests/typing/__init__.py:1 definition exact"]);
  });
});

Deno.test("call graph: overloads, name-only edges, builtins, candidates, include_tests", async () => {
  await withRefs(async (ex) => {
    const run = await callTool(ex, "get_call_graph", { symbol_name: "run" });
    // The implementation, not the first @overload stub.
    assert.equal((run.definition as Payload).line, 21);
    const callees = (run.callees as Payload[]).map((c) =>
      `${c.name} ${c.kind} ${c.resolution} ${c.resolved} ${c.external}`
    );
    assert.deepEqual(callees, [
      "Engine class exact true false",
      "ProgressBar.update method name false false",
      "len builtin exact false true",
      "str builtin exact false true",
      "Engine.start method inferred true false",
    ]);
    const edge = (run.edges as Payload[]).find((e) => e.to === "ProgressBar.update")!;
    assert.deepEqual([edge.resolution, edge.resolved], ["name", false]);
    assert.deepEqual(
      (run.callers as Payload[]).map((c) => `${c.name} ${c.file} ${c.resolution}`),
      ["main app.py exact", "test_run tests/test_app.py exact"],
    );
    const main = await callTool(ex, "get_call_graph", { symbol_name: "run", include_tests: false });
    assert.deepEqual((main.callers as Payload[]).map((c) => c.name), ["main"]);
    const mermaid = await callTool(ex, "get_call_graph", { symbol_name: "run", format: "mermaid" });
    assert.doesNotMatch(String(mermaid.mermaid), /"len"/);

    // `thing.tick()`: two project methods of that name, no receiver type: no edge, one
    // candidate for each, and the callee is `unknown`, by name.
    for (const name of ["Counter.tick", "Clock.tick"]) {
      const tick = await callTool(ex, "get_call_graph", { symbol_name: name });
      assert.deepEqual([(tick.callers as Payload[]).length, tick.unresolved_candidates], [0, 1]);
    }
    const spin = await callTool(ex, "get_call_graph", { symbol_name: "spin" });
    assert.deepEqual(
      (spin.callees as Payload[]).map((c) => `${c.name} ${c.kind} ${c.resolution} ${c.file}`),
      ["tick unknown name null"],
    );
    const explained = await callTool(ex, "explain_symbol", { symbol_name: "Counter.tick" });
    assert.equal(explained.unresolved_candidates, 1);
    const ex2 = await callTool(ex, "explain_symbol", { symbol_name: "run" });
    assert.deepEqual(
      (ex2.callers as Payload[]).map((c) => `${c.name} ${c.resolution}`),
      ["main exact", "test_run exact"],
    );

    const refs = await callTool(ex, "find_references", {
      symbol_name: "run",
      include_tests: false,
    });
    assert.ok(
      referenceLines(refs).every((l) => !l.startsWith("tests/")),
      referenceLines(refs).join("\n"),
    );
    const all = await callTool(ex, "find_references", { symbol_name: "run" });
    assert.ok(referenceLines(all).some((l) => l.startsWith("tests/test_app.py:5 call exact")));
    assert.equal(
      Object.values(all.by_resolution as Record<string, number>).reduce((a, b) => a + b),
      all.total,
    );
  });
});

Deno.test("references: nested definitions, __all__, 'name as name', external use trees, whole names", async () => {
  await withRefs(async (ex) => {
    // A nested def used in its enclosing function's body.
    const wrap = await refsOf(ex, { symbol_name: "define.wrap" });
    assert.deepEqual(wrap, [
      "pkg/deco.py:2 definition exact",
      "pkg/deco.py:6 read exact",
      "pkg/deco.py:7 call exact",
    ]);
    const define = await callTool(ex, "get_call_graph", { symbol_name: "define" });
    assert.deepEqual((define.callees as Payload[]).map((c) => c.name), ["define.wrap"]);
    // `__all__` entries export the name; `import X as X` names it twice.
    const engine = await refsOf(ex, { symbol_name: "Engine" });
    has(engine, "pkg/core.py:28 export_list exact");
    const bar = await refsOf(ex, { symbol_name: "ProgressBar" });
    assert.equal(
      bar.filter((l) => l === "pkg/__init__.py:3 import exact").length,
      2,
      bar.join("\n"),
    );
    // `use termcolor::{…, SearchMode as TermMode}` is termcolor's, not the crate's.
    const mode = await refsOf(ex, { symbol_name: "SearchMode" });
    assert.ok(!mode.some((l) => l.startsWith("crates/core/search.rs:")), mode.join("\n"));
    // `use std::fs::{self, …}`: `fs::metadata` is external, no match of a project method;
    // a call through a parameter of an external type is named with the type.
    assert.deepEqual(await refsOf(ex, { symbol_name: "Entry.metadata" }), [
      "crates/core/entry.rs:6 definition exact",
    ]);
    const stat = await callTool(ex, "get_call_graph", { symbol_name: "stat" });
    assert.deepEqual(
      (stat.callees as Payload[]).map((c) => `${c.name} ${c.external}`),
      ["fs.metadata true", "ReadDir.count true"],
    );
    // Forward references written as strings in annotations.
    assert.deepEqual(await refsOf(ex, { symbol_name: "Tree" }), [
      "pkg/fwd.py:4 definition exact",
      "pkg/fwd.py:5 type exact",
      "pkg/fwd.py:6 type exact",
      "pkg/fwd.py:9 type exact",
      "pkg/fwd.py:9 type exact",
    ]);
    // A plain name that is a function's whole name means the function, not same-named methods.
    const mark = await callTool(ex, "find_references", { symbol_name: "MarkFlagFilename" });
    assert.deepEqual(
      (mark.definitions as Payload[]).map((d) => d.qualified_name),
      ["MarkFlagFilename"],
    );
    assert.deepEqual(referenceLines(mark), [
      "cobra/command.go:6 call exact",
      "cobra/command.go:9 definition exact",
    ]);
    // A parameter typed by another package's type (\`cmd *cobra.Command\`).
    const method = await refsOf(ex, { symbol_name: "Command.MarkFlagFilename" });
    has(method, "cobra/doc/doc.go:6 call inferred");
  });
});

Deno.test("references and callers: a TS override family is one symbol, labelled inferred", async () => {
  await withRefs(async (ex) => {
    const over = await refsOf(ex, { symbol_name: "Observer.onSubscribe" });
    assert.deepEqual(over, [
      "web/sub.ts:3 call inferred",
      "web/sub.ts:5 definition inferred",
      "web/sub.ts:9 definition exact",
      "web/sub.ts:17 definition inferred", // a sibling's override (Other's is no kin)
    ]);
    // Siblings whose common base does not declare the method are no kin.
    assert.deepEqual(await refsOf(ex, { symbol_name: "Sibling.notify" }), [
      "web/sub.ts:18 definition exact",
    ]);
    const g = await callTool(ex, "get_call_graph", { symbol_name: "Observer.onSubscribe" });
    assert.deepEqual(
      (g.callers as Payload[]).map((c) => `${c.name} ${c.resolution} ${c.resolved}`),
      ["Subscribable.subscribe inferred true"],
    );
    // Python's Engine.save overrides Base.save: Base.save's callers are its own.
    const save = await refsOf(ex, { symbol_name: "Engine.save" });
    assert.ok(!save.some((l) => l.startsWith("pkg/core.py:5 ")), save.join("\n"));
  });
});

Deno.test("references and callers: a Go method is reached through the interfaces its type implements", async () => {
  await withRefs(async (ex) => {
    assert.deepEqual(
      await refsOf(ex, { symbol_name: "BoolFlag.Apply" }),
      ["cobra/flag.go:10 definition exact", "cobra/flag.go:18 call inferred"],
    );
    const g = await callTool(ex, "get_call_graph", { symbol_name: "BoolFlag.Apply" });
    assert.deepEqual(
      (g.callers as Payload[]).map((c) => `${c.name} ${c.resolution}`),
      ["applyOne inferred"],
    );
    // Lonely has no Names(): it implements no Flag.
    assert.deepEqual(
      await refsOf(ex, { symbol_name: "Lonely.Apply" }),
      ["cobra/flag.go:15 definition exact"],
    );
  });
});

Deno.test("call graph: a function assigned to a property is not the bare name (express res.vary)", async () => {
  await withRefs(async (ex) => {
    const g = await callTool(ex, "get_call_graph", {
      symbol_name: "vary",
      file_path: "web/response.js",
    });
    assert.equal((g.definition as Payload).line, 5);
    assert.deepEqual(g.callers, []);
    assert.deepEqual(
      (g.callees as Payload[]).map((c) => `${c.name} ${c.kind} ${c.external}`),
      ["vary external true"],
    );
  });
});
