/**
 * `analyze_quality`: maintainability index (radon's formula and scale), complexity per
 * function, and security issues (bandit's ids for Python) of a file, a folder or the
 * whole project.
 */

import type { FileAnalysis } from "../../analysis/analyze.ts";
import type { FunctionMetrics } from "../../analysis/metrics.ts";
import { miRank } from "../../analysis/metrics.ts";
import { collectAnalyses } from "../../analysis/quality.ts";
import { atLeast, compareIssues, type SecurityIssue } from "../../analysis/security.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { render } from "./render.ts";
import { input, output } from "./schema.ts";

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
    "Quality of a file, folder or project: maintainability (A/B/C), complexity, worst functions, security.",
  input,
  output,
  annotations: READ_ONLY,
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
  render,
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
