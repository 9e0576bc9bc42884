/**
 * Validation of a code snippet: syntax errors, names that resolve nowhere, security
 * issues and metrics, in the snippet's language (given, from its path, or detected).
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import { detectLanguage, languageFromPath, normalizeLanguage, VALIDATABLE } from "./detect.ts";
import { ruleIssues } from "./fact_readers.ts";
import { analysisGrammar } from "./grammar.ts";
import { computeMetrics, type FileMetrics } from "./metrics.ts";
import type { ProjectView } from "./project_view.ts";
import { scanSecrets } from "./secrets.ts";
import { compareIssues, type SecurityIssue } from "./security.ts";
import { type SyntaxError, syntaxErrors } from "./syntax.ts";
import { checkTreeDepth } from "./tree_walk.ts";
import { type Unresolved, unresolvedSymbols } from "./unresolved.ts";
import { STOPPABLE, stopPoint } from "./stop_flag.ts";

/** Code larger than this is refused (413). */
export const MAX_CODE_BYTES = 1_048_576;

/** What validation says about a snippet. */
export interface Validation {
  /** No syntax errors. */
  valid: boolean;
  language: string;
  /** How the language was chosen. */
  languageSource: "argument" | "file_path" | "detected";
  syntaxErrors: SyntaxError[];
  unresolved: Unresolved[];
  issues: SecurityIssue[];
  metrics: FileMetrics;
}

const PYTHON_BLOCKS: ReadonlySet<string> = new Set([
  "if",
  "elif",
  "else",
  "for",
  "while",
  "def",
  "class",
  "try",
  "except",
  "finally",
  "with",
  "async",
]);

/** Refuses code that is too large, binary or not UTF-8 (decoded with replacements). */
export function checkCode(code: string): void {
  if (code.length > MAX_CODE_BYTES || new TextEncoder().encode(code).length > MAX_CODE_BYTES) {
    throw new CodectxError(
      "too_large",
      "code is larger than 1 MiB; validate a smaller part (a function or a class)",
    );
  }
  if (code.includes("\u0000")) {
    throw new CodectxError(
      "invalid_argument",
      "code holds NUL bytes: it looks binary; send source text",
    );
  }
  if (code.includes("\uFFFD")) {
    throw new CodectxError(
      "invalid_argument",
      "code is not valid UTF-8 text (it holds replacement characters); send UTF-8 source text",
    );
  }
}

/**
 * Picks the snippet's language: the argument (aliases allowed), else the path's
 * extension, else detection. Unknown → `invalid_argument` listing the languages.
 *
 * @example
 * ```ts
 * await chooseLanguage("x := 1", undefined, "cmd/main.go"); // { id: "go", source: "file_path" }
 * ```
 */
export async function chooseLanguage(
  code: string,
  language?: string,
  filePath?: string,
): Promise<{ id: string; source: Validation["languageSource"] }> {
  const supported = VALIDATABLE.join(", ");
  if (language !== undefined && language.trim() !== "") {
    const id = normalizeLanguage(language);
    if (!id) {
      throw new CodectxError(
        "invalid_argument",
        `unknown language '${language}'; supported languages: ${supported}`,
      );
    }
    return { id, source: "argument" };
  }
  if (filePath) {
    const id = languageFromPath(filePath);
    if (id) return { id, source: "file_path" };
  }
  const detected = await detectLanguage(code);
  if (!detected) {
    throw new CodectxError(
      "invalid_argument",
      `could not tell the language of the code${
        filePath ? ` (and '${filePath}' has no known extension)` : ""
      }; pass language, one of: ${supported}`,
    );
  }
  return { id: detected, source: "detected" };
}

/**
 * Validates a snippet against a project's names.
 *
 * @example
 * ```ts
 * const v = await validateCode({ code: "import os\nos.path.joinpath('a')\n" }, EMPTY_VIEW);
 * v.unresolved[0].name; // "os.path.joinpath"
 * ```
 */
export async function validateCode(
  input: { code: string; language?: string; filePath?: string },
  view: ProjectView,
): Promise<Validation> {
  checkCode(input.code);
  const { id, source } = await chooseLanguage(input.code, input.language, input.filePath);
  const g = await analysisGrammar(id)!;
  const tree = g.parser.parse(input.code, null, STOPPABLE);
  stopPoint();
  if (!tree) throw new CodectxError("internal", `the ${id} parser returned no tree`);
  try {
    const root = tree.rootNode;
    checkTreeDepth(root, "the code");
    stopPoint();
    const errors = syntaxErrors(root, id === "python" ? { colonBlocks: PYTHON_BLOCKS } : {});
    const file = input.filePath ?? "<snippet>";
    stopPoint();
    const matches = g.analysis.matches(root, STOPPABLE);
    stopPoint();
    const issues = [
      ...ruleIssues(g, matches, file, input.code),
      ...scanSecrets(file, input.code),
    ];
    issues.sort(compareIssues);
    stopPoint();
    return {
      valid: errors.length === 0,
      language: id,
      languageSource: source,
      syntaxErrors: errors,
      unresolved: await unresolvedSymbols(g, root, view, input.filePath),
      issues,
      metrics: computeMetrics(g, input.code, matches),
    };
  } finally {
    tree.delete();
  }
}
