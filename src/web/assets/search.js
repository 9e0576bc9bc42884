// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The search view (`#/search?q=…&scope=…&tests=1&language=…&path=…&mode=…`): the header's
 * search box with filters (scope code/docs/tests/all, test files, language, folder, mode
 * hybrid/lexical/dense/exact/regex), results with their matching lines highlighted; a
 * result's title opens its symbol (or its file at the line) in one click.
 *
 * @module
 */

/** @import { Route } from "./route.js" */
/** @import { SearchAnswer, SearchHit } from "./rest.js" */
import { matchPattern, renderCode, searchTerms } from "./code.js";
import { el, link, note } from "./dom.js";
import { get } from "./rest.js";
import { fileHref, href, symbolHref } from "./route.js";

/** The filters a search address may carry, beside `q`. */
const FILTERS = ["scope", "tests", "language", "path", "mode", "k"];

/**
 * The address of a search for this text with the filters of `params`.
 * @param {string} text
 * @param {URLSearchParams} params
 * @returns {string}
 */
export function searchHref(text, params) {
  /** @type {Record<string, string>} */
  const p = { q: text };
  FILTERS.forEach((f) => {
    const v = params.get(f);
    if (v) p[f] = v;
  });
  return href("search", "", p);
}

/**
 * A `<select>` of these options (value, label), with `value` chosen.
 * @param {string} name
 * @param {[string, string][]} options
 * @param {string} value
 * @returns {HTMLSelectElement}
 */
function select(name, options, value) {
  const s = /** @type {HTMLSelectElement} */ (el("select", { name, id: "filter-" + name }));
  options.forEach(([v, label]) => {
    const o = /** @type {HTMLOptionElement} */ (el("option", { value: v, text: label }));
    o.selected = v === value;
    s.appendChild(o);
  });
  return s;
}

/**
 * The filter bar; a change searches again with the new filters.
 * @param {Route} route
 * @param {string[]} languages
 * @param {() => string} query
 * @returns {HTMLElement}
 */
function filterBar(route, languages, query) {
  const p = route.params;
  const scope = select(
    "scope",
    [["", "code"], ["docs", "docs"], ["tests", "tests"], ["all", "all files"]],
    p.get("scope") || "",
  );
  const tests =
    /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "filter-tests" }));
  tests.checked = p.get("tests") === "1";
  const lang = select(
    "language",
    [["", "any language"], ...languages.map((l) => /** @type {[string, string]} */ ([l, l]))],
    p.get("language") || "",
  );
  const mode = select(
    "mode",
    [
      ["", "hybrid"],
      ["lexical", "lexical (words)"],
      ["dense", "dense (meaning)"],
      ["exact", "exact text"],
      ["regex", "regex"],
    ],
    p.get("mode") || "",
  );
  const k = select(
    "k",
    [["", "10 results"], ["20", "20"], ["50", "50"], ["100", "100"]],
    p.get("k") || "",
  );
  const path = /** @type {HTMLInputElement} */ (el("input", {
    name: "path",
    id: "filter-path",
    placeholder: "under folder, e.g. src/",
    value: p.get("path") || "",
  }));
  const form = el("form", { class: "bar filters", id: "search-filters" }, [
    scope,
    el("label", { class: "check", title: "also search test files" }, [tests, " tests"]),
    lang,
    path,
    mode,
    k,
    el("button", { text: "Apply" }),
  ]);
  const go = () => {
    const next = new URLSearchParams();
    [scope, lang, mode, k, path].forEach((f) => {
      if (f.value.trim()) next.set(f.name, f.value.trim());
    });
    if (tests.checked) next.set("tests", "1");
    if (query()) location.hash = searchHref(query(), next);
  };
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    go();
  });
  [scope, tests, lang, mode, k].forEach((s) => s.addEventListener("change", go));
  return form;
}

/** What a result's score is, shown beside the results and over each score. */
const SCORE_MEANS = "score: how closely a result matches this search, from 0 to 1 (words and " +
  "meaning fused, then re-ranked); it ranks the results of one search and means nothing " +
  "across searches";

/**
 * A score as a person reads it: three decimals, and a score too small to show as "< 0.001".
 * @param {number} score
 * @returns {string}
 */
function scoreText(score) {
  return score > 0 && score < 0.0005 ? "< 0.001" : score.toFixed(3);
}

/**
 * One result: a title that opens the symbol (or the file at the line), where it is, its
 * score, and the snippet with the query's words highlighted.
 * @param {SearchHit} hit
 * @param {string[]} terms
 * @param {RegExp | null} pattern what an exact or regex search matched, to highlight
 * @returns {HTMLElement}
 */
function result(hit, terms, pattern) {
  const title = hit.symbol
    ? link(symbolHref(hit.symbol, hit.file), hit.symbol, "title")
    : link(fileHref(hit.file, hit.line), hit.file, "title");
  return el("li", { class: "hit" }, [
    el("div", { class: "hit-head" }, [
      title,
      hit.kind ? el("span", { class: "badge", text: hit.kind }) : "",
      link(
        fileHref(hit.file, hit.line),
        hit.file + ":" + hit.line +
          (hit.column ? ":" + hit.column : hit.end_line !== hit.line ? "–" + hit.end_line : ""),
        "where",
      ),
      el("span", { class: "muted", text: hit.language }),
      hit.column ? "" : el("span", {
        class: "muted score",
        title: SCORE_MEANS,
        text: "score " + scoreText(hit.score),
      }),
    ]),
    // A snippet that opens with the definition's doc comment starts above `line`.
    renderCode(hit.snippet, { first: hit.snippet_line || hit.line, terms, pattern }),
  ]);
}

/**
 * Renders the search view into `out`.
 * @param {HTMLElement} out
 * @param {Route} route
 * @param {string[]} languages the project's languages, for the filter
 * @param {() => string} query the text in the header's search box
 */
export async function searchView(out, route, languages, query) {
  const text = route.params.get("q") || "";
  out.appendChild(filterBar(route, languages, query));
  const results = el("div", { id: "search-results" });
  out.appendChild(results);
  if (!text) {
    results.appendChild(
      note("Type what you are looking for in the box above (press / to get there).", "muted"),
    );
    return;
  }
  const p = route.params;
  const answer = /** @type {SearchAnswer} */ (await get("/api/search", {
    q: text,
    top_k: p.get("k") || undefined,
    language: p.get("language") || undefined,
    path_prefix: p.get("path") || undefined,
    mode: p.get("mode") || undefined,
    scope: p.get("scope") || undefined,
    include_tests: p.get("tests") === "1" ? "1" : undefined,
  }));
  const mode = p.get("mode") || "";
  const pattern = mode === "exact" || mode === "regex" ? matchPattern(text, mode) : null;
  const terms = pattern ? [] : searchTerms(text);
  results.appendChild(el("p", {
    class: "muted",
    id: "search-meta",
    text: answer.results.length + (answer.results.length === 1 ? " result" : " results") +
      (answer.mode === "exact" || answer.mode === "regex" ? " (" + answer.mode + " matches)" : "") +
      " in " + Math.round(answer.took_ms) + " ms" +
      (answer.index_state && answer.index_state !== "ready"
        ? " (index " + answer.index_state + ")"
        : "") +
      (pattern ? "" : " · " + SCORE_MEANS),
  }));
  if (!answer.results.length) {
    results.appendChild(note("Nothing found for “" + text + "” with these filters.", "muted"));
    return;
  }
  results.appendChild(
    el("ol", { class: "results" }, answer.results.map((h) => result(h, terms, pattern))),
  );
}
