// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The file view (`#/file/app/main.py:18`): the outline, the whole source with line numbers
 * (the line of the address marked and scrolled to), imports and importers. Names defined in
 * the file or imported into it are links to their symbol views.
 *
 * @module
 */

/** @import { Route } from "./route.js" */
/** @import { FileAnswer, SymbolAnswer, SymbolInfo } from "./rest.js" */
import { renderCode } from "./code.js";
import { el, link, note } from "./dom.js";
import { get } from "./rest.js";
import { fileHref, href, splitFileLine, symbolHref } from "./route.js";

/**
 * The names that link somewhere from this file: its own symbols and the names it imports
 * from other project files.
 * @param {FileAnswer} f
 * @returns {Map<string, string>}
 */
function namesOf(f) {
  /** @type {Map<string, string>} */
  const names = new Map();
  f.imports.forEach((i) => {
    (i.names || []).forEach((n) => {
      if (i.resolved) names.set(n, symbolHref(n, i.resolved));
    });
  });
  f.symbols.forEach((s) => {
    if (!s.parent) names.set(s.name, symbolHref(s.qualified_name, f.file));
  });
  // Members link too, unless a top-level or imported name already holds the word.
  f.symbols.forEach((s) => {
    if (s.parent && !names.has(s.name)) {
      names.set(s.name, symbolHref(s.qualified_name, f.file));
    }
  });
  return names;
}

/**
 * The outline: every symbol, nested under its parent, each a link to its line here and to
 * its own view.
 * @param {FileAnswer} f
 * @param {number} line the line being looked at
 * @returns {HTMLElement}
 */
function outline(f, line) {
  const list = el("ul", { class: "outline", id: "outline" });
  f.symbols.forEach((s) => {
    const depth = s.parent ? s.qualified_name.split(".").length - 1 : 0;
    const here = line >= s.line && line <= s.end_line;
    list.appendChild(el("li", { class: "depth-" + Math.min(depth, 4) + (here ? " here" : "") }, [
      el("span", { class: "kind", text: s.kind }),
      link(symbolHref(s.qualified_name, f.file), s.name, "name"),
      link(fileHref(f.file, s.line), String(s.line), "ln-link"),
    ]));
  });
  if (!f.symbols.length) list.appendChild(el("li", { class: "muted", text: "no symbols" }));
  return list;
}

/**
 * Imports and importers.
 * @param {FileAnswer} f
 * @returns {HTMLElement}
 */
function dependencies(f) {
  const imports = el("ul", { class: "imports", id: "imports" });
  f.imports.forEach((i) => {
    const names = (i.names || []).map((n) =>
      i.resolved ? link(symbolHref(n, i.resolved), n, "name") : el("span", { text: n })
    );
    imports.appendChild(el("li", null, [
      el("span", { class: "ln", text: String(i.line) }),
      i.resolved ? link(fileHref(i.resolved), i.module) : el("code", { text: i.module }),
      i.external
        ? el("span", { class: "badge", text: "external" + (i.package ? ": " + i.package : "") })
        : i.resolved
        ? ""
        : el("span", { class: "badge warn", text: "unresolved" }),
      names.length ? el("span", { class: "names" }, names.flatMap((n) => [n, " "])) : "",
    ]));
  });
  if (!f.imports.length) imports.appendChild(el("li", { class: "muted", text: "imports nothing" }));
  const importers = el("ul", { class: "imports", id: "importers" });
  f.imported_by.forEach((p) => importers.appendChild(el("li", null, [link(fileHref(p), p)])));
  if (!f.imported_by.length) {
    importers.appendChild(el("li", { class: "muted", text: "no file imports it" }));
  }
  return el("div", null, [
    el("h3", { text: "Imports" }),
    imports,
    el("h3", { text: "Imported by" }),
    importers,
    link(href("graph", "deps/" + f.file), "Dependency picture", "btn"),
  ]);
}

/**
 * The innermost symbol that holds a line, or else the first one.
 * @param {SymbolInfo[]} symbols
 * @param {number} line
 * @returns {SymbolInfo | undefined}
 */
function around(symbols, line) {
  const holding = symbols.filter((s) => line >= s.line && line <= s.end_line);
  holding.sort((a, b) => (a.end_line - a.line) - (b.end_line - b.line));
  return holding[0] || symbols.find((s) => !s.parent) || symbols[0];
}

/**
 * The source pane: the whole file (the API's `source`), or, when the API cannot give the text
 * (a file over its size limit), the source of the symbol around the line.
 * @param {FileAnswer} f
 * @param {number} line
 * @returns {Promise<HTMLElement>}
 */
async function source(f, line) {
  const names = namesOf(f);
  const focus = line ? [line] : [];
  if (typeof f.source === "string") {
    return el("div", { id: "file-source" }, [
      renderCode(f.source, { names, focus, at: f.source_names }),
      f.source_truncated
        ? note("The file is cut here: the API answers its first lines only.", "muted")
        : "",
    ]);
  }
  const s = around(f.symbols, line);
  if (!s) return note("This file defines no symbol, and the API does not serve its text.", "muted");
  const e = /** @type {SymbolAnswer} */ (
    await get("/api/symbol", { name: s.qualified_name, file: f.file })
  );
  const lines = e.source.split("\n");
  const text = e.source_truncated ? lines.slice(0, -1).join("\n") : e.source;
  const first = e.source_truncated ? s.line : s.end_line - lines.length + 1;
  return el("div", { id: "file-source" }, [
    el("p", { class: "muted" }, [
      "Lines " + first + "–" + (first + text.split("\n").length - 1) + " (",
      link(symbolHref(s.qualified_name, f.file), s.qualified_name),
      "); pick another symbol in the outline.",
    ]),
    renderCode(text, { first, names, focus: focus.length ? focus : [s.line] }),
  ]);
}

/**
 * The file with its text; a file whose text the API refuses (too large) is outlined without.
 * @param {string} path
 * @returns {Promise<FileAnswer>}
 */
async function loadFile(path) {
  try {
    return /** @type {FileAnswer} */ (await get("/api/file", { path, source: 1 }));
  } catch (err) {
    if (!/include_source/.test(err instanceof Error ? err.message : "")) throw err;
    return /** @type {FileAnswer} */ (await get("/api/file", { path }));
  }
}

/**
 * Renders the file view into `out` and scrolls to the line of the address.
 * @param {HTMLElement} out
 * @param {Route} route
 */
export async function fileView(out, route) {
  const { file, line } = splitFileLine(route.arg);
  if (!file) {
    out.appendChild(note("Open a file from a search result, a symbol or the graph.", "muted"));
    return;
  }
  const f = await loadFile(file);
  out.appendChild(el("div", { class: "view-head" }, [
    el("h2", { id: "file-name", text: f.file }),
    el("span", { class: "badge", text: f.language }),
    el("span", { class: "muted", text: f.lines + " lines · " + f.symbols.length + " symbols" }),
  ]));
  if (f.parse_error) out.appendChild(note("Parse error: " + f.parse_error, "error"));
  const pane = await source(f, line);
  out.appendChild(el("div", { class: "file-layout" }, [
    el("aside", null, [el("h3", { text: "Outline" }), outline(f, line), dependencies(f)]),
    el("div", { class: "file-main" }, [pane]),
  ]));
  const row = out.querySelector("tr.focus");
  if (row) row.scrollIntoView({ block: "center" });
}
