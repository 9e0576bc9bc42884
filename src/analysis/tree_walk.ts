/**
 * Walking a syntax tree without `Node.parent`: in web-tree-sitter a node's parent is found
 * by descending from the root again, so a parent chain per node makes analysis quadratic in
 * the nesting depth. Here one tree cursor serves every question: the tree's depth (checked
 * against {@link MAX_TREE_DEPTH} before any analysis) and the parents of nodes asked in
 * source order, each found by moving the cursor from where the last answer left it.
 *
 * @module
 */

import type { Node, TreeCursor } from "npm:web-tree-sitter@0.25.10";
import { CodectxError } from "../errors.ts";

/**
 * Deepest syntax tree analysis reads. Hand-written code stays far below it (the Python
 * standard library peaks near 60 levels); deeper trees are generated or hostile, and every
 * rule that looks at a node's surroundings costs up to this much per node.
 */
export const MAX_TREE_DEPTH = 400;

/**
 * How deep a literal or expression is read for rules (`[[["a"]]]`): rules look at a few
 * levels, and reading a nested value at every level of it would cost the square of its
 * depth.
 */
export const MAX_VALUE_DEPTH = 16;

/**
 * The depth of the tree under `root` (the root is level 1), counting no further than
 * `limit + 1`: enough to tell that it is over the limit without walking the rest.
 *
 * @example
 * ```ts
 * treeDepth(parser.parse("x = ((1))")!.rootNode); // 7
 * ```
 */
export function treeDepth(root: Node, limit = MAX_TREE_DEPTH): number {
  const cursor = root.walk();
  try {
    let depth = 1;
    let deepest = 1;
    for (;;) {
      if (cursor.gotoFirstChild()) {
        depth++;
        if (depth > deepest) deepest = depth;
        if (deepest > limit) return deepest;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return deepest;
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

/**
 * Refuses a tree deeper than {@link MAX_TREE_DEPTH} with `invalid_argument`, naming the
 * limit; `what` names the input ("the code", "file 'a.py'").
 */
export function checkTreeDepth(root: Node, what: string): void {
  const depth = treeDepth(root);
  if (depth > MAX_TREE_DEPTH) throw new CodectxError("invalid_argument", tooDeepMessage(what));
}

/** The sentence of a tree over the depth limit. */
export function tooDeepMessage(what: string): string {
  return `${what} nests deeper than ${MAX_TREE_DEPTH} syntax levels, the most analysis ` +
    `reads (generated code?); check a smaller or flatter part`;
}

/**
 * Parents of nodes of one tree, found with one cursor. Asking in source order (or climbing
 * from a node to its ancestors) costs the tree distance between consecutive questions, so a
 * pass over a file costs about one walk of it.
 *
 * @example
 * ```ts
 * const parents = new ParentFinder(tree.rootNode);
 * parents.parentOf(stringNode)?.type; // "assignment"
 * parents.close();
 * ```
 */
export class ParentFinder {
  private readonly cursor: TreeCursor;
  private readonly cache = new Map<number, Node | null>();

  constructor(private readonly root: Node) {
    this.cursor = root.walk();
  }

  /** The parent of `node` (null for the root), as `node.parent` would answer. */
  parentOf(node: Node): Node | null {
    const known = this.cache.get(node.id);
    if (known !== undefined) return known;
    const parent = this.find(node);
    this.cache.set(node.id, parent);
    return parent;
  }

  /** Frees the cursor. */
  close(): void {
    this.cursor.delete();
  }

  private find(node: Node): Node | null {
    if (node.id === this.root.id) return null;
    const c = this.cursor;
    const start = node.startIndex;
    const end = node.endIndex;
    // Up (or right, past siblings that end before it) until the cursor's node holds the
    // target's whole range: questions in source order never walk back over a sibling.
    while (!(c.startIndex <= start && end <= c.endIndex)) {
      if (c.endIndex <= start && c.gotoNextSibling()) continue;
      if (!c.gotoParent()) break;
    }
    // Nodes of equal range nest (a statement and its only expression): the target may be
    // above the cursor.
    while (c.startIndex === start && c.endIndex === end) {
      if (c.currentNode.id === node.id) return this.up();
      if (!c.gotoParent()) break;
    }
    // Down through the children that hold it, until the target itself.
    for (;;) {
      if (c.startIndex === start && c.endIndex === end && c.currentNode.id === node.id) {
        return this.up();
      }
      if (!this.descend(start, end)) return node.parent;
    }
  }

  /** Moves the cursor to its node's parent and answers that (null above the root). */
  private up(): Node | null {
    return this.cursor.gotoParent() ? this.cursor.currentNode : null;
  }

  /**
   * Moves to the child holding `[start, end)`; false (staying put) when none does. The
   * children are scanned in order (`gotoFirstChildForIndex` of web-tree-sitter 0.25
   * reports its moves wrongly).
   */
  private descend(start: number, end: number): boolean {
    const c = this.cursor;
    if (!c.gotoFirstChild()) return false;
    do {
      // Children of equal range (a statement and its only expression) are tried in turn.
      if (c.startIndex <= start && end <= c.endIndex) return true;
      if (c.startIndex > start) break;
    } while (c.gotoNextSibling());
    c.gotoParent();
    return false;
  }
}
