/**
 * How `codectx validate` prints `validate_code`'s payload. (The command, which reads the
 * file or standard input and exits 1 on errors, is `cli/analysis.ts`.)
 *
 * @module
 */

import type { CliOutput } from "../tool.ts";
import type { ValidateCodePayload } from "./schema.ts";

/** The payload as `codectx validate` prints it for the code named `name`. */
export function print(name: string, v: ValidateCodePayload): CliOutput {
  const m = v.metrics;
  const out = [
    `${name}: ${v.language}, ${
      v.valid ? "valid syntax" : `${v.syntax_errors.length} syntax error(s)`
    }; ` +
    `MI ${
      m.maintainability_index.toFixed(2)
    } (${m.rank}), CC ${m.cyclomatic_complexity}, SLOC ${m.sloc}`,
  ];
  for (const e of v.syntax_errors) out.push(`  ${e.line}:${e.column}  ${e.message}`);
  if (v.unresolved_symbols.length) out.push("unresolved names:");
  for (const u of v.unresolved_symbols) {
    const hint = u.suggestions.length ? `; did you mean ${u.suggestions.join(", ")}?` : "";
    out.push(`  ${u.line}:${u.column}  ${u.name} (${u.kind}) exists nowhere${hint}`);
  }
  if (v.security_issues.length) out.push("security issues:");
  for (const i of v.security_issues) {
    out.push(`  ${i.line}  ${i.severity}  ${i.test_id}  ${i.message}`);
  }
  return { out };
}
