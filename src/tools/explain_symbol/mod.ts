/**
 * `explain_symbol`: one symbol's definition, source, doc, members, callers and callees.
 */

import { explainSymbol, MAX_SOURCE_LINES } from "../../context/explain.ts";
import { toWireSymbol } from "../schemas.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { command } from "./cli.ts";
import { render } from "./render.ts";
import { input, output } from "./schema.ts";

/** The `explain_symbol` tool. */
export const explainSymbolTool = defineTool({
  name: "explain_symbol",
  description:
    `What a symbol does and calls: doc, source (≤ ${MAX_SOURCE_LINES} lines; text: the body within max_tokens, else its call lines), parent, members, callers with their lines, callees, references; several matches: the best, the rest in candidates.`,
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ symbol_name, file_path, max_tokens }, { project }) => {
    const file = file_path ? project.resolvePath(file_path) : undefined;
    const e = await explainSymbol(project, symbol_name, {
      file: file || undefined,
      maxTokens: max_tokens,
    });
    return {
      symbol: toWireSymbol(e.symbol),
      source: e.source,
      source_truncated: e.sourceTruncated,
      doc: e.doc,
      parent: e.parent ? toWireSymbol(e.parent) : null,
      children: e.children.map(toWireSymbol),
      callers: e.callers,
      callers_total: e.callersTotal,
      callees: e.callees,
      callees_total: e.calleesTotal,
      unresolved_candidates: e.unresolvedCandidates,
      references: e.references,
      candidates: e.candidates.map(toWireSymbol),
      calls: e.body === "source" ? undefined : e.calls.map((c) => ({
        line: c.line,
        text: c.text,
        callee: c.callee,
        file: c.file,
        def_line: c.defLine,
        resolution: c.resolution,
        external: c.external,
      })),
    };
  },
  render,
  cli: command,
});
