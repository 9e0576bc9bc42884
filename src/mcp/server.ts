/**
 * The MCP server: the 13 tools of the registry, listed with the same JSON Schemas as the
 * bridge's `/tools/list` and run by the one executor. Results carry `structuredContent`
 * and its JSON text; a failed call (bad arguments, a path outside the root, a tool not
 * built yet) is a tool error (`isError: true`) with the executor's message.
 *
 * @module
 */

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode as McpErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { Executor } from "../tools/executor.ts";
import { describeTools, findTool, TOOL_NAMES } from "../tools/registry.ts";
import { VERSION } from "../version.ts";

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
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** A `tools/call` result. */
export interface McpToolResult {
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function objectSchema(s: Record<string, unknown>): ObjectSchema {
  return { ...s, type: "object" };
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
    inputSchema: objectSchema(t.input_schema),
    outputSchema: objectSchema(t.output_schema),
    annotations: {
      title: titleOf(t.name),
      // index_project writes the index, never the project.
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  }));
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
 */
export function createMcpServer(executor: Executor, source = "mcp"): McpServer {
  const server = new McpServer(
    { name: "codectx", title: "codectx", version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const tools = mcpTools();
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.server.setRequestHandler(
    CallToolRequestSchema,
    async (req: CallToolRequest): Promise<McpToolResult> => {
      const name = req.params.name;
      if (!findTool(name)) {
        throw new McpError(
          McpErrorCode.InvalidParams,
          `unknown tool '${name}'; valid tools: ${TOOL_NAMES.join(", ")}`,
        );
      }
      const r = await executor.execute(
        { tool_name: name, arguments: req.params.arguments ?? {} },
        { source },
      );
      if (!r.success) {
        return { content: [{ type: "text", text: r.error ?? `${name} failed` }], isError: true };
      }
      return {
        content: [{ type: "text", text: JSON.stringify(r.result_payload, null, 2) }],
        structuredContent: r.result_payload,
      };
    },
  );
  return server;
}
