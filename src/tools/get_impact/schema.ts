/**
 * `get_impact`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { includeTestsArg, resolutionSchema } from "../schemas.ts";

/** Hops walked by default, and at most. */
export const DEFAULT_DEPTH = 3;
export const MAX_DEPTH = 6;
/** Impacted symbols answered by default (`impacted_total` counts them all). */
export const DEFAULT_MAX_RESULTS = 200;

/** Its arguments. */
export const input = z.object({
  diff: z.string().optional(),
  base: z.string().min(1).max(256).optional().describe("Git revision (default HEAD)"),
  symbols: z.array(z.string().min(1)).min(1).max(100).optional(),
  depth: z.number().int().min(1).max(MAX_DEPTH).optional().describe(
    `default ${DEFAULT_DEPTH}, max ${MAX_DEPTH}`,
  ),
  include_tests: includeTestsArg,
  max_results: z.number().int().min(1).max(5000).optional(),
});

const changeKind = z.enum(["added", "modified", "deleted"]);

/** A definition the change adds, edits or removes. */
const changedSchema = z.object({
  qualified_name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int().describe("First line (on the new side; the old side for a deletion)"),
  end_line: z.number().int(),
  change: changeKind,
  signature: z.string(),
  signature_changed: z.boolean(),
  old_signature: z.string().optional().describe("When the signature changed"),
  public: z.boolean().describe("Visible outside its module or type by its language's rule"),
  references: z.number().int().describe("References to it found in the project's code"),
});

/** A definition reached from a changed one. */
const impactedSchema = z.object({
  qualified_name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
  hop: z.number().int().describe("1: it uses a changed symbol; 2: it uses one at hop 1; …"),
  resolution: resolutionSchema.describe("The weakest resolution on the path that reaches it"),
  path: z.array(z.string()).describe("Qualified names from the changed symbol to this one"),
  via: z.object({ file: z.string(), line: z.number().int(), kind: z.string() }).describe(
    "The reference that reaches it (in it, to the previous symbol of the path)",
  ),
  test: z.boolean(),
});

/** Its payload. */
export const output = z.object({
  source: z.enum(["diff", "base", "symbols"]),
  base: z.string().nullable(),
  files: z.array(z.object({
    file: z.string(),
    status: z.enum(["added", "modified", "deleted", "renamed"]),
    old_file: z.string().nullable(),
    applied: z.boolean().describe(
      "true: the indexed file already holds the change (new side); false: it is about to be applied",
    ),
    lines_added: z.number().int(),
    lines_deleted: z.number().int(),
  })).describe("Files the change touches"),
  changed: z.array(changedSchema),
  impacted: z.array(impactedSchema),
  impacted_total: z.number().int(),
  truncated: z.boolean(),
  impacted_files: z.array(z.object({
    file: z.string(),
    hop: z.number().int().describe("Nearest hop of a reference in it"),
    references: z.number().int(),
    test: z.boolean(),
  })),
  tests_to_run: z.object({
    files: z.array(z.string()),
    functions: z.array(z.object({
      qualified_name: z.string(),
      file: z.string(),
      line: z.number().int(),
      hop: z.number().int(),
      resolution: resolutionSchema,
    })),
  }).describe("Test files and test functions that reach a changed symbol (index/test_files.ts)"),
  risk: z.object({
    likely_breaks: z.array(z.object({
      qualified_name: z.string(),
      file: z.string(),
      reason: z.enum(["deleted", "signature_changed"]),
      references: z.number().int(),
      sites: z.array(z.string()).describe("file:line of the first references"),
    })).describe("Deleted symbols still referenced, signatures changed under their callers"),
    public_api: z.array(z.string()).describe("Changed symbols visible outside their module"),
    by_hop: z.array(z.object({
      hop: z.number().int(),
      exact: z.number().int(),
      inferred: z.number().int(),
      name: z.number().int(),
    })),
  }),
});

/** What `get_impact` answers. */
export type GetImpactPayload = z.infer<typeof output>;
/** Its arguments. */
export type GetImpactArgs = z.infer<typeof input>;
/** A changed definition. */
export type ChangedSymbol = z.infer<typeof changedSchema>;
/** An impacted definition. */
export type ImpactedSymbol = z.infer<typeof impactedSchema>;
/** A file the change touches. */
export type ChangedFile = GetImpactPayload["files"][number];
