/**
 * Syntax-aware chunking: turns a parsed file into retrievable spans.
 *
 * One chunk per function or method; a class that is too large is split at member
 * boundaries (its head and the code between members grouped); code between top-level
 * definitions is grouped; any span still too large is cut into windows at blank lines.
 */

import { type ChunkRecord, type SymbolRecord, VALUE_KINDS } from "../types.ts";

/** Size limits of one chunk. */
export interface ChunkLimits {
  maxLines: number;
  maxChars: number;
}

/** About 60 lines or 2,000 characters, whichever comes first. */
export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { maxLines: 60, maxChars: 2000 };

interface Node {
  symbol: SymbolRecord;
  start: number;
  end: number;
  children: Node[];
}

/** Small definitions that stay in the surrounding code's chunk instead of cutting it. */

const COMMENT_LINE = /^\s*(#(?!include|define|if|!\[)|\/\/|\/\*|\*|--|'''|""")/;

/**
 * Splits `source` into chunks using the file's symbols (sorted by start line).
 *
 * @example
 * ```ts
 * const chunks = chunkFile("a.py", "python", "def f():\n    return 1\n", symbols);
 * ```
 */
export function chunkFile(
  file: string,
  language: string,
  source: string,
  symbols: SymbolRecord[],
  limits: ChunkLimits = DEFAULT_CHUNK_LIMITS,
): ChunkRecord[] {
  const lines = source.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const total = lines.length;
  if (total === 0) return [];
  const out: ChunkRecord[] = [];
  const emit = (start: number, end: number, sym: SymbolRecord | null) => {
    for (const [s, e] of windows(lines, start, end, limits)) {
      const text = lines.slice(s - 1, e).join("\n");
      if (text.trim() === "") continue;
      out.push({
        id: `${file}:${s}-${e}`,
        file,
        startLine: s,
        endLine: e,
        symbol: sym ? sym.qualifiedName : null,
        kind: sym ? sym.kind : null,
        language,
        text,
      });
    }
  };

  const roots = buildTree(symbols, lines, total);
  // Walks sibling nodes inside [from, to]; code between them is grouped under `owner`.
  const walkSiblings = (nodes: Node[], from: number, to: number, owner: SymbolRecord | null) => {
    let cursor = from;
    for (const node of nodes) {
      if (node.end < cursor) continue;
      if (node.start > cursor) emit(cursor, node.start - 1, owner);
      emitNode(node, Math.max(node.start, cursor));
      cursor = node.end + 1;
    }
    if (cursor <= to) emit(cursor, to, owner);
  };
  const emitNode = (node: Node, start: number) => {
    const { end } = node;
    if (fits(lines, start, end, limits) || node.children.length === 0) {
      emit(start, end, node.symbol);
      return;
    }
    walkSiblings(node.children, start, end, node.symbol);
  };
  walkSiblings(roots, 1, total, null);
  return out;
}

/** Builds the containment tree of symbols, each span extended up over its leading comments. */
function buildTree(symbols: SymbolRecord[], lines: string[], total: number): Node[] {
  const sorted = symbols.filter((s) => !VALUE_KINDS.has(s.kind)).sort((a, b) =>
    a.startLine - b.startLine || b.endLine - a.endLine
  );
  const roots: Node[] = [];
  const stack: Node[] = [];
  for (const symbol of sorted) {
    const end = Math.min(Math.max(symbol.endLine, symbol.startLine), total);
    let start = Math.max(1, Math.min(symbol.startLine, end));
    while (start > 1 && COMMENT_LINE.test(lines[start - 2])) start--;
    while (stack.length && stack[stack.length - 1].end < symbol.startLine) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) start = Math.max(start, parent.start);
    const node: Node = {
      symbol,
      start,
      end: parent ? Math.min(end, parent.end) : end,
      children: [],
    };
    if (parent) parent.children.push(node);
    else roots.push(node);
    stack.push(node);
  }
  // A comment extension must not reach into the previous sibling.
  const clamp = (nodes: Node[]) => {
    for (let i = 1; i < nodes.length; i++) {
      if (nodes[i].start <= nodes[i - 1].end) {
        nodes[i].start = Math.min(nodes[i - 1].end + 1, nodes[i].symbol.startLine);
      }
    }
    for (const n of nodes) clamp(n.children);
  };
  clamp(roots);
  return roots;
}

function fits(lines: string[], start: number, end: number, limits: ChunkLimits): boolean {
  if (end - start + 1 > limits.maxLines) return false;
  let chars = 0;
  for (let i = start - 1; i < end; i++) {
    chars += lines[i].length + 1;
    if (chars > limits.maxChars) return false;
  }
  return true;
}

/** Cuts [start, end] into windows within the limits, preferring to cut after a blank line. */
function windows(
  lines: string[],
  start: number,
  end: number,
  limits: ChunkLimits,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let s = start;
  // Skip leading blank lines so chunks start on content.
  while (s <= end && lines[s - 1].trim() === "") s++;
  while (s <= end) {
    let e = s;
    let chars = lines[s - 1].length + 1;
    let lastBlank = -1;
    while (e < end && e - s + 1 < limits.maxLines) {
      const next = lines[e].length + 1;
      if (chars + next > limits.maxChars) break;
      chars += next;
      e++;
      if (lines[e - 1].trim() === "") lastBlank = e;
    }
    if (e < end && lastBlank > s + (e - s) / 2) e = lastBlank;
    let trimmedEnd = e;
    while (trimmedEnd > s && lines[trimmedEnd - 1].trim() === "") trimmedEnd--;
    out.push([s, trimmedEnd]);
    s = e + 1;
    while (s <= end && lines[s - 1].trim() === "") s++;
  }
  return out;
}
