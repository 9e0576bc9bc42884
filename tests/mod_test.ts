/**
 * The in-process API (`mod.ts`): the same executor as every surface, on a fixture copy;
 * every tool through `createExecutor`, and the named functions.
 */

import assert from "node:assert/strict";
import {
  analyzeQuality,
  buildContext,
  CodectxError,
  createExecutor,
  getImpact,
  hybridSearch,
  indexProject,
  TOOL_NAMES,
} from "../mod.ts";
import { fixtureCopy, type JsonObject, TOOL_CASES } from "./surfaces_helpers.ts";

Deno.test("tool cases: one per tool folder; each check fails on an empty payload", () => {
  assert.deepEqual(Object.keys(TOOL_CASES), [...TOOL_NAMES]);
  for (const [name, c] of Object.entries(TOOL_CASES)) {
    assert.throws(() => c.check({}, name), Error, name);
    assert.throws(() => c.text("", {}), Error, name);
  }
});

Deno.test("mod.ts: createExecutor runs every tool, indexProject, hybridSearch, buildContext, analyzeQuality", async () => {
  const fx = await fixtureCopy();
  try {
    const opts = { indexDir: fx.indexDir };
    const r = await indexProject(fx.root, opts);
    assert.ok(r.files >= 9 && r.chunks > 0 && r.symbols >= 15, JSON.stringify(r));
    assert.equal(r.state, "ready");
    assert.equal((await indexProject(fx.root, opts)).changed, 0);

    const ex = await createExecutor(fx.root, opts);
    try {
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

      for (const name of TOOL_NAMES) {
        const r = await ex.execute({ tool_name: name, arguments: TOOL_CASES[name].args });
        assert.equal(r.success, true, `${name}: ${r.error}`);
        TOOL_CASES[name].check(r.result_payload as JsonObject, name);
      }

      // An open executor is used as is and stays open.
      const hits = await hybridSearch(ex, "greet the user", { top_k: 3 });
      assert.ok(
        hits.some((h) => h.file === "app/main.py" && h.symbol?.startsWith("Greeter") === true),
        "search",
      );
      const ctx = await buildContext(ex, "main", { max_tokens: 200 });
      assert.equal(ctx.symbol, "main");
      assert.match(ctx.text, /def main\(config_path: str\)/);
      assert.ok(ctx.sources.some((s) => s.file === "app/main.py" && s.line === 18), "context");
      const impact = await getImpact(ex, { symbols: ["slugify"], depth: 1 });
      assert.deepEqual(impact.impacted.map((x) => x.qualified_name), ["main"], "impact");
      const quality = await analyzeQuality(ex);
      assert.ok(quality.files.some((f) => f.file === "pkg/mathx/mathx.go"), "quality");
      assert.ok(quality.maintainability_index > 0);
      assert.equal(
        (await ex.execute({ tool_name: "search_symbols", arguments: { query: "User" } })).success,
        true,
      );
    } finally {
      ex.close();
    }

    const executor = await createExecutor(fx.root, opts);
    try {
      const again = await indexProject(executor);
      assert.equal(again.changed, 0);
      const after = await executor.execute({ tool_name: "index_project", arguments: {} });
      assert.equal(after.success, true, "an executor handed in stays open");
    } finally {
      await executor.close();
    }

    await assert.rejects(
      hybridSearch(fx.root, "x", { top_k: 1000, ...opts }),
      (err: unknown) => err instanceof CodectxError && err.code === "invalid_argument",
    );
  } finally {
    await fx.cleanup();
  }
});

Deno.test("mod.ts is publishable: every export documented, no slow types, a license", async () => {
  const root = new URL("..", import.meta.url).pathname;
  const run = async (args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: root,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
  };
  const doc = await run(["doc", "--lint", "mod.ts"]);
  assert.equal(doc.code, 0, doc.text);
  const publish = await run(["publish", "--dry-run", "--allow-dirty"]);
  assert.equal(publish.code, 0, publish.text);
  assert.match(publish.text, /Checking for slow types/);
  assert.doesNotMatch(publish.text, /error\[/);
});
