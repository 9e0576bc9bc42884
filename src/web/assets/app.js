// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The script of the `codectx web` page: a code browser over the REST API (`/health`,
 * `/api/*`, and `/tools/stream` for an indexing run's progress). Every view has an address in the hash (`#/search?q=…`, `#/symbol/<name>`,
 * `#/file/<path>:<line>`, `#/graph/calls/<symbol>`, `#/graph/deps[/<file>]`, `#/summary`,
 * `#/ask`, `#/quality`, `#/impact?base=…`), so links, bookmarks and the back button work. A view is drawn into
 * a fresh element, so nothing of the previous view stays on screen, and an error replaces
 * the result it stands for. It runs as ES modules with no build step, type-checked as
 * JavaScript with JSDoc types against the DOM.
 *
 * @module
 */

/** @import { Health } from "./rest.js" */
/** @import { Route } from "./route.js" */
import { $, el, link, note } from "./dom.js";
import { fileView } from "./file.js";
import { graphView } from "./graph.js";
import { impactView } from "./impact.js";
import { qualityView } from "./quality.js";
import { get } from "./rest.js";
import { fileHref, href, parseRoute, splitFileLine, symbolHref } from "./route.js";
import { searchHref, searchView } from "./search.js";
import { askView, summaryView } from "./summary.js";
import { symbolView } from "./symbol.js";

/** The project's languages, for the search filter. */
let languages = /** @type {string[]} */ ([]);

/** The header's search box. */
const searchBox = /** @type {HTMLInputElement} */ ($("q"));

/**
 * Each view by the first part of its address.
 * @type {Record<string, (out: HTMLElement, route: Route) => Promise<void>>}
 */
const VIEWS = {
  search: (out, route) => searchView(out, route, languages, () => searchBox.value.trim()),
  symbol: symbolView,
  file: fileView,
  graph: graphView,
  summary: (out) => summaryView(out),
  ask: askView,
  quality: qualityView,
  impact: impactView,
};

/**
 * The tab of the header that a view belongs to.
 * @param {Route} route
 * @returns {string}
 */
function tabOf(route) {
  if (route.view === "graph") return route.arg.startsWith("deps") ? "deps" : "calls";
  return route.view;
}

/**
 * The window title of a view.
 * @param {Route} route
 * @returns {string}
 */
function titleOf(route) {
  const what = route.view === "search" ? route.params.get("q") || "" : route.arg;
  return "codectx · " + route.view + (what ? " · " + what : "");
}

/**
 * Replaces what a failed view showed with the error, keeping its controls (`form`s) so the
 * request can be corrected.
 * @param {HTMLElement} out
 * @param {unknown} err
 * @param {Route} [route] the view's address, for links in "did you mean" suggestions
 */
function showError(out, err, route) {
  Array.from(out.children).forEach((c) => {
    if (c.tagName !== "FORM") c.remove();
  });
  const message = err instanceof Error ? err.message : String(err);
  const box = note("", "error");
  // "…; did you mean a, b (file:line)?": each suggestion opens the same view for it.
  const m = route ? /^(.*did you mean )(.+)\?$/.exec(message) : null;
  if (m && route) {
    box.append(m[1]);
    m[2].split(", ").forEach((s, i) => {
      box.append(i ? ", " : "", link(suggestionHref(route, s), s));
    });
    box.append("?");
  } else box.textContent = message;
  out.appendChild(box);
}

/**
 * The address a "did you mean" suggestion opens: a file in the file or dependency view, a
 * symbol (`name (file:line)`) in the symbol or call-graph view.
 * @param {Route} route
 * @param {string} suggestion
 * @returns {string}
 */
function suggestionHref(route, suggestion) {
  const sym = /^(.+?) \((.+?):(\d+)\)$/.exec(suggestion);
  const name = sym ? sym[1] : suggestion, file = sym ? sym[2] : null;
  if (route.view === "graph") {
    return route.arg.startsWith("deps")
      ? href("graph", "deps/" + suggestion)
      : href("graph", "calls/" + name, { file: file || undefined });
  }
  if (route.view === "file") return fileHref(suggestion);
  return symbolHref(name, file);
}

/** Draws the view of the current address. */
function render() {
  const route = parseRoute(location.hash);
  const draw = VIEWS[route.view];
  document.querySelectorAll("#tabs a").forEach((a) => {
    a.classList.toggle("active", a.getAttribute("data-tab") === tabOf(route));
  });
  document.title = titleOf(route);
  if (route.view === "search") searchBox.value = route.params.get("q") || "";
  const out = el("div", { class: "view", id: "view-" + route.view });
  const main = $("view");
  main.replaceChildren(out);
  main.setAttribute("aria-busy", "true");
  if (!draw) {
    showError(out, new Error("no view '" + route.view + "'; try #/search"));
    main.removeAttribute("aria-busy");
    return;
  }
  draw(out, route)
    .catch((err) => showError(out, err, route))
    .finally(() => {
      // A later address may have replaced this view; only the current one says it is done.
      if (out.isConnected) main.removeAttribute("aria-busy");
    });
}

/** Shows the project, the index state and, while indexing, a progress bar. */
async function health() {
  /** @type {Health | null} */
  let h = null;
  try {
    h = /** @type {Health} */ (await get("/health"));
  } catch (err) {
    $("state").textContent = "offline";
    $("state").className = "badge error";
    $("state").title = err instanceof Error ? err.message : String(err);
    setTimeout(health, 3000);
    return;
  }
  languages = Object.keys(h.project.languages || {}).filter((l) => l !== "markdown").sort();
  $("project").textContent = h.project.name + " — " + h.project.files + " files, " +
    h.project.symbols + " symbols";
  $("project").title = h.project.root;
  const state = $("state");
  state.textContent = h.index.state;
  state.className = "badge " + h.index.state;
  const bar = /** @type {HTMLProgressElement} */ ($("progress"));
  const vectorsDone = h.index.vectors ?? 0, vectorsAll = h.index.vectors_total ?? 0;
  if (h.index.state === "indexing") {
    showRun(h.index.progress || null);
    follow();
  } else if (h.index.vectors_state === "embedding" && vectorsAll) {
    bar.hidden = false;
    bar.max = vectorsAll;
    bar.value = vectorsDone;
    bar.title = "vectors " + vectorsDone + "/" + vectorsAll;
  } else {
    bar.hidden = true;
  }
  if (h.index.state !== "indexing" && stream) {
    stream.close();
    stream = null;
  }
  state.title = bar.hidden ? "" : bar.title;
  // While the stream tells the run's progress, /health is asked less often.
  if (h.index.state !== "ready" || !bar.hidden) setTimeout(health, stream ? 3000 : 1000);
}

/**
 * Shows an indexing run's progress in the header: the badge with its percentage and the bar.
 * @param {{ phase: string, files_done: number, files_total: number } | null} p
 */
function showRun(p) {
  const bar = /** @type {HTMLProgressElement} */ ($("progress"));
  const state = $("state");
  bar.hidden = false;
  state.className = "badge indexing";
  bar.max = p && p.files_total ? p.files_total : 1;
  if (p && p.files_total) {
    bar.value = p.files_done;
    state.textContent = "indexing " + Math.floor(100 * p.files_done / p.files_total) + "%";
  } else {
    bar.removeAttribute("value");
    state.textContent = "indexing";
  }
  bar.title = p ? p.phase + " " + p.files_done + "/" + p.files_total + " files" : "indexing";
  state.title = bar.title;
}

/** The event stream followed while an indexing run goes on. */
let stream = /** @type {EventSource | null} */ (null);
/** Whether the stream failed once (e.g. the server wants a token): /health alone then. */
let streamFailed = false;

/** Follows the run's `index.progress` events on `/tools/stream` until `index.completed`. */
function follow() {
  if (stream || streamFailed || typeof EventSource === "undefined") return;
  const s = new EventSource("/tools/stream");
  stream = s;
  s.addEventListener("index.progress", (ev) => {
    showRun(JSON.parse(/** @type {MessageEvent} */ (ev).data));
    $("progress").setAttribute("data-source", "stream");
  });
  s.addEventListener("index.completed", () => {
    s.close();
    stream = null;
    health();
  });
  s.addEventListener("error", () => {
    s.close();
    if (stream === s) stream = null;
    streamFailed = true;
  });
}

$("search-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = searchBox.value.trim();
  if (!text) return;
  const route = parseRoute(location.hash);
  const next = searchHref(text, route.view === "search" ? route.params : new URLSearchParams());
  if (next === location.hash) render();
  else location.hash = next;
});

// `/` jumps to the search box from anywhere but a text field.
document.addEventListener("keydown", (ev) => {
  const t = /** @type {HTMLElement} */ (ev.target);
  if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
  ev.preventDefault();
  searchBox.focus();
  searchBox.select();
});

// The older addresses (`#graph=main`, `#deps=src/app.py`, `#search=text`) still open.
const old = /^#(graph|deps|search|symbols)=(.*)$/.exec(location.hash);
if (old) {
  const arg = decodeURIComponent(old[2]);
  const to = old[1] === "graph"
    ? "#/graph/calls/" + arg
    : old[1] === "deps"
    ? "#/graph/deps/" + splitFileLine(arg).file
    : "#/search?q=" + encodeURIComponent(arg);
  history.replaceState(null, "", to);
}

addEventListener("hashchange", render);
health().finally(render);
