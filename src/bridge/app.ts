/**
 * The bridge (`codectx serve`): a stateless JSON/HTTP layer over the one executor —
 * manifest, health, `POST /request` (12 kinds), `POST /tools/invoke`, `GET /tools/list`
 * and the `GET /tools/stream` event stream.
 *
 * @module
 */

import { Hono } from "npm:hono@4.12.7";
import { CodectxError, errorCode, errorMessage } from "../errors.ts";
import { healthBody } from "../http/health.ts";
import { jsonResponse, statusOf } from "../http/respond.ts";
import {
  type ErrorRenderer,
  isObject,
  readJsonBody,
  safety,
  type SafetyOptions,
} from "../http/safety.ts";
import type { Executor } from "../tools/executor.ts";
import { describeTools, TOOL_NAMES } from "../tools/registry.ts";
import { VERSION } from "../version.ts";
import { type EventHub, lastEventIdOf, sseResponse } from "../http/events.ts";
import { clientOf } from "../http/listener.ts";
import {
  agentRequestSchema,
  type AgentResponse,
  issuesMessage,
  KINDS,
  PROTOCOL,
  TOOL_KINDS,
  toolInvocationSchema,
  type WireToolResult,
} from "./protocol.ts";

/** What the bridge is built from. */
export interface BridgeOptions {
  executor: Executor;
  hub: EventHub;
  safety: SafetyOptions;
  /** Keepalive period of `/tools/stream` (default 15 s). */
  keepaliveMs?: number;
  /** When the server started (for `uptime_s`). */
  startedAt?: number;
}

/** The endpoints, as the manifest lists them. */
export const BRIDGE_ENDPOINTS = [
  { method: "GET", path: "/", description: "this capabilities manifest" },
  { method: "GET", path: "/health", description: "server and index state" },
  { method: "POST", path: "/request", description: "AgentRequest → AgentResponse" },
  { method: "POST", path: "/tools/invoke", description: "{tool_name, arguments} → tool result" },
  { method: "GET", path: "/tools/list", description: "tools with JSON Schemas" },
  { method: "GET", path: "/tools/stream", description: "server-sent tool and index events" },
  { method: "OPTIONS", path: "*", description: "CORS preflight" },
];

const TOOL_KIND_SET: ReadonlySet<string> = new Set(TOOL_KINDS);

/** Errors outside `/request` and `/tools/invoke` keep the bridge's `{success, error}` pair. */
const renderBridgeError: ErrorRenderer = (c, status, code, message) => {
  const path = new URL(c.req.url).pathname;
  if (path === "/request") {
    return jsonResponse(agentFailure(crypto.randomUUID(), code, message, 0), status);
  }
  if (path === "/tools/invoke") {
    return jsonResponse(toolFailure("", crypto.randomUUID(), code, message, 0), status);
  }
  return jsonResponse({ success: false, error: message, error_code: code }, status);
};

function agentFailure(
  requestId: string,
  code: string,
  message: string,
  elapsedMs: number,
  data: Record<string, unknown> = {},
): AgentResponse {
  return {
    success: false,
    data,
    error: message,
    request_id: requestId,
    elapsed_ms: elapsedMs,
    error_code: code,
  };
}

function toolFailure(
  toolName: string,
  requestId: string,
  code: string,
  message: string,
  ms: number,
): WireToolResult {
  return {
    tool_name: toolName,
    request_id: requestId,
    success: false,
    result_payload: {},
    execution_time_ms: ms,
    error: message,
    error_code: code,
  };
}

function elapsedSince(t0: number): number {
  return Math.round((performance.now() - t0) * 100) / 100;
}

/** What every route handler gets. */
interface Ctx {
  executor: Executor;
  hub: EventHub;
  startedAt: number;
  maxBody: number;
  keepaliveMs: number;
}

/** The capabilities manifest (`GET /`, kind `list_capabilities`). */
function manifest(ctx: Ctx): Record<string, unknown> {
  return {
    name: "codectx",
    version: VERSION,
    protocol: PROTOCOL,
    project_root: ctx.executor.service.root,
    kinds: [...KINDS],
    tools: [...TOOL_NAMES],
    endpoints: BRIDGE_ENDPOINTS,
  };
}

/** Runs a tool for the client of `req` and answers in the tool-result wire shape. */
async function invoke(
  ctx: Ctx,
  req: Request,
  toolName: string,
  args: unknown,
  requestId: string,
  source: string,
): Promise<WireToolResult> {
  const r = await ctx.executor.execute({ tool_name: toolName, arguments: args }, {
    requestId,
    source,
    client: clientOf(req),
  });
  return { tool_name: toolName, request_id: requestId, ...r };
}

/** `GET /health`: server and index state. */
async function health(ctx: Ctx): Promise<Response> {
  return jsonResponse(await healthBody(ctx.executor, ctx.startedAt));
}

/** `POST /tools/invoke`: `{tool_name, arguments}` → the tool result. */
async function toolsInvoke(ctx: Ctx, req: Request): Promise<Response> {
  const t0 = performance.now();
  const requestId = crypto.randomUUID();
  const fail = (name: string, code: string, message: string) =>
    jsonResponse(
      toolFailure(name, requestId, code, message, elapsedSince(t0)),
      statusOf(code),
    );
  let body: unknown;
  try {
    body = await readJsonBody(req, ctx.maxBody);
  } catch (err) {
    return fail("", errorCode(err), errorMessage(err));
  }
  if (!isObject(body)) {
    return fail(
      "",
      "invalid_argument",
      "the request body must be a JSON object {tool_name, arguments}, not " + describe(body),
    );
  }
  const parsed = toolInvocationSchema.safeParse(body);
  if (!parsed.success) {
    const name = typeof body.tool_name === "string" ? body.tool_name : "";
    return fail(name, "invalid_argument", issuesMessage(parsed.error));
  }
  const result = await invoke(
    ctx,
    req,
    parsed.data.tool_name ?? "",
    parsed.data.arguments,
    requestId,
    "bridge",
  );
  return jsonResponse(result, result.success ? 200 : statusOf(result.error_code));
}

/** `POST /request`: an AgentRequest of one of the 12 kinds → an AgentResponse. */
async function agentRequest(ctx: Ctx, raw: Request): Promise<Response> {
  const t0 = performance.now();
  let requestId: string = crypto.randomUUID();
  const fail = (code: string, message: string, data: Record<string, unknown> = {}) =>
    jsonResponse(agentFailure(requestId, code, message, elapsedSince(t0), data), statusOf(code));
  let body: unknown;
  try {
    body = await readJsonBody(raw, ctx.maxBody);
  } catch (err) {
    return fail(errorCode(err), errorMessage(err));
  }
  if (!isObject(body)) {
    return fail(
      "invalid_argument",
      `the request body must be a JSON object (AgentRequest {kind, params, request_id, source}), not ${
        describe(body)
      }`,
    );
  }
  if (typeof body.request_id === "string" && body.request_id !== "") {
    requestId = body.request_id.slice(0, 256);
  }
  const parsed = agentRequestSchema.safeParse(body);
  if (!parsed.success) return fail("invalid_argument", issuesMessage(parsed.error));
  const req = parsed.data;
  const params = req.params ?? {};
  const source = req.source ?? "bridge";
  const ok = (data: Record<string, unknown>): Response =>
    jsonResponse(
      {
        success: true,
        data,
        error: "",
        request_id: requestId,
        elapsed_ms: elapsedSince(t0),
      } satisfies AgentResponse,
    );
  try {
    switch (req.kind) {
      case "list_capabilities":
        return ok(manifest(ctx));
      case "list_tools":
        return ok({ tools: describeTools() });
      case "invoke_tool": {
        const inv = toolInvocationSchema.safeParse(params);
        if (!inv.success) return fail("invalid_argument", issuesMessage(inv.error));
        const r = await invoke(
          ctx,
          raw,
          inv.data.tool_name ?? "",
          inv.data.arguments,
          requestId,
          source,
        );
        return r.success
          ? ok(r)
          : fail(r.error_code ?? "internal", r.error ?? "the tool failed", r);
      }
      default: {
        if (!TOOL_KIND_SET.has(req.kind)) {
          throw new CodectxError("internal", `kind '${req.kind}' has no handler`);
        }
        const r = await invoke(ctx, raw, req.kind, params, requestId, source);
        return r.success
          ? ok(r.result_payload)
          : fail(r.error_code ?? "internal", r.error ?? "the tool failed");
      }
    }
  } catch (err) {
    return fail(errorCode(err), errorMessage(err));
  }
}

/**
 * Builds the bridge app.
 *
 * @example
 * ```ts
 * import { createExecutor } from "../tools/executor.ts";
 * import { createEventHub } from "../http/events.ts";
 * const executor = await createExecutor("./repo");
 * const hub = createEventHub();
 * const app = createBridgeApp({ executor, hub, safety: { hostname: "127.0.0.1", port: () => 24842 } });
 * Deno.serve({ hostname: "127.0.0.1", port: 24842 }, app.fetch);
 * ```
 */
export function createBridgeApp(opts: BridgeOptions): Hono {
  const ctx: Ctx = {
    executor: opts.executor,
    hub: opts.hub,
    startedAt: opts.startedAt ?? Date.now(),
    maxBody: opts.safety.maxBody ?? 1_048_576,
    keepaliveMs: opts.keepaliveMs ?? 15_000,
  };
  const app = new Hono();
  app.use(safety(opts.safety, renderBridgeError));
  app.get("/", () => jsonResponse(manifest(ctx)));
  app.get("/health", () => health(ctx));
  app.get("/tools/list", () => jsonResponse({ tools: describeTools() }));
  app.get("/tools/stream", (c) => sseResponse(ctx.hub, lastEventIdOf(c.req.raw), ctx.keepaliveMs));
  app.post("/tools/invoke", (c) => toolsInvoke(ctx, c.req.raw));
  app.post("/request", (c) => agentRequest(ctx, c.req.raw));
  app.notFound((c) =>
    renderBridgeError(
      c,
      404,
      "not_found",
      `no endpoint ${c.req.method} ${new URL(c.req.url).pathname}; see GET / for the endpoints`,
    )
  );
  app.onError((err, c) => renderBridgeError(c, 500, "internal", `internal error: ${err.message}`));
  return app;
}

/** A short description of a JSON value's type, for error messages. */
export function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "string" ? "a string" : `a ${typeof v}`;
}
