/**
 * The view of the code graph that context building needs: callers and callees of a symbol
 * and the names it uses, resolved when a symbol is asked (its file's references and those
 * that name it), and the weighted edges of every reference for ranking. It is read off the
 * project's code graph (`src/graph`): references resolved through scopes, imports and
 * receivers.
 *
 * @module
 */

import { type GraphFile, loadGraph, OCC_SHIFT } from "../graph/graph.ts";
import { isAuxiliary } from "../graph/lookup.ts";
import { type Names, namesOf } from "../graph/names.ts";
import type { RefTargets } from "../graph/ref_resolution.ts";
import { refAt, refCount } from "../facts/codec.ts";
import type { Generation, LoadedIndex, Project } from "../project/project.ts";
import { slot } from "../util/memo.ts";
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
  /** The first and last line of each import statement of `file`, pair by pair. */
  importLines(file: string): readonly number[];
}

/** How much a reference of each kind says about what a symbol leans on. */
const KIND_WEIGHT: Partial<Record<ReferenceKind, number>> = {
  call: 1,
  inherit: 1,
  type: 0.8,
  read: 0.6,
  write: 0.4,
};

/** What one reference uses: its targets, each with this ranking weight (0: by name alone). */
interface RefUse {
  /** The symbol whose body holds it, or null at top level. */
  from: SymbolRecord | null;
  line: number;
  call: boolean;
  targets: readonly SymbolRecord[];
  weight: number;
}

/**
 * What reference `i` of `f` uses, or null when it is no use (a definition, an import,
 * unresolved); `once`: its resolution is not kept (a pass over every reference).
 */
function useAt(names: Names, f: GraphFile, i: number, once = false): RefUse | null {
  const r = refAt(f.part, i);
  const kindWeight = KIND_WEIGHT[r.kind];
  if (kindWeight === undefined) return null; // definitions and imports are not uses
  let found: RefTargets;
  try {
    found = once ? names.resolveRefOnce(f, i) : names.resolveRefHow(f, i);
  } catch {
    return null; // a resolution the graph cannot finish (e.g. a cycle of bases)
  }
  const targets = found.symbols;
  if (targets.length === 0) return null;
  // A member reached through a receiver of unknown type (`x.strip()`) is a guess of the
  // resolver: it weighs less in ranking. A match by name alone (`s.replace()` led to the
  // one `replace` method of the project) is no evidence and does not rank at all: 220
  // string replaces made SearchWorkers.replace a key symbol of codectx's src/.
  const guess = r.receiverKind === "local" || r.receiverKind === "expr";
  // (Weight 0 is how a use by name alone is told apart: `Use.byNameOnly`.)
  const sureness = found.resolution === "name" ? 0 : guess ? 0.25 : 1;
  return {
    from: r.scope >= 0 ? f.symbols[r.scope] ?? null : null,
    line: r.line,
    call: r.kind === "call",
    targets,
    weight: kindWeight * sureness / targets.length,
  };
}

function toUse(u: RefUse, to: SymbolRecord, file: string): Use {
  return {
    from: u.from,
    to,
    file,
    line: u.line,
    kind: u.call ? "call" : "use",
    byNameOnly: u.weight === 0,
  };
}

/** How many files' tables of uses a view keeps (a window asks one file's). */
const KEPT_FILES = 4;

/**
 * The graph view of a project's current index: a symbol's uses are resolved when asked,
 * from the references that name it (as `find_references` finds them) and its own file's
 * references — one symbol's share of the code graph, not every reference of the project.
 *
 * @example
 * ```ts
 * const graph = await codeGraphView(project);
 * for (const use of graph.usesOf(symbol)) console.log(use.file, use.line);
 * ```
 */
export async function codeGraphView(project: Project): Promise<GraphView> {
  const graph = await loadGraph(project);
  const names = namesOf(graph);
  // The uses each symbol of a file makes, by file (the last few asked).
  const tables = new Map<string, Map<SymbolRecord, Use[]>>();
  const usesIn = (path: string): Map<SymbolRecord, Use[]> => {
    const hit = tables.get(path);
    if (hit) return hit;
    const table = new Map<SymbolRecord, Use[]>();
    const f = graph.byPath.get(path);
    const n = f ? refCount(f.part) : 0;
    for (let i = 0; i < n; i++) {
      const u = useAt(names, f!, i);
      if (!u?.from) continue;
      for (const t of u.targets) {
        if (t === u.from) continue;
        const list = table.get(u.from);
        if (list) list.push(toUse(u, t, path));
        else table.set(u.from, [toUse(u, t, path)]);
      }
    }
    if (tables.size >= KEPT_FILES) tables.delete(tables.keys().next().value!);
    tables.set(path, table);
    return table;
  };
  return {
    usesOf(s) {
      // Every reference that may mean `s` names it (or an alias it is imported by).
      const codes = new Set<number>();
      for (const n of names.aliases(names.importNames(s))) {
        for (const code of graph.occurrences(n)) codes.add(code);
      }
      const out: Use[] = [];
      for (const code of [...codes].sort((a, b) => a - b)) {
        const f = graph.files[Math.floor(code / OCC_SHIFT)];
        const u = useAt(names, f, code % OCC_SHIFT);
        if (!u || u.from === s) continue;
        for (const t of u.targets) if (t === s) out.push(toUse(u, t, f.path));
      }
      return out;
    },
    usedBy: (s) => usesIn(s.file).get(s) ?? [],
    importLines: (file) => graph.byPath.get(file)?.part.importLines ?? [],
  };
}

const GRAPH_VIEW = slot<Generation, Promise<GraphView>>(
  "graph view",
  ({ project }) => codeGraphView(project),
);

/** The graph view of a project's index, made once per loaded generation. */
export function graphFor(_project: Project, index: LoadedIndex): Promise<GraphView> {
  return index.memo.get(GRAPH_VIEW);
}

/**
 * The reference graph to rank symbols by: weighted referrer→referenced edges (self-edges
 * and uses by name alone left out) between nodes — a symbol by its position in
 * `LoadedIndex.symbols`, the top-level code of a file from `symbolCount` on.
 */
export interface RankingGraph {
  edges: RefEdge[];
  symbolCount: number;
  /**
   * How much each node counts as a starting point of ranking: main code 1, tests, examples
   * and the like 0.2 (what the main code leans on is central).
   */
  nodeWeight(node: number): number;
  /** Position of a symbol in `LoadedIndex.symbols`, or -1. */
  idOf(s: SymbolRecord): number;
}

/**
 * Positions of symbols in `LoadedIndex.symbols`, a file's found when one of its symbols is
 * first asked (without making every record at once).
 */
export function symbolIds(index: LoadedIndex): (s: SymbolRecord) => number {
  const cols = index.columns;
  const ids = new Map<SymbolRecord, number>();
  const filled = new Set<number>();
  return (s) => {
    const hit = ids.get(s);
    if (hit !== undefined) return hit;
    const f = cols.fileIndex(s.file);
    if (f < 0 || filled.has(f)) return -1;
    filled.add(f);
    cols.fileRecords(f).forEach((r, k) => ids.set(r, cols.fileStart[f] + k));
    return ids.get(s) ?? -1;
  };
}

/**
 * Every resolved reference of the project as ranking edges: each reference is resolved
 * once and summed into its edge, no table of uses is kept.
 */
export async function rankingGraph(project: Project, index: LoadedIndex): Promise<RankingGraph> {
  const graph = await loadGraph(project);
  const names = namesOf(graph);
  const cols = index.columns;
  const symbolCount = cols.count;
  const idOf = symbolIds(index);
  const n = symbolCount + graph.files.length;
  const acc = new Map<number, number>();
  for (const f of graph.files) {
    const count = refCount(f.part);
    for (let i = 0; i < count; i++) {
      const u = useAt(names, f, i, true);
      // A use with no ranking weight (matched by name alone) is no edge to rank by:
      // PageRank shares a node's rank among its edges whatever their weights.
      if (!u || u.weight === 0) continue;
      const from = u.from ? idOf(u.from) : -1;
      // Top-level code of a file refers as a node of its own.
      const source = from >= 0 ? from : symbolCount + f.id;
      for (const t of u.targets) {
        const to = idOf(t);
        if (to < 0 || to === from) continue;
        const key = source * n + to;
        acc.set(key, (acc.get(key) ?? 0) + u.weight);
      }
    }
  }
  const edges: RefEdge[] = [];
  for (const [key, w] of acc) {
    // Many uses count, but less than linearly (as Aider's sqrt of reference counts).
    edges.push({ from: Math.floor(key / n), to: key % n, weight: Math.sqrt(w) });
  }
  return {
    edges,
    symbolCount,
    idOf,
    nodeWeight(node) {
      const file = node < symbolCount ? cols.fileOf(node) : graph.files[node - symbolCount]?.path;
      return file !== undefined && isAuxiliary(file) ? 0.2 : 1;
    },
  };
}
