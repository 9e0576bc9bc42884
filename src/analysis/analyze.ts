/**
 * One file's analysis: metrics (for code), security issues (rules for code, secret
 * patterns for every text) and the count of syntax errors. Pure: text in, report out.
 *
 * @module
 */

import { languageById, languageForPath } from "../parse/languages.ts";
import { countErrors } from "../parse/parser.ts";
import { ruleIssues } from "./fact_readers.ts";
import { analysisGrammar } from "./grammar.ts";
import { computeMetrics, type FileMetrics } from "./metrics.ts";
import { scanSecrets } from "./secrets.ts";
import type { SecurityIssue } from "./security.ts";
import { bracketsPastLimit } from "./syntax.ts";
import { MAX_TREE_DEPTH, treeDepth } from "./tree_walk.ts";
import { STOPPABLE, stopPoint } from "./stop_flag.ts";

/** What analysis says about one file. */
export interface FileAnalysis {
  file: string;
  /** Language id, or "text" for a file in no known language. */
  language: string;
  /** Null for text formats and unknown files. */
  metrics: FileMetrics | null;
  issues: SecurityIssue[];
  /** ERROR and MISSING nodes in the tree. */
  syntaxErrors: number;
  /** Set when the file was not analyzed: its tree nests deeper than analysis reads. */
  tooDeep?: true;
  /** With `tooDeep`: the limit passed, `brackets` (before parsing) or `syntax` (the tree). */
  tooDeepBy?: "brackets" | "syntax";
}

/**
 * Analyzes one file's text. `language` defaults to the one of the path; a file in no
 * known language is scanned for secrets only.
 *
 * @example
 * ```ts
 * const a = await analyzeSource("app.py", "import pickle\npickle.loads(b)\n");
 * a.issues.map((i) => i.test_id); // ["B403", "B301"]
 * a.metrics?.mi; // 100
 * ```
 */
export async function analyzeSource(
  file: string,
  text: string,
  language?: string,
): Promise<FileAnalysis> {
  const id = language ?? languageForPath(file)?.id ?? "text";
  const secrets = scanSecrets(file, text);
  const grammar = languageById(id)?.grammar ? analysisGrammar(id) : undefined;
  if (!grammar) return { file, language: id, metrics: null, issues: secrets, syntaxErrors: 0 };
  if (bracketsPastLimit(text)) {
    const base = { file, language: id, metrics: null, issues: secrets, syntaxErrors: 0 };
    return { ...base, tooDeep: true, tooDeepBy: "brackets" };
  }
  const g = await grammar;
  const tree = g.parser.parse(text, null, STOPPABLE);
  stopPoint();
  if (!tree) return { file, language: id, metrics: null, issues: secrets, syntaxErrors: 0 };
  try {
    const root = tree.rootNode;
    if (treeDepth(root) > MAX_TREE_DEPTH) {
      const base = { file, language: id, metrics: null, issues: secrets, syntaxErrors: 0 };
      return { ...base, tooDeep: true, tooDeepBy: "syntax" };
    }
    // One walk of the tree: metrics and facts come from the same query.
    const matches = g.analysis.matches(root, STOPPABLE);
    stopPoint();
    const metrics = computeMetrics(g, text, matches);
    stopPoint();
    const issues = [...ruleIssues(g, matches, file, text), ...secrets];
    return {
      file,
      language: id,
      metrics,
      issues,
      syntaxErrors: root.hasError ? countErrors(root) : 0,
    };
  } finally {
    tree.delete();
  }
}
