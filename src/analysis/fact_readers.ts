/**
 * Which fact reader turns a language's rules-query captures into facts, and the security
 * issues of one file's matches: the step that analysis of files and validation of
 * snippets share.
 *
 * @module
 */

import type { QueryMatch } from "npm:web-tree-sitter@0.25.10";
import type { FileFacts } from "./facts.ts";
import { goFacts } from "./facts_go.ts";
import { jsFacts } from "./facts_js.ts";
import { pythonFacts } from "./facts_python.ts";
import type { AnalysisGrammar } from "./grammar.ts";
import { evaluateRules, type SecurityIssue } from "./security.ts";

/** Reads the facts of one file from the matches of its analysis query. */
export type FactReader = (g: AnalysisGrammar, matches: readonly QueryMatch[]) => FileFacts;

/** Fact readers by the name of a rules query. */
export const FACT_READERS: Readonly<Record<string, FactReader>> = {
  python: pythonFacts,
  javascript: jsFacts,
  typescript: jsFacts,
  go: goFacts,
};

/**
 * The rule issues of one file (none when its language has no rules), in table order.
 *
 * @example
 * ```ts
 * const g = (await analysisGrammar("python"))!;
 * const text = "import pickle\n";
 * ruleIssues(g, g.analysis.matches(g.parser.parse(text)!.rootNode), "a.py", text);
 * // [{ test_id: "B403", … }]
 * ```
 */
export function ruleIssues(
  g: AnalysisGrammar,
  matches: readonly QueryMatch[],
  file: string,
  text: string,
): SecurityIssue[] {
  const reader = g.spec.rules ? FACT_READERS[g.spec.rules] : undefined;
  if (!g.hasFacts || !reader) return [];
  return evaluateRules(g.id, reader(g, matches), file, text.split(/\r?\n/));
}
