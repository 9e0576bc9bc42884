/**
 * The in-process API (`mod.ts`): the same executor as every surface, on a fixture copy.
 */

import assert from "node:assert/strict";
import {
  analyzeQuality,
  buildContext,
  CodectxError,
  createExecutor,
  hybridSearch,
  indexProject,
  Project,
  TOOL_NAMES,
} from "../mod.ts";
import { fixtureCopy } from "./surfaces_helpers.ts";

Deno.test("mod.ts: createExecutor, indexProject, and the functions of tools still to land", async () => {
  const fx = await fixtureCopy();
  try {
    const opts = { indexDir: fx.indexDir };
    const r = await indexProject(fx.root, opts);
    assert.ok(r.files >= 9 && r.chunks > 0 && r.symbols >= 15, JSON.stringify(r));
    assert.equal(r.state, "ready");
    assert.equal((await indexProject(fx.root, opts)).changed, 0);

    const ex = await createExecutor(fx.root, opts);
    try {
      assert.equal(TOOL_NAMES.length, 13);
      const call = await ex.execute({
        tool_name: "explain_file",
        arguments: { file_path: "pkg/mathx/mathx.go" },
      });
      assert.equal(call.success, true);
      assert.equal(typeof call.execution_time_ms, "number");
      assert.equal(call.result_payload.language, "go");
      const bad = await ex.execute({
        tool_name: "explain_file",
        arguments: { file_path: "../../etc/passwd" },
      });
      assert.equal(bad.success, false);
      assert.match(bad.error ?? "", /outside the project root/);

      // An open executor (or project) is used as is and stays open.
      for (
        const [name, run] of [
          ["hybridSearch", () => hybridSearch(ex, "greet the user", { top_k: 3 })],
          ["buildContext", () => buildContext(ex, "main", { max_tokens: 200 })],
          ["analyzeQuality", () => analyzeQuality(ex)],
        ] as const
      ) {
        try {
          const out = await run();
          assert.equal(typeof out, "object", name);
        } catch (err) {
          assert.ok(err instanceof CodectxError, name);
          assert.equal(err.code, "not_implemented", name);
          assert.match(err.message, /not implemented yet/);
        }
      }
      assert.equal(
        (await ex.execute({ tool_name: "search_symbols", arguments: { query: "User" } })).success,
        true,
      );
    } finally {
      ex.close();
    }

    const project = await Project.open(fx.root, opts);
    try {
      const again = await indexProject(project);
      assert.equal(again.changed, 0);
      assert.equal(await project.state(), "ready", "a project handed in stays open");
    } finally {
      project.close();
    }

    await assert.rejects(
      hybridSearch(fx.root, "x", { top_k: 1000, ...opts }),
      (err: unknown) => err instanceof CodectxError && err.code === "invalid_argument",
    );
  } finally {
    await fx.cleanup();
  }
});
