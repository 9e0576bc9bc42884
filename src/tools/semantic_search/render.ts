/**
 * `semantic_search` as Markdown: numbered hits, each a heading and at most six lines of its
 * code; a leading comment becomes the heading's summary.
 *
 * @module
 */

import type { WireSearchItem } from "../schemas.ts";
import { fence, firstLine, join, loc } from "../markdown.ts";
import type { SemanticSearchPayload } from "./schema.ts";

/** Lines of a search result's code shown; the rest is a `file:line` away. */
const SNIPPET_LINES = 6;

/**
 * A snippet's leading comment block, cut off: its first sentence goes to the heading, the
 * code starts at the first line that is not comment.
 */
function splitLeadingComment(lines: string[]): { summary: string; code: string[] } {
  let i = 0;
  while (i < lines.length && lines[i].trim() === "") i++;
  const first = lines[i]?.trim() ?? "";
  let end = i;
  if (first.startsWith("/*")) {
    while (end < lines.length && !lines[end].includes("*/")) end++;
    end++;
  } else if (/^(\/\/|# )/.test(first)) {
    while (end < lines.length && /^\s*(\/\/|#( |$))/.test(lines[end])) end++;
  }
  if (end === i) return { summary: "", code: lines.slice(i) };
  const text = lines.slice(i, end).map((l) => l.replace(/^\s*(\/\*\*?|\*\/|\*|\/\/\/?|#)\s?/, ""))
    .map((l) => l.replace(/\*\/\s*$/, "").trim()).filter((l) => l && !l.startsWith("@"));
  return { summary: firstLine(text.join(" ").split(/(?<=\.)\s/)[0]), code: lines.slice(end) };
}

/**
 * Numbered hits, each a heading and its code. A leading comment becomes the heading's summary,
 * unless the lines are the match themselves (`literal`: an exact or regex search) or nothing
 * but the comment would be left: then the lines are quoted as they are.
 */
function snippets(items: WireSearchItem[], literal: boolean): string {
  return items.map((h, i) => {
    const lines = h.snippet.replace(/\s+$/, "").split("\n");
    const split = splitLeadingComment(lines);
    const { summary, code } = literal || split.code.every((l) => l.trim() === "")
      ? { summary: "", code: lines }
      : split;
    const more = code.length > SNIPPET_LINES ? `\n(${code.length - SNIPPET_LINES} more lines)` : "";
    return `${i + 1}. ${loc(h)}${h.symbol ? ` ${h.symbol}` : ""}${h.kind ? ` (${h.kind})` : ""}${
      summary ? ` — ${summary}` : ""
    }\n${fence(code.slice(0, SNIPPET_LINES).join("\n"), h.language)}${more}`;
  }).join("\n");
}

/** A score with two significant digits (`0.42`, `0.0011`). */
function fmtScore(x: number): string {
  return x >= 0.01 || x === 0 ? x.toFixed(2) : x.toPrecision(2);
}

/** The hits, after one line saying how many, in what mode, how strong, how far the vectors are. */
export function render(p: SemanticSearchPayload): string {
  const hits = p.snippets;
  const v = p.vectors;
  const literal = p.mode === "exact" || p.mode === "regex";
  // Vectors still being computed matter to a search that uses them, not to a literal one.
  const vectors = !literal && v.done < v.total ? `; vectors ${v.state} ${v.done}/${v.total}` : "";
  // Ranks are in the order; the scores' range says how strong the matches are.
  const scores = hits.map((h) => h.score);
  const range = scores.length
    ? `; scores ${fmtScore(scores[0])}–${fmtScore(Math.min(...scores))}`
    : "";
  return join([
    `${hits.length} results for "${p.query}" (${p.mode}${range}${vectors})`,
    snippets(hits, literal),
  ]);
}
