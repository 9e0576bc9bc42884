/**
 * `validate_code` as Markdown: valid or not, then syntax errors, names that exist nowhere,
 * security issues and metrics.
 *
 * @module
 */

import { issueLine, join, listOf } from "../markdown.ts";
import type { ValidateCodePayload } from "./schema.ts";

type Metrics = ValidateCodePayload["metrics"];

function metricsLine(m: Metrics): string {
  return `loc ${m.loc}, sloc ${m.sloc}, complexity ${m.cyclomatic_complexity}, ` +
    `maintainability ${m.maintainability_index} (${m.rank})`;
}

/** The verdict, what is wrong, the metrics; mode explain's explanation as one line of JSON. */
export function render(p: ValidateCodePayload): string {
  const m = p.metrics;
  return join([
    `${p.valid ? "valid" : "not valid"} ${p.language}`,
    listOf("Syntax errors", p.syntax_errors, (e) => `${e.line}:${e.column} ${e.message}`),
    listOf("Names that exist nowhere", p.unresolved_symbols, (u) => {
      const near = u.suggestions.length ? ` — did you mean ${u.suggestions.join(", ")}?` : "";
      return `${u.name} :${u.line}${near}`;
    }),
    listOf("Security issues", p.security_issues, issueLine),
    `Metrics: ${metricsLine(m)}`,
    listOf(
      "Functions",
      m.functions,
      (f) => `${f.qualified_name || f.name} :${f.line} complexity ${f.complexity} (${f.rank})`,
    ),
    p.explanation ? JSON.stringify({ explanation: p.explanation }) : "",
  ]);
}
