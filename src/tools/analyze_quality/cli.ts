/**
 * How `codectx quality` prints `analyze_quality`'s payload: the mean index, the lowest
 * files, the most complex functions and the issues. (The command, which reads PATH from the
 * current directory and fails on a severity, is `cli/analysis.ts`.)
 *
 * @module
 */

import type { CliOutput } from "../tool.ts";
import type { AnalyzeQualityPayload } from "./schema.ts";

/** The payload as `codectx quality` prints it: `top` files and functions, `maxIssues` issues. */
export function print(q: AnalyzeQualityPayload, top: number, maxIssues: number): CliOutput {
  const out = [
    `${q.path}: maintainability index ${
      q.maintainability_index.toFixed(2)
    } (${q.rank}) over ${q.summary.code_files} code files, ${q.summary.sloc} SLOC`,
  ];
  if (q.files.length > 1 && top > 0) {
    out.push("\nlowest maintainability:");
    const worst = [...q.files].sort((a, b) => a.maintainability_index - b.maintainability_index)
      .slice(0, top);
    for (const f of worst) {
      out.push(
        `  ${
          f.maintainability_index.toFixed(2).padStart(6)
        } ${f.rank}  ${f.file}  (CC ${f.cyclomatic_complexity}, SLOC ${f.sloc})`,
      );
    }
  }
  if (q.worst_functions.length) {
    out.push("\nmost complex functions:");
    for (const f of q.worst_functions.slice(0, top)) {
      out.push(
        `  ${String(f.complexity).padStart(4)} ${f.rank}  ${f.file}:${f.line}  ${f.qualified_name}`,
      );
    }
  }
  const c = q.issue_counts;
  out.push(
    `\nsecurity issues: ${c.total} (HIGH ${c.by_severity.HIGH ?? 0}, MEDIUM ${
      c.by_severity.MEDIUM ?? 0
    }, LOW ${c.by_severity.LOW ?? 0})`,
  );
  for (const i of q.bandit_issues.slice(0, maxIssues)) {
    out.push(`  ${i.severity}/${i.confidence}  ${i.test_id}  ${i.file}:${i.line}  ${i.message}`);
  }
  if (c.total > maxIssues) out.push(`  … ${c.total - maxIssues} more (--max-issues N, or --json)`);
  return { out };
}
