/**
 * `get_call_graph`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import {
  filePathArg,
  includeTestsArg,
  resolutionSchema,
  symbolNameArg,
  symbolSchema,
} from "../schemas.ts";

/** A caller or callee. */
export const nodeSchema = z.object({
  name: z.string().describe(
    "Qualified name; a file path for top-level code; as written when unresolved",
  ),
  file: z.string().nullable().describe("null for builtins and library calls"),
  line: z.number().int().nullable().describe("Line of the definition"),
  kind: z.string().describe(
    "The symbol's kind; `file` for top-level code; `builtin`, `external` (library) or `unknown` (receiver of unknown type) for calls that reach no project symbol",
  ),
  call_file: z.string(),
  call_line: z.number().int().describe("Line of the call that reached it"),
  call_lines: z.array(z.number().int()).describe("Every call's line in call_file"),
  depth: z.number().int(),
  resolved: z.boolean().describe("True for exact and inferred calls of project symbols"),
  resolution: resolutionSchema,
  external: z.boolean().describe("A builtin or a library call, not a project node"),
});

/** Its arguments. */
export const input = z.object({
  symbol_name: symbolNameArg,
  depth: z.number().int().min(1).max(5).optional().describe("default 1, max 5"),
  file_path: filePathArg.optional().describe("The definition's file"),
  format: z.enum(["json", "mermaid"]).optional(),
  include_tests: includeTestsArg,
});

/** Its payload. */
export const output = z.object({
  symbol: z.string(),
  definition: symbolSchema,
  candidates: z.array(symbolSchema),
  callers: z.array(nodeSchema),
  callees: z.array(nodeSchema),
  edges: z.array(z.object({
    from: z.string(),
    to: z.string(),
    file: z.string(),
    line: z.number().int(),
    resolved: z.boolean(),
    resolution: resolutionSchema,
    external: z.boolean(),
  })),
  unresolved_candidates: z.number().int().describe(
    "Calls of this name on receivers of unknown type (may call it)",
  ),
  mermaid: z.string().optional(),
});

/** What `get_call_graph` answers. */
export type GetCallGraphPayload = z.infer<typeof output>;
/** A caller or callee in it. */
export type CallGraphNode = z.infer<typeof nodeSchema>;
/** A call edge in it. */
export type CallGraphEdge = GetCallGraphPayload["edges"][number];
