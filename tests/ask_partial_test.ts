/**
 * `ask` says when its search had no vectors to use: an embedder that cannot be loaded leaves
 * the lexical side alone, and the answer says so above its sources (before, it answered as
 * if from the whole search; a server that has just started, still making its vectors, says
 * the same with how far it is). On a small project written here, through the executor.
 */

import assert from "node:assert/strict";
import { createExecutor } from "../src/tools/executor.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";

const PY = `def parse_config(path):
    """Read the settings file at path."""
    return open(path).read()
`;

Deno.test("ask: an answer made without the vectors says so", async () => {
  const root = await makeProject({ "app/config.py": PY });
  const indexDir = await tempIndexDir();
  const missing = `${indexDir}/no-such-model`;
  const run = async (embedder: string) => {
    const ex = await createExecutor(root, { indexDir, embedder, timeoutMs: 0 });
    try {
      await ex.execute({ tool_name: "index_project", arguments: {} });
      const r = await ex.execute({
        tool_name: "ask",
        arguments: { question: "where are the settings read?" },
      });
      assert.ok(r.success, r.error ?? "");
      return r.result_payload as { answer: string; warning?: string };
    } finally {
      await ex.close();
    }
  };
  try {
    // The embedder fails in the background: by the time the answer is made it has failed, or
    // is still starting; either way the answer says its vectors are missing.
    const failed = await run(`transformers:${missing}`);
    const said =
      /the vectors (could not be made \(.*no-such-model.*lexical search alone|were still being made( \(0 of \d+ chunks\))?, so the sources come mostly)/;
    assert.match(failed.warning ?? "", said);
    assert.match(failed.answer, new RegExp(`^> Note: ${said.source}`));
    assert.match(failed.answer, /parse_config/);
    // Lexical search by choice (no embedder): nothing to say.
    const lexical = await run("none");
    assert.equal(lexical.warning, undefined);
    assert.doesNotMatch(lexical.answer, /^> Note/);
  } finally {
    await cleanup(root, indexDir);
  }
});
