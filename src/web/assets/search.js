// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The search view (`#/search?q=…&language=…&path=…&mode=…`): the header's search box with
 * filters, results with their matching lines highlighted; a result's title opens its symbol
 * (or its file at the line) in one click.
 *
 * @module
 */

/** @import { Route } from "./route.js" */
/** @import { SearchAnswer, SearchHit } from "./rest.js" */
import { renderCode, searchTerms } from "./code.js";
import { el, link, note } from "./dom.js";
import { get } from "./rest.js";
import { fileHref, href, symbolHref } from "./route.js";

/** The filters a search address may carry, beside `q`. */
const FILTERS = ["language", "path", "mode", "k"];

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
  const lang = select(
    "language",
    [["", "any language"], ...languages.map((l) => /** @type {[string, string]} */ ([l, l]))],
    p.get("language") || "",
  );
  const mode = select(
    "mode",
    [["", "hybrid"], ["lexical", "lexical (words)"], ["dense", "dense (meaning)"]],
    p.get("mode") || "",
  );
  const k = select("k", [["", "10 results"], ["20", "20"], ["50", "50"]], p.get("k") || "");
  const path = /** @type {HTMLInputElement} */ (el("input", {
    name: "path",
    id: "filter-path",
    placeholder: "under folder, e.g. src/",
    value: p.get("path") || "",
  }));
  const form = el("form", { class: "bar filters", id: "search-filters" }, [
    lang,
    path,
    mode,
    k,
    el("button", { text: "Apply" }),
  ]);
  const go = () => {
    const next = new URLSearchParams();
    [lang, mode, k, path].forEach((f) => {
      if (f.value.trim()) next.set(f.name, f.value.trim());
    });
    if (query()) location.hash = searchHref(query(), next);
  };
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    go();
  });
  [lang, mode, k].forEach((s) => s.addEventListener("change", go));
  return form;
}

/**
 * One result: a title that opens the symbol (or the file at the line), where it is, its
 * score, and the snippet with the query's words highlighted.
 * @param {SearchHit} hit
 * @param {string[]} terms
 * @returns {HTMLElement}
 */
function result(hit, terms) {
  const title = hit.symbol
    ? link(symbolHref(hit.symbol, hit.file), hit.symbol, "title")
    : link(fileHref(hit.file, hit.line), hit.file, "title");
  return el("li", { class: "hit" }, [
    el("div", { class: "hit-head" }, [
      title,
      hit.kind ? el("span", { class: "badge", text: hit.kind }) : "",
      link(fileHref(hit.file, hit.line), hit.file + ":" + hit.line + "–" + hit.end_line, "where"),
      el("span", { class: "muted", text: hit.language + " · score " + hit.score.toFixed(3) }),
    ]),
    renderCode(hit.snippet, { first: hit.line, terms }),
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
  }));
  const terms = searchTerms(text);
  results.appendChild(el("p", {
    class: "muted",
    id: "search-meta",
    text: answer.results.length + " results in " + Math.round(answer.took_ms) + " ms" +
      (answer.index_state && answer.index_state !== "ready"
        ? " (index " + answer.index_state + ")"
        : ""),
  }));
  if (!answer.results.length) {
    results.appendChild(note("Nothing found for “" + text + "” with these filters.", "muted"));
    return;
  }
  results.appendChild(el("ol", { class: "results" }, answer.results.map((h) => result(h, terms))));
}
