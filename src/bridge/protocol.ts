/**
 * The bridge protocol `codectx-bridge/1`: the 12 request kinds and the wire shapes of
 * AgentRequest, AgentResponse, tool invocation and tool result (zod, the one source of
 * their types).
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";

/** The nine kinds that run the tool of the same name with `params` as its arguments. */
export const TOOL_KINDS = [
  "semantic_search",
  "explain_symbol",
  "explain_file",
  "get_context",
  "get_dependencies",
  "get_call_graph",
  "summarize_repo",
  "find_references",
  "validate_code",
] as const;

/** All 12 request kinds: the nine tool kinds, then list_capabilities, invoke_tool, list_tools. */
export const KINDS = [
  ...TOOL_KINDS,
  "list_capabilities",
  "invoke_tool",
  "list_tools",
] as const;

/** A request kind. */
export type Kind = (typeof KINDS)[number];

/** Protocol name and version, as the manifest states it. */
export const PROTOCOL = "codectx-bridge/1";

const kindList = KINDS.join(", ");

/**
 * A JSON object (any keys). Not `z.record`: zod 4.1's record check reads
 * `value.constructor.prototype` and throws a TypeError on an object whose `constructor` key
 * is null (`{"params": {"constructor": null}}` was answered 500 `internal`; found by
 * `bench/fuzz.ts`).
 */
function jsonObject(error: string) {
  return z.custom<Record<string, unknown>>(
    (v) => typeof v === "object" && v !== null && !Array.isArray(v),
    { error },
  );
}

/** Body of `POST /request`. */
export const agentRequestSchema = z.object({
  kind: z.enum(KINDS, {
    error: (iss) =>
      iss.input === undefined
        ? `kind is missing; valid kinds: ${kindList}`
        : typeof iss.input !== "string"
        ? `kind must be a string; valid kinds: ${kindList}`
        : `unknown kind '${iss.input}'; valid kinds: ${kindList}`,
  }),
  params: jsonObject("params must be a JSON object holding the kind's arguments").nullish(),
  request_id: z.string({ error: "request_id must be a string" }).max(256).optional(),
  source: z.string({ error: "source must be a string" }).max(256).optional(),
});
export type AgentRequest = z.infer<typeof agentRequestSchema>;

/** Body answered by `POST /request`. */
export const agentResponseSchema = z.object({
  success: z.boolean(),
  data: z.record(z.string(), z.unknown()),
  /** "" on success. */
  error: z.string(),
  request_id: z.string(),
  elapsed_ms: z.number(),
  /** Machine-readable cause, on failure only. */
  error_code: z.string().optional(),
});
export type AgentResponse = z.infer<typeof agentResponseSchema>;

/** `params` of `invoke_tool`, and body of `POST /tools/invoke`. */
export const toolInvocationSchema = z.object({
  tool_name: z.string({ error: "tool_name must be a string naming a tool" }).optional(),
  arguments: z.unknown().optional(),
});
export type ToolInvocation = z.infer<typeof toolInvocationSchema>;

/** Body answered by `POST /tools/invoke` (and `data` of `invoke_tool`). */
export const toolResultSchema = z.object({
  tool_name: z.string(),
  request_id: z.string(),
  success: z.boolean(),
  result_payload: z.record(z.string(), z.unknown()),
  execution_time_ms: z.number(),
  error: z.string().optional(),
  error_code: z.string().optional(),
});
export type WireToolResult = z.infer<typeof toolResultSchema>;

/** The issues of a failed parse, as one sentence. */
export function issuesMessage(error: z.ZodError): string {
  return error.issues.map((i) => i.message).join("; ");
}
