/**
 * `explain_symbol`: one symbol's definition, source, doc, members, callers and callees.
 */

import { z } from "npm:zod@4.1.9";
import { explainSymbol, MAX_NEIGHBOURS, MAX_SOURCE_LINES } from "../context/explain.ts";
import { defineTool } from "./tool.ts";
import {
  filePathArg,
  resolutionSchema,
  symbolNameArg,
  symbolSchema,
  toWireSymbol,
} from "./schemas.ts";

const neighbour = z.object({
  name: z.string(),
  file: z.string(),
  line: z.number().int(),
  resolution: resolutionSchema,
});

/** The `explain_symbol` tool. */
export const explainSymbolTool = defineTool({
  name: "explain_symbol",
  description:
    `Explain one symbol: its record, source (at most ${MAX_SOURCE_LINES} lines), doc, enclosing definition, members, direct callers (call sites) and callees (definitions), reference count. A name matching several symbols answers the best and lists the others in candidates; qualified names work (Session.request, pkg.module.func).`,
  input: z.object({
    symbol_name: symbolNameArg,
    file_path: filePathArg.optional().describe(
      "Only look in this file or folder (relative to the project root)",
    ),
  }),
  output: z.object({
    symbol: symbolSchema,
    source: z.string(),
    source_truncated: z.boolean(),
    doc: z.string(),
    parent: symbolSchema.nullable(),
    children: z.array(symbolSchema),
    callers: z.array(neighbour).describe(
      `Call sites (caller and line of the call), at most ${MAX_NEIGHBOURS}`,
    ),
    callers_total: z.number().int(),
    callees: z.array(neighbour).describe(
      `Called symbols and where they are defined, at most ${MAX_NEIGHBOURS}`,
    ),
    callees_total: z.number().int(),
    unresolved_candidates: z.number().int(),
    references: z.number().int(),
    candidates: z.array(symbolSchema),
  }),
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
});
