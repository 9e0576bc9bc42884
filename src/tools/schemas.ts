/**
 * Wire shapes (snake_case) shared by several tools, and the one conversion from the
 * in-memory records to them.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { DEFAULT_TOP_K, type SymbolRecord } from "../types.ts";

/** A symbol on the wire. */
export const symbolSchema = z.object({
  name: z.string(),
  qualified_name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
  end_line: z.number().int(),
  signature: z.string(),
  doc: z.string(),
  parent: z.string().nullable(),
  language: z.string(),
});
export type WireSymbol = z.infer<typeof symbolSchema>;

export { searchItemSchema, type WireSearchItem } from "../search/item.ts";

/** Converts a symbol record to its wire shape. */
export function toWireSymbol(s: SymbolRecord): WireSymbol {
  return {
    name: s.name,
    qualified_name: s.qualifiedName,
    kind: s.kind,
    file: s.file,
    line: s.line,
    end_line: s.endLine,
    signature: s.signature,
    doc: s.doc,
    parent: s.parent,
    language: s.language,
  };
}

/** A path argument: relative to the project root (an absolute path inside it is taken too). */
export const filePathArg = z.string().min(1);

/** A symbol name argument (plain or qualified, e.g. `Session.request`). */
export const symbolNameArg = z.string().min(1).max(512).describe(
  "Or qualified: `Cls.method`",
);

/** `top_k`: 1–100. */
export const topKArg = z.number().int().min(1).max(100).describe(
  `default ${DEFAULT_TOP_K}, max 100`,
);

/** How sure a reference or call edge is (find_references, get_call_graph, explain_symbol). */
export const resolutionSchema = z.enum(["exact", "inferred", "name"]).describe(
  "exact: through scope/import; inferred: from the receiver's type; name: by name only",
);

/** `include_tests` of the graph tools: default true (see `index/test_files.ts`). */
export const includeTestsArg = z.boolean().optional().describe("default true");

/** How severe, or how sure, a security finding is. */
export const severitySchema = z.enum(["LOW", "MEDIUM", "HIGH"]);

/** A security issue on the wire (bandit's JSON names, plus the CWE id). */
export const issueSchema = z.object({
  test_id: z.string(),
  test_name: z.string(),
  severity: severitySchema,
  confidence: severitySchema,
  file: z.string(),
  line: z.number().int(),
  code: z.string(),
  message: z.string(),
  cwe: z.number().int(),
});
/** A security issue (analyze_quality, validate_code). */
export type WireIssue = z.infer<typeof issueSchema>;
