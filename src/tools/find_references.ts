/**
 * `find_references`: every reference to a symbol in code (not comments or strings), with
 * its kind, resolved through scopes and imports.
 */

import { z } from "npm:zod@4.1.9";
import { loadGraph } from "../graph/graph.ts";
import { findReferences } from "../graph/references.ts";
import {
  filePathArg,
  includeTestsArg,
  resolutionSchema,
  symbolNameArg,
  symbolSchema,
  toWireSymbol,
} from "./schemas.ts";
import { defineTool } from "./tool.ts";

/** The `find_references` tool. */
export const findReferencesTool = defineTool({
  name: "find_references",
  description:
    "Every reference to a symbol in code (not comments or strings), with its kind (definition, call, import, type, inherit, read, write; export_list for a name in Python's `__all__`) and `resolution` (exact, inferred, name), through scopes and imports: a shadowing local is not one, an alias is. `file_path` narrows an ambiguous name.",
  input: z.object({
    symbol_name: symbolNameArg,
    file_path: filePathArg.optional(),
    limit: z.number().int().min(1).max(2000).optional().describe(
      "Most references returned (1–2000, default 200); `total` counts them all",
    ),
    include_tests: includeTestsArg,
  }),
  output: z.object({
    symbol: z.string(),
    definitions: z.array(symbolSchema),
    references: z.array(z.object({
      file: z.string(),
      line: z.number().int(),
      column: z.number().int(),
      context: z.string(),
      kind: z.string(),
      symbol: z.string().describe("Qualified name of the definition it refers to"),
      in: z.string().nullable().describe("Qualified name of the enclosing symbol"),
      resolution: resolutionSchema,
    })),
    total: z.number().int(),
    truncated: z.boolean(),
    by_resolution: z.object({
      exact: z.number().int(),
      inferred: z.number().int(),
      name: z.number().int(),
    }),
  }),
  handler: async ({ symbol_name, file_path, limit, include_tests }, { project }) => {
    const file = file_path === undefined ? undefined : project.resolvePath(file_path);
    const graph = await loadGraph(project);
    const r = findReferences(graph, symbol_name, { file, limit, includeTests: include_tests });
    return {
      symbol: r.definitions[0].qualifiedName,
      definitions: r.definitions.map(toWireSymbol),
      references: r.references,
      total: r.total,
      truncated: r.truncated,
      by_resolution: r.byResolution,
    };
  },
});
