/**
 * `analyze_quality`: maintainability index (radon's formula and scale), complexity per
 * function, and security issues (bandit's ids for Python) of a file, a folder or the
 * whole project.
 */

import { z } from "npm:zod@4.1.9";
import type { FileAnalysis } from "../analysis/analyze.ts";
import type { FunctionMetrics } from "../analysis/metrics.ts";
import { miRank } from "../analysis/metrics.ts";
import { collectAnalyses } from "../analysis/quality.ts";
import { atLeast, compareIssues, type SecurityIssue } from "../analysis/security.ts";
import { defineTool } from "./tool.ts";

const level = z.enum(["LOW", "MEDIUM", "HIGH"]);

/** A security issue on the wire (bandit's JSON names, plus the CWE id). */
export const issueSchema = z.object({
  test_id: z.string(),
  test_name: z.string(),
  severity: level,
  confidence: level,
  file: z.string(),
  line: z.number().int(),
  code: z.string(),
  message: z.string(),
  cwe: z.number().int(),
});

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

const functionSchema = z.object({
  name: z.string(),
  qualified_name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
  end_line: z.number().int(),
  complexity: z.number().int(),
  rank: z.string(),
});

/** Time after which no new file is started (the executor's limit is 30 s). */
const ANSWER_WITHIN_MS = 22_000;

/** Rounds to two decimals, as radon prints. */
function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** The `analyze_quality` tool. */
export const analyzeQualityTool = defineTool({
  name: "analyze_quality",
  description:
    "Code quality of a file, a folder or the whole project: maintainability index per file " +
    "(radon's formula and 0–100 scale, ranks A/B/C) and its SLOC-weighted mean, cyclomatic " +
    "complexity and Halstead volume, the most complex functions, and security issues sorted " +
    "by severity (bandit's test ids for Python, own ids for JS/TS, Go and secrets).",
  input: z.object({
    path: z.string().optional().describe(
      "File or folder relative to the project root (default: the whole project)",
    ),
    max_issues: z.number().int().min(0).max(100_000).optional().describe(
      "At most this many issues in bandit_issues (default 500); issue_counts counts them all",
    ),
    min_severity: level.optional().describe("Leave out issues below this severity (default LOW)"),
    max_functions: z.number().int().min(0).max(1000).optional().describe(
      "How many of the most complex functions to list (default 20)",
    ),
    time_budget_ms: z.number().int().min(1000).max(3_600_000).optional().describe(
      "Stop starting new files after this long and answer with what is done (default 22000, " +
        "inside the 30 s call limit); results are cached, so a second call goes on",
    ),
  }),
  output: z.object({
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
  }),
  handler: async (
    { path, max_issues, min_severity, max_functions, time_budget_ms },
    { project, signal },
  ) => {
    // The whole project is "." (resolved too: a root that is gone is said so).
    const rel = project.resolvePath(path ?? ".", "path");
    // Answer with what is done before the executor's limit rather than time out.
    const deadline = performance.now() + (time_budget_ms ?? ANSWER_WITHIN_MS);
    const { analyses, skipped, pending } = await collectAnalyses(project.root, rel, {
      signal,
      deadline,
    });
    return report(rel, analyses, skipped, pending, {
      maxIssues: max_issues ?? 500,
      minSeverity: min_severity ?? "LOW",
      maxFunctions: max_functions ?? 20,
    });
  },
});

function report(
  rel: string,
  analyses: FileAnalysis[],
  skipped: Array<{ file: string; reason: string }>,
  pending: number,
  opts: { maxIssues: number; minSeverity: "LOW" | "MEDIUM" | "HIGH"; maxFunctions: number },
) {
  const files = [];
  const functions: Array<FunctionMetrics & { file: string }> = [];
  const languages: Record<string, number> = {};
  let issues: SecurityIssue[] = [];
  let weighted = 0;
  let weight = 0;
  let sloc = 0;
  let lloc = 0;
  let complexity = 0;
  for (const a of analyses) {
    for (const i of a.issues) if (atLeast(i.severity, opts.minSeverity)) issues.push(i);
    const m = a.metrics;
    if (!m) continue;
    languages[a.language] = (languages[a.language] ?? 0) + 1;
    sloc += m.raw.sloc;
    lloc += m.raw.lloc;
    complexity += m.complexity;
    // A file's index weighs by its code lines; an empty file counts once.
    const w = Math.max(1, m.raw.sloc);
    weighted += m.mi * w;
    weight += w;
    for (const f of m.functions) functions.push({ ...f, file: a.file });
    files.push({
      file: a.file,
      language: a.language,
      loc: m.raw.loc,
      lloc: m.raw.lloc,
      sloc: m.raw.sloc,
      comments: m.raw.comments,
      multi: m.raw.multi,
      blank: m.raw.blank,
      single_comments: m.raw.singleComments,
      cyclomatic_complexity: m.complexity,
      halstead_volume: round2(m.halstead.volume),
      maintainability_index: round2(m.mi),
      rank: m.miRank,
      functions: m.functions.length,
      syntax_errors: a.syntaxErrors,
      issues: a.issues.length,
    });
  }
  issues.sort(compareIssues);
  const bySeverity: Record<string, number> = { HIGH: 0, MEDIUM: 0, LOW: 0 };
  const byTest: Record<string, number> = {};
  for (const i of issues) {
    bySeverity[i.severity]++;
    byTest[i.test_id] = (byTest[i.test_id] ?? 0) + 1;
  }
  const total = issues.length;
  const truncated = total > opts.maxIssues;
  if (truncated) issues = issues.slice(0, opts.maxIssues);
  functions.sort((a, b) =>
    b.complexity - a.complexity || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line
  );
  const mi = weight ? weighted / weight : 100;
  return {
    path: rel || ".",
    maintainability_index: round2(mi),
    rank: miRank(mi),
    files,
    worst_functions: functions.slice(0, opts.maxFunctions).map((f) => ({
      name: f.name,
      qualified_name: f.qualifiedName,
      kind: f.kind,
      file: f.file,
      line: f.line,
      end_line: f.endLine,
      complexity: f.complexity,
      rank: f.rank,
    })),
    bandit_issues: issues,
    issue_counts: { total, by_severity: bySeverity, by_test: byTest },
    truncated,
    partial: pending > 0,
    summary: {
      files: analyses.length,
      files_pending: pending,
      code_files: files.length,
      sloc,
      lloc,
      cyclomatic_complexity: complexity,
      languages,
    },
    skipped,
  };
}
