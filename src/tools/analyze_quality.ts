/**
 * `analyze_quality`: Code quality: maintainability index, complexity per function, and security issues (bandit-compatible ids).
 *
 * Registered with its final schemas; the handler lands with its own issue.
 */

import { z } from "zod";
import { notImplemented } from "./not_implemented.ts";
import { defineTool } from "./tool.ts";

/** The `analyze_quality` tool. */
export const analyzeQualityTool = defineTool({
  name: "analyze_quality",
  description:
    "Code quality: maintainability index, complexity per function, and security issues (bandit-compatible ids).",
  input: z.object({
    path: z.string().optional().describe("File or folder (default: the whole project)"),
  }),
  output: z.object({
    path: z.string(),
    maintainability_index: z.number(),
    files: z.array(z.record(z.string(), z.unknown())),
    bandit_issues: z.array(z.record(z.string(), z.unknown())),
  }),
  handler: () => notImplemented("analyze_quality"),
});
