/**
 * Rust receivers behind a wrapper (issue 13): a tuple struct's field by position
 * (`self.0.size()` with `struct Wrap(pub Inner, usize)`), a `RefCell` field borrowed
 * (`self.cell.borrow_mut().grow()`, `let c = self.cell.borrow_mut(); c.grow()`) and a clone
 * (`self.plain.clone().size()`, `let p = self.plain.clone(); p.size()`) reach the methods of
 * the type behind them. On a small crate written here, through the tools.
 */

import assert from "node:assert/strict";
import { refLines, withExecutor } from "./helpers.ts";

const CRATE: Record<string, string> = {
  "Cargo.toml": '[package]\nname = "wrappers"\n',
  "src/lib.rs": `use std::cell::RefCell;

pub struct Inner {
    n: usize,
}

impl Inner {
    pub fn grow(&mut self) {}
    pub fn size(&self) -> usize {
        self.n
    }
}

pub struct Other;

impl Other {
    pub fn size(&self) -> usize {
        0
    }
    pub fn grow(&mut self) {}
}

pub struct Wrap(pub Inner, usize);

pub struct Holder {
    cell: RefCell<Inner>,
    plain: Inner,
}

impl Wrap {
    pub fn size(&self) -> usize {
        self.0.size()
    }
    pub fn twice(&self) -> usize {
        self.size() * 2
    }
}

impl Holder {
    pub fn run(&self) {
        self.cell.borrow_mut().grow();
        let mut c = self.cell.borrow_mut();
        c.grow();
        let p = self.plain.clone();
        p.size();
        self.plain.clone().size();
    }
}
`,
};

Deno.test("Rust: a tuple struct's field, a RefCell borrowed and a clone reach the type behind them", async () => {
  await withExecutor(CRATE, async (ex) => {
    assert.deepEqual(await refLines(ex, "Inner.size"), [
      "src/lib.rs:9 definition exact",
      "src/lib.rs:32 call inferred",
      "src/lib.rs:45 call inferred",
      "src/lib.rs:46 call inferred",
    ]);
    assert.deepEqual(await refLines(ex, "Inner.grow"), [
      "src/lib.rs:8 definition exact",
      "src/lib.rs:41 call inferred",
      "src/lib.rs:43 call inferred",
    ]);
    // Nothing of these calls goes to the other type with methods of the same names.
    assert.deepEqual(await refLines(ex, "Other.size"), ["src/lib.rs:17 definition exact"]);
    assert.deepEqual(await refLines(ex, "Other.grow"), ["src/lib.rs:20 definition exact"]);
  });
});
