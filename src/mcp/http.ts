/**
 * MCP over Streamable HTTP (`codectx mcp --http`): stateless — every POST to `/mcp` gets a
 * fresh server and transport over the shared executor — behind the same Host, Origin,
 * token and body rules as the bridge; `GET /health` answers the server and index state.
 *
 * @module
 */

import { WebStandardStreamableHTTPServerTransport } from "npm:/@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js";
import { Hono } from "npm:hono@4.12.7";
import { healthBody } from "../http/health.ts";
import { clientOf } from "../http/listener.ts";
import { jsonResponse } from "../http/respond.ts";
import { type ErrorRenderer, safety, type SafetyOptions } from "../http/safety.ts";
import type { Executor } from "../tools/executor.ts";
import { createMcpServer } from "./server.ts";
import type { McpServer } from "npm:/@modelcontextprotocol/sdk@1.32.2/server/mcp.js";

/** The path MCP is served on. */
export const MCP_PATH = "/mcp";

/** MCP servers kept for the next requests (as many as requests usually run at once). */
const MAX_IDLE_SERVERS = 8;

/** JSON-RPC error bodies, as MCP clients expect them from the transport. */
const renderJsonRpcError: ErrorRenderer = (_c, status, _code, message) =>
  jsonResponse({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, status);

/** Options of {@linkcode createMcpHttpApp}. */
export interface McpHttpOptions {
  executor: Executor;
  safety: SafetyOptions;
}

/**
 * The Streamable HTTP app.
 *
 * @example
 * ```ts
 * import { createExecutor } from "../tools/executor.ts";
 * const executor = await createExecutor("./repo");
 * const app = createMcpHttpApp({ executor, safety: { hostname: "127.0.0.1", port: () => 24844 } });
 * Deno.serve({ hostname: "127.0.0.1", port: 24844 }, app.fetch);
 * ```
 */
export function createMcpHttpApp(opts: McpHttpOptions): Hono {
  const app = new Hono();
  app.use(
    safety({
      ...opts.safety,
      allowHeaders: [
        "Content-Type",
        "Authorization",
        "Accept",
        "Last-Event-ID",
        "Mcp-Session-Id",
        "Mcp-Protocol-Version",
      ],
      exposeHeaders: ["Mcp-Session-Id", "Mcp-Protocol-Version"],
    }, renderJsonRpcError),
  );
  // Servers not answering a request now. Building one registers the tools (1–2 ms of the
  // main thread's CPU per request); each answers one request at a time over that request's
  // transport and is kept for a later one (stateless: a handler still running answers on its
  // own, closed transport). Its calls are the client's of the request it answers: the calls
  // of a batch wait in one queue, and other connections' calls take turns with them.
  const idle: Array<{ server: McpServer; asking: { client?: string } }> = [];
  const make = () => {
    const asking: { client?: string } = {};
    return { server: createMcpServer(opts.executor, "mcp-http", () => asking.client), asking };
  };
  app.post(MCP_PATH, async (c) => {
    const entry = idle.pop() ?? make();
    const { server } = entry;
    entry.asking.client = clientOf(c.req.raw);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: opts.safety.maxBody ?? 1_048_576,
    });
    let answered = false;
    try {
      await server.connect(transport);
      const res = await transport.handleRequest(c.req.raw);
      answered = true;
      return res;
    } finally {
      await transport.close().catch(() => {});
      if (answered && !server.isConnected() && idle.length < MAX_IDLE_SERVERS) idle.push(entry);
      else await server.close().catch(() => {});
    }
  });
  // Liveness for scripts and monitors, as the bridge and the REST API answer it.
  app.get("/health", async () => jsonResponse(await healthBody(opts.executor)));
  // Stateless: no standalone event stream and no sessions to end.
  app.on(["GET", "DELETE"], MCP_PATH, (c) => {
    const res = renderJsonRpcError(
      c,
      405,
      "invalid_argument",
      "this MCP server is stateless: POST JSON-RPC messages to /mcp",
    );
    res.headers.set("Allow", "POST, OPTIONS");
    return res;
  });
  app.notFound((c) =>
    renderJsonRpcError(
      c,
      404,
      "not_found",
      `no endpoint ${c.req.method} ${new URL(c.req.url).pathname}; MCP is served at ${MCP_PATH}`,
    )
  );
  app.onError((err, c) => renderJsonRpcError(c, 500, "internal", `internal error: ${err.message}`));
  return app;
}
