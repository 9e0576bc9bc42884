// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * Source code on the page: a table of numbered lines in which known names are links (to a
 * symbol's view), some lines are marked (the line a link pointed at, a search's matching
 * lines) and search terms are highlighted.
 *
 * @module
 */

import { el } from "./dom.js";

/**
 * How `renderCode` shows a piece of source.
 * @typedef {{
 *   first?: number,
 *   focus?: number[],
 *   names?: Map<string, string>,
 *   terms?: string[],
 *   pattern?: RegExp | null,
 *   at?: [number, number][],
 * }} CodeOptions
 * `first` is the number of the first line (1), `focus` the lines to mark, `names` maps an
 * identifier to the address it links to, `terms` are words to highlight (case-insensitive),
 * `pattern` a regular expression to highlight instead (a `g` flag is added); a line holding
 * a highlight is marked as a match. `at` lists where the parser read a name as code
 * ([line, column], 1-based): with it, a known name links only there, not in a comment or a
 * string.
 */

/** Identifiers, in every language the index knows well enough. */
const IDENT = /[A-Za-z_$][\w$]*/g;

/**
 * Escapes a word for a regular expression.
 * @param {string} s
 * @returns {string}
 */
function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * What an `exact` or `regex` search matches, with the server's smart case (an upper-case
 * letter makes it case-sensitive); null for a pattern the browser cannot compile.
 * @param {string} query
 * @param {string} mode `exact` or `regex`
 * @returns {RegExp | null}
 */
export function matchPattern(query, mode) {
  const flags = /\p{Lu}/u.test(query) ? "gu" : "giu";
  try {
    return new RegExp(mode === "exact" ? escapeRe(query) : query, flags);
  } catch {
    return null;
  }
}

/** English words too common to be worth a highlight. */
const STOP = new Set(
  "the and for are but not you all any can how what when where which who why with from this that into its our out was were has have had does did get set"
    .split(" "),
);

/**
 * The words of a search worth highlighting: three characters or more, not a common English
 * word, longest first.
 * @param {string} query
 * @returns {string[]}
 */
export function searchTerms(query) {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}_$]+/u)
    .filter((w) => w.length >= 3 && !STOP.has(w));
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/**
 * Where a search word may start and end inside code: at a word's edge, after `_`, or at a
 * camelCase or letter/digit change — `config` marks `parseConfig`, `config_path` and `configs`, not
 * `reconfigure`. An ending `s`, `es`, `d`, `ed` or `ing` may follow.
 */
const WORD_START =
  "(?:(?<![\\p{L}\\p{N}])|(?<=\\p{Ll})(?=\\p{Lu})|(?<=\\p{Lu})(?=\\p{Lu}\\p{Ll})|(?<=\\p{L})(?=\\p{N})|(?<=\\p{N})(?=\\p{L}))";
const WORD_END =
  "(?:e?[sd]|ing)?(?:(?![\\p{L}\\p{N}])|(?=\\p{Lu})|(?<=\\p{L})(?=\\p{N})|(?<=\\p{N})(?=\\p{L}))";

/**
 * The expression that marks search words in code, whole words and name parts only (see
 * {@link WORD_START}); case is ignored letter by letter, as the camelCase test needs it.
 * @param {string[]} terms
 * @returns {RegExp | null}
 */
export function termsPattern(terms) {
  if (!terms.length) return null;
  const anyCase = (/** @type {string} */ t) =>
    [...t].map((c) => {
      const lo = c.toLowerCase(), up = c.toUpperCase();
      return lo === up ? escapeRe(c) : "[" + lo + up + "]";
    }).join("");
  return new RegExp(WORD_START + "(?:" + terms.map(anyCase).join("|") + ")" + WORD_END, "gu");
}

/**
 * One line's text with links on known names and `<mark>` on search terms.
 * @param {string} text
 * @param {Map<string, string> | undefined} names
 * @param {RegExp | null} termRe
 * @param {Set<number> | null} codeAt the columns (1-based) where a code name starts; null: any
 * @returns {{ nodes: Node[], matched: boolean }}
 */
function renderLine(text, names, termRe, codeAt) {
  /** @type {Node[]} */
  const nodes = [];
  let matched = false;
  /** @param {string} s */
  const plain = (s) => {
    if (!termRe || !s) {
      if (s) nodes.push(document.createTextNode(s));
      return;
    }
    let last = 0;
    for (const m of s.matchAll(termRe)) {
      if (!m[0]) continue; // a pattern that can match nothing marks nothing
      const at = m.index || 0;
      if (at > last) nodes.push(document.createTextNode(s.slice(last, at)));
      nodes.push(el("mark", { text: m[0] }));
      matched = true;
      last = at + m[0].length;
    }
    if (last < s.length) nodes.push(document.createTextNode(s.slice(last)));
  };
  if (!names || names.size === 0) {
    plain(text);
    return { nodes, matched };
  }
  let last = 0;
  for (const m of text.matchAll(IDENT)) {
    const target = names.get(m[0]);
    const at = m.index || 0;
    if (!target || (codeAt && !codeAt.has(at + 1))) continue;
    plain(text.slice(last, at));
    const a = el("a", { href: target, class: "name" });
    const before = nodes.length;
    plain(m[0]);
    a.append(...nodes.splice(before));
    nodes.push(a);
    last = at + m[0].length;
  }
  plain(text.slice(last));
  return { nodes, matched };
}

/**
 * Renders source as a table of numbered lines.
 * @param {string} source
 * @param {CodeOptions} [opts]
 * @returns {HTMLElement}
 */
export function renderCode(source, opts) {
  const o = opts || {};
  const first = o.first || 1;
  const focus = new Set(o.focus || []);
  const termRe = o.pattern
    ? new RegExp(
      o.pattern.source,
      o.pattern.flags.includes("g") ? o.pattern.flags : o.pattern.flags + "g",
    )
    : termsPattern(o.terms || []);
  /** @type {Map<number, Set<number>> | null} */
  const codeAt = o.at ? new Map() : null;
  (o.at || []).forEach(([line, column]) => {
    const cols = codeAt?.get(line) || new Set();
    codeAt?.set(line, cols.add(column));
  });
  const body = el("tbody");
  source.replace(/\n$/, "").split("\n").forEach((text, i) => {
    const n = first + i;
    const { nodes, matched } = renderLine(
      text,
      o.names,
      termRe,
      codeAt && (codeAt.get(n) || new Set()),
    );
    const cls = (focus.has(n) ? " focus" : "") + (matched ? " hit" : "");
    body.appendChild(
      el("tr", { class: cls.trim(), "data-line": n }, [
        el("td", { class: "ln", text: String(n) }),
        el("td", { class: "src" }, nodes),
      ]),
    );
  });
  return el("table", { class: "code" }, [body]);
}
