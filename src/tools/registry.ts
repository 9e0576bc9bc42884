/**
 * Every tool, loaded: each is a folder of `tools/` (`<name>/mod.ts`), listed with its command
 * in `tool_index.ts`. The surfaces that list every tool (MCP, the bridge, the web API,
 * `mod.ts`) derive their tool lists, schemas and texts from here; a command loads its own
 * tool only (`tool_index.ts`).
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import type { Tool } from "./tool.ts";
import { TOOL_ENTRIES } from "./tool_index.ts";

export { TOOL_NAMES } from "./tool_index.ts";

/** Every tool, in the order the specification lists them (search first, ask last). */
export const TOOLS: readonly Tool[] = await Promise.all(TOOL_ENTRIES.map((e) => e.load()));

/** A tool by name. */
export function findTool(name: string): Tool | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** A tool's description with JSON Schemas of its input and output, as `/tools/list` gives it. */
export interface ToolDescription {
  /** The tool's name (snake_case). */
  name: string;
  /** What it does, for a person or a model. */
  description: string;
  /** JSON Schema of its arguments. */
  input_schema: Record<string, unknown>;
  /** JSON Schema of its payload. */
  output_schema: Record<string, unknown>;
}

let described: ToolDescription[] | null = null;

/** JSON Schemas of every tool, derived from the zod declarations (computed once). */
export function describeTools(): ToolDescription[] {
  described ??= TOOLS.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: jsonSchema(t.input, "input"),
    output_schema: jsonSchema(t.output, "output"),
  }));
  return described;
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const s = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  delete s.$schema;
  return s;
}
