/**
 * A file's outline (explain_file's symbols, and the MCP text and web outline drawn from them):
 * each symbol followed by its members, even when the file defines something between a type
 * and its `impl` block. On a small project written here, through the tools.
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
