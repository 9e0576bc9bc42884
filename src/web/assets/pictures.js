// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * What the pictures show: the nodes and edges of a symbol's call graph, of the whole
 * project's dependencies (files or folders, cycles in red) and of a file's neighbourhood. The
 * DOT text is made in `dot.js`; the view that asks for them and its controls are in `graph.js`.
 *
 * @module
 */

/** @import { CallGraph, CallNode, DepsAnswer } from "./rest.js" */
/** @import { PicEdge, PicNode, Picture } from "./dot.js" */
import { fileHref, href } from "./route.js";
import { resolutionOf } from "./symbol.js";

/** At most this many nodes are drawn. */
export const MAX_NODES = 250;

/** Above this many import edges, those between two folders' boxes are bundled into one. */
const BUNDLE_OVER = 60;

/** Above this many project nodes, calls that leave the project are not drawn. */
const FOLD_EXTERNAL_MAX = 30;

/**
 * Whether a call leaves the project (a builtin or a library call): the API's `external` flag,
 * or, from an API without it, a callee with no file.
 * @param {{ external?: boolean }} edge
 * @param {CallNode | undefined} target
 * @returns {boolean}
 */
function leavesProject(edge, target) {
  if (edge.external !== undefined) return edge.external;
  return !!target && !target.file && target.kind !== "file";
}

/**
 * The call graph's nodes and edges: callers and callees grouped by file, calls that leave the
 * project (builtins, libraries) folded per caller into one `+N external` node (or, past
 * {@link FOLD_EXTERNAL_MAX} project nodes, counted in `hidden`) unless `external` is set. A call matched by name only (`resolution: "name"`) is a dashed edge; a callee whose
 * receiver could not be typed (`kind: "unknown"`) is a dashed node outside the file boxes.
 * @param {CallGraph} g
 * @param {boolean} external
 * @returns {Picture}
 */
export function callPicture(g, external) {
  /** @type {Map<string, CallNode>} */
  const info = new Map();
  [...(g.callers || []), ...(g.callees || [])].forEach((n) => {
    if (!info.has(n.name)) info.set(n.name, n);
  });
  const def = g.definition;
  /** @type {Map<string, PicNode>} */
  const nodes = new Map();
  /** @type {Map<string, string[]>} */
  const folded = new Map();
  let cut = 0;
  /**
   * @param {string} name
   * @returns {string | null}
   */
  const nodeFor = (name) => {
    const have = nodes.get(name);
    if (have) return have.id;
    if (nodes.size >= MAX_NODES) {
      cut++;
      return null;
    }
    const n = info.get(name);
    const center = name === g.symbol;
    const file = center ? def?.file : n?.file;
    const isFile = n?.kind === "file";
    const unresolved = !center && !file;
    const maybe = unresolved && n?.kind === "unknown";
    const id = "n" + nodes.size;
    nodes.set(name, {
      id,
      label: isFile ? "(top level)" : name,
      group: file || "",
      href: isFile
        ? fileHref(name, n?.call_line)
        : file
        ? href("graph", "calls/" + name, { file })
        : undefined,
      tooltip: (center ? "this symbol: " : "") + name +
        (file
          ? " — " + file + ":" + ((center ? def?.line : n?.line) || "")
          : maybe
          ? " — receiver of unknown type; project symbols of this name exist"
          : " — not in the project"),
      cls: "node-call" + (center ? " center" : "") + (unresolved ? " unresolved" : "") +
        (maybe ? " unknown" : "") + (isFile ? " toplevel" : ""),
    });
    return id;
  };
  nodeFor(g.symbol);
  /** @type {Map<string, PicEdge>} */
  const edges = new Map();
  (g.edges || []).forEach((e) => {
    const target = info.get(e.to);
    if (!external && e.to !== g.symbol && leavesProject(e, target)) {
      const list = folded.get(e.from) || [];
      if (!list.includes(e.to)) list.push(e.to);
      folded.set(e.from, list);
      return;
    }
    const a = nodeFor(e.from), b = nodeFor(e.to);
    if (!a || !b) return;
    const key = a + ">" + b;
    const have = edges.get(key);
    if (have) {
      have.tooltip += ", " + e.file + ":" + e.line;
      return;
    }
    edges.set(key, {
      from: a,
      to: b,
      cls: "edge-call res-" + (resolutionOf(e) || "unknown") + (e.external ? " external" : ""),
      tooltip: resolutionOf(e) + " call at " + e.file + ":" + e.line,
    });
  });
  // Past a few dozen nodes one folded node per caller would double the picture: the calls
  // that leave the project are only counted then.
  let hidden = 0;
  if (nodes.size > FOLD_EXTERNAL_MAX) {
    folded.forEach((names) => (hidden += names.length));
    folded.clear();
  }
  folded.forEach((names, from) => {
    const a = nodeFor(from);
    if (!a || nodes.size >= MAX_NODES) return;
    const id = "x" + nodes.size;
    const shown = names.slice(0, 3).join(", ") + (names.length > 3 ? ", …" : "");
    nodes.set("\u0000" + from, {
      id,
      label: "+" + names.length + " external: " + shown,
      group: "",
      tooltip: "calls outside the project: " + names.join(", "),
      cls: "node-call external",
    });
    edges.set(a + ">" + id, {
      from: a,
      to: id,
      cls: "edge-call external",
      tooltip: names.join(", "),
    });
  });
  return { nodes: [...nodes.values()], edges: [...edges.values()], cut, hidden };
}

/**
 * The folder of a file, cut to `fold` levels (`""` for the root).
 * @param {string} file
 * @param {number} fold
 * @returns {string}
 */
export function folderOf(file, fold) {
  const dirs = file.split("/").slice(0, -1);
  return dirs.slice(0, fold).join("/");
}

/**
 * The edges that lie on an import cycle, as `from>to`.
 * @param {string[][]} cycles
 * @returns {Set<string>}
 */
function cycleEdges(cycles) {
  /** @type {Set<string>} */
  const out = new Set();
  cycles.forEach((c) => {
    const ring = c[c.length - 1] === c[0] ? c.slice(0, -1) : c;
    ring.forEach((f, i) => out.add(f + ">" + ring[(i + 1) % ring.length]));
  });
  return out;
}

/**
 * The whole project's dependency picture; `fold` 0 draws files in folder boxes, `fold` N
 * draws one node per folder N levels deep. `under` keeps the files below a folder (their
 * neighbours outside it shown as folders).
 * @param {DepsAnswer} d
 * @param {number} fold
 * @param {string} under
 * @returns {Picture}
 */
export function depsPicture(d, fold, under) {
  const onCycle = cycleEdges(d.cycles || []);
  const files = new Set((d.nodes || []).map((n) => n.file));
  /** @param {string} f */
  const keyOf = (f) => {
    if (under && !f.startsWith(under)) return "dir:" + (folderOf(f, 1) || "(root)");
    if (fold === 0 || under) return f;
    return "dir:" + (files.has(f) ? folderOf(f, fold) : f.split("/").slice(0, fold).join("/"));
  };
  /** @type {Map<string, PicNode>} */
  const nodes = new Map();
  /** @type {Map<string, number>} */
  const sizes = new Map();
  let cut = 0;
  /** @param {string} f */
  const nodeFor = (f) => {
    const key = keyOf(f);
    sizes.set(key, (sizes.get(key) || 0) + 1);
    const have = nodes.get(key);
    if (have) return have.id;
    if (nodes.size >= MAX_NODES) {
      cut++;
      return null;
    }
    const id = "d" + nodes.size;
    if (key.startsWith("dir:")) {
      const dir = key.slice(4);
      nodes.set(key, {
        id,
        label: dir && dir !== "(root)" ? dir + "/" : "(root)",
        group: "",
        href: href("graph", "deps", { fold: 0, under: dir && dir !== "(root)" ? dir + "/" : "" }),
        tooltip: "folder " + dir,
        cls: "node-dep folder",
      });
    } else {
      nodes.set(key, {
        id,
        label: f.split("/").pop() || f,
        group: folderOf(f, 99) || "(root)",
        href: files.has(f) ? fileHref(f) : href("graph", "deps", { fold: 0, under: f + "/" }),
        tooltip: f,
        cls: "node-dep" + (files.has(f) ? "" : " folder"),
      });
    }
    return id;
  };
  const shownFiles = [...files].filter((f) => !under || f.startsWith(under));
  shownFiles.forEach((f) => nodeFor(f));
  /** @type {Map<string, PicEdge>} */
  const edges = new Map();
  (d.edges || []).forEach((e) => {
    if (under && !e.from.startsWith(under) && !e.to.startsWith(under)) return;
    const a = nodeFor(e.from), b = nodeFor(e.to);
    const cycle = onCycle.has(e.from + ">" + e.to);
    if (a && a === b && cycle) {
      // A cycle inside one folded folder: the folder itself is marked.
      const n = [...nodes.values()].find((x) => x.id === a);
      if (n && !n.cls.includes(" cycle")) n.cls += " cycle";
    }
    if (!a || !b || a === b) return;
    const key = a + ">" + b;
    const have = edges.get(key);
    if (have) {
      have.weight = (have.weight || 1) + 1;
      have.label = String(have.weight);
      if (cycle) have.cls = "edge-dep cycle";
      return;
    }
    edges.set(key, {
      from: a,
      to: b,
      cls: "edge-dep" + (cycle ? " cycle" : ""),
      tooltip: e.from + " imports " + e.to + (e.line ? " (line " + e.line + ")" : ""),
    });
  });
  nodes.forEach((n, key) => {
    if (key.startsWith("dir:") && !under) {
      const count = (d.nodes || []).filter((x) => keyOf(x.file) === key).length;
      if (count) n.label += " (" + count + (count === 1 ? " file)" : " files)");
    }
  });
  const list = [...edges.values()];
  return { nodes: [...nodes.values()], edges: list, cut, bundle: list.length > BUNDLE_OVER };
}

/**
 * A file's neighbourhood: the files it reaches through imports, both ways, up to `depth`
 * hops, grouped by folder; its external packages folded into one node.
 * @param {DepsAnswer} whole
 * @param {DepsAnswer} own
 * @param {string} file
 * @param {number} depth
 * @returns {Picture}
 */
export function neighbourhoodPicture(whole, own, file, depth) {
  const all = whole.edges || [];
  const onCycle = cycleEdges(whole.cycles || []);
  const files = new Set((whole.nodes || []).map((n) => n.file));
  /** @type {Map<string, number>} */
  const dist = new Map([[file, 0]]);
  let frontier = [file];
  let cut = 0;
  for (let hop = 1; hop <= depth && frontier.length; hop++) {
    /** @type {string[]} */
    const next = [];
    all.forEach((e) => {
      [[e.from, e.to], [e.to, e.from]].forEach(([a, b]) => {
        if (!frontier.includes(a) || dist.has(b)) return;
        if (dist.size >= MAX_NODES) {
          cut++;
          return;
        }
        dist.set(b, hop);
        next.push(b);
      });
    });
    frontier = next;
  }
  /** @type {PicNode[]} */
  const nodes = [];
  /** @type {Map<string, string>} */
  const ids = new Map();
  dist.forEach((hop, f) => {
    const id = "f" + nodes.length;
    ids.set(f, id);
    nodes.push({
      id,
      label: f.split("/").pop() || f,
      group: folderOf(f, 99) || "(root)",
      href: f === file
        ? fileHref(f)
        : files.has(f)
        ? href("graph", "deps/" + f, { depth })
        : href("graph", "deps", { fold: 0, under: f + "/" }),
      tooltip: f + (hop ? " — " + hop + " hop" + (hop > 1 ? "s" : "") + " away" : ""),
      cls: "node-dep" + (f === file ? " center" : "") + (files.has(f) ? "" : " folder"),
    });
  });
  /** @type {PicEdge[]} */
  const edges = [];
  const seen = new Set();
  all.forEach((e) => {
    const a = ids.get(e.from), b = ids.get(e.to);
    if (!a || !b || seen.has(a + ">" + b)) return;
    seen.add(a + ">" + b);
    const cycle = onCycle.has(e.from + ">" + e.to);
    edges.push({
      from: a,
      to: b,
      cls: "edge-dep" + (cycle ? " cycle" : ""),
      tooltip: e.from + " imports " + e.to + (e.line ? " (line " + e.line + ")" : ""),
    });
  });
  const packages = [
    ...new Set((own.imports || []).filter((i) => i.external).map((i) => i.package || i.module)),
  ];
  if (packages.length) {
    const id = "ext";
    nodes.push({
      id,
      label: packages.length + " external: " + packages.slice(0, 4).join(", ") +
        (packages.length > 4 ? ", …" : ""),
      group: "",
      tooltip: "packages outside the project: " + packages.join(", "),
      cls: "node-dep external",
    });
    edges.push({ from: ids.get(file) || "f0", to: id, cls: "edge-dep external", tooltip: "" });
  }
  return { nodes, edges, cut, bundle: edges.length > BUNDLE_OVER };
}
