/**
 * A regular expression that backtracks stops at the call's time limit, and the server answers
 * everything else meanwhile — on the bridge and over MCP stdio (issue 31). The pattern
 * `(\w+\s*)+\(` over a line of 60 word characters with no `(` after them tries every way of
 * cutting the run into words: 2^60 steps, years on the main thread, where it used to run.
 * Nothing here is timed: the order of answers is what is checked.
 */

import assert from "node:assert/strict";
import { connectMcp, http, poll, post, startCli } from "./surfaces_helpers.ts";
import { callTool, cleanup, makeProject, tempIndexDir, withExecutor } from "./helpers.ts";

const BACKTRACKS = "(\\w+\\s*)+\\(";

async function project(): Promise<string> {
  return await makeProject({
    "app/long.py": `def build(items):\n    name = "${"a".repeat(60)}"\n    return name\n`,
    "app/calls.py": "def run():\n    return build([1, 2])\n# TODO: retry\n",
  });
}

Deno.test("regex: a backtracking pattern is stopped at the limit; the bridge answers meanwhile", async () => {
  const root = await project();
  const indexDir = await tempIndexDir();
  const child = await startCli("serve", [
    "--path",
    root,
    "--index-dir",
    indexDir,
    "--port",
    "0",
    "--no-watch",
    "--timeout",
    "4",
  ], { CODECTX_EMBEDDER: "none" });
  try {
    await poll("the index", async () => (await http(`${child.url}/health`)).json.index);
    await poll("ready", async () => {
      const h = await http(`${child.url}/health`);
      return (h.json.index as { state?: string })?.state === "ready";
    });
    const order: string[] = [];
    const slow = post(`${child.url}/tools/invoke`, {
      tool_name: "semantic_search",
      arguments: { query: BACKTRACKS, mode: "regex" },
    }).then((r) => {
      order.push("regex");
      return r;
    });
    // While the scan runs, /health and another tool answer.
    const health = await http(`${child.url}/health`);
    order.push("health");
    assert.equal(health.status, 200);
    const symbols = await post(`${child.url}/tools/invoke`, {
      tool_name: "search_symbols",
      arguments: { query: "build" },
    });
    order.push("search_symbols");
    assert.equal(symbols.json.success, true);
    const r = await slow;
    assert.deepEqual(order, ["health", "search_symbols", "regex"]);
    assert.equal(r.status, 504); // the bridge's status for a call past its limit
    assert.equal(r.json.success, false);
    assert.equal(r.json.error_code, "timeout");
    assert.match(String(r.json.error), /nested repeat/);
    assert.match(String(r.json.error), /of 2 files searched/);
    // The scan worker takes the next pattern at once.
    const ok = await post(`${child.url}/tools/invoke`, {
      tool_name: "semantic_search",
      arguments: { query: "todo:?\\s+retry", mode: "regex" },
    });
    assert.equal(ok.json.success, true, JSON.stringify(ok.json));
    const hits = (ok.json.result_payload as { snippets: { file: string; line: number }[] })
      .snippets;
    assert.deepEqual(hits.map((h) => `${h.file}:${h.line}`), ["app/calls.py:3"]);
  } finally {
    await child.stop();
    await cleanup(root, indexDir);
  }
});

Deno.test("regex: over MCP stdio, ping answers while a backtracking pattern runs", async () => {
  const root = await project();
  const indexDir = await tempIndexDir();
  const { client, log } = await connectMcp(root, indexDir, ["--timeout", "4"]).catch(
    async (err) => {
      await cleanup(root, indexDir);
      throw err;
    },
  );
  try {
    const order: string[] = [];
    const slow = (async () => {
      const r = await client.callTool(
        {
          name: "semantic_search",
          arguments: { query: BACKTRACKS, mode: "regex" },
        },
        undefined,
        { timeout: 120_000 },
      );
      order.push("regex");
      return r;
    })();
    await client.ping();
    order.push("ping");
    await client.listTools();
    order.push("tools/list");
    const r = await slow;
    assert.deepEqual(order, ["ping", "tools/list", "regex"], log());
    assert.equal(r.isError, true);
    const text = (r.content as { type: string; text: string }[])[0].text;
    assert.match(text, /nested repeat/);
  } finally {
    await client.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("regex: hits over a many-chunk file match a line-by-line scan of the file", async () => {
  // 60 functions with non-ASCII text between them: the file is cut into many chunks, read as
  // bytes from the index's text file and decoded on the scan worker.
  const lines: string[] = [];
  for (let i = 0; i < 60; i++) {
    lines.push(`def größe_${i}(wert):`, `    """Größe ${i} — ünïcode"""`);
    lines.push(`    return wert * ${i}  # ${i % 7 === 0 ? "TODO: prüfen" : "ok"}`, "");
  }
  const text = lines.join("\n");
  await withExecutor({ "pkg/big.py": text }, async (ex) => {
    for (const query of ["return wert \\* \\d+", "todo: pr\\S+", "größe_\\d+\\("]) {
      const r = await callTool(ex, "semantic_search", { query, mode: "regex", top_k: 100 });
      const got = (r.snippets as { line: number; column: number; snippet: string }[])
        .map((s) => `${s.line}:${s.column} ${s.snippet}`);
      const re = new RegExp(query, "iu");
      const want = lines.flatMap((l, i) => {
        const m = re.exec(l);
        return m ? [`${i + 1}:${m.index + 1} ${l}`] : [];
      });
      assert.ok(want.length > 5, query);
      assert.deepEqual(got, want, query);
    }
  });
});
