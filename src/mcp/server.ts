/**
 * The MCP server: the tools of the registry, listed with the JSON Schemas of the bridge's
 * `/tools/list` made compact (no numeric, length or size bounds, no descriptions or closed
 * objects inside output schemas), and run by the one executor. A result's `structuredContent`
 * is the whole payload; its text is a Markdown rendering sized for a model (`render.ts`). A
 * failed call (bad arguments, a path outside the root) is a tool error (`isError: true`) with
 * the executor's message; a malformed `tools/call` request is JSON-RPC error -32602 with one
 * sentence saying what to send.
 *
 * @module
 */

import { McpServer } from "npm:/@modelcontextprotocol/sdk@1.32.2/server/mcp.js";
import { Protocol } from "npm:/@modelcontextprotocol/sdk@1.32.2/shared/protocol.js";
import {
  ErrorCode as McpErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "npm:/@modelcontextprotocol/sdk@1.32.2/types.js";
import { z } from "npm:zod@4.1.9";
import type { Executor } from "../tools/executor.ts";
import { describeTools, findTool, TOOL_NAMES } from "../tools/registry.ts";
import type { ToolAnnotations } from "../tools/tool.ts";
import { VERSION } from "../version.ts";
import { renderText } from "./render.ts";

const INSTRUCTIONS =
  "codectx answers questions about the code of one project: find symbols (search_symbols), " +
  "outline a file (explain_file), search by meaning (semantic_search), follow references, " +
  "dependencies and calls. Paths are relative to the project root. The tools never change " +
  "the project.";

// The SDK's zod-derived result types resolve to `any` under Deno: the shapes we answer are
// stated here instead.

/** A JSON Schema of an object. */
export type ObjectSchema = { type: "object"; [key: string]: unknown };

/** A tool as `tools/list` shows it. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema: ObjectSchema;
  /**
   * Hints for the client, as each tool declares them (`tools/<name>/mod.ts`).
   * `destructiveHint` and `idempotentHint` are given only when `readOnlyHint` is false (they
   * mean something only then), and the title is the tool's own: it is not repeated here.
   */
  annotations: ToolAnnotations;
}

/** A `tools/call` result. */
export interface McpToolResult {
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * Bounds left out of what a model reads: the executor enforces each (an argument outside is a
 * tool error naming it), and a bound a model must know to call right is in the argument's
 * description (`top_k`: "default 10, max 100"). Each costs a model tokens in every session.
 */
const BOUNDS = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
]);

function isBareType(v: unknown): v is { type: string } {
  return typeof v === "object" && v !== null && Object.keys(v).length === 1 &&
    typeof (v as { type?: unknown }).type === "string";
}

/** How {@linkcode compactSchema} trims. */
export interface CompactOptions {
  /** An output schema: also drop descriptions, `required` and `additionalProperties`. */
  output: boolean;
  /** Levels of nested `properties` kept; deeper objects become `{"type": "object"}`. */
  depth: number;
}

/**
 * `schema` without what a model need not read: bounds ({@linkcode BOUNDS}), `anyOf` of bare
 * types (written as a list of types), and for an output schema the descriptions, `required`
 * lists, `additionalProperties` and what lies below `depth`. What stays accepts every payload
 * and every argument the full schema accepts.
 */
export function compactSchema(schema: unknown, opts: CompactOptions): unknown {
  if (Array.isArray(schema)) return schema.map((s) => compactSchema(s, opts));
  if (typeof schema !== "object" || schema === null) return schema;
  const s = schema as Record<string, unknown>;
  if (s.properties !== undefined && opts.depth <= 0) return { type: "object" };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === "$schema" || BOUNDS.has(key)) continue;
    if (
      opts.output && (key === "description" || key === "additionalProperties" || key === "required")
    ) {
      continue;
    }
    if (key === "anyOf" && Array.isArray(value) && value.every(isBareType)) {
      out.type = value.map((v) => v.type);
    } else if (key === "properties" && typeof value === "object" && value !== null) {
      // Every key under `properties` is a field name, not a keyword.
      const inner = { ...opts, depth: opts.depth - 1 };
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, compactSchema(sub, inner)]),
      );
    } else {
      out[key] = compactSchema(value, opts);
    }
  }
  return out;
}

/**
 * Output schemas keep their top-level fields over MCP: the whole of them would be two thirds
 * of `tools/list` (the bridge's `/tools/list` has them whole).
 */
const OUTPUT_DEPTH = 1;

function objectSchema(s: Record<string, unknown>, output: boolean): ObjectSchema {
  const opts = { output, depth: output ? OUTPUT_DEPTH : Infinity };
  return { ...(compactSchema(s, opts) as Record<string, unknown>), type: "object" };
}

/** `explain_file` → `Explain file`. */
function titleOf(name: string): string {
  const words = name.split("_");
  return [words[0][0].toUpperCase() + words[0].slice(1), ...words.slice(1)].join(" ");
}

/** The MCP tool list, derived from the registry. */
export function mcpTools(): McpTool[] {
  return describeTools().map((t) => ({
    name: t.name,
    title: titleOf(t.name),
    description: t.description,
    inputSchema: objectSchema(t.input_schema, false),
    outputSchema: objectSchema(t.output_schema, true),
    annotations: findTool(t.name)!.annotations,
  }));
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The tool and arguments of a `tools/call`, or -32602 with what to send instead. */
function callParams(params: unknown): { name: string; args: Record<string, unknown> } {
  const invalid = (what: string) => new McpError(McpErrorCode.InvalidParams, what);
  if (!isRecord(params)) {
    throw invalid('tools/call needs params {"name": TOOL, "arguments": {…}}');
  }
  const { name, arguments: args = {} } = params;
  if (typeof name !== "string") {
    throw invalid(`params.name must be a tool name (a string): ${TOOL_NAMES.join(", ")}`);
  }
  if (!findTool(name)) {
    throw invalid(`unknown tool '${name}'; valid tools: ${TOOL_NAMES.join(", ")}`);
  }
  if (!isRecord(args)) {
    throw invalid(
      `params.arguments must be an object of ${name}'s arguments (see its inputSchema in tools/list)`,
    );
  }
  return { name, args };
}

/**
 * An MCP server over `executor`; connect it to a transport.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * import { createExecutor } from "../tools/executor.ts";
 * const server = createMcpServer(await createExecutor("./repo"));
 * await server.connect(new StdioServerTransport());
 * ```
 *
 * `client` names who sends the request being answered (over HTTP, its connection), read when
 * a `tools/call` arrives: admission lets clients take turns (`service/admission.ts`).
 */
export function createMcpServer(
  executor: Executor,
  source = "mcp",
  client: () => string | undefined = () => undefined,
): McpServer {
  const server = new McpServer(
    { name: "codectx", title: "codectx", version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const tools = mcpTools();
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  // The request is checked here: the SDK's own check (in `Server.setRequestHandler`, skipped
  // by registering through its base class) answers a malformed request with a dump of
  // validation issues.
  Protocol.prototype.setRequestHandler.call(
    server.server,
    z.object({ method: z.literal("tools/call"), params: z.unknown() }),
    async (req: { params: unknown }): Promise<McpToolResult> => {
      const { name, args } = callParams(req.params);
      const r = await executor.execute({ tool_name: name, arguments: args }, {
        source,
        client: client(),
      });
      if (!r.success) {
        return { content: [{ type: "text", text: r.error ?? `${name} failed` }], isError: true };
      }
      return {
        content: [{ type: "text", text: renderText(name, r.result_payload) }],
        structuredContent: r.result_payload,
      };
    },
  );
  paramsErrorsAsInvalidParams(server);
  return server;
}

type RequestHandler = (req: unknown, extra: unknown) => Promise<unknown>;

/**
 * Malformed params of any request the SDK checks itself (`initialize`, `ping`, …) fail its
 * zod parse, which it answers as -32603 with a dump of issues: every handler is wrapped
 * so that they answer -32602 with one sentence naming the fields.
 */
function paramsErrorsAsInvalidParams(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })
    ._requestHandlers;
  if (!handlers) return;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (req, extra) => {
      try {
        return await handler(req, extra);
      } catch (err) {
        const issues = zodIssues(err);
        if (!issues) throw err;
        const shown = issues.slice(0, 3).map((i) =>
          `${i.path.length ? i.path.join(".") : "the request"}: ${i.message}`
        ).join("; ");
        throw new McpError(
          McpErrorCode.InvalidParams,
          `${method} has invalid params (${shown}); see the MCP specification for its shape`,
        );
      }
    });
  }
}

/** The issues of a zod validation error, or null for any other error. */
function zodIssues(err: unknown): Array<{ path: PropertyKey[]; message: string }> | null {
  if (!(err instanceof Error) || !Array.isArray((err as { issues?: unknown }).issues)) return null;
  return (err as unknown as { issues: Array<{ path: PropertyKey[]; message: string }> }).issues
    .map((i) => ({ path: (i.path ?? []).map((k) => String(k)), message: String(i.message) }));
}
