/**
 * `validate_code`: check a snippet before it lands — syntax errors, names that exist
 * nowhere (a hallucinated API), security issues, metrics; in mode `explain` also what the
 * snippet defines and calls, and which project symbols those calls reach.
 *
 * @module
 */

import { languageFromPath } from "../../analysis/detect.ts";
import { explainSnippet } from "../../analysis/explain.ts";
import { projectView } from "../../analysis/project_view.ts";
import { holdToolPool, toolPool } from "../../analysis/pool.ts";
import { checkBrackets } from "../../analysis/syntax.ts";
import { checkCode } from "../../analysis/validate.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { render } from "./render.ts";
import { input, output } from "./schema.ts";

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** The explanation without its language (the payload names it once). */
function withoutLanguage<T extends { language: string }>(e: T): Omit<T, "language"> {
  const { language: _language, ...rest } = e;
  return rest;
}

/** The `validate_code` tool. */
export const validateCodeTool = defineTool({
  name: "validate_code",
  description:
    "Check a snippet: syntax, names that exist nowhere (near ones suggested), security, metrics; mode `explain`: what its calls reach.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ code, language: given, file_path, mode }, { project, signal }) => {
    const filePath = file_path === undefined ? undefined : project.resolvePath(file_path);
    // A bare extension names the language of a file that lives outside the project.
    const language = given?.startsWith(".") ? languageFromPath(`x${given}`) ?? given : given;
    // Refused at once when too large; parsed and analyzed on a worker the call's time
    // limit can stop, so the server's own thread stays free.
    checkCode(code);
    // Brackets nested (or left open) past the limit are refused before any parse: the
    // parser's error recovery on `((((…` costs seconds per 100 KB.
    checkBrackets(code, "the code");
    const release = holdToolPool();
    const v = await toolPool().validate(
      { code, language, filePath, explain: mode === "explain" },
      await projectView(project),
      { signal },
    ).finally(release);
    const explanation = v.outline ? await explainSnippet(project, v.outline) : undefined;
    const m = v.metrics;
    return {
      valid: v.valid,
      language: v.language,
      language_source: v.languageSource,
      syntax_errors: v.syntaxErrors,
      unresolved_symbols: v.unresolved,
      security_issues: v.issues,
      metrics: {
        loc: m.raw.loc,
        lloc: m.raw.lloc,
        sloc: m.raw.sloc,
        comments: m.raw.comments,
        blank: m.raw.blank,
        cyclomatic_complexity: m.complexity,
        halstead_volume: round2(m.halstead.volume),
        maintainability_index: round2(m.mi),
        rank: m.miRank,
        functions: m.functions.map((f) => ({
          name: f.name,
          qualified_name: f.qualifiedName,
          kind: f.kind,
          line: f.line,
          end_line: f.endLine,
          complexity: f.complexity,
          rank: f.rank,
        })),
      },
      ...(explanation ? { explanation: withoutLanguage(explanation) } : {}),
    };
  },
  render,
});
