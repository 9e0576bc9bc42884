/**
 * The shape of a tool: a name, a description, zod schemas for input and output, a handler.
 * Every surface (CLI, bridge, REST, MCP, mod.ts) is derived from these declarations.
 */

import type { z } from "npm:zod@4.1.9";
import type { Project } from "../project/project.ts";

/** What a handler gets besides its arguments. */
export interface ToolContext {
  project: Project;
  /** Aborted when the call runs past its time limit. */
  signal: AbortSignal;
  /**
   * `Date.now()` at which the call's time limit passes (absent: none). Work that cannot
   * watch the signal (a synchronous scan) is stopped there (`util/bounded.ts`).
   */
  deadline?: number;
}

/** A tool declaration. */
export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: I;
  output: O;
  handler: (args: z.infer<I>, ctx: ToolContext) => Promise<z.infer<O>>;
}

/**
 * Declares a tool with exact types.
 *
 * @example
 * ```ts
 * const echo = defineTool({
 *   name: "echo", description: "Echoes.",
 *   input: z.object({ text: z.string() }), output: z.object({ text: z.string() }),
 *   handler: ({ text }) => Promise.resolve({ text }),
 * });
 * ```
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodType>(tool: Tool<I, O>): Tool {
  return tool as unknown as Tool;
}
