/**
 * The lines that hold a ranked search's query as written. An assistant that searches for an
 * error message or a line of code in plain (hybrid) mode wants the line that holds it, which a
 * ranking of chunks by meaning may put below look-alikes or leave out (issue 35: the MCP arm
 * read ten hits where `rg` printed the one line). A query of a few words is also looked up
 * literally when the ranking found no clear answer; when a few lines of code hold it, they lead
 * the results.
 *
 * @module
 */

import type { Project } from "../../project/project.ts";
import { scanText } from "../../search/hybrid.ts";
import type { SearchOptions } from "../../search/options.ts";
import type { CallLimits } from "../../util/bounded.ts";
import { DEFAULT_TOP_K } from "../../types.ts";
import { codeTokens } from "../../util/tokens.ts";
import type { SemanticSearchPayload } from "./schema.ts";
import type { WireSearchItem } from "../schemas.ts";

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

/** A ranked search whose first hit scores this much has its answer: no lines are looked for. */
const CLEAR = 0.3;

/**
 * The lines of code that hold the query of `ranked` as written (with their column), when the
 * query has {@link MIN_WORDS} words or more on one line: when the ranking found no clear answer
 * (its first hit under {@link CLEAR}), the exact matches in the project if at most
 * {@link MAX_LINES} lines hold it; else the lines of its hits' snippets that hold it. The scan
 * reads only the rows whose terms can hold the query (`scanText` with whole words: ~0.1 ms for
 * a few rows); a query of stop words alone is not scanned for.
 */
export async function literalLines(
  project: Project,
  ranked: SemanticSearchPayload,
  opts: SearchOptions,
  limits: CallLimits,
): Promise<WireSearchItem[]> {
  const text = literalText(ranked.query);
  if (ranked.mode === "exact" || ranked.mode === "regex") return [];
  if (text.includes("\n") || text.split(/\s+/).length < MIN_WORDS) return [];
  const held = ranked.snippets.flatMap((h) => lineHolding(h, text)).slice(0, MAX_LINES);
  if ((ranked.snippets[0]?.score ?? 0) >= CLEAR) return held;
  // The scan reads the rows the lexical index narrows it to. Words it has no term for (stop
  // words: "if it is") narrow nothing: a scan of every file (0.7 s of CPU on the stdlib, far
  // more on a large tree) for a phrase that common costs more than the search.
  if (!text.split(/\s+/).some((w) => codeTokens(w).length > 0)) return held;
  const found = await scanText(
    project,
    text,
    {
      mode: "exact",
      top_k: MAX_LINES + 1,
      path_prefix: opts.path_prefix,
      language: opts.language,
      // Code unless asked: a README that quotes the question is not the line that does it.
      scope: opts.scope ?? "code",
      include_tests: opts.include_tests,
    },
    limits,
    true,
  );
  return found.snippets.length > MAX_LINES ? held : found.snippets;
}

/** The line of a ranked hit's snippet that holds `text` (any case), as a literal hit; or none. */
function lineHolding(h: WireSearchItem, text: string): WireSearchItem[] {
  const low = text.toLowerCase();
  const lines = h.snippet.split("\n");
  const i = lines.findIndex((l) => l.toLowerCase().includes(low));
  if (i < 0) return [];
  const line = (h.snippet_line ?? h.line) + i;
  const { snippet_line: _, ...rest } = h;
  return [{
    ...rest,
    line,
    end_line: line,
    snippet: lines[i],
    column: lines[i].toLowerCase().indexOf(low) + 1,
  }];
}

/**
 * `ranked` with `lines` (from {@link literalLines}) in front; the ranked hits whose range
 * holds such a line are left out (the line names its symbol), and the whole stays within
 * `top_k`.
 */
export function withLiteralLines(
  ranked: SemanticSearchPayload,
  lines: WireSearchItem[],
  topK = DEFAULT_TOP_K,
): SemanticSearchPayload {
  if (lines.length === 0) return ranked;
  const holds = (h: { file: string; line: number; end_line: number }) =>
    lines.some((l) => l.file === h.file && h.line <= l.line && l.line <= h.end_line);
  const rest = ranked.snippets.filter((h) => !holds(h));
  return { ...ranked, snippets: [...lines, ...rest].slice(0, Math.max(topK, lines.length)) };
}
