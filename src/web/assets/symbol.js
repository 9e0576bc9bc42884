// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The symbol view (`#/symbol/Greeter.greet?file=app/main.py`): signature, doc, the source
 * with line numbers, callers and callees with how each call was resolved, and every
 * reference grouped by file; each place links to its file view at that line.
 *
 * @module
 */

/** @import { Route } from "./route.js" */
/** @import { CallGraph, CallNode, FileAnswer, Reference, ReferencesAnswer, SymbolAnswer, SymbolInfo }
 *   from "./rest.js" */
import { renderCode } from "./code.js";
import { el, link, note } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { get } from "./rest.js";
import { fileHref, href, symbolHref } from "./route.js";

/**
 * How a call or reference was resolved: `resolution` when the API gives it (`exact`,
 * `inferred`, `name`), else the older `resolved` flag.
 * @param {{ resolution?: string, resolved?: boolean }} x
 * @returns {string}
 */
export function resolutionOf(x) {
  if (x.resolution) return x.resolution;
  if (x.resolved === undefined) return "";
  return x.resolved ? "resolved" : "unresolved";
}

/**
 * A badge saying how a call or reference was resolved.
 * @param {{ resolution?: string, resolved?: boolean }} x
 * @returns {HTMLElement | string}
 */
export function resolutionBadge(x) {
  const r = resolutionOf(x);
  if (!r) return "";
  return el("span", {
    class: "badge res-" + r,
    text: r,
    title: "resolution: " + (RESOLUTION_MEANS[r] || r),
  });
}

/**
 * What each resolution means, for the badges' tooltips.
 * @type {Record<string, string>}
 */
export const RESOLUTION_MEANS = {
  exact: "resolved through scopes, imports or paths",
  inferred: "resolved from the receiver's likely type",
  name: "matched by name only: it may be another symbol of this name",
  resolved: "resolved to a project symbol",
  unresolved: "not resolved to a project symbol",
};

/**
 * "3 exact · 1 inferred · 2 name only", from the references' counts.
 * @param {{ exact: number, inferred: number, name: number } | undefined} counts
 * @returns {HTMLElement | string}
 */
function resolutionCounts(counts) {
  if (!counts) return "";
  /** @type {[string, number][]} */
  const parts = [["exact", counts.exact], ["inferred", counts.inferred], ["name", counts.name]];
  return el(
    "p",
    { class: "muted res-counts", id: "references-by-resolution" },
    parts.filter(([, n]) => n > 0).flatMap(([r, n]) => [
      el("span", { class: "badge res-" + r, text: n + " " + (r === "name" ? "name only" : r) }),
      " ",
    ]),
  );
}

/**
 * The first line of `explain_symbol`'s source: the source ends at `end_line`; a cut source
 * ends with a note naming the first line left out.
 * @param {SymbolAnswer} s
 * @returns {{ first: number, text: string }}
 */
function sourceLines(s) {
  const lines = s.source.split("\n");
  if (s.source_truncated) {
    const tail = lines[lines.length - 1];
    const m = /more lines, (\d+)/.exec(tail);
    const shown = lines.slice(0, -1);
    return {
      first: m ? Number(m[1]) - shown.length : s.symbol.line,
      text: shown.join("\n"),
    };
  }
  return { first: s.symbol.end_line - lines.length + 1, text: s.source };
}

/**
 * A table of callers or callees: the symbol, where the call is, and its resolution.
 * @param {CallNode[]} nodes
 * @param {string} empty
 * @param {string} id
 * @returns {HTMLElement}
 */
function callTable(nodes, empty, id) {
  if (!nodes.length) return note(empty, "muted");
  return el("table", { class: "grid", id }, [
    el("thead", null, [
      el("tr", null, [
        el("th", { text: "Symbol" }),
        el("th", { text: "Call at" }),
        el("th", { text: "Resolution" }),
      ]),
    ]),
    el(
      "tbody",
      null,
      nodes.map((n) =>
        el("tr", null, [
          el("td", null, [
            n.kind === "file"
              ? link(fileHref(n.name), n.name)
              : n.file
              ? link(symbolHref(n.name, n.file), n.name)
              : el("span", { class: "muted", text: n.name }),
            n.kind && n.kind !== "unknown" ? el("span", { class: "kind", text: n.kind }) : "",
          ]),
          el("td", null, [
            link(fileHref(n.call_file, n.call_line), n.call_file + ":" + n.call_line),
          ]),
          el("td", null, [resolutionBadge(n)]),
        ])
      ),
    ),
  ]);
}

/**
 * References grouped by file, each line a link to the file view there.
 * @param {ReferencesAnswer} r
 * @returns {HTMLElement}
 */
function referenceList(r) {
  const box = el("div", { id: "references" });
  if (!r.references.length) {
    box.appendChild(note("No references found.", "muted"));
    return box;
  }
  /** @type {Map<string, Reference[]>} */
  const byFile = new Map();
  r.references.forEach((ref) => {
    const list = byFile.get(ref.file) || [];
    list.push(ref);
    byFile.set(ref.file, list);
  });
  byFile.forEach((refs, file) => {
    box.appendChild(el("div", { class: "ref-file" }, [
      el("h4", null, [
        link(fileHref(file), file),
        el("span", { class: "muted", text: " " + refs.length }),
      ]),
      el(
        "ul",
        { class: "refs" },
        refs.map((ref) =>
          el("li", null, [
            link(fileHref(ref.file, ref.line), String(ref.line), "ln-link"),
            el("code", { text: ref.context.trim() }),
            el("span", { class: "kind", text: ref.kind }),
            resolutionBadge(ref),
            ref.in ? el("span", { class: "muted", text: "in " + ref.in }) : "",
          ])
        ),
      ),
    ]));
  });
  if (r.truncated) {
    box.appendChild(note("Showing " + r.references.length + " of " + r.total + ".", "muted"));
  }
  return box;
}

/**
 * The names in a symbol's source that link somewhere: its children and what it calls.
 * @param {SymbolAnswer} s
 * @param {CallGraph} g
 * @returns {Map<string, string>}
 */
function namesOf(s, g) {
  /** @type {Map<string, string>} */
  const names = new Map();
  (g.callees || []).forEach((c) => {
    if (c.file && c.kind !== "file") {
      names.set(c.name.split(".").pop() || c.name, symbolHref(c.name, c.file));
    }
  });
  s.children.forEach((c) => names.set(c.name, symbolHref(c.qualified_name, c.file)));
  return names;
}

/**
 * Where the parser read names as code in a file (explain_file's `source_names`), so that a
 * name in a comment or a string is no link; undefined when the API cannot give the file's text
 * (too large), and then every known name links.
 * @param {string} path
 * @returns {Promise<[number, number][] | undefined>}
 */
async function codeNamesOf(path) {
  try {
    return /** @type {FileAnswer} */ (await get("/api/file", { path, source: 1 })).source_names;
  } catch {
    return undefined;
  }
}

/**
 * Renders the symbol view into `out`.
 * @param {HTMLElement} out
 * @param {Route} route
 */
export async function symbolView(out, route) {
  const name = route.arg;
  if (!name) {
    out.appendChild(note("Open a symbol from a search result, a file or the graph.", "muted"));
    return;
  }
  const file = route.params.get("file") || undefined;
  const symbol = /** @type {Promise<SymbolAnswer>} */ (get("/api/symbol", { name, file }));
  // The file's code names are asked for as soon as the symbol's file is known.
  const [s, g, refs, at] = await Promise.all([
    symbol,
    /** @type {Promise<CallGraph>} */ (get("/api/callgraph", { symbol: name, file, depth: 1 })),
    /** @type {Promise<ReferencesAnswer>} */ (get("/api/references", { symbol: name, file })),
    symbol.then((x) => codeNamesOf(x.symbol.file)),
  ]);
  const sym = s.symbol;
  const { first, text } = sourceLines(s);
  out.appendChild(el("div", { class: "view-head" }, [
    el("h2", { id: "symbol-name", text: sym.qualified_name }),
    el("span", { class: "badge", text: sym.kind }),
    link(fileHref(sym.file, sym.line), sym.file + ":" + sym.line + "–" + sym.end_line, "where"),
    el("span", { class: "muted", text: sym.language }),
    el("span", { class: "actions" }, [
      link(href("graph", "calls/" + sym.qualified_name, { file: sym.file }), "Call graph", "btn"),
      link(href("graph", "deps/" + sym.file), "File dependencies", "btn"),
      link(fileHref(sym.file, sym.line), "Open file", "btn"),
    ]),
  ]));
  if (s.parent) {
    out.appendChild(el("p", { class: "muted" }, [
      "in ",
      link(symbolHref(s.parent.qualified_name, s.parent.file), s.parent.qualified_name),
    ]));
  }
  if (sym.signature) out.appendChild(el("pre", { class: "signature", text: sym.signature }));
  if (s.doc) out.appendChild(renderMarkdown(s.doc));
  if (s.candidates.length) out.appendChild(candidates(s.candidates));
  if (s.children.length) out.appendChild(members(s.children));
  out.appendChild(el("h3", { text: "Source" }));
  out.appendChild(
    el("div", { id: "symbol-source" }, [
      renderCode(text, { first, focus: [sym.line], names: namesOf(s, g), at }),
    ]),
  );
  if (s.source_truncated) {
    out.appendChild(el("p", { class: "muted" }, [
      "The source is cut here; ",
      link(fileHref(sym.file, sym.line), "open the file"),
      " for the rest.",
    ]));
  }
  const maybe = g.unresolved_candidates || 0;
  out.appendChild(el("div", { class: "columns" }, [
    el("section", null, [
      // One count everywhere: callers are the symbols (or files' top level) that call it,
      // call sites the places they do (the CLI's "Called from" counts call sites too).
      el("h3", { text: callerHeading(g, s) }),
      callTable(g.callers || [], "Nothing calls it.", "callers"),
      maybe
        ? note(
          maybe + " more call" + (maybe > 1 ? "s" : "") + " of this name through a receiver " +
            "of unknown type may call it.",
          "muted",
        )
        : "",
    ]),
    el("section", null, [
      el("h3", { text: "Callees (" + (g.callees || []).length + ")" }),
      callTable(g.callees || [], "It calls nothing.", "callees"),
    ]),
  ]));
  out.appendChild(el("h3", { text: "References (" + refs.total + ")" }));
  out.append(resolutionCounts(refs.by_resolution));
  out.appendChild(referenceList(refs));
}

/**
 * "Callers (3 · 5 call sites)": the symbols that call it, and the calls they make.
 * @param {CallGraph} g
 * @param {SymbolAnswer} s
 * @returns {string}
 */
function callerHeading(g, s) {
  const callers = (g.callers || []).length;
  // A type's or a constant's callers_total counts its uses, not calls.
  const callable = ["function", "method", "constructor"].includes(s.symbol.kind);
  const sites = s.callers_total;
  return "Callers (" + callers +
    (callable && sites !== callers ? " · " + sites + " call site" + (sites === 1 ? "" : "s") : "") +
    ")";
}

/**
 * A class's (or module's) members, each a link: the overview a long source, cut at 200
 * lines, does not give.
 * @param {SymbolInfo[]} list
 * @returns {HTMLElement}
 */
function members(list) {
  return el("section", { id: "symbol-members" }, [
    el("h3", { text: "Members (" + list.length + ")" }),
    el(
      "p",
      { class: "members" },
      list.flatMap((c) => [
        el("span", { class: "kind", text: c.kind }),
        link(symbolHref(c.qualified_name, c.file), c.name),
        " ",
      ]),
    ),
  ]);
}

/**
 * Other symbols of the same name.
 * @param {SymbolInfo[]} list
 * @returns {HTMLElement}
 */
function candidates(list) {
  return el("div", { class: "candidates" }, [
    el("span", { class: "muted", text: "Other symbols of this name: " }),
    ...list.map((c) =>
      el("span", null, [
        link(symbolHref(c.qualified_name, c.file), c.qualified_name + " (" + c.file + ")"),
        " ",
      ])
    ),
  ]);
}
