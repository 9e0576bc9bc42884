// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The impact view (`#/impact?base=HEAD~1`, or a diff pasted in): what a change touches —
 * the changed definitions, what is likely to break, a picture of what reaches the change hop
 * by hop (edges dashed when matched by name only), the lists by hop and the tests to run. It
 * asks `GET /api/impact` for a revision and `POST /api/impact` for a pasted diff.
 *
 * @module
 */

/** @import { ImpactAnswer, ImpactedInfo } from "./rest.js" */
/** @import { PicEdge, PicNode } from "./dot.js" */
import { el, link, note } from "./dom.js";
import { toDot } from "./dot.js";
import { drawDot } from "./graphviz.js";
import { api, get } from "./rest.js";
import { fileHref, href, symbolHref } from "./route.js";

/** At most this many definitions are drawn (the nearest hops first). */
const MAX_DRAWN = 120;

/**
 * The picture: changed definitions in the middle, each reached one linked from the one before
 * it on its path, boxed by file.
 * @param {ImpactAnswer} r
 * @returns {{ nodes: PicNode[], edges: PicEdge[], cut: number }}
 */
function impactPicture(r) {
  /** @type {Map<string, PicNode>} */
  const nodes = new Map();
  /** @type {PicEdge[]} */
  const edges = [];
  r.changed.filter((c) => c.change !== "added").forEach((c) => {
    const key = c.file + "\u0000" + c.qualified_name;
    if (nodes.has(key)) return;
    nodes.set(key, {
      id: "c" + nodes.size,
      label: c.qualified_name,
      group: c.file,
      href: c.change === "deleted"
        ? fileHref(c.file, c.line)
        : symbolHref(c.qualified_name, c.file),
      tooltip: c.change + " " + c.kind + " — " + c.file + ":" + c.line +
        (c.signature_changed ? " (signature changed)" : ""),
      cls: "node-call center change-" + c.change,
    });
  });
  /** @type {Map<string, string>} a definition's name → its node (the first of that name) */
  const byName = new Map();
  nodes.forEach((n) => {
    if (!byName.has(n.label)) byName.set(n.label, n.id);
  });
  const drawn = r.impacted.slice(0, MAX_DRAWN);
  drawn.forEach((x) => {
    const id = "i" + nodes.size;
    nodes.set(x.file + "\u0000" + x.qualified_name, {
      id,
      label: x.qualified_name,
      group: x.file,
      href: symbolHref(x.qualified_name, x.file),
      tooltip: "hop " + x.hop + ", " + x.resolution + " — " + x.file + ":" + x.line,
      cls: "node-call hop-" + Math.min(x.hop, 3) + (x.test ? " test" : ""),
    });
    if (!byName.has(x.qualified_name)) byName.set(x.qualified_name, id);
  });
  drawn.forEach((x) => {
    const to = nodes.get(x.file + "\u0000" + x.qualified_name);
    const from = byName.get(x.path[x.path.length - 2]);
    if (!to || !from) return;
    edges.push({
      from,
      to: to.id,
      cls: "edge-call res-" + x.resolution,
      tooltip: x.via.kind + " at " + x.via.file + ":" + x.via.line + " (" + x.resolution + ")",
    });
  });
  return { nodes: [...nodes.values()], edges, cut: r.impacted.length - drawn.length };
}

/**
 * A reached definition as a list item: where, and the path back to the change.
 * @param {ImpactedInfo} x
 * @returns {HTMLElement}
 */
function impactedItem(x) {
  return el("li", null, [
    link(symbolHref(x.qualified_name, x.file), x.qualified_name),
    el("span", { class: "muted", text: " " + x.kind + " " }),
    link(fileHref(x.file, x.line), x.file + ":" + x.line),
    el("span", {
      class: "muted",
      text: " ← " + x.path.slice(0, -1).reverse().join(" ← ") +
        (x.resolution === "exact" ? "" : " (" + x.resolution + ")"),
    }),
  ]);
}

/**
 * Draws the answer into `box`.
 * @param {HTMLElement} box
 * @param {ImpactAnswer} r
 */
async function showImpact(box, r) {
  box.replaceChildren();
  box.appendChild(el("p", {
    class: "impact-summary",
    text: r.files.length + " files, " + r.changed.length + " definitions changed, " +
      r.impacted_total + " reached, " + r.tests_to_run.files.length + " test files to run" +
      (r.base ? " (working tree against " + r.base + ")" : ""),
  }));
  if (r.risk.likely_breaks.length) {
    box.appendChild(el("h3", { text: "Likely to break" }));
    box.appendChild(el(
      "ul",
      { class: "likely-breaks" },
      r.risk.likely_breaks.map((b) =>
        el("li", null, [
          el("strong", { text: b.qualified_name }),
          " " + (b.reason === "deleted" ? "deleted" : "signature changed") + ", still used " +
          b.references + "×: ",
          ...b.sites.flatMap((s, i) => [i ? ", " : "", link(href("file", s), s)]),
        ])
      ),
    ));
  }
  box.appendChild(el("h3", { text: "Changed" }));
  box.appendChild(el(
    "ul",
    { class: "changed" },
    r.changed.map((c) =>
      el("li", null, [
        el("span", { class: "change " + c.change, text: c.change + " " }),
        c.change === "deleted"
          ? el("span", { text: c.qualified_name })
          : link(symbolHref(c.qualified_name, c.file), c.qualified_name),
        " ",
        link(fileHref(c.file, c.line), c.file + ":" + c.line),
        c.signature_changed
          ? el("code", { text: " " + (c.old_signature || "") + " → " + c.signature })
          : "",
      ])
    ),
  ));
  const pic = impactPicture(r);
  if (pic.edges.length) {
    const frame = el("div", { id: "graph-out", class: "graph" });
    box.appendChild(frame);
    if (pic.cut > 0) frame.appendChild(note(pic.cut + " more reached are listed below", "muted"));
    await drawDot(
      frame,
      pic.nodes.length > 8
        ? ["LR", "TB"].map((dir) => toDot(pic.nodes, pic.edges, dir))
        : toDot(pic.nodes, pic.edges, "LR"),
    );
    box.appendChild(el("p", { class: "legend" }, [
      el("span", { class: "key center", text: "changed" }),
      el("span", { class: "key res-exact", text: "exact" }),
      el("span", { class: "key res-inferred", text: "inferred from a type" }),
      el("span", { class: "key res-name", text: "matched by name only" }),
    ]));
  }
  const hops = [...new Set(r.impacted.map((x) => x.hop))].sort((a, b) => a - b);
  hops.forEach((h) => {
    box.appendChild(el("h3", { text: "Hop " + h }));
    box.appendChild(el(
      "ul",
      { class: "hop" },
      r.impacted.filter((x) => x.hop === h).map(impactedItem),
    ));
  });
  if (r.tests_to_run.files.length) {
    box.appendChild(el("h3", { text: "Tests to run" }));
    box.appendChild(el(
      "ul",
      { class: "tests" },
      r.tests_to_run.files.map((f) => el("li", null, [link(fileHref(f), f)])),
    ));
  }
  if (!r.changed.length) box.appendChild(note("The change touches no definition.", "muted"));
}

/**
 * The view: a revision to compare the working tree with, or a diff to paste.
 * @param {HTMLElement} out
 * @param {import("./route.js").Route} route
 */
export async function impactView(out, route) {
  const base = route.params.get("base") || "";
  const rev = el("input", {
    id: "impact-base",
    type: "text",
    value: base,
    placeholder: "HEAD",
    "aria-label": "git revision",
  });
  const diff = /** @type {HTMLTextAreaElement} */ (el("textarea", {
    id: "impact-diff",
    rows: "6",
    placeholder: "…or paste a unified diff (git diff output, or a patch about to be applied)",
    "aria-label": "unified diff",
  }));
  const result = el("div", { id: "impact-out" });
  const form = el("form", { id: "impact-form" }, [
    el("label", { text: "Working tree against " }),
    rev,
    diff,
    el("div", { class: "bar" }, [el("button", { text: "Show impact" })]),
  ]);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = diff.value;
    if (text.trim()) {
      void run(result, () =>
        api("/api/impact", {
          method: "POST",
          headers: { "Content-Type": "text/plain" },
          body: text,
        }));
      return;
    }
    const want = /** @type {HTMLInputElement} */ (rev).value.trim() || "HEAD";
    if (want === base) void run(result, () => get("/api/impact", { base: want }));
    else location.hash = href("impact", "", { base: want });
  });
  out.appendChild(form);
  out.appendChild(result);
  if (base) await run(result, () => get("/api/impact", { base }));
}

/**
 * Asks and shows; an error replaces the answer and leaves the form.
 * @param {HTMLElement} box
 * @param {() => Promise<unknown>} ask
 */
async function run(box, ask) {
  box.replaceChildren(note("Reading the change…", "loading"));
  try {
    await showImpact(box, /** @type {ImpactAnswer} */ (await ask()));
  } catch (err) {
    box.replaceChildren(note(err instanceof Error ? err.message : String(err), "error"));
  }
}
