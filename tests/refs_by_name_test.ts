/**
 * `refs NAME` for a name no definition is spelled as but code uses (a Go struct field): its
 * uses as written, by name only, and the header says so — not the method that matched it by
 * case. Blind run on chi (issue 35): `find_references methodNotAllowed` answered with
 * `Mux.MethodNotAllowed`, and the assistant went on to search and read 3,300 characters.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, withExecutor } from "./helpers.ts";

const FILES = {
  "go.mod": "module example.com/m\n\ngo 1.21\n",
  "ctx.go": [
    "package m", // 1
    "", // 2
    "type Context struct {", // 3
    "\tmethodNotAllowed bool", // 4
    "}", // 5
    "", // 6
    "type Mux struct{}", // 7
    "", // 8
    "func (mx *Mux) MethodNotAllowed() {", // 9
    "}", // 10
    "", // 11
    "func find(rctx *Context) {", // 12
    "\trctx.methodNotAllowed = true", // 13
    "}", // 14
    "", // 15
    "func serve(mx *Mux, rctx *Context) {", // 16
    "\tif rctx.methodNotAllowed {", // 17
    "\t\tmx.MethodNotAllowed()", // 18
    "\t}", // 19
    "}", // 20
    "",
  ].join("\n"),
};

Deno.test("find_references: a field's name gives its uses by name, the case-only match named in the header", async () => {
  await withExecutor(FILES, async (ex) => {
    const p = await callTool(ex, "find_references", { symbol_name: "methodNotAllowed" });
    const refs = p.references as Array<{ line: number; kind: string; resolution: string }>;
    assert.deepEqual(refs.map((r) => `${r.line} ${r.kind} ${r.resolution}`), [
      "13 write name",
      "17 read name",
    ]);
    const text = renderText("find_references", p);
    assert.match(
      text,
      /^methodNotAllowed: no definition has this name \(by case: Mux\.MethodNotAllowed method ctx\.go:9-10\); 2 uses of the name as written, by name only, in 1 file$/m,
    );
    assert.match(text, /^ {2}13 write in find: rctx\.methodNotAllowed = true$/m);

    // The method's own name is the method's references, as before.
    const method = await callTool(ex, "find_references", { symbol_name: "MethodNotAllowed" });
    assert.equal(method.symbol, "Mux.MethodNotAllowed");
    // A name nothing uses or defines is still not found.
    const none = await ex.execute({
      tool_name: "find_references",
      arguments: { symbol_name: "nothingHere" },
    });
    assert.equal(none.success, false);
  });
});
