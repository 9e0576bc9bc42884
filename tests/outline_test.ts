/**
 * A file's outline (explain_file's symbols, and the MCP text and web outline drawn from them):
 * each symbol followed by its members, even when the file defines something between a type
 * and its `impl` block; and a type's members in explain_symbol where its language declares
 * them beside it (Go methods, Rust impl blocks). On a small project written here, through the
 * tools.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, type Payload, withExecutor } from "./helpers.ts";

/** A type, another type, then the first one's methods (walkdir's error.rs). */
const RS = `pub struct Error {
    depth: usize,
}

enum ErrorInner {
    Io,
}

impl Error {
    pub fn depth(&self) -> usize {
        self.depth
    }
}
`;

Deno.test("outline: an impl block's methods follow their type, not what stands between", async () => {
  await withExecutor({ "src/error.rs": RS }, async (ex) => {
    await callTool(ex, "index_project", {});
    const file = await callTool(ex, "explain_file", { file_path: "src/error.rs" });
    const symbols = file.symbols as Payload[];
    assert.deepEqual(symbols.map((s) => `${s.line} ${s.qualified_name}`), [
      "1 Error",
      "10 Error.depth",
      "5 ErrorInner",
    ]);
    const text = renderText("explain_file", file);
    assert.match(
      text,
      /\n- 1: pub struct Error\n {2}- 10: pub fn depth\(&self\) -> usize\n- 5: /,
      text,
    );
  });
});

const GO_TYPE = `package kit

// Thing is a thing.
type Thing struct{ n int }

// Get gives n.
func (t *Thing) Get() int { return t.n }
`;

const GO_MORE = `package kit

// Set sets n.
func (t *Thing) Set(n int) { t.n = n }

// Use makes a thing.
func Use() *Thing { return &Thing{} }
`;

Deno.test("explain_symbol: a Go type's and a Rust struct's members, declared beside them", async () => {
  const files = {
    "go.mod": "module example.com/kit\n",
    "kit/thing.go": GO_TYPE,
    "kit/more.go": GO_MORE,
    "src/error.rs": RS,
  };
  await withExecutor(files, async (ex) => {
    await callTool(ex, "index_project", {});
    const names = (p: Payload) => (p.children as Payload[]).map((c) => c.qualified_name);
    const thing = await callTool(ex, "explain_symbol", { symbol_name: "Thing" });
    assert.deepEqual(names(thing), ["Thing.Set", "Thing.Get"]);
    // Its users (Use names it twice), not its own methods' receivers.
    const users = (thing.callers as Payload[]).map((c) => `${c.name} ${c.file}:${c.line}`);
    assert.deepEqual(users, ["Use kit/more.go:7", "Use kit/more.go:7"]);
    // Uses of a type are no calls, and the MCP text does not call them so.
    const text = renderText("explain_symbol", thing);
    assert.match(text, /\nUsed by[^\n]*:\n- Use kit\/more\.go:7/, text);
    assert.doesNotMatch(text, /Callers/, text);
    const error = await callTool(ex, "explain_symbol", { symbol_name: "Error" });
    assert.deepEqual(names(error), ["Error.depth"]);
  });
});
