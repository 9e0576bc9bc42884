/**
 * `validate_code`: check a snippet before it lands — syntax errors, names that exist
 * nowhere (a hallucinated API), security issues, metrics; in mode `explain` also what the
 * snippet defines and calls, and which project symbols those calls reach.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { languageFromPath } from "../analysis/detect.ts";
import { explainSnippet } from "../analysis/explain.ts";
import { projectView } from "../analysis/project_view.ts";
import { holdToolPool, toolPool } from "../analysis/pool.ts";
import { checkBrackets } from "../analysis/syntax.ts";
import { checkCode } from "../analysis/validate.ts";
import { issueSchema } from "./analyze_quality.ts";
import { defineTool } from "./tool.ts";

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
    "Check a code snippet: syntax errors (line, column, what was expected), names it calls or " +
    "imports that exist nowhere — not in the snippet, the project, the language's builtins and " +
    "standard library, or a declared dependency — with near names from the project (catches " +
    "hallucinated APIs), security issues (bandit ids for Python) and metrics (complexity, " +
    "maintainability index). The language comes from `language`, else `file_path`, else detection. " +
    "Mode `explain` adds `explanation`: the snippet's symbols, what each calls, and the project " +
    "symbols those calls reach.",
  input: z.object({
    code: z.string().describe("The code to check (at most 1 MiB)"),
    language: z.string().optional().describe(
      "Language id or common name: python, javascript, typescript, tsx, go, rust, java, c, cpp, csharp, ruby, php, kotlin, swift, scala, lua, bash; or a file extension such as .py",
    ),
    file_path: z.string().optional().describe(
      "Where the code would live, relative to the project root (picks the language and resolves relative imports)",
    ),
    mode: z.enum(["validate", "explain"]).optional().describe(
      "validate (default), or explain: also list the snippet's symbols, their calls and the project symbols they reach",
    ),
  }),
  output: z.object({
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
  }),
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
});
