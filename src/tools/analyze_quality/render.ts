/**
 * `analyze_quality` as Markdown: the mean index and issue counts, then the least
 * maintainable files, the most complex functions and the issues.
 *
 * @module
 */

import { issueLine, join, listOf, loc } from "../markdown.ts";
import type { AnalyzeQualityPayload } from "./schema.ts";

/** One line of totals, then the ten worst files and functions and the first twenty issues. */
export function render(p: AnalyzeQualityPayload): string {
  const s = p.summary;
  const counts = p.issue_counts;
  const sev = counts.by_severity;
  const files = p.files.filter((f) => f.sloc > 0)
    .sort((a, b) => a.maintainability_index - b.maintainability_index).slice(0, 10);
  const worst = p.worst_functions.slice(0, 10);
  const issues = p.bandit_issues;
  return join([
    `${p.path}: maintainability ${p.maintainability_index} (${p.rank}), ` +
    `${s.code_files} code files, sloc ${s.sloc}, complexity ${s.cyclomatic_complexity}; ` +
    `issues ${counts.total} (high ${sev.HIGH ?? 0}, medium ${sev.MEDIUM ?? 0}, low ${
      sev.LOW ?? 0
    })${p.partial ? "; partial" : ""}`,
    listOf(
      "Least maintainable files",
      files,
      (f) =>
        `${f.file} MI ${f.maintainability_index} (${f.rank}), complexity ${f.cyclomatic_complexity}, sloc ${f.sloc}`,
    ),
    listOf(
      "Most complex functions",
      worst,
      (f) => `${f.qualified_name || f.name} ${loc(f)} complexity ${f.complexity} (${f.rank})`,
    ),
    listOf("Issues", issues.slice(0, 20), issueLine, issues.length),
  ]);
}
