/**
 * `validate_code`'s wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { issueSchema } from "../schemas.ts";

/** Its arguments. */
export const input = z.object({
  code: z.string(),
  language: z.string().optional(),
  file_path: z.string().optional().describe("Where it would live (relative imports)"),
  mode: z.enum(["validate", "explain"]).optional(),
});

/** Its payload. */
export const output = z.object({
  valid: z.boolean(),
  language: z.string(),
  language_source: z.enum(["argument", "file_path", "detected"]),
  syntax_errors: z.array(
    z.object({ line: z.number().int(), column: z.number().int(), message: z.string() }),
  ),
  unresolved_symbols: z.array(
    z.object({
      name: z.string(),
      line: z.number().int(),
      column: z.number().int(),
      kind: z.enum(["call", "member", "import"]),
      suggestions: z.array(z.string()),
    }),
  ),
  security_issues: z.array(issueSchema),
  metrics: z.object({
    loc: z.number().int(),
    lloc: z.number().int(),
    sloc: z.number().int(),
    comments: z.number().int(),
    blank: z.number().int(),
    cyclomatic_complexity: z.number().int(),
    halstead_volume: z.number(),
    maintainability_index: z.number(),
    rank: z.enum(["A", "B", "C"]),
    functions: z.array(z.object({
      name: z.string(),
      qualified_name: z.string(),
      kind: z.string(),
      line: z.number().int(),
      end_line: z.number().int(),
      complexity: z.number().int(),
      rank: z.string(),
    })),
  }),
  explanation: z.object({
    symbols: z.array(z.object({
      name: z.string(),
      qualified_name: z.string(),
      kind: z.string(),
      line: z.number().int(),
      end_line: z.number().int(),
      signature: z.string(),
      calls: z.array(z.string()),
    })),
    top_level_calls: z.array(z.string()).describe("Calls made outside any symbol"),
    project_symbols: z.array(z.object({
      name: z.string(),
      qualified_name: z.string(),
      kind: z.string(),
      file: z.string(),
      line: z.number().int(),
    })).describe("Project symbols the snippet calls"),
  }).optional().describe("Mode explain only"),
});

/** What `validate_code` answers. */
export type ValidateCodePayload = z.infer<typeof output>;
