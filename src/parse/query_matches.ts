/**
 * The matches of a file's one query read straight from the tree-sitter runtime's memory.
 * web-tree-sitter's own `Query.matches` makes every capture's node through generic memory
 * reads and a checked constructor, and each `text` of a captured node writes the node back
 * through generic writes. Over 400 files of the Python standard library the query pass,
 * definitions and references took 2.50 s of CPU beyond parsing with web-tree-sitter's reader
 * and 1.11 s with this one. Same matches, same captures, same nodes (see `queryMatches`).
 *
 * @module
 */

import { Node, type Query, type QueryCapture, type QueryMatch } from "npm:web-tree-sitter@0.25.10";

/**
 * The tree-sitter runtime's module object: `grammars.ts` hands it to `Parser.init`, which
 * fills it with the wasm exports and the memory views {@link queryMatches} reads.
 */
export const treeSitterModule: Record<string, unknown> = {};

/** What {@link queryMatches} calls in the runtime (web-tree-sitter 0.25's own binding). */
interface Runtime {
  HEAP32: Int32Array;
  _ts_init(): number;
  _free(address: number): void;
  _ts_node_end_index_wasm(tree: number): number;
  _ts_node_symbol_wasm(tree: number): number;
  _ts_query_matches_wasm(
    query: number,
    tree: number,
    startRow: number,
    startColumn: number,
    endRow: number,
    endColumn: number,
    startIndex: number,
    endIndex: number,
    matchLimit: number,
    maxStartDepth: number,
    timeoutMicros: number,
  ): void;
}

/** A handle's fields, as web-tree-sitter keeps them on its own objects. */
type Handle = { 0: number };
type QueryInternals = Handle & { textPredicates: ((c: QueryCapture[]) => boolean)[][] };

/**
 * A node read from the transfer buffer. It has the fields web-tree-sitter's `Node` sets in
 * its constructor and `Node.prototype` behind it, so every getter works; building one skips
 * that constructor's checks and the generic memory reads of the runtime's own reader.
 */
class CapturedNode {
  0: number;
  id: number;
  tree: unknown;
  startIndex: number;
  startPosition: { row: number; column: number };
  constructor(
    other: number,
    id: number,
    tree: unknown,
    startIndex: number,
    row: number,
    column: number,
  ) {
    this[0] = other;
    this.id = id;
    this.tree = tree;
    this.startIndex = startIndex;
    this.startPosition = { row, column };
  }
}
Object.setPrototypeOf(CapturedNode.prototype, Node.prototype);

/** Writes a node where the runtime's node functions read it (web-tree-sitter's layout). */
function marshal(C: Runtime, node: CapturedNode): void {
  const heap = C.HEAP32;
  const tb = transferBuffer >> 2;
  heap[tb] = node.id;
  heap[tb + 1] = node.startIndex;
  heap[tb + 2] = node.startPosition.row;
  heap[tb + 3] = node.startPosition.column;
  heap[tb + 4] = node[0];
}

// The two getters the engine asks of nearly every captured node (`text` reads `endIndex`;
// `type` reads `typeId`), without the runtime's generic memory writes.
Object.defineProperties(CapturedNode.prototype, {
  endIndex: {
    get(this: CapturedNode): number {
      const C = treeSitterModule as unknown as Runtime;
      marshal(C, this);
      return C._ts_node_end_index_wasm((this.tree as Handle)[0]);
    },
  },
  typeId: {
    get(this: CapturedNode): number {
      const C = treeSitterModule as unknown as Runtime;
      marshal(C, this);
      return C._ts_node_symbol_wasm((this.tree as Handle)[0]);
    },
  },
});

let transferBuffer = -1;
/** Per query: which capture indexes a `keep` set reads. */
const keptOf = new WeakMap<Query, { keep?: ReadonlySet<string>; of: boolean[] }>();

/**
 * The matches of `query` over the tree under `node`, as `query.matches(node)` gives them
 * (same matches, same captures in the same order, text predicates applied), read straight
 * from the runtime's memory. Captures whose name `keep` rejects are left out of each match
 * once its predicates are checked: no node is made for them. Falls back to
 * `query.matches` when the runtime module was not handed to `Parser.init` here.
 */
export function queryMatches(
  query: Query,
  node: Node,
  keep?: ReadonlySet<string>,
): QueryMatch[] {
  const C = treeSitterModule as unknown as Partial<Runtime>;
  if (!C.HEAP32 || !C._ts_query_matches_wasm || !C._free || !C._ts_init) {
    const all = query.matches(node);
    if (!keep) return all;
    for (const m of all) m.captures = m.captures.filter((c) => keep.has(c.name));
    return all;
  }
  if (transferBuffer < 0) transferBuffer = C._ts_init();
  const tree = node.tree;
  const tb = transferBuffer >> 2;
  let heap = C.HEAP32;
  heap[tb] = node.id;
  heap[tb + 1] = node.startIndex;
  heap[tb + 2] = node.startPosition.row;
  heap[tb + 3] = node.startPosition.column;
  heap[tb + 4] = (node as unknown as Handle)[0];
  const q = query as unknown as QueryInternals;
  C._ts_query_matches_wasm(
    q[0],
    (tree as unknown as Handle)[0],
    0,
    0,
    0,
    0,
    0,
    0,
    0xFFFFFFFF,
    0xFFFFFFFF,
    0,
  );
  heap = C.HEAP32!; // the call may have grown the memory
  const count = heap[tb];
  const start = heap[tb + 1];
  const names = query.captureNames;
  let kept = keptOf.get(query);
  if (!kept || kept.keep !== keep) {
    kept = { keep, of: names.map((name) => !keep || keep.has(name)) };
    keptOf.set(query, kept);
  }
  const predicates = q.textPredicates;
  const out: QueryMatch[] = [];
  let at = start >> 2;
  for (let i = 0; i < count; i++) {
    const patternIndex = heap[at++];
    const n = heap[at++];
    const checks = predicates[patternIndex];
    const captures: QueryCapture[] = [];
    const all: QueryCapture[] | null = checks.length > 0 ? [] : null;
    for (let j = 0; j < n; j++, at += 6) {
      const index = heap[at];
      if (!kept.of[index] && !all) continue;
      const id = heap[at + 1];
      const captured = (id === 0 ? null : new CapturedNode(
        heap[at + 5],
        id,
        tree,
        heap[at + 2],
        heap[at + 3],
        heap[at + 4],
      )) as unknown as Node;
      const capture: QueryCapture = { patternIndex, name: names[index], node: captured };
      if (all) all.push(capture);
      if (kept.of[index]) captures.push(capture);
    }
    if (all && !checks.every((p) => p(all!))) continue;
    out.push({ patternIndex, captures } as QueryMatch);
  }
  C._free(start);
  return out;
}
