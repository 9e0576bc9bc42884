/**
 * Grammars for analysis: the parser from `src/parse` plus the analysis queries of a
 * language (`metrics/<lang>.scm`, `rules/<lang>.scm`, `resolve/<lang>.scm`), compiled once.
 *
 * @module
 */

import { Query } from "npm:web-tree-sitter@0.25.10";
import type { Language, Parser } from "npm:web-tree-sitter@0.25.10";
import { loadGrammar } from "../parse/parser.ts";
import { languageById } from "../parse/languages.ts";
import { readQuery as readQueryFile } from "../parse/query_loader.ts";
import { ANALYSIS_LANGUAGES, type AnalysisSpec } from "./spec.ts";
import { assetUrl } from "../util/assets.ts";

/** A language ready for analysis. */
export interface AnalysisGrammar {
  readonly id: string;
  readonly spec: AnalysisSpec;
  readonly parser: Parser;
  readonly language: Language;
  /**
   * One query for a file's analysis: the metrics captures (`metrics/<lang>.scm`) then the
   * fact captures of security rules (`rules/<lang>.scm`, names `fact.*`), so that a file's
   * tree is walked once.
   */
  readonly analysis: Query;
  /** Whether the language has security rules (fact captures in `analysis`). */
  readonly hasFacts: boolean;
  /** Name captures for the unresolved-symbol check, when the language has them. */
  readonly resolve: Query | null;
  /** Node types that are comments. */
  readonly commentTypes: ReadonlySet<string>;
}

const cache = new Map<string, Promise<AnalysisGrammar>>();

/** A query file of this folder (`metrics/c.scm`), its `; inherits:` line applied. */
function readQuery(path: string): Promise<string> {
  return readQueryFile(assetUrl(`src/analysis/${path}`));
}

async function load(id: string, spec: AnalysisSpec): Promise<AnalysisGrammar> {
  const loaded = await loadGrammar(id);
  const language = loaded.parser.language;
  if (!language) throw new Error(`grammar of '${id}' has no language`);
  const compile = (path: string, text: string) => {
    try {
      return new Query(language, text);
    } catch (e) {
      throw new Error(`query ${path} does not compile for ${id}: ${(e as Error).message}`);
    }
  };
  const metricsPath = `metrics/${spec.metrics}.scm`;
  const rulesPath = spec.rules ? `rules/${spec.rules}.scm` : null;
  const metricsText = await readQuery(metricsPath);
  const rulesText = rulesPath ? await readQuery(rulesPath) : "";
  const resolvePath = spec.resolve ? `resolve/${spec.resolve}.scm` : null;
  return {
    id,
    spec,
    parser: loaded.parser,
    language,
    analysis: compile(
      rulesPath ? `${metricsPath} + ${rulesPath}` : metricsPath,
      `${metricsText}\n${rulesText}`,
    ),
    hasFacts: rulesPath !== null,
    resolve: resolvePath ? compile(resolvePath, await readQuery(resolvePath)) : null,
    commentTypes: new Set(languageById(id)?.grammar?.commentTypes ?? ["comment"]),
  };
}

/**
 * The analysis grammar of a language id, or undefined when codectx does not analyze it
 * (text formats).
 *
 * @example
 * ```ts
 * const g = await analysisGrammar("python");
 * g?.spec.complexityTotal; // "radon"
 * ```
 */
export function analysisGrammar(id: string): Promise<AnalysisGrammar> | undefined {
  const spec = ANALYSIS_LANGUAGES[id];
  if (!spec) return undefined;
  let g = cache.get(id);
  if (!g) {
    g = load(id, spec);
    cache.set(id, g);
  }
  return g;
}
