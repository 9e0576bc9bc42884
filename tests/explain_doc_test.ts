/**
 * `explain` texts show a long doc to the end of its first paragraph and say how much is left
 * and where; the JSON keeps all of it. Printed whole, a 134-line JSDoc was the costliest read of
 * an assistant's run on rxjs (issue 35). On a small TypeScript project, through the executor,
 * the CLI printer and the MCP Markdown.
 */

import assert from "node:assert/strict";
import { print } from "../src/tools/explain_symbol/cli.ts";
import { render } from "../src/tools/explain_symbol/render.ts";
import type { ExplainSymbolPayload } from "../src/tools/explain_symbol/schema.ts";
import { callTool, withExecutor } from "./helpers.ts";

const LONG_DOC = [
  "/**",
  " * Starts the engine and returns its handle.",
  " *",
  ...Array.from({ length: 20 }, (_, i) => ` * Detail ${i + 1} of how the engine starts.`),
  " */",
].join("\n");

const FILES = {
  "src/engine.ts": `${LONG_DOC}
export function start(): number {
  return 1;
}

/** Stops the engine. */
export function stop(): void {}
`,
};

Deno.test("explain: a long doc shown to its first paragraph, the rest counted", async () => {
  await withExecutor(FILES, async (ex) => {
    await callTool(ex, "index_project", {});
    const p = await callTool(ex, "explain_symbol", {
      symbol_name: "start",
    }) as unknown as ExplainSymbolPayload;
    assert.match(p.doc, /Detail 20 of how the engine starts/, "the JSON keeps the whole doc");
    const cli = print(p).out.join("\n");
    const md = render(p);
    for (const [surface, text] of [["cli", cli], ["mcp", md]]) {
      assert.match(text, /Starts the engine and returns its handle\./, surface);
      assert.doesNotMatch(text, /Detail 1 of/, surface);
      assert.match(text, /\(21 more lines of doc at src\/engine\.ts:\d+\)/, surface);
    }
    // A short doc is shown whole, with nothing added.
    const short = await callTool(ex, "explain_symbol", {
      symbol_name: "stop",
    }) as unknown as ExplainSymbolPayload;
    const shortText = print(short).out.join("\n");
    assert.match(shortText, /Stops the engine\./);
    assert.doesNotMatch(shortText, /more lines of doc/);
  });
});
