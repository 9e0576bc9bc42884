/**
 * A JSON value nested 100,000 levels deep (JSON.parse reads it; what walks it recursively
 * next overflows the stack) is a 400 naming the argument on every surface: the bridge's
 * `/tools/invoke` and `/request`, the REST API's POST bodies, MCP over HTTP and over stdio.
 */

import assert from "node:assert/strict";
import { tooDeepAt } from "../src/util/json_depth.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";
import { MCP_INITIALIZE, poll, startCli, startMcpStdio } from "./surfaces_helpers.ts";

/** `[[[…]]]`, `n` levels. */
const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
const DEEP = nested(100_000);

Deno.test("tooDeepAt finds the path to the first value past the limit, without recursion", () => {
  assert.deepEqual(tooDeepAt({ query: [[["x"]]] }, 2), ["query", 0, 0]);
  assert.equal(tooDeepAt({ query: [[["x"]]] }, 3), null);
  assert.deepEqual(tooDeepAt({ a: 1, b: { c: [1, { d: {} }] } }, 3), ["b", "c", 1, "d"]);
  assert.deepEqual(tooDeepAt(JSON.parse(DEEP), 64)?.length, 65);
});

/** POSTs raw JSON text and returns status and parsed body. */
async function postText(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body,
  });
  return { status: res.status, json: await res.json() };
}

/** A project with one Python file, and a folder for its index. */
async function project() {
  const root = await makeProject({ "a.py": "def alpha():\n    return 1\n" });
  return { root, indexDir: await tempIndexDir() };
}

Deno.test("bridge and REST: an argument nested 100,000 deep is a 400 that names it, not a 500", async () => {
  const { root, indexDir } = await project();
  const common = ["--path", root, "--index-dir", indexDir, "--port", "0", "--no-watch"];
  const bridge = await startCli("serve", common);
  const web = await startCli("web", common);
  try {
    const invoke = await postText(
      `${bridge.url}/tools/invoke`,
      `{"tool_name":"semantic_search","arguments":{"query":${DEEP}}}`,
    );
    assert.equal(invoke.status, 400, JSON.stringify(invoke.json));
    assert.equal(invoke.json.error_code, "invalid_argument");
    assert.match(
      invoke.json.error,
      /arguments is nested more than 64 levels deep \(at arguments\.query\[0\]/,
    );

    for (
      const body of [
        `{"kind":"semantic_search","params":{"query":${DEEP}}}`,
        `{"kind":"invoke_tool","params":{"tool_name":"semantic_search","arguments":{"query":${DEEP}}}}`,
      ]
    ) {
      const r = await postText(`${bridge.url}/request`, body);
      assert.equal(r.status, 400, JSON.stringify(r.json));
      assert.equal(r.json.error_code, "invalid_argument");
      assert.match(r.json.error, /params is nested more than 64 levels deep \(at params\./);
    }

    const ask = await postText(`${web.url}/api/ask`, `{"question":"alpha","top_k":${DEEP}}`);
    assert.equal(ask.status, 400, JSON.stringify(ask.json));
    assert.match(ask.json.error.message, /top_k is nested more than 64 levels deep/);
    const analyze = await postText(`${web.url}/api/analyze`, `{"code":"x = 1","mode":${DEEP}}`);
    assert.equal(analyze.status, 400, JSON.stringify(analyze.json));
    assert.match(analyze.json.error.message, /mode is nested more than 64 levels deep/);

    // The servers go on, and an ordinary nesting is still taken.
    const ok = await postText(
      `${bridge.url}/tools/invoke`,
      `{"tool_name":"search_symbols","arguments":{"query":"alpha"}}`,
    );
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
  } finally {
    await bridge.stop();
    await web.stop();
    await cleanup(root, indexDir);
  }
});

Deno.test("MCP over HTTP: a tools/call argument nested 100,000 deep is a tool error naming it", async () => {
  const { root, indexDir } = await project();
  const mcp = await startCli("mcp", [
    "--http",
    ...["--path", root, "--index-dir", indexDir, "--port", "0", "--no-watch"],
  ]);
  try {
    const r = await postText(
      `${mcp.url}/mcp`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"semantic_search","arguments":{"query":${DEEP}}}}`,
      { Accept: "application/json, text/event-stream" },
    );
    assert.equal(r.status, 200);
    assert.equal(r.json.result.isError, true, JSON.stringify(r.json));
    assert.match(
      r.json.result.content[0].text,
      /^invalid arguments for semantic_search: query is nested more than 64 levels deep/,
    );
  } finally {
    await mcp.stop();
    await cleanup(root, indexDir);
  }
});

Deno.test("MCP stdio: a tools/call argument nested 100,000 deep is a tool error naming it; the session goes on", async () => {
  const { root, indexDir } = await project();
  const mcp = startMcpStdio(root, indexDir);
  const send = mcp.send;
  try {
    await send(JSON.stringify(MCP_INITIALIZE));
    await send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    await send(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_symbols","arguments":{"query":${DEEP}}}}`,
    );
    await send('{"jsonrpc":"2.0","id":3,"method":"ping"}');
    const answers = await poll("three answers", () => {
      const parsed = mcp.lines.map((l) => JSON.parse(l));
      return Promise.resolve(parsed.length >= 3 ? parsed : null);
    });
    const deep = answers.find((a) => a.id === 2);
    assert.equal(deep.result.isError, true, JSON.stringify(deep));
    assert.match(
      deep.result.content[0].text,
      /^invalid arguments for search_symbols: query is nested more than 64 levels deep \(at query\[0\]\[0\]\[0\]…\)/,
    );
    assert.deepEqual(answers.find((a) => a.id === 3)?.result, {});
  } finally {
    await mcp.close();
    await cleanup(root, indexDir);
  }
});
