/**
 * The text an MCP client hands to the model: a compact Markdown rendering of a tool's
 * payload. `structuredContent` keeps the whole payload; the text keeps what a model reads to
 * answer — locations as `file:line`, code as code, lists as lists — and leaves out what only
 * a program needs. Each tool renders its own payload (`tools/<name>/render.ts`, typed by its
 * output schema); this is where MCP asks for it.
 *
 * @module
 */

import { findTool } from "../tools/registry.ts";

/**
 * The Markdown text of `toolName`'s payload (a name no tool has: the payload as one line of
 * JSON).
 *
 * @example
 * ```ts
 * renderText("search_symbols", { symbols: [], total: 0 }); // "0 of 0 symbols"
 * ```
 */
export function renderText(toolName: string, payload: Record<string, unknown>): string {
  const tool = findTool(toolName);
  return tool ? tool.render(payload) : JSON.stringify(payload);
}
