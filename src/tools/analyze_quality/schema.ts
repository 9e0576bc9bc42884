/**
 * `analyze_quality`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { issueSchema, severitySchema as level, symbolSchema } from "../schemas.ts";

const fileSchema = z.object({
  file: z.string(),
  language: z.string(),
  loc: z.number().int(),
  lloc: z.number().int(),
  sloc: z.number().int(),
  comments: z.number().int(),
  multi: z.number().int(),
  blank: z.number().int(),
  single_comments: z.number().int(),
  cyclomatic_complexity: z.number().int(),
  halstead_volume: z.number(),
  maintainability_index: z.number(),
  rank: z.enum(["A", "B", "C"]),
  functions: z.number().int(),
  syntax_errors: z.number().int(),
  issues: z.number().int(),
});

const functionSchema = symbolSchema.pick({
  name: true,
  qualified_name: true,
  kind: true,
  file: true,
  line: true,
  end_line: true,
}).extend({
  complexity: z.number().int(),
  rank: z.string(),
});

/** Its arguments. */
export const input = z.object({
  path: z.string().optional().describe("File or folder (default: all)"),
  max_issues: z.number().int().min(0).max(100_000).optional(),
  min_severity: level.optional().describe("default LOW"),
  max_functions: z.number().int().min(0).max(1000).optional(),
  time_budget_ms: z.number().int().min(1000).max(3_600_000).optional().describe(
    "default 22000, min 1000",
  ),
});

/** Its payload. */
export const output = z.object({
  path: z.string(),
  maintainability_index: z.number(),
  rank: z.enum(["A", "B", "C"]),
  files: z.array(fileSchema),
  worst_functions: z.array(functionSchema),
  bandit_issues: z.array(issueSchema),
  issue_counts: z.object({
    total: z.number().int(),
    by_severity: z.record(z.string(), z.number().int()),
    by_test: z.record(z.string(), z.number().int()),
  }),
  truncated: z.boolean(),
  partial: z.boolean().describe(
    "True when time ran out before every file was analyzed; call again to continue (done files are cached)",
  ),
  summary: z.object({
    files: z.number().int(),
    files_pending: z.number().int(),
    code_files: z.number().int(),
    sloc: z.number().int(),
    lloc: z.number().int(),
    cyclomatic_complexity: z.number().int(),
    languages: z.record(z.string(), z.number().int()),
  }),
  skipped: z.array(z.object({ file: z.string(), reason: z.string() })),
});

/** What `analyze_quality` answers. */
export type AnalyzeQualityPayload = z.infer<typeof output>;
