// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * Pictures as Graphviz DOT text: nodes in boxes by file or folder (gathered in their
 * folder's box when there are many), edges coloured through classes, and, for a crowded
 * picture, the edges between two boxes bundled into one. What the nodes and edges are is
 * `pictures.js`'s business; laying the text out is `graphviz.js`'s.
 *
 * @module
 */

import { dotAttrs, dotQuote } from "./graphviz.js";

/** Above this many boxes, boxes are gathered in their folder's box. */
const FLAT_GROUPS = 12;

/**
 * Graph-wide DOT defaults: compact, the page's font.
 * @param {string} rankdir `LR` or `TB`
 * @returns {string}
 */
function dotHead(rankdir) {
  return [
    "graph [rankdir=" + rankdir + ', compound=true, bgcolor="transparent", fontname="Helvetica", ' +
    "fontsize=10, nodesep=0.18, ranksep=0.5, pad=0.2, newrank=true]",
    'node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica", ' +
    'fontsize=10, height=0.28, margin="0.12,0.04"]',
    'edge [arrowsize=0.6, color="#8a94a6"]',
  ].join(";\n");
}

/**
 * A node of a picture.
 * @typedef {{ id: string, label: string, group: string, href?: string, tooltip: string,
 *   cls: string }} PicNode
 */
/**
 * An edge of a picture.
 * @typedef {{ from: string, to: string, cls: string, tooltip: string, label?: string,
 *   weight?: number }} PicEdge
 */
/**
 * A picture: its nodes and edges, how many nodes were cut (at `pictures.js`'s MAX_NODES), how
 * many calls leaving the project were left out, and whether edges between boxes are bundled.
 * @typedef {{ nodes: PicNode[], edges: PicEdge[], cut: number, hidden?: number,
 *   bundle?: boolean }} Picture
 */
/**
 * A box of a picture: its label, its nodes and the boxes inside it.
 * @typedef {{ label: string, nodes: PicNode[], inner: Box[] }} Box
 */

/**
 * The boxes the nodes are drawn in. Each node's `group` (a file or a folder) is a box; when
 * there are more than {@link FLAT_GROUPS} of them, they are gathered by the first folder
 * level at which they part ways (`src/graph/resolve` and `src/graph/deps.ts` in
 * `src/graph/`), a group of one node is not boxed again inside, and an outer box of one node
 * is no box at all.
 * @param {PicNode[]} nodes
 * @returns {{ loose: PicNode[], boxes: Box[] }}
 */
export function boxesOf(nodes) {
  /** @type {Map<string, PicNode[]>} */
  const groups = new Map();
  /** @type {PicNode[]} */
  const loose = [];
  nodes.forEach((n) => {
    if (!n.group) return loose.push(n);
    const list = groups.get(n.group) || [];
    list.push(n);
    groups.set(n.group, list);
  });
  if (groups.size <= FLAT_GROUPS) {
    return {
      loose,
      boxes: [...groups].map(([label, list]) => ({ label, nodes: list, inner: [] })),
    };
  }
  // The first folder level at which the nested groups part ways (a one-part group, such as
  // a root file or `src` itself, is a box of its own).
  const paths = [...groups.keys()].map((g) => g.split("/")).filter((p) => p.length > 1);
  const longest = Math.max(1, ...paths.map((p) => p.length));
  let depth = 0;
  while (
    depth < longest - 1 &&
    new Set(paths.map((p) => p.slice(0, depth + 1).join("/"))).size < 2
  ) depth++;
  /** @type {Map<string, Box>} */
  const outer = new Map();
  groups.forEach((list, group) => {
    const parts = group.split("/");
    const key = parts.slice(0, depth + 1).join("/");
    let box = outer.get(key);
    if (!box) {
      box = { label: key, nodes: [], inner: [] };
      outer.set(key, box);
    }
    if (key !== group) box.label = key + "/";
    if (key === group || list.length === 1) box.nodes.push(...list);
    else box.inner.push({ label: parts.slice(depth + 1).join("/"), nodes: list, inner: [] });
  });
  /** @type {Box[]} */
  const boxes = [];
  outer.forEach((box) => {
    if (box.inner.length === 0 && box.nodes.length === 1) loose.push(box.nodes[0]);
    else boxes.push(box);
  });
  return { loose, boxes };
}

/**
 * DOT text of nodes in boxes (see {@link boxesOf}) and edges. With `bundle`, the edges between
 * two outer boxes (or a box and a loose node) are drawn as one, from box to box, its width and
 * label the number of edges it stands for, red when one of them is on a cycle.
 * @param {PicNode[]} nodes
 * @param {PicEdge[]} edges
 * @param {string} [rankdir] `LR` (default) or `TB`
 * @param {boolean} [bundle]
 * @returns {string}
 */
export function toDot(nodes, edges, rankdir, bundle) {
  /** @type {string[]} */
  const out = ["digraph G {", dotHead(rankdir || "LR") + ";"];
  /** @param {PicNode} n */
  const line = (n) =>
    dotQuote(n.id) +
    dotAttrs({ label: n.label, href: n.href, tooltip: n.tooltip, class: n.cls, id: n.id }) + ";";
  /** Each boxed node's outer box (its cluster's name). */
  const outerOf = /** @type {Map<string, string>} */ (new Map());
  /** A node inside each outer box, where its bundled edges start and end. */
  const inside = /** @type {Map<string, string>} */ (new Map());
  let i = 0;
  /**
   * @param {Box} box
   * @param {string} [outer]
   */
  const emit = (box, outer) => {
    const name = "cluster_" + i++;
    const top = outer || name;
    out.push("subgraph " + dotQuote(name) + " {");
    out.push(
      "graph" + dotAttrs({
        label: box.label,
        class: "group",
        style: "rounded,dashed",
        color: "#b8bfcc",
        fontcolor: "#6b7280",
        tooltip: box.label,
      }) + ";",
    );
    box.nodes.forEach((n) => {
      out.push(line(n));
      outerOf.set(n.id, top);
      if (!inside.has(top)) inside.set(top, n.id);
    });
    box.inner.forEach((b) => emit(b, top));
    out.push("}");
  };
  const { loose, boxes } = boxesOf(nodes);
  loose.forEach((n) => out.push(line(n)));
  boxes.forEach((b) => emit(b));
  /** @type {Map<string, PicEdge & { count: number, tail?: string, head?: string }>} */
  const bundled = new Map();
  /** @param {PicEdge & { tail?: string, head?: string }} e */
  const edge = (e) =>
    dotQuote(e.from) + " -> " + dotQuote(e.to) +
    dotAttrs({
      class: e.cls,
      tooltip: e.tooltip,
      label: e.label,
      ltail: e.tail,
      lhead: e.head,
      penwidth: e.weight ? String(Math.min(5, 0.8 + Math.log2(e.weight))) : undefined,
    }) + ";";
  edges.forEach((e) => {
    const a = outerOf.get(e.from), b = outerOf.get(e.to);
    if (!bundle || a === b || (!a && !b)) return out.push(edge(e));
    const key = (a || e.from) + ">" + (b || e.to);
    const have = bundled.get(key);
    const n = e.weight || 1;
    if (have) {
      have.count += n;
      if (/\bcycle\b/.test(e.cls)) have.cls = have.cls.replace(/( cycle)?$/, " cycle");
      return;
    }
    bundled.set(key, {
      ...e,
      from: a ? inside.get(a) || e.from : e.from,
      to: b ? inside.get(b) || e.to : e.to,
      tail: a,
      head: b,
      cls: e.cls.replace(/\bcycle\b/, "").trim() + " bundle" +
        (/\bcycle\b/.test(e.cls) ? " cycle" : ""),
      count: n,
    });
  });
  bundled.forEach((e) => {
    out.push(edge({
      ...e,
      label: e.count > 1 ? String(e.count) : undefined,
      weight: e.count > 1 ? e.count : undefined,
      tooltip: e.count > 1 ? e.count + " edges between these boxes" : e.tooltip,
    }));
  });
  out.push("}");
  return out.join("\n");
}
