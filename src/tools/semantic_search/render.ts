/**
 * `semantic_search` as text (the MCP text and `codectx search` alike): a line or two a hit,
 * the hit's place and name and its line that best matches the query.
 *
 * @module
 */

import type { WireSearchItem } from "../schemas.ts";
import { firstLine, join } from "../markdown.ts";
import { MORE_PLACES, type SemanticSearchPayload, TEST_COUNT_CAP } from "./schema.ts";
import { literalText } from "./literal.ts";
import { isTestFile } from "../../util/test_files.ts";

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

/** Words of a query too common to pick a line by. */
const COMMON = new Set([
  "the",
  "and",
  "for",
  "with",
  "when",
  "where",
  "what",
  "how",
  "that",
  "this",
  "from",
  "into",
  "are",
  "is",
  "a",
  "an",
  "of",
  "to",
  "in",
  "on",
  "or",
  "by",
  "be",
  "it",
  "its",
  "which",
]);

/** A query's words, lower case, identifiers split (`parseAddr`, `parse_addr`: parse, addr). */
function queryWords(query: string): string[] {
  const words = query.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/);
  return [...new Set(words.filter((w) => w.length > 1 && !COMMON.has(w)))];
}

/**
 * The snippet's line (from its line `from` on) that holds the most of the query's words (the
 * first of those, the definition's line last; when none holds one, its first line of code),
 * with its file line.
 */
export function bestLine(
  h: WireSearchItem,
  query: string,
  from = 0,
): { line: number; text: string } {
  const lines = h.snippet.split("\n");
  const first = h.snippet_line ?? h.line;
  const words = queryWords(query);
  let best = -1;
  let most = 0;
  lines.forEach((l, i) => {
    if (i < from) return;
    const low = l.toLowerCase();
    // The definition's own line loses a tie: the heading names it already.
    const n = words.filter((w) => low.includes(w)).length - (first + i === h.line ? 0.5 : 0);
    if (n > most) [best, most] = [i, n];
  });
  if (best < 0) {
    best = Math.max(0, lines.findIndex((l, i) => i >= from && /^\s*[^\s#/*@"'\\]/.test(l)));
  }
  return { line: first + best, text: quoteLine(lines[best] ?? "") };
}

/** Longest line of code quoted for a hit. */
const MAX_QUOTE = 120;

/** A line of code trimmed and cut to {@link MAX_QUOTE} characters. */
function quoteLine(line: string): string {
  const t = line.trim();
  return t.length > MAX_QUOTE ? `${t.slice(0, MAX_QUOTE - 1)}…` : t;
}

/**
 * Literal hits (lines: a literal search's, or the lines that hold a ranked search's query as
 * written): grouped by file, `  line in Symbol: code` each; a file's lone hit is one line,
 * `file:line in Symbol: code`. The enclosing symbol is named at its first line. Hits in test
 * files come last on one line, `in tests: file:l1,l2 …`.
 */
function literalLines(items: WireSearchItem[], query: string, under?: Under): string {
  const tests = items.filter((h) => isTestFile(h.file));
  const code = items.filter((h) => !isTestFile(h.file));
  // Tests after the code, their lines only: a test mostly repeats what the code says.
  const inTests = [...Map.groupBy(tests, (h) => h.file)].map(([file, hs]) =>
    `${file}:${hs.map((h) => bestLine(h, query).line).join(",")}`
  );
  return [
    codeLines(code, query, under),
    inTests.length ? `in tests: ${inTests.join(" ")}` : "",
  ].filter(Boolean).join("\n");
}

/**
 * The heads that hold a literal hit's line (`under 2610 if !isClosed && tlsRequired`), or "":
 * what the CLI adds when it can read the file.
 */
export type Under = (file: string, line: number) => string;

/** {@link literalLines}' hits in code, grouped by file, each with what holds it (`under`). */
function codeLines(items: WireSearchItem[], query: string, under?: Under): string {
  return [...Map.groupBy(items, (h) => h.file)].map(([file, hs]) => {
    let last = "";
    const lines = hs.map((h, i) => {
      const inside = h.symbol && (i === 0 || hs[i - 1].symbol !== h.symbol)
        ? ` in ${h.symbol}`
        : "";
      const best = bestLine(h, query);
      // Said once for the hits one condition holds.
      const u = under?.(file, best.line) ?? "";
      const heads = u && u !== last ? u : "";
      last = u;
      return { line: best.line, rest: `${inside}: ${best.text}`, heads };
    });
    if (lines.length === 1) {
      return `${file}:${lines[0].line}${lines[0].rest}${
        lines[0].heads ? `\n  ${lines[0].heads}` : ""
      }`;
    }
    return [file, ...lines.map((l) => `  ${l.line}${l.rest}${l.heads ? `\n    ${l.heads}` : ""}`)]
      .join("\n");
  }).join("\n");
}

/**
 * Ranked hits (definitions or chunks): `n. file:line Symbol (kind start-end) — its leading
 * comment's first sentence`, where `line` is the hit's line that holds the most of the query's
 * words (quoted under it) and `start-end` the whole symbol's lines (a chunk of a long function
 * is not taken for it); a hit in no symbol says its own lines. The code is a `file:line` away.
 */
function rankedHits(items: SemanticSearchPayload["snippets"], query: string): string {
  return items.map((h, i) => {
    const lines = h.snippet.replace(/\s+$/, "").split("\n");
    const { summary, code } = splitLeadingComment(lines);
    // The leading comment is the heading's summary: the line quoted is one of the code.
    const best = bestLine(h, query, summary ? lines.length - code.length : 0);
    const start = h.symbol_line ?? h.line;
    const end = h.symbol_end_line ?? h.end_line;
    const range = end > start ? `${start}-${end}` : `${start}`;
    const what = h.symbol
      ? ` ${h.symbol} (${h.kind ? `${h.kind} ` : ""}${range})`
      : ` (lines ${range})`;
    return `${i + 1}. ${h.file}:${best.line}${what}${
      summary ? ` — ${summary}` : ""
    }\n   ${best.text}`;
  }).join("\n");
}

/**
 * What to try when an exact search of several words found nothing: it matched the words
 * together as written (an assistant searching `SIGWINCH MSG_RESIZE` meant either word), and
 * the regex of any of them. "" otherwise.
 *
 * @example
 * ```ts
 * wordsNote({ mode: "exact", query: "SIGWINCH MSG_RESIZE", snippets: [] });
 * // 'exact matches the whole text as written; any of the words: mode regex "SIGWINCH|MSG_RESIZE"'
 * ```
 */
export function wordsNote(p: Pick<SemanticSearchPayload, "mode" | "query" | "snippets">): string {
  // A regex written between slashes (`/a|b/`, as in JavaScript) matches the slashes too.
  const slashed = /^\/(.+)\/[a-z]*$/s.exec(p.query.trim());
  if (p.mode === "regex" && !p.snippets.length && slashed) {
    return `a regex is written without slashes: mode regex "${slashed[1]}"`;
  }
  const words = p.query.trim().split(/\s+/);
  if (p.mode !== "exact" || p.snippets.length || words.length < 2) return "";
  const any = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return `exact matches the whole text as written; any of the words: mode regex "${any}"`;
}

/** A score with two significant digits (`0.42`, `0.0011`). */
function fmtScore(x: number): string {
  return x >= 0.01 || x === 0 ? x.toFixed(2) : x.toPrecision(2);
}

/** A ranked hit scoring under this share of the first's is left out of the text… */
const WEAK = 0.25;
/** …after this many hits, always shown (when there are so many). */
const KEEP = 3;
/** Hits a ranked search's text shows at most unless a number was asked for. */
const MOST = 5;

/**
 * ` for "QUERY"` when nothing was found (was it quoted as meant?); else "": the asker wrote the
 * query and a line of hits need not say it again.
 */
function asked(p: Pick<SemanticSearchPayload, "query" | "snippets">): string {
  return p.snippets.length ? "" : ` for "${p.query}"`;
}

/**
 * What a literal search's list is not: the cap it stopped at (a list that filled it reads as
 * every match otherwise; `raise` says how to ask for more), and the test files' matches it left
 * out (`tests` says how to search them); "" when neither.
 */
export function literalNotes(
  p: Pick<SemanticSearchPayload, "snippets" | "capped" | "more_matches" | "test_matches">,
  raise: string,
  tests: string,
): string {
  const n = p.test_matches ?? 0;
  const more = p.more_matches ?? [];
  // The next matches' places, by file (`pull.go:212 unpacker.go:73,80`).
  const places = [...Map.groupBy(more, (m) => m.slice(0, m.lastIndexOf(":")))].map(([file, ms]) =>
    `${file}:${ms.map((m) => m.slice(m.lastIndexOf(":") + 1)).join(",")}`
  ).join(" ");
  const stopped = !p.capped
    ? ""
    : more.length === 0
    ? `(stopped at ${p.snippets.length} matches; more may match: ${raise})`
    : `(stopped at ${p.snippets.length} matches; ${
      more.length >= MORE_PLACES ? `the next ${more.length}` : `${more.length} more`
    } at ${places}${more.length >= MORE_PLACES ? "; more may match" : ""}: ${raise})`;
  return join([
    stopped,
    n
      ? `(${
        n >= TEST_COUNT_CAP ? `${TEST_COUNT_CAP}+` : n
      } more in test files, not searched: ${tests})`
      : "",
  ]);
}

/**
 * The hits, after one line saying how many, in what mode, how strong, how far the vectors are.
 * Unless `more` is false (`codectx search --top-k N`), a ranked search stops at the first hit
 * scoring under {@link WEAK} of the top one (after {@link KEEP}), at {@link MOST} hits, and says
 * how many it left out and how to list them (`more`): a clear answer is not followed by seven
 * weak ones a model must read, nor ten flat ones (the MCP structured result keeps them all).
 * A literal search that filled its cap says so, and how to ask for more (`raise`); one that left
 * out test files says how many of their lines match, and how to search them (`tests`).
 */
export function render(
  p: SemanticSearchPayload,
  more: string | false = "top_k lists them",
  raise = "top_k up to 100",
  tests = "include_tests",
  under?: Under,
): string {
  const v = p.vectors;
  const literal = p.mode === "exact" || p.mode === "regex";
  if (literal) {
    return join([
      `${p.snippets.length} results${asked(p)} (${p.mode})`,
      literalLines(p.snippets, p.query, under),
      wordsNote(p),
      literalNotes(p, raise, tests),
    ]);
  }
  // A ranked search's lines that hold the query as written (a message, a line of code) come
  // first, as a literal search prints them: they are the answer when there are any.
  const lines = p.snippets.filter((s) => s.column !== undefined);
  const ranked = p.snippets.filter((s) => s.column === undefined);
  const top = ranked[0]?.score ?? 0;
  // After lines that hold the query, the ranked hits are the look-alikes: {@link KEEP} at most.
  const weakAt = ranked.findIndex((s, i) => i >= KEEP && s.score < top * WEAK);
  const cut = more === false
    ? ranked.length
    : lines.length
    ? KEEP
    : Math.min(MOST, weakAt < 0 ? ranked.length : weakAt);
  const hits = ranked.slice(0, cut);
  const weak = hits.length < ranked.length ? hits.length : -1;
  // Vectors still being computed matter to a search that uses them, not to a literal one.
  const vectors = v.done < v.total ? `; vectors ${v.state} ${v.done}/${v.total}` : "";
  // Ranks are in the order; the scores' range says how strong the matches are.
  const scores = hits.map((h) => h.score);
  const range = scores.length
    ? `; scores ${fmtScore(scores[0])}–${fmtScore(Math.min(...scores))}`
    : "";
  return join([
    lines.length
      ? `${lines.length === 1 ? "1 line holds" : `${lines.length} lines hold`} "${
        literalText(p.query)
      }":`
      : "",
    lines.length ? literalLines(lines, p.query) : "",
    `${hits.length} results${asked(p)} (${p.mode}${range}${vectors})`,
    rankedHits(hits, p.query),
    weak > 0 ? `(${ranked.length - weak} weaker hits left out; ${more})` : "",
  ]);
}
