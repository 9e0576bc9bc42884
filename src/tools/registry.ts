/**
 * Every tool, in one list: each is a folder of `tools/` (`<name>/mod.ts`). Surfaces derive
 * their tool lists, schemas, texts and commands from here; adding a tool is its folder and
 * its import and its entry below.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { analyzeQualityTool } from "./analyze_quality/mod.ts";
import { askTool } from "./ask/mod.ts";
import { explainFileTool } from "./explain_file/mod.ts";
import { explainSymbolTool } from "./explain_symbol/mod.ts";
import { findReferencesTool } from "./find_references/mod.ts";
import { getCallGraphTool } from "./get_call_graph/mod.ts";
import { getContextTool } from "./get_context/mod.ts";
import { getDependenciesTool } from "./get_dependencies/mod.ts";
import { getImpactTool } from "./get_impact/mod.ts";
import { indexProjectTool } from "./index_project/mod.ts";
import { searchSymbolsTool } from "./search_symbols/mod.ts";
import { semanticSearchTool } from "./semantic_search/mod.ts";
import { summarizeRepoTool } from "./summarize_repo/mod.ts";
import type { Tool } from "./tool.ts";
import { validateCodeTool } from "./validate_code/mod.ts";

/** Every tool, in the order the specification lists them (search first, ask last). */
export const TOOLS: readonly Tool[] = [
  semanticSearchTool,
  explainSymbolTool,
  explainFileTool,
  summarizeRepoTool,
  findReferencesTool,
  getDependenciesTool,
  getCallGraphTool,
  getContextTool,
  validateCodeTool,
  analyzeQualityTool,
  searchSymbolsTool,
  indexProjectTool,
  askTool,
  getImpactTool,
];

/** Tool names. */
export const TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.name);

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
