/**
 * The lines that hold a ranked search's query as written. An assistant that searches for an
 * error message or a line of code in plain (hybrid) mode wants the line that holds it, which a
 * ranking of chunks by meaning may put below look-alikes or leave out (issue 35: the MCP arm
 * read ten hits where `rg` printed the one line). A query of a few words is also looked up
 * literally; when a few lines of code hold it, they lead the results.
 *
 * @module
 */

import type { Project } from "../../project/project.ts";
import { searchProject } from "../../search/hybrid.ts";
import type { SearchOptions } from "../../search/options.ts";
import type { CallLimits } from "../../util/bounded.ts";
import { DEFAULT_TOP_K } from "../../types.ts";
import type { SemanticSearchPayload } from "./schema.ts";

/** Lines holding the query shown first; a query held by more lines is too common to lead. */
const MAX_LINES = 5;
/** Words a query has at least to be looked up literally (one or two words are a name). */
const MIN_WORDS = 3;

/**
 * The text a query's lines must hold: the query without the quotes around it.
 *
 * @example
 * ```ts
 * literalText('"unknown url type"'); // "unknown url type"
 * ```
 */
export function literalText(query: string): string {
  const t = query.trim();
  const m = t.match(/^(["'`])(.*)\1$/s);
  return m ? m[2] : t;
}

/**
 * `ranked` with the lines of code that hold its query as written in front (exact matches,
 * with their column), when the query has {@link MIN_WORDS} words or more on one line and at
 * most {@link MAX_LINES} lines hold it; the ranked hits whose range holds such a line are
 * left out (the line names its symbol), and the whole stays within `top_k`.
 */
export async function withLiteralLines(
  project: Project,
  ranked: SemanticSearchPayload,
  opts: SearchOptions,
  limits: CallLimits,
): Promise<SemanticSearchPayload> {
  const text = literalText(ranked.query);
  if (ranked.mode === "exact" || ranked.mode === "regex") return ranked;
  if (text.includes("\n") || text.split(/\s+/).length < MIN_WORDS) return ranked;
  const found = await searchProject(
    project,
    text,
    {
      mode: "exact",
      top_k: MAX_LINES + 1,
      path_prefix: opts.path_prefix,
      language: opts.language,
      scope: opts.scope,
      include_tests: opts.include_tests,
    },
    undefined,
    limits,
  );
  const lines = found.snippets;
  if (lines.length === 0 || lines.length > MAX_LINES) return ranked;
  const holds = (h: { file: string; line: number; end_line: number }) =>
    lines.some((l) => l.file === h.file && h.line <= l.line && l.line <= h.end_line);
  const rest = ranked.snippets.filter((h) => !holds(h));
  const k = Math.max(opts.top_k ?? DEFAULT_TOP_K, lines.length);
  return { ...ranked, snippets: [...lines, ...rest].slice(0, k) };
}
