/**
 * A literal search that stops at its cap names where the next matches are, and lists the
 * project's own code before what it carries (vendored copies, generated files): containerd's
 * answerers (issue 35) found a setting's declarations and comments in the first ten matches and
 * asked again with a larger `top_k` for its call sites; `TaskExit`'s first ten were methods of
 * a generated `task.pb.go`.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { isCarried } from "../src/search/scope.ts";
import { callTool, withExecutor } from "./helpers.ts";

/** `n` lines that each hold `MaxDownloads`. */
const holding = (n: number, what: string) =>
  Array.from({ length: n }, (_, i) => `\t_ = ${what}${i} // MaxDownloads`).join("\n");

const FILES = {
  "a_config.go": `package main\n\nfunc config() {\n${holding(8, "a")}\n}\n`,
  "api/events/task.pb.go": `package events\n\nfunc gen() {\n${holding(3, "g")}\n}\n`,
  "vendor/x/lib/lib.go": `package lib\n\nfunc lib() {\n${holding(2, "v")}\n}\n`,
  "z_pull.go": `package main\n\nfunc pull() {\n${holding(4, "z")}\n}\n`,
};

Deno.test("exact search past its cap: the next matches' places, the project's code before vendored and generated files", async () => {
  await withExecutor(FILES, async (ex) => {
    const p = await callTool(ex, "semantic_search", { query: "MaxDownloads", mode: "exact" });
    const files = (p.snippets as { file: string }[]).map((h) => h.file);
    // Ten of the project's own lines, then z_pull.go's last two and the carried files' places.
    assert.deepEqual([...new Set(files)], ["a_config.go", "z_pull.go"]);
    assert.equal(p.capped, true);
    assert.deepEqual(p.more_matches, [
      "z_pull.go:6",
      "z_pull.go:7",
      "api/events/task.pb.go:4",
      "api/events/task.pb.go:5",
      "api/events/task.pb.go:6",
      "vendor/x/lib/lib.go:4",
      "vendor/x/lib/lib.go:5",
    ]);
    assert.match(
      renderText("semantic_search", p),
      /\(stopped at 10 matches; 7 more at z_pull\.go:6,7 api\/events\/task\.pb\.go:4,5,6 vendor\/x\/lib\/lib\.go:4,5: /,
    );
    // A search under its cap names nothing more.
    const all = await callTool(ex, "semantic_search", {
      query: "MaxDownloads",
      mode: "exact",
      top_k: 30,
    });
    assert.equal((all.snippets as unknown[]).length, 17);
    assert.equal(all.more_matches, undefined);
    assert.doesNotMatch(renderText("semantic_search", all), /stopped at/);
  });
});

Deno.test("carried code: vendored folders and generated files, not the project's own", () => {
  for (
    const p of [
      "vendor/a/b.go",
      "x/third_party/y.c",
      "node_modules/z/i.js",
      "api/t.pb.go",
      "m_pb2.py",
      "d/app.min.js",
      "pkg/zz_generated.deepcopy.go",
    ]
  ) {
    assert.equal(isCarried(p), true, p);
  }
  for (const p of ["vendors.go", "src/vendor_test_helpers.py", "pb.go", "app.js", "generated.md"]) {
    assert.equal(isCarried(p), false, p);
  }
});
