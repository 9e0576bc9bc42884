/**
 * Request tracing (`$CODECTX_TRACE_STAGES`, `src/util/request_trace.ts`): a bridge started
 * with it writes one line per request with its stages in the order a request passes them,
 * named by the caller's request id; searches handed to a search worker carry the worker's
 * stamps between the hand-over and the reply.
 */

import assert from "node:assert/strict";
import { fixtureCopy, obj, poll, post, startCli } from "./surfaces_helpers.ts";

Deno.test("request tracing: each traced search's stages, in order, under its request id", async () => {
  const fx = await fixtureCopy();
  const file = await Deno.makeTempFile({ prefix: "codectx-stages-test-" });
  const srv = await startCli("serve", [
    "--port",
    "0",
    "--path",
    fx.root,
    "--index-dir",
    fx.indexDir,
    "--no-watch",
  ], { CODECTX_TRACE_STAGES: file });
  const search = (id: string, query: string) =>
    post(`${srv.url}/request`, {
      request_id: id,
      kind: "invoke_tool",
      params: { tool_name: "semantic_search", arguments: { query } },
    });
  try {
    await poll("the index", async () => {
      const h = await (await fetch(`${srv.url}/health`)).json();
      return obj(h.index).state === "ready";
    });
    const one = await search("trace-alone", "load the config");
    assert.equal(one.status, 200, one.text);
    // Several at once: some may be handed to a search worker.
    const many = await Promise.all(
      ["parse args", "read file", "format date", "main entry", "helper util", "user name"]
        .map((q, i) => search(`trace-${i}`, q)),
    );
    for (const a of many) assert.equal(a.status, 200, a.text);
  } finally {
    await srv.stop();
  }
  try {
    const traces = (await Deno.readTextFile(file)).split("\n").filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, number | string>);
    const ids = new Set(traces.map((t) => t.id));
    for (const id of ["trace-alone", ...Array.from({ length: 6 }, (_, i) => `trace-${i}`)]) {
      assert.ok(ids.has(id), `no trace for ${id}: ${JSON.stringify(traces)}`);
    }
    for (const t of traces.filter((t) => String(t.id).startsWith("trace-"))) {
      const order = ["parsed", "read", "queued", "admitted", "executed", "written"];
      for (let i = 1; i < order.length; i++) {
        assert.equal(typeof t[order[i]], "number", `${order[i]} missing: ${JSON.stringify(t)}`);
        assert.ok(t[order[i - 1]] <= t[order[i]], `${order[i - 1]} after ${order[i]}`);
      }
      if (t.posted !== undefined) {
        const worker = ["admitted", "posted", "scoring", "scored", "replied", "executed"];
        for (let i = 1; i < worker.length; i++) {
          assert.ok(t[worker[i - 1]] <= t[worker[i]], `${worker[i - 1]} after ${worker[i]}`);
        }
      }
    }
  } finally {
    await Deno.remove(file).catch(() => {});
    await fx.cleanup();
  }
});
