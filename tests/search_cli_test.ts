/**
 * `codectx search` and the vectors: a search whose vectors are all stored says nothing about
 * computing them (issue 14: no "computing vectors…" line when vectors are complete).
 *
 * @module
 */

import assert from "node:assert/strict";
import { cleanup, makeProject, runCli, tempIndexDir } from "./helpers.ts";

const FILES: Record<string, string> = {
  "src/config.ts": `export function parseConfig(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\\n")) {
    const [key, value] = line.split("=");
    if (key && value) out[key.trim()] = value.trim();
  }
  return out;
}
`,
};

Deno.test("cli: codectx search on stored vectors prints no vectors line, only results", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const base = ["--path", root, "--index-dir", indexDir, "--embedder", "codectx-code"];
    // The first run indexes and computes the vectors (it waits for them).
    const first = await runCli(["search", "retry with backoff", "--json", ...base]);
    assert.equal(first.code, 0, first.stderr);
    const firstOut = JSON.parse(first.stdout);
    assert.equal(firstOut.vectors.state, "complete");
    assert.equal(firstOut.mode, "hybrid");
    // The second finds every vector stored: a hybrid answer, nothing on stderr about vectors.
    for (const json of [true, false]) {
      const again = await runCli(["search", "parse config", ...(json ? ["--json"] : []), ...base]);
      assert.equal(again.code, 0, again.stderr);
      assert.doesNotMatch(again.stderr, /computing vectors/);
      assert.doesNotMatch(again.stderr, /vectors \d+\/\d+/);
      assert.doesNotMatch(again.stderr, /partly lexical/);
      if (json) {
        const out = JSON.parse(again.stdout);
        assert.equal(out.vectors.state, "complete");
        assert.equal(out.snippets[0].symbol, "parseConfig");
      } else assert.match(again.stdout, /src\/config\.ts:1 parseConfig \(function 1-8\)/);
    }
  } finally {
    await cleanup(root, indexDir);
  }
});
