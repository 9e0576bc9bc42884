/**
 * `validate_code`: Check a code snippet: syntax errors, names that exist nowhere (hallucinated APIs), security issues, metrics.
 *
 * Registered with its final schemas; the handler lands with its own issue.
 */

import { z } from "zod";
import { notImplemented } from "./not_implemented.ts";
import { defineTool } from "./tool.ts";

/** The `validate_code` tool. */
export const validateCodeTool = defineTool({
  name: "validate_code",
  description:
    "Check a code snippet: syntax errors, names that exist nowhere (hallucinated APIs), security issues, metrics.",
  input: z.object({
    code: z.string().describe("The code to check"),
    language: z.string().optional(),
    file_path: z.string().optional().describe("Where the code would live (picks the language)"),
  }),
  output: z.object({
    valid: z.boolean(),
    language: z.string(),
    syntax_errors: z.array(
      z.object({ line: z.number().int(), column: z.number().int(), message: z.string() }),
    ),
    unresolved_symbols: z.array(
      z.object({ name: z.string(), line: z.number().int(), suggestions: z.array(z.string()) }),
    ),
    security_issues: z.array(z.record(z.string(), z.unknown())),
    metrics: z.record(z.string(), z.unknown()),
  }),
  handler: () => notImplemented("validate_code"),
});
