/**
 * The text an MCP client hands to the model: a compact Markdown rendering of a tool's
 * payload, one renderer per tool. `structuredContent` keeps the whole payload; the text keeps
 * what a model reads to answer — locations as `file:line`, code as code, lists as lists — and
 * leaves out what only a program needs (ids, counters, nulls, repeated fields), and says each
 * thing once. The tools about symbols and the code graph render in `render_graph.ts`; the
 * shared pieces are in `markdown.ts`.
 *
 * @module
 */

import {
  explainFile,
  explainSymbol,
  findReferences,
  getCallGraph,
  getContext,
  getDependencies,
} from "./render_graph.ts";
import {
  fence,
  firstLine,
  isObj,
  join,
  listOf,
  loc,
  num,
  type Obj,
  objs,
  str,
} from "./markdown.ts";

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
function snippets(items: Obj[], literal: boolean): string {
  return items.map((h, i) => {
    const lines = str(h.snippet).replace(/\s+$/, "").split("\n");
    const split = splitLeadingComment(lines);
    const { summary, code } = literal || split.code.every((l) => l.trim() === "")
      ? { summary: "", code: lines }
      : split;
    const more = code.length > SNIPPET_LINES ? `\n(${code.length - SNIPPET_LINES} more lines)` : "";
    return `${i + 1}. ${loc(h)}${h.symbol ? ` ${str(h.symbol)}` : ""}${
      h.kind ? ` (${str(h.kind)})` : ""
    }${summary ? ` — ${summary}` : ""}\n${
      fence(code.slice(0, SNIPPET_LINES).join("\n"), h.language)
    }${more}`;
  }).join("\n");
}

function semanticSearch(p: Obj): string {
  const hits = objs(p.snippets);
  const v = isObj(p.vectors) ? p.vectors : {};
  const literal = p.mode === "exact" || p.mode === "regex";
  // Vectors still being computed matter to a search that uses them, not to a literal one.
  const vectors = !literal && num(v.done) < num(v.total)
    ? `; vectors ${str(v.state)} ${num(v.done)}/${num(v.total)}`
    : "";
  // Ranks are in the order; the scores' range says how strong the matches are.
  const scores = hits.map((h) => num(h.score));
  const range = scores.length
    ? `; scores ${fmtScore(scores[0])}–${fmtScore(Math.min(...scores))}`
    : "";
  return join([
    `${hits.length} results for "${str(p.query)}" (${str(p.mode)}${range}${vectors})`,
    snippets(hits, literal),
  ]);
}

function metricsLine(m: Obj): string {
  return `loc ${num(m.loc)}, sloc ${num(m.sloc)}, complexity ${num(m.cyclomatic_complexity)}, ` +
    `maintainability ${num(m.maintainability_index)} (${str(m.rank)})`;
}

function issueLine(i: Obj): string {
  return `${str(i.test_id)} ${str(i.severity)}/${str(i.confidence)} ${loc(i)}: ${str(i.message)}` +
    `${i.code ? ` \`${firstLine(i.code, 80)}\`` : ""}`;
}

function validateCode(p: Obj): string {
  const m = isObj(p.metrics) ? p.metrics : undefined;
  const known = new Set([
    "valid",
    "language",
    "language_source",
    "syntax_errors",
    "unresolved_symbols",
    "security_issues",
    "metrics",
  ]);
  const rest = Object.fromEntries(Object.entries(p).filter(([k]) => !known.has(k)));
  return join([
    `${p.valid ? "valid" : "not valid"} ${str(p.language)}`,
    listOf(
      "Syntax errors",
      objs(p.syntax_errors),
      (e) => `${num(e.line)}:${num(e.column)} ${str(e.message)}`,
    ),
    listOf("Names that exist nowhere", objs(p.unresolved_symbols), (u) => {
      const near = Array.isArray(u.suggestions) && u.suggestions.length
        ? ` — did you mean ${u.suggestions.map(str).join(", ")}?`
        : "";
      return `${str(u.name)} :${num(u.line)}${near}`;
    }),
    listOf("Security issues", objs(p.security_issues), issueLine),
    m ? `Metrics: ${metricsLine(m)}` : "",
    m
      ? listOf(
        "Functions",
        objs(m.functions),
        (f) =>
          `${str(f.qualified_name) || str(f.name)} :${num(f.line)} complexity ${
            num(f.complexity)
          } (${str(f.rank)})`,
      )
      : "",
    Object.keys(rest).length ? compact(rest) : "",
  ]);
}

function analyzeQuality(p: Obj): string {
  const s = isObj(p.summary) ? p.summary : {};
  const counts = isObj(p.issue_counts) ? p.issue_counts : {};
  const sev = isObj(counts.by_severity) ? counts.by_severity : {};
  const files = objs(p.files).filter((f) => num(f.sloc) > 0)
    .sort((a, b) => num(a.maintainability_index) - num(b.maintainability_index)).slice(0, 10);
  const worst = objs(p.worst_functions).slice(0, 10);
  const issues = objs(p.bandit_issues);
  return join([
    `${str(p.path)}: maintainability ${num(p.maintainability_index)} (${str(p.rank)}), ` +
    `${num(s.code_files)} code files, sloc ${num(s.sloc)}, complexity ${
      num(s.cyclomatic_complexity)
    }; issues ${num(counts.total)} (high ${num(sev.HIGH)}, medium ${num(sev.MEDIUM)}, low ${
      num(sev.LOW)
    })${p.partial ? "; partial" : ""}`,
    listOf(
      "Least maintainable files",
      files,
      (f) =>
        `${str(f.file)} MI ${num(f.maintainability_index)} (${str(f.rank)}), complexity ${
          num(f.cyclomatic_complexity)
        }, sloc ${num(f.sloc)}`,
    ),
    listOf(
      "Most complex functions",
      worst,
      (f) =>
        `${str(f.qualified_name) || str(f.name)} ${loc(f)} complexity ${num(f.complexity)} (${
          str(f.rank)
        })`,
    ),
    listOf("Issues", issues.slice(0, 20), issueLine, issues.length),
  ]);
}

function searchSymbols(p: Obj): string {
  const symbols = objs(p.symbols);
  return join([
    `${symbols.length} of ${num(p.total)} symbols`,
    symbols.map((s) => {
      const doc = firstLine(s.doc, 80);
      const name = str(s.name);
      const qualified = str(s.qualified_name) || name;
      const sig = str(s.signature);
      // The signature names the symbol and usually says its kind; a method adds its owner.
      const head = !sig
        ? `${str(s.kind)} ${qualified}`
        : sig.includes(name) && qualified === name
        ? sig
        : `${qualified}: ${sig}`;
      return `- ${loc(s, "line", "_")} ${head}${doc ? ` — ${doc}` : ""}`;
    }).join("\n"),
  ]);
}

function indexProject(p: Obj): string {
  const langs = isObj(p.languages)
    ? Object.entries(p.languages).map(([k, v]) => `${k} ${num(v)}`).join(", ")
    : "";
  const changed = num(p.changed)
    ? `${num(p.changed)} changed (+${num(p.added)} ~${num(p.modified)} -${num(p.deleted)})`
    : "unchanged";
  const errors = Array.isArray(p.errors) ? p.errors : [];
  return join([
    `${str(p.state)}: ${num(p.files)} files (${langs}), ${num(p.chunks)} chunks, ${
      num(p.symbols)
    } symbols; ${changed}`,
    errors.length
      ? `Errors:\n${errors.map((e) => `- ${isObj(e) ? compact(e) : str(e)}`).join("\n")}`
      : "",
  ]);
}

/** A score with two significant digits (`0.42`, `0.0011`). */
function fmtScore(x: number): string {
  return x >= 0.01 || x === 0 ? x.toFixed(2) : x.toPrecision(2);
}

function ask(p: Obj): string {
  const answer = str(p.answer);
  // The offline answer already cites each source it quotes; list only those it does not name.
  const missing = objs(p.sources).filter((s) => !answer.includes(`${str(s.file)}:${num(s.line)}`));
  return join([answer, listOf("Sources", missing, (s) => `${loc(s)} ${str(s.symbol)}`)]);
}

/** A payload with no renderer: one line of JSON, no indentation. */
function compact(p: Obj): string {
  return JSON.stringify(p);
}

const RENDERERS: Record<string, (p: Obj) => string> = {
  semantic_search: semanticSearch,
  explain_symbol: explainSymbol,
  explain_file: explainFile,
  summarize_repo: (p) => str(p.text),
  find_references: findReferences,
  get_dependencies: getDependencies,
  get_call_graph: getCallGraph,
  get_context: getContext,
  validate_code: validateCode,
  analyze_quality: analyzeQuality,
  search_symbols: searchSymbols,
  index_project: indexProject,
  ask,
};

/**
 * The Markdown text of `toolName`'s payload.
 *
 * @example
 * ```ts
 * renderText("search_symbols", { symbols: [], total: 0 }); // "0 of 0 symbols"
 * ```
 */
export function renderText(toolName: string, payload: Record<string, unknown>): string {
  const render = RENDERERS[toolName] ?? compact;
  return render(payload);
}
