// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The picture views: the call graph of a symbol (`#/graph/calls/main?depth=2`) and the
 * dependency graph, of a file's neighbourhood (`#/graph/deps/app/main.py?depth=2`) or of the
 * whole project folded by folder (`#/graph/deps?fold=1`), with import cycles in red. Calls
 * that resolve to nothing in the project (builtins, library calls) are folded into one node
 * per caller unless asked for; nodes are grouped in boxes by file or folder.
 *
 * @module
 */

/** @import { Route } from "./route.js" */
/** @import { CallGraph, CallNode, DepsAnswer } from "./rest.js" */
/** @import { Picture } from "./dot.js" */
import { el, link, note } from "./dom.js";
import { drawDot } from "./graphviz.js";
import { callPicture, depsPicture, folderOf, MAX_NODES, neighbourhoodPicture } from "./pictures.js";
import { toDot } from "./dot.js";
import { get } from "./rest.js";
import { href } from "./route.js";

/**
 * The controls above a picture: which graph, of what, how deep, what to show.
 * @param {string} kind `calls` or `deps`
 * @param {string} subject
 * @param {URLSearchParams} p
 * @returns {HTMLElement}
 */
function controls(kind, subject, p) {
  const input = /** @type {HTMLInputElement} */ (el("input", {
    id: "graph-subject",
    value: subject,
    placeholder: kind === "calls"
      ? "function or method, e.g. main or Greeter.greet"
      : "file, e.g. src/app.py (empty: the whole project)",
  }));
  const depth =
    /** @type {HTMLSelectElement} */ (el("select", { id: "graph-depth", title: "depth" }));
  ["1", "2", "3", "4", "5"].forEach((d) => {
    const o = /** @type {HTMLOptionElement} */ (el("option", { value: d, text: "depth " + d }));
    o.selected = d === (p.get("depth") || "1");
    depth.appendChild(o);
  });
  const fold = /** @type {HTMLSelectElement} */ (el("select", { id: "graph-fold", title: "fold" }));
  [["", "auto"], ["0", "files"], ["1", "folders"], ["2", "folders, 2 levels"], [
    "3",
    "folders, 3 levels",
  ]]
    .forEach(([v, label]) => {
      const o = /** @type {HTMLOptionElement} */ (el("option", { value: v, text: label }));
      o.selected = v === (p.get("fold") || "");
      fold.appendChild(o);
    });
  const ext =
    /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "graph-external" }));
  ext.checked = p.get("external") === "1";
  const tests =
    /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "graph-tests" }));
  tests.checked = p.get("tests") !== "0";
  const form = el("form", { class: "bar", id: "graph-form" }, [
    el("span", { class: "seg" }, [
      el("a", { href: href("graph", "calls"), class: kind === "calls" ? "on" : "", text: "Calls" }),
      el("a", {
        href: href("graph", "deps"),
        class: kind === "deps" ? "on" : "",
        text: "Dependencies",
      }),
    ]),
    input,
    kind === "deps" && !input.value ? "" : depth,
    kind === "calls" ? el("label", { class: "check" }, [ext, " external calls"]) : "",
    kind === "calls"
      ? el("label", { class: "check", title: "callers in test files" }, [tests, " tests"])
      : input.value
      ? ""
      : fold,
    el("button", { text: "Draw" }),
  ]);
  const go = () => {
    const s = input.value.trim();
    if (kind === "calls" && !s) return;
    location.hash = href("graph", kind + (s ? "/" + s : ""), {
      depth: s ? depth.value : undefined,
      file: kind === "calls" && s === subject ? p.get("file") : undefined,
      external: kind === "calls" && ext.checked ? "1" : undefined,
      tests: kind === "calls" && !tests.checked ? "0" : undefined,
      fold: kind === "deps" && !s ? fold.value : undefined,
      under: kind === "deps" && !s ? p.get("under") : undefined,
    });
  };
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    go();
  });
  [depth, fold, ext, tests].forEach((c) => c.addEventListener("change", go));
  return form;
}

/**
 * The automatic fold of the whole project: files when there are few, else the deepest
 * folder level with at most 40 nodes that still adds folders.
 * @param {DepsAnswer} d
 * @returns {number}
 */
function autoFold(d) {
  const files = (d.nodes || []).map((n) => n.file);
  if (files.length <= 40) return 0;
  let before = 0;
  for (let f = 1; f < 6; f++) {
    const count = new Set(files.map((x) => folderOf(x, f))).size;
    // Past 40 nodes, or no deeper folders: the level above.
    if (count > 40 || count === before) return Math.max(1, f - 1);
    before = count;
  }
  return 5;
}

/**
 * Renders a picture view into `out`.
 * @param {HTMLElement} out
 * @param {Route} route
 */
export async function graphView(out, route) {
  const slash = route.arg.indexOf("/");
  const kind = (slash >= 0 ? route.arg.slice(0, slash) : route.arg) || "calls";
  const subject = slash >= 0 ? route.arg.slice(slash + 1) : "";
  const p = route.params;
  const depth = Number(p.get("depth") || "1");
  out.appendChild(controls(kind, subject, p));
  const box = el("div", { id: "graph-out", class: "graph" });
  out.appendChild(box);
  /** @type {Picture} */
  let pic;
  /** @type {string} */
  let caption;
  if (kind === "calls") {
    if (!subject) {
      box.appendChild(note("Name a function or method to draw its callers and callees.", "muted"));
      return;
    }
    const g = /** @type {CallGraph} */ (await get("/api/callgraph", {
      symbol: subject,
      depth,
      file: p.get("file") || undefined,
      include_tests: p.get("tests") === "0" ? "0" : undefined,
    }));
    pic = callPicture(g, p.get("external") === "1");
    caption = "Calls of " + g.symbol + (g.definition ? " (" + g.definition.file + ")" : "") +
      ": " + hopCount(g.callers || [], depth, "caller") + "; " +
      hopCount(g.callees || [], depth, "callee");
    if (g.candidates && g.candidates.length) out.insertBefore(otherSymbols(g), box);
  } else if (kind === "deps") {
    const whole = /** @type {DepsAnswer} */ (await get("/api/deps"));
    if (subject) {
      const own = /** @type {DepsAnswer} */ (await get("/api/deps", { file: subject }));
      pic = neighbourhoodPicture(whole, own, own.file || subject, depth);
      caption = "Imports around " + (own.file || subject) + ", " + depth +
        (depth > 1 ? " hops" : " hop") + " both ways";
    } else {
      const under = p.get("under") || "";
      const fold = p.get("fold") ? Number(p.get("fold")) : autoFold(whole);
      pic = depsPicture(whole, fold, under);
      caption = (under ? "Files under " + under : "The whole project") +
        (fold && !under ? ", folded to " + fold + " folder level" + (fold > 1 ? "s" : "") : "") +
        " · " + (whole.cycles || []).length +
        ((whole.cycles || []).length === 1 ? " import cycle" : " import cycles") +
        ((whole.external || []).length
          ? " · external: " + (whole.external || []).slice(0, 8).map((x) => x.package).join(", ")
          : "");
    }
  } else {
    throw new Error("no picture '" + kind + "': use #/graph/calls/<symbol> or #/graph/deps");
  }
  box.appendChild(el("p", { class: "muted", id: "graph-caption", text: caption }));
  if (pic.cut) {
    box.appendChild(
      note(
        "Only the first " + MAX_NODES + " nodes are drawn; lower the depth or fold more.",
        "muted",
      ),
    );
  }
  if (pic.nodes.length <= 1 && !pic.edges.length) {
    box.appendChild(
      note("Nothing to draw: no " + (kind === "calls" ? "calls" : "imports") + " here.", "muted"),
    );
    return;
  }
  if (pic.hidden) {
    box.appendChild(
      note(
        pic.hidden + (pic.hidden > 1 ? " calls" : " call") + " leaving the project " +
          (pic.hidden > 1 ? "are" : "is") + " hidden; tick “external calls” to draw them.",
        "muted",
      ),
    );
  }
  // A picture of more than a few nodes is laid out both ways; the one that fits the frame
  // at the larger scale is shown.
  await drawDot(
    box,
    pic.nodes.length > 8
      ? ["LR", "TB"].map((dir) => toDot(pic.nodes, pic.edges, dir, pic.bundle))
      : toDot(pic.nodes, pic.edges, "LR", pic.bundle),
  );
  box.appendChild(legend(kind));
}

/**
 * How many callers (or callees) a picture holds: the direct ones, and within `depth` hops
 * when it goes further ("3 direct callers, 88 within 2 hops").
 * @param {CallNode[]} nodes
 * @param {number} depth
 * @param {string} what
 * @returns {string}
 */
function hopCount(nodes, depth, what) {
  const direct = nodes.filter((n) => (n.depth || 1) === 1).length;
  const plural = (/** @type {number} */ n) => n + " " + what + (n === 1 ? "" : "s");
  if (depth <= 1) return plural(direct);
  return plural(direct).replace(" ", " direct ") + ", " + nodes.length + " within " + depth +
    " hops";
}

/**
 * The note that a name means several symbols: this picture is of the first, the others
 * open their own.
 * @param {CallGraph} g
 * @returns {HTMLElement}
 */
function otherSymbols(g) {
  const list = g.candidates || [];
  return el("p", { class: "candidates", id: "graph-candidates" }, [
    el("span", {
      text: list.length + (list.length === 1 ? " other symbol is" : " other symbols are") +
        " named so; this picture is of " + g.symbol +
        (g.definition ? " in " + g.definition.file : "") + ". Others: ",
    }),
    ...list.map((c) =>
      el("span", null, [
        link(
          href("graph", "calls/" + c.qualified_name, { file: c.file }),
          c.qualified_name + " (" + c.file + ":" + c.line + ")",
        ),
        " ",
      ])
    ),
  ]);
}

/**
 * What the colours of a picture mean.
 * @param {string} kind
 * @returns {HTMLElement}
 */
function legend(kind) {
  const items = kind === "calls"
    ? [
      ["center", "this symbol"],
      ["unresolved", "outside the project or receiver unknown"],
      ["res-exact", "exact call"],
      ["res-inferred", "inferred from a type"],
      ["res-name", "matched by name only"],
    ]
    : [["center", "this file"], ["folder", "folder"], ["cycle", "import cycle"], [
      "external",
      "external packages",
    ]];
  return el(
    "p",
    { class: "legend" },
    items.map(([cls, text]) => el("span", { class: "key " + cls, text })),
  );
}
