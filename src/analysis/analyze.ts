/**
 * One file's analysis: metrics (for code), security issues (rules for code, secret
 * patterns for every text) and the count of syntax errors. Pure: text in, report out.
 *
 * @module
 */

import type { Node, QueryMatch } from "web-tree-sitter";
import { languageById, languageForPath } from "../parse/languages.ts";
import type { FileFacts } from "./facts.ts";
import { goFacts } from "./facts_go.ts";
import { jsFacts } from "./facts_js.ts";
import { pythonFacts } from "./facts_python.ts";
import { type AnalysisGrammar, analysisGrammar } from "./grammar.ts";
import { computeMetrics, type FileMetrics } from "./metrics.ts";
import { scanSecrets } from "./secrets.ts";
import { evaluateRules, type SecurityIssue } from "./security.ts";

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
}

/** Fact readers by the name of a rules query. */
const FACT_READERS: Record<
  string,
  (g: AnalysisGrammar, matches: readonly QueryMatch[]) => FileFacts
> = {
  python: pythonFacts,
  javascript: jsFacts,
  typescript: jsFacts,
  go: goFacts,
};

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
  const g = await grammar;
  const tree = g.parser.parse(text);
  if (!tree) return { file, language: id, metrics: null, issues: secrets, syntaxErrors: 0 };
  try {
    const root = tree.rootNode;
    // One walk of the tree: metrics and facts come from the same query.
    const matches = g.analysis.matches(root);
    const metrics = computeMetrics(g, text, matches);
    let issues = secrets;
    const reader = g.spec.rules ? FACT_READERS[g.spec.rules] : undefined;
    if (g.hasFacts && reader) {
      issues = [...evaluateRules(id, reader(g, matches), file, text.split(/\r?\n/)), ...secrets];
    }
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

function countErrors(node: Node): number {
  let count = node.isError || node.isMissing ? 1 : 0;
  for (const c of node.children) {
    if (c && (c.hasError || c.isMissing)) count += countErrors(c);
  }
  return count;
}
