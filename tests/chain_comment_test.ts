/**
 * A comment between two steps of a call chain does not cut the chain: fd's `build_walker`
 * calls `walker.hidden(…)…// a comment\n.max_depth(…)` on the `ignore` crate's WalkBuilder,
 * and `max_depth` was listed as the project's `Opts.max_depth` ("by name only") because the
 * receiver, read through the comment, was no chain at all.
 */

import assert from "node:assert/strict";
import { callTool, type Payload, refLines, withExecutor } from "./helpers.ts";

Deno.test("a call after a comment in a builder chain stays on the chain's type", async () => {
  await withExecutor({
    "Cargo.toml": '[package]\nname = "finder"\nversion = "0.1.0"\n',
    "src/cli.rs": "pub struct Opts {\n    depth: usize,\n}\n\nimpl Opts {\n" +
      "    pub fn max_depth(&self) -> usize {\n        self.depth\n    }\n}\n",
    "src/walk.rs": [
      "use ignore::WalkBuilder;",
      "",
      "pub fn scan(p: &str, d: usize) {",
      "    let mut walker = WalkBuilder::new(p);",
      "    walker",
      "        .hidden(true)",
      "        // No need to check for supported platforms",
      "        .same_file_system(true)",
      "        /* the limit */",
      "        .max_depth(d);",
      "}",
      "",
    ].join("\n"),
    "src/lib.rs": "pub mod cli;\npub mod walk;\n",
  }, async (ex) => {
    const graph = await callTool(ex, "get_call_graph", { symbol_name: "scan" });
    const maxDepth = (graph.callees as Payload[]).filter((c) =>
      String(c.name).endsWith("max_depth")
    );
    assert.ok(maxDepth.length > 0, JSON.stringify(graph.callees));
    assert.ok(maxDepth.every((c) => c.external === true && !c.file), JSON.stringify(maxDepth));
    const refs = await refLines(ex, "Opts.max_depth");
    assert.ok(!refs.some((l) => l.startsWith("src/walk.rs")), refs.join("\n"));
  });
});
