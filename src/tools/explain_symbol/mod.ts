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
    `Explain one symbol: its record, source (at most ${MAX_SOURCE_LINES} lines), doc, enclosing definition, members, direct callers (call sites) and callees (definitions), reference count. A name matching several symbols answers the best and lists the others in candidates; qualified names work (Session.request, pkg.module.func).`,
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ symbol_name, file_path }, { project }) => {
    const file = file_path ? project.resolvePath(file_path) : undefined;
    const e = await explainSymbol(project, symbol_name, file || undefined);
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
    };
  },
  render,
  cli: command,
});
