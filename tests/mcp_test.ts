/**
 * The MCP server, tested with the official SDK client: over stdio against
 * `deno run -A cli.ts mcp` (list every tool, call every tool, valid and invalid), and over
 * Streamable HTTP against `cli.ts mcp --http` (plus its Origin/Host rules).
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TOOL_NAMES } from "../src/tools/registry.ts";
import {
  CLI,
  fixtureCopy,
  http,
  rawHttp,
  rawStatus,
  REPO,
  SECRET_MARKER,
  startCli,
} from "./surfaces_helpers.ts";

/** Valid arguments for every tool. */
const VALID_ARGS: Record<string, Record<string, unknown>> = {
  semantic_search: { query: "greet a user", top_k: 3 },
  explain_symbol: { symbol_name: "Greeter" },
  explain_file: { file_path: "app/main.py" },
  summarize_repo: {},
  find_references: { symbol_name: "slugify" },
  get_dependencies: { file_path: "app/main.py" },
  get_call_graph: { symbol_name: "main" },
  get_context: { symbol_name: "main", max_tokens: 400 },
  validate_code: { code: "def f(:\n  pass\n", language: "python" },
  analyze_quality: {},
  search_symbols: { query: "Greeter" },
  index_project: {},
  ask: { question: "where is the config parsed?" },
};

// The SDK's result types come out as `any` under Deno (its zod-derived types do not
// resolve), so the tests state the shapes they read.

/** A tool as tools/list shows it. */
interface ListedTool {
  name: string;
  description?: string;
  inputSchema: { type: string; required?: string[] };
  outputSchema?: { type: string };
  annotations?: { readOnlyHint?: boolean };
}

/** A tools/call result. */
interface CallToolResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The text of a tool result's first content block. */
function textOf(r: CallToolResult): string {
  const first = r.content[0];
  return first?.type === "text" ? first.text ?? "" : "";
}

/** Structured content as a record (fails when absent). */
function structured(r: CallToolResult): Record<string, unknown> {
  assert.ok(r.structuredContent, `no structuredContent: ${textOf(r)}`);
  return r.structuredContent;
}

function call(client: Client, name: string, args: Record<string, unknown>) {
  return client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

Deno.test({
  name: "mcp over stdio: 13 tools with schemas; real tools, stubs and invalid calls",
  // The SDK spawns the server with node:child_process, whose handles outlive a step.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const fx = await fixtureCopy();
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", CLI, "mcp", "--path", fx.root, "--index-dir", fx.indexDir],
      cwd: REPO,
      env: Deno.env.toObject(),
      stderr: "pipe",
    });
    let log = "";
    transport.stderr?.on("data", (chunk: Uint8Array) => (log += new TextDecoder().decode(chunk)));
    const client = new Client({ name: "codectx-test", version: "1.0.0" });
    const texts: string[] = [];
    try {
      await client.connect(transport);
      assert.equal(client.getServerVersion()?.name, "codectx");
      assert.ok(client.getServerCapabilities()?.tools);

      await t.step("tools/list: all 13 tools with input and output schemas", async () => {
        const { tools } = (await client.listTools()) as { tools: ListedTool[] };
        assert.deepEqual(tools.map((x) => x.name), [...TOOL_NAMES]);
        for (const tool of tools) {
          assert.equal(tool.inputSchema.type, "object", tool.name);
          assert.equal(tool.outputSchema?.type, "object", tool.name);
          assert.ok((tool.description ?? "").length > 10, tool.name);
          assert.equal(tool.annotations?.readOnlyHint, true);
        }
        const explain = tools.find((x) => x.name === "explain_file");
        assert.deepEqual(explain?.inputSchema.required, ["file_path"]);
      });

      await t.step("explain_file answers structuredContent and its JSON text", async () => {
        const r = await call(client, "explain_file", { file_path: "app/main.py" });
        assert.notEqual(r.isError, true, textOf(r));
        const s = structured(r);
        assert.equal(s.file, "app/main.py");
        assert.equal(s.language, "python");
        const names = (s.symbols as Array<{ name: string }>).map((x) => x.name);
        assert.ok(names.includes("Greeter") && names.includes("main"));
        assert.deepEqual(JSON.parse(textOf(r)), s);
        texts.push(textOf(r));
      });

      await t.step("search_symbols and index_project", async () => {
        const r = await call(client, "search_symbols", { query: "Vector", kind: "struct" });
        const s = structured(r);
        const first = (s.symbols as Array<{ name: string; file: string }>)[0];
        assert.equal(first.name, "Vector");
        assert.equal(first.file, "pkg/mathx/mathx.go");
        const idx = structured(await call(client, "index_project", {}));
        assert.ok(Number(idx.files) >= 9);
        assert.equal(idx.state, "ready");
      });

      await t.step(
        "every tool with valid arguments: a result, or 'not implemented yet'",
        async () => {
          for (const name of TOOL_NAMES) {
            const r = await call(client, name, VALID_ARGS[name]);
            texts.push(textOf(r));
            if (r.isError) {
              assert.match(textOf(r), /not implemented yet/, `${name}: ${textOf(r)}`);
              assert.equal(r.structuredContent, undefined);
            } else {
              assert.equal(typeof structured(r), "object", name);
            }
          }
        },
      );

      await t.step("invalid calls are tool errors with the message, never a crash", async () => {
        const cases: Array<[string, Record<string, unknown>, RegExp]> = [
          ["explain_file", { file_path: 5 }, /file_path/],
          ["explain_file", {}, /file_path/],
          ["search_symbols", { query: "x", limit: 0 }, /limit/],
          ["search_symbols", { query: "x", nonsense: true }, /unknown argument 'nonsense'/],
          ["explain_file", { file_path: "app/nope.py" }, /not in the index/],
          ["explain_file", { file_path: "../../etc/passwd" }, /outside the project root/],
          ["explain_file", { file_path: fx.secretFile }, /outside the project root/],
          ["explain_file", { file_path: "app/escape.py" }, /outside the project root/],
        ];
        for (const [name, args, message] of cases) {
          const r = await call(client, name, args);
          texts.push(textOf(r));
          assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
          assert.match(textOf(r), message);
        }
        await assert.rejects(call(client, "no_such_tool", {}), /unknown tool 'no_such_tool'/);
        const after = await call(client, "explain_file", { file_path: "web/types.ts" });
        assert.equal(structured(after).file, "web/types.ts");
      });

      await t.step("no answer carried a byte of a file outside the root", () => {
        for (const text of texts) {
          assert.ok(!text.includes(SECRET_MARKER) && !text.includes("root:x:0:0"), text);
        }
      });
    } catch (err) {
      console.error(log);
      throw err;
    } finally {
      await client.close();
      await fx.cleanup();
    }
  },
});

Deno.test({
  name: "mcp over Streamable HTTP: tools via the SDK client; Origin and Host rules",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const fx = await fixtureCopy();
    const srv = await startCli("mcp", [
      "--http",
      "--port",
      "0",
      "--path",
      fx.root,
      "--index-dir",
      fx.indexDir,
      "--no-watch",
    ]);
    const client = new Client({ name: "codectx-test", version: "1.0.0" });
    try {
      await t.step("the SDK client lists and calls tools", async () => {
        await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)));
        const { tools } = (await client.listTools()) as { tools: ListedTool[] };
        assert.equal(tools.length, 13);
        const r = await call(client, "explain_file", { file_path: "web/server.ts" });
        assert.equal(structured(r).file, "web/server.ts");
        const bad = await call(client, "explain_file", { file_path: "/etc/passwd" });
        assert.equal(bad.isError, true);
        assert.ok(!textOf(bad).includes("root:x:0:0"));
        const stub = await call(client, "get_call_graph", { symbol_name: "main" });
        if (stub.isError) assert.match(textOf(stub), /not implemented yet/);
      });

      await t.step("a foreign Origin or Host is refused with 403; GET is 405", async () => {
        const init = {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "raw", version: "1" },
          },
        };
        const evil = await http(`${srv.url}/mcp`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            Origin: "https://evil.example",
          },
          body: JSON.stringify(init),
        });
        assert.equal(evil.status, 403);
        assert.equal(evil.headers.get("access-control-allow-origin"), null);
        const body = JSON.stringify(init);
        const host = await rawHttp(
          srv.port,
          "GET /mcp HTTP/1.1\nHost: evil.example\nConnection: close",
        );
        assert.equal(rawStatus(host), 403);
        const allowed = await http(`${srv.url}/mcp`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            Origin: "vscode-webview://abc",
          },
          body,
        });
        assert.equal(allowed.status, 200, allowed.text);
        assert.equal(allowed.headers.get("access-control-allow-origin"), "vscode-webview://abc");
        assert.equal((await http(`${srv.url}/mcp`)).status, 405);
        const big = await http(`${srv.url}/mcp`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ ...init, pad: "x".repeat(1_100_000) }),
        });
        assert.equal(big.status, 413);
        const after = await call(client, "search_symbols", { query: "Router" });
        assert.equal((structured(after).symbols as Array<{ name: string }>)[0].name, "Router");
      });
    } finally {
      await client.close().catch(() => {});
      await srv.stop();
      await fx.cleanup();
    }
  },
});
