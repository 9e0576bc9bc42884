/**
 * One file's query matches as numbers. web-tree-sitter's `Query.matches` makes a match
 * object, a captures array, a capture object, a `Node` and its start position for every
 * capture (3.2 M matches, 4.3 M captures over the Python standard library), and each
 * `text`/`endIndex` of a node writes it back into the runtime's memory through generic
 * writes. Here the runtime's own transfer buffer is copied once into an `Int32Array`;
 * a capture is its offset in that array, and a `Node` is made only for the few captures
 * whose tree a reader walks (`node`). Text predicates (`#eq?`, `#match?`, `#any-of?`) are
 * web-tree-sitter's own, run over captures that read their text from the source.
 *
 * Layout of `data`, match after match: pattern index (-1: dropped by a predicate), capture
 * count, then per capture {@link CAPTURE_INTS} ints — capture name index, node id, start
 * index, start row, start column, and the runtime's other word — as the runtime writes
 * them (indexes and columns in UTF-16 code units, as web-tree-sitter's `Node` reads them).
 *
 * @module
 */

import { Node, type Query, type QueryCapture, type Tree } from "npm:web-tree-sitter@0.25.10";

/**
 * The tree-sitter runtime's module object: `grammars.ts` hands it to `Parser.init`, which
 * fills it with the wasm exports and the memory views read here.
 */
export const treeSitterModule: Record<string, unknown> = {};

/** What is called in the runtime (web-tree-sitter 0.25's own binding). */
interface Runtime {
  HEAP32: Int32Array;
  _ts_init(): number;
  _free(address: number): void;
  _ts_node_end_index_wasm(tree: number): number;
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

/** Ints per capture in {@link FileMatches.data}. */
export const CAPTURE_INTS = 6;

type Handle = { 0: number };
type Predicate = (captures: QueryCapture[]) => boolean;
type QueryInternals = Handle & { textPredicates: Predicate[][] };

/**
 * A node read from the transfer buffer: the fields web-tree-sitter's `Node` constructor
 * sets, `Node.prototype` behind it (every getter works); made without that constructor's
 * checks.
 */
class CapturedNode {
  0: number;
  id: number;
  tree: Tree;
  startIndex: number;
  startPosition: { row: number; column: number };
  constructor(data: Int32Array, at: number, tree: Tree) {
    this[0] = data[at + 5];
    this.id = data[at + 1];
    this.tree = tree;
    this.startIndex = data[at + 2];
    this.startPosition = { row: data[at + 3], column: data[at + 4] };
  }
}
Object.setPrototypeOf(CapturedNode.prototype, Node.prototype);

let transferBuffer = -1;

/** The matches of a file's query, as offsets into one array (see the module's layout). */
export class FileMatches {
  private constructor(
    /** Matches one after the other (see the module's layout). */
    readonly data: Int32Array,
    /** Capture names by their index in `data`. */
    readonly names: readonly string[],
    private readonly tree: Tree,
    private readonly source: string,
  ) {}

  /**
   * The matches of `query` over `tree` (parsed from `source`): the same matches, captures
   * and order as `query.matches(tree.rootNode)`, its text predicates applied.
   */
  static of(query: Query, tree: Tree, source: string): FileMatches {
    const C = treeSitterModule as unknown as Partial<Runtime>;
    if (!C.HEAP32 || !C._ts_query_matches_wasm || !C._free || !C._ts_init) {
      return FileMatches.fromQuery(query, tree, source);
    }
    if (transferBuffer < 0) transferBuffer = C._ts_init();
    const root = tree.rootNode as unknown as CapturedNode;
    const tb = transferBuffer >> 2;
    let heap = C.HEAP32;
    heap[tb] = root.id;
    heap[tb + 1] = root.startIndex;
    heap[tb + 2] = root.startPosition.row;
    heap[tb + 3] = root.startPosition.column;
    heap[tb + 4] = root[0];
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
    const start = heap[tb + 1] >> 2;
    let end = start;
    for (let i = 0; i < count; i++) end += 2 + heap[end + 1] * CAPTURE_INTS;
    const data = heap.slice(start, end);
    C._free(start << 2);
    const matches = new FileMatches(data, query.captureNames, tree, source);
    matches.applyPredicates(q.textPredicates);
    return matches;
  }

  /** The same numbers read from web-tree-sitter's own matches (its runtime not at hand). */
  private static fromQuery(query: Query, tree: Tree, source: string): FileMatches {
    const all = query.matches(tree.rootNode);
    let size = 0;
    for (const m of all) size += 2 + m.captures.length * CAPTURE_INTS;
    const data = new Int32Array(size);
    const index = new Map(query.captureNames.map((name, i) => [name, i]));
    let at = 0;
    for (const m of all) {
      data[at++] = m.patternIndex;
      data[at++] = m.captures.length;
      for (const c of m.captures) {
        const n = c.node as unknown as CapturedNode;
        data.set(
          [
            index.get(c.name)!,
            n.id,
            n.startIndex,
            n.startPosition.row,
            n.startPosition.column,
            n[0],
          ],
          at,
        );
        at += CAPTURE_INTS;
      }
    }
    return new FileMatches(data, query.captureNames, tree, source);
  }

  /** Marks the matches a text predicate rejects (pattern -1), as `Query.matches` drops them. */
  private applyPredicates(predicates: readonly Predicate[][]): void {
    const data = this.data;
    for (let at = 0; at < data.length; at += 2 + data[at + 1] * CAPTURE_INTS) {
      const checks = predicates[data[at]];
      if (checks.length === 0) continue;
      const captures: QueryCapture[] = [];
      for (let i = 0, c = at + 2; i < data[at + 1]; i++, c += CAPTURE_INTS) {
        captures.push(
          {
            patternIndex: data[at],
            name: this.names[data[c]],
            node: new TextOf(this, c),
          } as unknown as QueryCapture,
        );
      }
      if (!checks.every((p) => p(captures))) data[at] = -1;
    }
  }

  /** Where capture `c` ends (an index into the source). */
  end(c: number): number {
    const C = treeSitterModule as unknown as Runtime;
    if (!C.HEAP32) return this.node(c).endIndex;
    const heap = C.HEAP32;
    const data = this.data;
    const tb = transferBuffer >> 2;
    heap[tb] = data[c + 1];
    heap[tb + 1] = data[c + 2];
    heap[tb + 2] = data[c + 3];
    heap[tb + 3] = data[c + 4];
    heap[tb + 4] = data[c + 5];
    return C._ts_node_end_index_wasm((this.tree as unknown as Handle)[0]);
  }

  /** The source text of capture `c` (what its node's `text` is). */
  text(c: number): string {
    return this.source.slice(this.data[c + 2], this.end(c));
  }

  /** The node of capture `c`, for a reader that walks the tree from it. */
  node(c: number): Node {
    return new CapturedNode(this.data, c, this.tree) as unknown as Node;
  }

  /** The text of the sibling tokens from capture `from` to capture `to` (a macro's `self . cmd`). */
  tokensText(from: number, to: number): string {
    const last = this.node(to).startIndex;
    let text = "";
    for (let n: Node | null = this.node(from); n && n.startIndex <= last; n = n.nextSibling) {
      text += n.text;
    }
    return text;
  }
}

/** What a text predicate reads of a captured node: its text. */
class TextOf {
  constructor(private readonly matches: FileMatches, private readonly at: number) {}
  get text(): string {
    return this.matches.text(this.at);
  }
}
