/**
 * The view of the code graph that context building needs: callers and callees of a symbol,
 * the names it uses, reference counts, and weighted edges for ranking. It is read off the
 * project's code graph (`src/graph`): every reference of the project resolved through
 * scopes, imports and receivers, once per index generation.
 *
 * @module
 */

import { loadGraph } from "../graph/graph.ts";
import { isAuxiliary } from "../graph/lookup.ts";
import { namesOf } from "../graph/names.ts";
import type { RefTargets } from "../graph/ref_resolution.ts";
import { refAt, refCount } from "../facts/codec.ts";
import type { Generation, LoadedIndex, Project } from "../project/project.ts";
import { Memo, slot } from "../util/memo.ts";
import type { ReferenceKind, SymbolRecord } from "../types.ts";

/** One place where a symbol is used. */
export interface Use {
  /** The symbol whose body holds the use; null for top-level code. */
  from: SymbolRecord | null;
  /** The symbol used. */
  to: SymbolRecord;
  /** File and line of the use. */
  file: string;
  line: number;
  /** `call` when the name is called, `use` otherwise (types, bases, constants, reads). */
  kind: "call" | "use";
  /** Matched by name alone (a receiver of unknown type, the one member of that name). */
  byNameOnly: boolean;
}

/**
 * A weighted reference edge between two nodes: a symbol by its position in
 * `LoadedIndex.symbols`, or the top-level code of a file (positions from
 * `symbols.length` on, one per file).
 */
export interface RefEdge {
  from: number;
  to: number;
  weight: number;
}

/** What context building reads of the code graph. */
export interface GraphView {
  /** Uses of `s` elsewhere (calls and other references), in file and line order. */
  usesOf(s: SymbolRecord): Use[];
  /** What `s`'s body uses (calls and other references), in line order. */
  usedBy(s: SymbolRecord): Use[];
  /** How many times `s` is referenced. */
  referenceCount(s: SymbolRecord): number;
  /** What is built over this view (its PageRank). */
  readonly memo: Memo<GraphView>;
  /** Weighted referrer→referenced edges (self-edges left out) for ranking. */
  referenceEdges(): readonly RefEdge[];
  /** Position of a symbol in `LoadedIndex.symbols`. */
  idOf(s: SymbolRecord): number;
  /**
   * How much each node of `referenceEdges` counts as a starting point of ranking: main
   * code 1, tests, examples and the like 0.2 (what the main code leans on is central).
   */
  nodeWeight(node: number): number;
}

/** Collects uses, then answers the graph view over them. */
function useTable() {
  // Parallel arrays: from (-1: top level), to, file, line, call flag, ranking weight.
  const from: number[] = [];
  const to: number[] = [];
  const fileOf: number[] = [];
  const line: number[] = [];
  const call: boolean[] = [];
  const weight: number[] = [];
  const files: string[] = [];
  return {
    /** The number of a file path (call once per file). */
    file(path: string): number {
      return files.push(path) - 1;
    },
    add(f: number, t: number, file: number, l: number, c: boolean, w: number): void {
      from.push(f);
      to.push(t);
      fileOf.push(file);
      line.push(l);
      call.push(c);
      weight.push(w);
    },
    view(symbols: readonly SymbolRecord[], ids: Map<SymbolRecord, number>): GraphView {
      const usesOf = new Map<number, number[]>();
      const usedBy = new Map<number, number[]>();
      const push = (m: Map<number, number[]>, k: number, v: number) => {
        const list = m.get(k);
        if (list) list.push(v);
        else m.set(k, [v]);
      };
      for (let u = 0; u < to.length; u++) {
        if (from[u] === to[u]) continue;
        push(usesOf, to[u], u);
        if (from[u] >= 0) push(usedBy, from[u], u);
      }
      const toUse = (u: number): Use => ({
        from: from[u] >= 0 ? symbols[from[u]] : null,
        to: symbols[to[u]],
        file: files[fileOf[u]],
        line: line[u],
        kind: call[u] ? "call" : "use",
        byNameOnly: weight[u] === 0,
      });
      let edges: RefEdge[] | null = null;
      let memo: Memo<GraphView> | null = null;
      const view: GraphView = {
        get memo() {
          return memo ??= new Memo(view);
        },
        usesOf: (s) => (usesOf.get(ids.get(s) ?? -1) ?? []).map(toUse),
        usedBy: (s) => (usedBy.get(ids.get(s) ?? -1) ?? []).map(toUse),
        referenceCount: (s) => usesOf.get(ids.get(s) ?? -1)?.length ?? 0,
        idOf: (s) => ids.get(s) ?? -1,
        nodeWeight(node) {
          const file = node < symbols.length ? symbols[node].file : files[node - symbols.length];
          return file !== undefined && isAuxiliary(file) ? 0.2 : 1;
        },
        referenceEdges() {
          if (edges) return edges;
          const acc = new Map<number, number>();
          const n = symbols.length + files.length;
          for (let u = 0; u < to.length; u++) {
            // A use with no ranking weight (matched by name alone) is no edge to rank by:
            // PageRank shares a node's rank among its edges whatever their weights.
            if (from[u] === to[u] || weight[u] === 0) continue;
            // Top-level code of a file refers as a node of its own.
            const source = from[u] >= 0 ? from[u] : symbols.length + fileOf[u];
            const key = source * n + to[u];
            acc.set(key, (acc.get(key) ?? 0) + weight[u]);
          }
          edges = [];
          for (const [key, w] of acc) {
            // Many uses count, but less than linearly (as Aider's sqrt of reference counts).
            edges.push({ from: Math.floor(key / n), to: key % n, weight: Math.sqrt(w) });
          }
          return edges;
        },
      };
      return view;
    },
  };
}

/** How much a reference of each kind says about what a symbol leans on. */
const KIND_WEIGHT: Partial<Record<ReferenceKind, number>> = {
  call: 1,
  inherit: 1,
  type: 0.8,
  read: 0.6,
  write: 0.4,
};

/**
 * The graph view of a project's current index, from its code graph.
 *
 * @example
 * ```ts
 * const graph = await codeGraphView(project, await project.index());
 * for (const use of graph.usesOf(symbol)) console.log(use.file, use.line);
 * ```
 */
export async function codeGraphView(project: Project, index: LoadedIndex): Promise<GraphView> {
  const graph = await loadGraph(project);
  const names = namesOf(graph);
  const symbols = index.symbols;
  const ids = new Map<SymbolRecord, number>();
  symbols.forEach((s, i) => ids.set(s, i));
  const uses = useTable();
  for (const f of graph.files) {
    const fileIdx = uses.file(f.path);
    const n = refCount(f.part);
    for (let i = 0; i < n; i++) {
      const r = refAt(f.part, i);
      const kindWeight = KIND_WEIGHT[r.kind];
      if (kindWeight === undefined) continue; // definitions and imports are not uses
      let found: RefTargets;
      try {
        found = names.resolveRefHow(f, i);
      } catch {
        continue; // a resolution the graph cannot finish (e.g. a cycle of bases)
      }
      const targets = found.symbols;
      if (targets.length === 0) continue;
      const from = r.scope >= 0 ? ids.get(f.symbols[r.scope]) ?? -1 : -1;
      // A member reached through a receiver of unknown type (`x.strip()`) is a guess of the
      // resolver: it weighs less in ranking. A match by name alone (`s.replace()` led to the
      // one `replace` method of the project) is no evidence and does not rank at all: 220
      // string replaces made SearchWorkers.replace a key symbol of codectx's src/.
      const guess = r.receiverKind === "local" || r.receiverKind === "expr";
      // (Weight 0 is how a use by name alone is told apart: `Use.byNameOnly`.)
      const sureness = found.resolution === "name" ? 0 : guess ? 0.25 : 1;
      const weight = kindWeight * sureness / targets.length;
      for (const t of targets) {
        const to = ids.get(t);
        if (to !== undefined) uses.add(from, to, fileIdx, r.line, r.kind === "call", weight);
      }
    }
  }
  return uses.view(symbols, ids);
}

const GRAPH_VIEW = slot<Generation, Promise<GraphView>>(
  "graph view",
  ({ project, index }) => codeGraphView(project, index),
);

/** The graph view of a project's index, built once per loaded generation. */
export function graphFor(_project: Project, index: LoadedIndex): Promise<GraphView> {
  return index.memo.get(GRAPH_VIEW);
}
