/**
 * Rust references that tree-sitter does not hand over as expressions: calls inside macro
 * arguments (`ok!(self.add_env(m))`, `debug!("…", p.name())`, `assert!(Foo::new(1))`) and
 * paths inside attributes (`#[arg(value_hint = ValueHint::DirPath)]`); and methods reached
 * through what the code declares: a struct field's type (`self.cmd.find_group(…)` with
 * `cmd: &'a Command`), a method's return type (`Command::new(…).arg(…).get_name()`, `Self`
 * being the implemented type), a `Box`/`Arc` of a type. On small crates written here,
 * through the tools.
 */

import assert from "node:assert/strict";
import type { Executor } from "../src/tools/executor.ts";
import { callTool, has, type Payload, withExecutor } from "./helpers.ts";

/** Indexing budget of these in-process runs (workers: 0 keeps every grammar in this process). */

const CRATE: Record<string, string> = {
  "Cargo.toml": '[package]\nname = "demo"\n',
  "examples/hinted.rs": `#[derive(Debug)]
struct Cli {
    #[arg(value_hint = demo::ValueHint::DirPath)]
    dir: String,
}

fn main() {}
`,
  "src/lib.rs": `mod parser;
mod hint;

pub use crate::hint::ValueHint;
pub use crate::parser::{Parser, helper};
`,
  "src/hint.rs": `#[derive(Clone, Copy)]
pub enum ValueHint {
    DirPath,
}

impl ValueHint {
    pub fn dir() -> ValueHint {
        ValueHint::DirPath
    }
}
`,
  "src/parser.rs": `use crate::hint::ValueHint;

macro_rules! ok {
    ($e:expr) => {
        $e.unwrap()
    };
}

pub struct Parser {
    name: String,
}

pub fn helper(n: usize) -> usize {
    n
}

impl Parser {
    pub fn new() -> Parser {
        Parser { name: String::new() }
    }

    fn add_env(&self, n: usize) -> Result<usize, ()> {
        Ok(n)
    }

    fn len(&self) -> usize {
        self.name.len()
    }

    pub fn run(&mut self, other: &Parser) {
        ok!(self.add_env(1));
        println!("{} {}", other.len(), helper(2));
        assert!(ValueHint::dir() as u8 == 0, "{}", self.name.len());
        let words: Vec<String> = vec![];
        debug_assert!(words.len() == 0);
        let _p = format!("{:?}", Parser::new().len());
        for _i in 0..self.len() {}
    }
}

#[derive(Clone)]
pub struct Opts {
    #[arg(value_hint = ValueHint::DirPath)]
    hint: ValueHint,
}

#[cfg(test)]
mod tests {
    #[test]
    fn hinted() {
        let _a = [crate::hint::ValueHint::DirPath];
    }
}
`,
};

/** `file:line kind resolution` of each reference codectx presents as resolved. */
async function refsOf(ex: Executor, args: Payload): Promise<string[]> {
  const p = await callTool(ex, "find_references", args);
  return (p.references as Payload[])
    .filter((r) => r.resolution !== "name")
    .map((r) => `${r.file}:${r.line} ${r.kind}`);
}

function withCrate(
  body: (ex: Executor) => Promise<void>,
  files: Record<string, string> = CRATE,
): Promise<void> {
  return withExecutor(files, body);
}

Deno.test("Rust: calls inside macro arguments are references with their receivers", async () => {
  await withCrate(async (ex) => {
    // `self.add_env(1)` inside `ok!(…)`: the enclosing impl's method.
    assert.deepEqual(await refsOf(ex, { symbol_name: "Parser.add_env" }), [
      "src/parser.rs:22 definition",
      "src/parser.rs:31 call",
    ]);
    // `other.len()` (a parameter typed `&Parser`) is the method, and so is `0..self.len()`
    // (which tree-sitter reads as `(0..self).len()`); `self.name.len()` and `words.len()` (a
    // String, a Vec) are not.
    const len = await refsOf(ex, { symbol_name: "Parser.len" });
    has(len, "src/parser.rs:32 call", "src/parser.rs:37 call");
    for (const line of [27, 33, 35]) {
      assert.ok(!len.some((r) => r.startsWith(`src/parser.rs:${line} `)), len.join("\n"));
    }
    // A bare call and a path call inside macro arguments.
    assert.deepEqual(await refsOf(ex, { symbol_name: "helper" }), [
      "src/lib.rs:5 import",
      "src/parser.rs:13 definition",
      "src/parser.rs:32 call",
    ]);
    const dir = await refsOf(ex, { symbol_name: "ValueHint.dir" });
    assert.deepEqual(dir, ["src/hint.rs:7 definition", "src/parser.rs:33 call"]);
    const made = await refsOf(ex, { symbol_name: "Parser.new" });
    assert.ok(made.includes("src/parser.rs:36 call"), made.join("\n"));
  });
});

Deno.test("Rust: a path inside an attribute or a macro argument is a reference of its type", async () => {
  await withCrate(async (ex) => {
    has(
      await refsOf(ex, { symbol_name: "ValueHint" }),
      "src/hint.rs:2 definition",
      "src/lib.rs:4 import",
      "src/parser.rs:1 import",
      "src/parser.rs:33 read",
      "src/parser.rs:43 read",
      "src/parser.rs:44 type",
      "src/parser.rs:51 read",
      "examples/hinted.rs:3 read",
    );
  });
});

const TYPED: Record<string, string> = {
  "Cargo.toml": '[package]\nname = "typed"\n',
  "src/lib.rs": `mod command;
mod usage;
`,
  "src/command.rs": `pub struct Command {
    name: String,
}

impl Command {
    pub fn new(name: &str) -> Self {
        Command { name: name.to_string() }
    }

    pub fn arg(self, _a: &str) -> Self {
        self
    }

    pub fn find_group(&self, _id: &str) -> Option<&Command> {
        None
    }

    pub fn get_name(&self) -> &str {
        &self.name
    }
}
`,
  "src/usage.rs": `use std::sync::Arc;

use crate::command::Command;

pub struct Usage<'a> {
    cmd: &'a Command,
    shared: Arc<Command>,
}

impl<'a> Usage<'a> {
    fn find_group(&self) -> bool {
        false
    }

    fn go(&self) -> bool {
        let built = Command::new("x").arg("y");
        built.get_name();
        self.shared.get_name();
        self.cmd.find_group("g").is_some() || self.find_group()
    }

    fn check(&self, other: &Usage) {
        debug_assert!(self.cmd.find_group("h").is_some());
        debug_assert!(other.shared.get_name().is_empty(), "{}", self.find_group());
    }
}
`,
};

Deno.test("Rust: methods through a field's type, a return type and Box/Arc", async () => {
  await withCrate(async (ex) => {
    // `self.cmd.find_group(…)` is Command's (cmd: &'a Command), `self.find_group()` Usage's.
    const group = await refsOf(ex, { symbol_name: "Command.find_group" });
    has(group, "src/usage.rs:19 call");
    assert.ok(!group.some((r) => r.startsWith("src/usage.rs:11 ")), group.join("\n"));
    const own = await refsOf(ex, { symbol_name: "Usage.find_group" });
    has(own, "src/usage.rs:11 definition", "src/usage.rs:19 call");
    // A local bound to a builder chain (`-> Self`), and an `Arc<Command>` field.
    has(
      await refsOf(ex, { symbol_name: "Command.get_name" }),
      "src/usage.rs:17 call",
      "src/usage.rs:18 call",
    );
    has(await refsOf(ex, { symbol_name: "Command.arg" }), "src/usage.rs:16 call");
    // The same chains inside macro arguments, where tree-sitter gives only tokens.
    has(group, "src/usage.rs:23 call");
    assert.ok(!own.some((r) => r.startsWith("src/usage.rs:23 ")), own.join("\n"));
    has(await refsOf(ex, { symbol_name: "Command.get_name" }), "src/usage.rs:24 call");
    has(await refsOf(ex, { symbol_name: "Usage.find_group" }), "src/usage.rs:24 call");
  }, TYPED);
});

const SAME_NAMES: Record<string, string> = {
  "Cargo.toml": '[package]\nname = "names"\n',
  "src/lib.rs": `mod command;
mod re_bytes;
mod re_unicode;
`,
  "src/command.rs": `pub struct Str {
    s: String,
}

impl Str {
    pub fn as_str(&self) -> &str {
        &self.s
    }
}

pub struct Command {
    version: Str,
}

impl Command {
    pub fn new() -> Self {
        Command { version: Str { s: String::new() } }
    }

    pub fn version(self, _v: &str) -> Self {
        self
    }

    pub fn finish(self) {}
}

fn build() {
    Command::new().version("1").finish();
    let c = Command::new();
    c.version.as_str();
}

impl Str {
    pub fn s(&mut self) -> usize {
        self.s = String::new();
        self.s.len()
    }
}
`,
  "src/re_bytes.rs": `pub struct Regex;

impl Regex {
    pub fn locations(&self) -> usize {
        0
    }

    pub fn run(&self) -> usize {
        self.locations()
    }
}
`,
  "src/re_unicode.rs": `pub struct Regex;

impl Regex {
    pub fn locations(&self) -> usize {
        1
    }
}
`,
};

Deno.test("Rust: a field and a method of one name; two structs of one name in one folder", async () => {
  await withCrate(async (ex) => {
    // `.version("1")` is the method (-> Self), `c.version` the field (a Str).
    has(await refsOf(ex, { symbol_name: "Command.finish" }), "src/command.rs:28 call");
    has(await refsOf(ex, { symbol_name: "Str.as_str" }), "src/command.rs:30 call");
    // A member read or written, not called, is the field, never the method of that name.
    assert.deepEqual(await refsOf(ex, { symbol_name: "Str.s" }), ["src/command.rs:34 definition"]);
    // `self.locations()` in re_bytes.rs is its own file's Regex's, not re_unicode.rs's.
    const bytes = await refsOf(ex, {
      symbol_name: "Regex.locations",
      file_path: "src/re_bytes.rs",
    });
    has(bytes, "src/re_bytes.rs:9 call");
    const unicode = await refsOf(ex, {
      symbol_name: "Regex.locations",
      file_path: "src/re_unicode.rs",
    });
    assert.ok(!unicode.some((r) => r.startsWith("src/re_bytes.rs:")), unicode.join("\n"));
  }, SAME_NAMES);
});
