/**
 * Doc comments and docstrings of definitions: the comment block right above a
 * definition, or Python's first string statement, with comment syntax stripped and the
 * text dedented like Python's `inspect.cleandoc`.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";

/** The last row a node covers; a node ending at column 0 ends on the row before. */
export function lastRow(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

/** The first string statement of a body (Python's docstring), cleaned like `inspect.cleandoc`. */
export function docstring(body: Node, comments: Set<string>, source: string): string {
  let stmt = body.firstNamedChild;
  while (stmt && comments.has(stmt.type)) stmt = stmt.nextNamedSibling;
  if (!stmt || stmt.type !== "expression_statement") return "";
  const str = stmt.firstNamedChild;
  if (!str || str.type !== "string" || str.nextNamedSibling) return "";
  const raw = source.slice(str.startIndex, str.endIndex);
  const m = /^[rRuUbBfF]{0,2}("""|'''|"|')([\s\S]*?)\1$/.exec(raw);
  return m ? cleanDoc(m[2]) : "";
}

/**
 * The contiguous block of own-line comments right above `node`, markers stripped.
 *
 * Two grammar quirks are looked through: a definition that opens its parent's body
 * (Ruby puts the body's first comment before `body_statement`) is looked above from the
 * parent, and a comment swallowed as the last child of the previous node (Kotlin's
 * import list) still counts.
 */
export function commentAbove(
  node: Node,
  previous: Node | null,
  comments: Set<string>,
  source: string,
): string {
  let p = previous;
  for (let anchor = node; !p;) {
    const up = anchor.parent;
    if (!up || up.startIndex !== anchor.startIndex) break;
    anchor = up;
    p = anchor.previousSibling;
  }
  let below = node.startPosition.row;
  if (p && !comments.has(p.type) && lastRow(p) >= below - 1) {
    for (let depth = 0; p && !comments.has(p.type) && depth < 3; depth++) p = p.lastChild;
  }
  const parts: string[] = [];
  for (; p && comments.has(p.type); p = p.previousSibling) {
    if (lastRow(p) < below - 1 || !startsLine(source, p.startIndex)) break;
    const text = source.slice(p.startIndex, p.endIndex);
    // Rust/C inner doc (`//!`, `/*!`) documents the enclosing item, not the next one.
    if (text.startsWith("//!") || text.startsWith("/*!")) break;
    parts.push(text);
    below = p.startPosition.row;
  }
  if (parts.length === 0) return "";
  parts.reverse();
  return cleanDoc(parts.map(stripCommentMarkers).join("\n"));
}

function startsLine(source: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const c = source.charCodeAt(i);
    if (c === 10) return true;
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

const BLOCK_COMMENT = /^\/\*+!?|\*+\/$/g;
const LUA_BLOCK = /^--\[(=*)\[|\](=*)\]$/g;
const LINE_MARKER = /^\s*(?:\/\/[/!]?|#+|--+|;+)\s?/;
const STAR_PREFIX = /^\s*\*(?!\/) ?/;

/** Remove comment syntax from one comment node's text. */
function stripCommentMarkers(text: string): string {
  if (text.startsWith("/*")) {
    return text.replace(BLOCK_COMMENT, "").split("\n").map((l) => l.replace(STAR_PREFIX, ""))
      .join("\n");
  }
  if (text.startsWith("--[")) return text.replace(LUA_BLOCK, "");
  if (text.startsWith("=begin")) return text.replace(/^=begin.*\n?|\n?=end.*$/g, "");
  return text.split("\n").map((l) => l.replace(LINE_MARKER, "")).join("\n");
}

/** Trim blank edge lines, strip the first line, dedent the rest (`inspect.cleandoc`). */
function cleanDoc(text: string): string {
  const lines = text.replace(/\r/g, "").split("\n");
  let indent = Infinity;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i];
    const n = l.length - l.trimStart().length;
    if (n < l.length && n < indent) indent = n;
  }
  lines[0] = lines[0].trim();
  if (indent !== Infinity) {
    for (let i = 1; i < lines.length; i++) lines[i] = lines[i].slice(indent).trimEnd();
  }
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a] === "") a++;
  while (b > a && lines[b - 1] === "") b--;
  return lines.slice(a, b).join("\n");
}
