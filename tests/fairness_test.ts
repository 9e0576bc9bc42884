/**
 * Fair admission on a real server (issue 31): one client's flood of heavy calls — a JSON-RPC
 * batch of 100 over MCP HTTP — does not keep another client's light call, `ping` or
 * `tools/list` from being answered, and what cannot wait is refused at once with `busy` and a
 * retry instead of queueing without bound. The heavy calls are regex scans that backtrack
 * until the call's limit (`tests/regex_bounded_test.ts`), so none ends early. Nothing here is
 * timed: what is checked is that the light call was admitted (it answers, not `timeout`) and
 * the order of answers.
 */

import assert from "node:assert/strict";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";
import { http, post, startIndexed } from "./surfaces_helpers.ts";
import { TOOL_NAMES } from "../src/tools/registry.ts";

const BACKTRACKS = "(\\w+\\s*)+\\(";
const MCP_HEADERS = { Accept: "application/json, text/event-stream" };

interface RpcAnswer {
  id?: number;
  result?: { isError?: boolean; content?: Array<{ text?: string }>; tools?: unknown[] };
  error?: { message: string };
}

/**
 * Writes `body` as one POST on a connection of its own; resolves once it is written, with the
 * answer's text to come.
 */
async function rawPost(
  port: number,
  path: string,
  body: string,
): Promise<{ answer: Promise<string> }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const enc = new TextEncoder();
  const bytes = enc.encode(body);
  const head = enc.encode(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
      `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Content-Length: ${bytes.byteLength}\r\nConnection: close\r\n\r\n`,
  );
  const all = new Uint8Array(head.byteLength + bytes.byteLength);
  all.set(head);
  all.set(bytes, head.byteLength);
  for (let at = 0; at < all.byteLength;) at += await conn.write(all.subarray(at));
  const answer = (async () => {
    let text = "";
    const dec = new TextDecoder();
    for await (const c of conn.readable) text += dec.decode(c, { stream: true });
    return text;
  })();
  return { answer };
}

/** A JSON-RPC request to `/mcp` of `url`, answered as one JSON message. */
async function rpc(url: string, method: string, params?: unknown): Promise<RpcAnswer> {
  const r = await post(`${url}/mcp`, { jsonrpc: "2.0", id: 1, method, params }, MCP_HEADERS);
  return r.json as RpcAnswer;
}

Deno.test("MCP HTTP: a batch of 100 heavy calls leaves another client's light call, ping and tools/list admitted; the overflow is refused busy", async () => {
  const root = await makeProject({
    "app/long.py": `def build(items):\n    name = "${"a".repeat(60)}"\n    return name\n`,
    "app/calls.py": "def run():\n    return build([1, 2])\n",
  });
  const indexDir = await tempIndexDir();
  const child = await startIndexed(["mcp", "--http"], root, indexDir, ["--timeout", "8"]);
  try {
    const order: string[] = [];
    const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "semantic_search", arguments: { query: BACKTRACKS, mode: "regex" } },
    })));
    // The whole batch is on the server's socket before the other client connects, and the
    // server has turned its loop since (it answered /health).
    const flood = await rawPost(child.port, "/mcp", batch);
    const answered = flood.answer.then((text) => {
      order.push("batch");
      return text;
    });
    assert.equal((await http(`${child.url}/health`)).status, 200);

    const ping = await rpc(child.url, "ping");
    order.push("ping");
    assert.deepEqual(ping.result, {});
    const list = await rpc(child.url, "tools/list");
    order.push("tools/list");
    assert.equal(list.result?.tools?.length, TOOL_NAMES.length);
    const light = await rpc(child.url, "tools/call", {
      name: "search_symbols",
      arguments: { query: "build" },
    });
    order.push("search_symbols");
    // Admitted and answered: before, it waited behind the batch's 100 calls, 4 started a
    // second, and ran out of its 8 s.
    assert.equal(light.result?.isError, undefined, JSON.stringify(light));
    assert.match(light.result?.content?.[0]?.text ?? "", /build/);

    const text = await answered;
    assert.deepEqual(order, ["ping", "tools/list", "search_symbols", "batch"]);
    const answers = JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as RpcAnswer[];
    assert.equal(answers.length, 100);
    const busy = answers.filter((a) =>
      a.result?.isError && /busy: .*retry/.test(a.result.content?.[0]?.text ?? "")
    );
    // One client's queue is bounded: what it cannot hold is refused at once, saying to retry.
    assert.ok(busy.length > 0 && busy.length < 100, `${busy.length} of 100 refused busy`);
    const timedOut = answers.filter((a) =>
      a.result?.isError && /longer than|time limit|timeout/i.test(a.result.content?.[0]?.text ?? "")
    );
    assert.equal(busy.length + timedOut.length, 100, text.slice(0, 2000));
  } finally {
    await child.stop();
    await cleanup(root, indexDir);
  }
});
