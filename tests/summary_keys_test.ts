/**
 * The key symbols of `summarize_repo`: what the code offers (public names) before what it
 * keeps to itself, by each language's rule — on walkdir (Rust) the private `enum ErrorInner`
 * came first and `WalkDir` 12th, on google/uuid (Go) `xtob` and `encodeHex` stood among the
 * API. On a small project written here, through the tools.
 */

import assert from "node:assert/strict";
import { callTool, type Payload, withExecutor } from "./helpers.ts";

const GO = `package kit

// Thing is what the package makes.
type Thing struct{ n int }

func helper(n int) int { return n + 1 }

// Do runs the thing.
func (t Thing) Do() int { return helper(t.n) + helper(2) }

// Make makes a thing.
func Make() Thing { return Thing{n: helper(1)} }
`;

const RS = `enum Inner {
    A,
}

fn inner() -> Inner {
    Inner::A
}

pub struct Walk;

impl Walk {
    pub fn run(&self) {
        let _ = inner();
        let _ = inner();
    }
}
`;

Deno.test("summarize_repo: public names come before internal ones among the key symbols", async () => {
  const files = { "go.mod": "module example.com/kit\n", "kit.go": GO, "src/lib.rs": RS };
  await withExecutor(files, async (ex) => {
    const p = await callTool(ex, "summarize_repo", {});
    const keys = (p.key_symbols as Payload[]).map((s) => String(s.qualified_name));
    const at = (name: string) => {
      assert.ok(keys.includes(name), `${name} in ${keys.join(", ")}`);
      return keys.indexOf(name);
    };
    for (const internal of ["helper", "Inner", "inner"]) {
      for (const pub of ["Thing", "Make", "Walk"]) {
        assert.ok(at(pub) < at(internal), `${pub} before ${internal}: ${keys.join(", ")}`);
      }
    }
  });
});
