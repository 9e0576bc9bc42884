/**
 * Every tool by name, with its command and where its definition is: a tool's folder is loaded
 * when the tool is first asked for, so a command imports its own tool only (`codectx explain`
 * loaded every tool's domain code — analysis, search, context — for the one it ran: issue 34).
 * The registry (`registry.ts`) loads them all, for the surfaces that list every tool; adding
 * a tool is its folder and its entry below.
 *
 * @module
 */

import type { Tool } from "./tool.ts";

/** A tool before it is loaded. */
export interface ToolEntry {
  /** The tool's name (snake_case). */
  name: string;
  /** Its command (`codectx refs`), when it has one: the `command` of its `cli.ts`. */
  command?: string;
  /** Its definition. */
  load(): Promise<Tool>;
}

/** Every tool, in the order the specification lists them (search first, ask last). */
export const TOOL_ENTRIES: readonly ToolEntry[] = [
  {
    name: "semantic_search",
    load: async () => (await import("./semantic_search/mod.ts")).semanticSearchTool,
  },
  {
    name: "explain_symbol",
    command: "explain",
    load: async () => (await import("./explain_symbol/mod.ts")).explainSymbolTool,
  },
  {
    name: "explain_file",
    load: async () => (await import("./explain_file/mod.ts")).explainFileTool,
  },
  {
    name: "summarize_repo",
    command: "summary",
    load: async () => (await import("./summarize_repo/mod.ts")).summarizeRepoTool,
  },
  {
    name: "find_references",
    command: "refs",
    load: async () => (await import("./find_references/mod.ts")).findReferencesTool,
  },
  {
    name: "get_dependencies",
    command: "deps",
    load: async () => (await import("./get_dependencies/mod.ts")).getDependenciesTool,
  },
  {
    name: "get_call_graph",
    command: "calls",
    load: async () => (await import("./get_call_graph/mod.ts")).getCallGraphTool,
  },
  {
    name: "get_context",
    command: "context",
    load: async () => (await import("./get_context/mod.ts")).getContextTool,
  },
  {
    name: "validate_code",
    load: async () => (await import("./validate_code/mod.ts")).validateCodeTool,
  },
  {
    name: "analyze_quality",
    load: async () => (await import("./analyze_quality/mod.ts")).analyzeQualityTool,
  },
  {
    name: "search_symbols",
    load: async () => (await import("./search_symbols/mod.ts")).searchSymbolsTool,
  },
  {
    name: "index_project",
    load: async () => (await import("./index_project/mod.ts")).indexProjectTool,
  },
  {
    name: "ask",
    command: "ask",
    load: async () => (await import("./ask/mod.ts")).askTool,
  },
  {
    name: "get_impact",
    command: "impact",
    load: async () => (await import("./get_impact/mod.ts")).getImpactTool,
  },
];

/** Tool names. */
export const TOOL_NAMES: readonly string[] = TOOL_ENTRIES.map((e) => e.name);

/** A tool by name, loaded on first ask (undefined: no such tool). */
export function loadTool(name: string): Promise<Tool> | undefined {
  return TOOL_ENTRIES.find((e) => e.name === name)?.load();
}
