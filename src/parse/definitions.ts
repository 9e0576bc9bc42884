/**
 * Definitions: the `@definition.<kind>`, `@name`, `@body`, `@parent`, `@scope` and
 * `@local` captures of a file's query turned into symbols, nested by node ranges, with
 * their signature and doc comment.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import { type SymbolKind, type SymbolRecord, VALUE_KINDS } from "../types.ts";
import { commentAbove, docstring, lastRow } from "./doc_comments.ts";
import type { Loaded } from "./grammars.ts";
import { CAPTURE_INTS, type FileMatches } from "./matches.ts";

/** A definition or scope found by the query, before it becomes a symbol. */
interface Found {
  /** Index of the query pattern that found it: on a tie for one name, the first wins. */
  pattern: number;
  node: Node;
  /** null only for a `@local` region. */
  nameNode: Node | null;
  /** null: a scope (Rust `impl Foo`) or a `@local` region, which are no symbols. */
  kind: SymbolKind | null;
  /** A `@local` region (Java anonymous class body): definitions inside are not indexed. */
  local: boolean;
  body: Node | null;
  parentNode: Node | null;
  start: number;
  end: number;
  /** Filled while nesting. */
  qualifiedName: string;
  nameText: string;
}

/** Constants and variables inside these are local and are not indexed. */
const LOCAL_SCOPES: ReadonlySet<SymbolKind | null> = new Set<SymbolKind | null>([
  "function",
  "method",
  "constructor",
]);

/** Kinds whose signature is their first line (`X = {`), not their whole text. */

const SIGNATURE_MAX = 200;

/** The symbols of a file, and the name nodes of every definition the query found. */
export interface Definitions {
  symbols: SymbolRecord[];
  /** Including constants and variables local to a function, which are no symbols. */
  names: Node[];
}

/**
 * Reads a file's definitions from the matches of its query.
 *
 * @example
 * ```ts
 * const g = await loadGrammar("python");
 * const source = "class A:\n    def f(self): ...\n";
 * const tree = g.parser.parse(source)!;
 * definitionsOf(g, FileMatches.of(g.query, tree, source), "python", "a.py", source).symbols
 *   .map((s) => s.qualifiedName); // ["A", "A.f"]
 * ```
 */
export function definitionsOf(
  g: Loaded,
  matches: FileMatches,
  language: string,
  file: string,
  source: string,
): Definitions {
  const found = collect(g, matches);
  const symbols = build(g, found, language, file, source);
  const names = found.filter((f) => f.kind !== null && f.nameNode).map((f) => f.nameNode!);
  return { symbols, names };
}

/**
 * Read the matches and keep one record per name node: when several patterns capture
 * the same name (`const f = () => …` is a function and a constant), the pattern that
 * comes first in the query file wins, so query files list specific patterns first. Nodes
 * are made only for the matches of a definition, scope or local region.
 */
function collect(g: Loaded, matches: FileMatches): Found[] {
  const byName = new Map<number, Found>();
  const scopes = new Map<number, Found>();
  const data = matches.data;
  for (let at = 0; at < data.length; at += 2 + data[at + 1] * CAPTURE_INTS) {
    const pattern = data[at];
    if (pattern < 0) continue;
    let node = -1;
    let kind: SymbolKind | null = null;
    let nameNode = -1;
    let body = -1;
    let parentNode = -1;
    let isScope = false;
    let isLocal = false;
    const last = at + 2 + data[at + 1] * CAPTURE_INTS;
    for (let c = at + 2; c < last; c += CAPTURE_INTS) {
      const role = g.roleAt[data[c]];
      switch (role.role) {
        case "definition":
          node = c;
          kind = role.kind;
          break;
        case "scope":
          node = c;
          isScope = true;
          break;
        case "local":
          node = c;
          isLocal = true;
          break;
        case "name":
          if (nameNode < 0) nameNode = c;
          break;
        case "body":
          if (body < 0) body = c;
          break;
        case "parent":
          if (parentNode < 0) parentNode = c;
          break;
      }
    }
    if (node < 0 || (nameNode < 0 && !isLocal)) continue;
    const defined = matches.node(node);
    const found: Found = {
      pattern,
      node: defined,
      nameNode: nameNode < 0 ? null : matches.node(nameNode),
      kind: isScope || isLocal ? null : kind,
      local: isLocal,
      body: body < 0 ? null : matches.node(body),
      parentNode: parentNode < 0 ? null : matches.node(parentNode),
      start: data[node + 2],
      end: matches.end(node),
      qualifiedName: "",
      nameText: "",
    };
    if (isScope || isLocal) {
      const seen = scopes.get(found.start);
      if (!seen || found.pattern < seen.pattern) scopes.set(found.start, found);
      continue;
    }
    const key = data[nameNode + 2];
    const seen = byName.get(key);
    if (!seen || found.pattern < seen.pattern) byName.set(key, found);
  }
  const all = [...byName.values(), ...scopes.values()];
  // Outer before inner: by start, then the longer first; a definition before a scope
  // on the same node.
  all.sort((a, b) => a.start - b.start || b.end - a.end || (a.kind ? 0 : 1) - (b.kind ? 0 : 1));
  return all;
}

function build(
  g: Loaded,
  found: Found[],
  language: string,
  file: string,
  source: string,
): SymbolRecord[] {
  const symbols: SymbolRecord[] = [];
  const stack: Found[] = [];
  for (const f of found) {
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      // Two names of one declaration (Go `var a, b int`) are siblings, not nested.
      const sameNode = top.kind !== null && f.kind !== null && top.start === f.start &&
        top.end === f.end;
      if (top.end <= f.start || top.end < f.end || sameNode) stack.pop();
      else break;
    }
    const enclosing = stack.length > 0 ? stack[stack.length - 1] : null;
    if (enclosing?.local) continue;
    // Inside a function, only what an outline shows is a symbol (a helper function or a
    // class, as `outer.inner`); its constants and variables are locals.
    if (enclosing && LOCAL_SCOPES.has(enclosing.kind) && f.kind && VALUE_KINDS.has(f.kind)) {
      continue;
    }
    if (f.local || !f.nameNode) {
      stack.push(f);
      continue;
    }
    const name = source.slice(f.nameNode.startIndex, f.nameNode.endIndex);
    // An explicit parent (Go receiver, C++ `Foo::bar`) names a type in the enclosing scope.
    const explicit = f.parentNode
      ? source.slice(f.parentNode.startIndex, f.parentNode.endIndex)
      : "";
    const outer = enclosing ? enclosing.qualifiedName : null;
    const parent = explicit ? (outer ? `${outer}.${explicit}` : explicit) : outer;
    f.qualifiedName = parent ? `${parent}.${name}` : name;
    f.nameText = name;
    stack.push(f);
    if (f.kind === null) continue;

    let kind = f.kind;
    if (
      kind === "function" && !explicit && enclosing &&
      (enclosing.kind === null || g.sets.methodParent.has(enclosing.kind))
    ) {
      kind = "method";
    }
    if (
      kind === "method" &&
      (g.sets.ctor.has(name) ||
        (g.info.constructorIsClassName && name === (explicit || enclosing?.nameText)))
    ) {
      kind = "constructor";
    }
    symbols.push(toSymbol(g, f, f.nameNode, kind, name, parent, language, file, source));
  }
  symbols.sort((a, b) => a.startLine - b.startLine || a.line - b.line);
  return symbols;
}

function toSymbol(
  g: Loaded,
  f: Found,
  nameNode: Node,
  kind: SymbolKind,
  name: string,
  parent: string | null,
  language: string,
  file: string,
  source: string,
): SymbolRecord {
  const sets = g.sets;
  // head: the definition plus a grouping declaration that starts on its line
  // (`const f = …` → the whole `const` statement); outer: plus wrappers (decorators,
  // `export`), then preceding attribute siblings (Rust `#[derive]`).
  // Each step up or sideways is a call into the parser's memory: take each once.
  let head = f.node;
  let outer = head;
  if (sets.group.size > 0 || sets.wrapper.size > 0) {
    let p = head.parent;
    while (p && sets.group.has(p.type) && sameRow(p, head)) {
      head = p;
      p = p.parent;
    }
    outer = head;
    while (p && (sets.wrapper.has(p.type) || (sets.group.has(p.type) && sameRow(p, outer)))) {
      outer = p;
      p = p.parent;
    }
  }
  let first = outer;
  let above = outer.previousSibling;
  while (above && sets.attribute.has(above.type)) {
    first = above;
    above = above.previousSibling;
  }

  const body = f.body ?? f.node.childForFieldName("body");
  const sig = signature(head, body, kind, g.info.signatureFirstLine, sets, source);
  let doc = "";
  if (g.info.docStyle === "docstring" && body) doc = docstring(body, sets.comment, source);
  if (!doc) doc = commentAbove(first, above, sets.comment, source);

  return {
    name,
    qualifiedName: f.qualifiedName,
    kind,
    file,
    line: nameNode.startPosition.row + 1,
    startLine: first.startPosition.row + 1,
    endLine: lastRow(outer) + 1,
    signature: sig,
    doc,
    parent,
    language,
  };
}

function sameRow(a: Node, b: Node): boolean {
  return a.startPosition.row === b.startPosition.row;
}

function signature(
  head: Node,
  body: Node | null,
  kind: SymbolKind,
  firstLine: boolean,
  sets: Loaded["sets"],
  source: string,
): string {
  const start = signatureStart(head, sets);
  let end = body && body.startIndex >= start ? body.startIndex : head.endIndex;
  if (firstLine || (!body && VALUE_KINDS.has(kind))) {
    const nl = source.indexOf("\n", start);
    if (nl >= 0 && nl < end) end = nl;
  }
  // Collapse at most a little more than the cap: a huge head is cut anyway.
  const text = source.slice(start, Math.min(end, start + SIGNATURE_MAX * 4)).replace(/\s+/g, " ")
    .replace(/[\s;]+$/, "").replace(/ =$/, "").trim();
  return text.length > SIGNATURE_MAX ? `${text.slice(0, SIGNATURE_MAX - 1)}…` : text;
}

/** Where the declaration head begins once leading annotations/decorators are skipped. */
function signatureStart(head: Node, sets: Loaded["sets"]): number {
  if (sets.attribute.size === 0) return head.startIndex;
  let start = head.startIndex;
  for (let c = head.firstChild; c; c = c.nextSibling) {
    if (sets.attribute.has(c.type)) {
      start = c.endIndex;
      continue;
    }
    if (sets.modifier.has(c.type)) {
      let inner = c.firstChild;
      while (inner && (sets.attribute.has(inner.type) || sets.comment.has(inner.type))) {
        inner = inner.nextSibling;
      }
      if (inner) return inner.startIndex;
      start = c.endIndex;
      continue;
    }
    if (sets.comment.has(c.type)) continue;
    return c.startIndex;
  }
  return start;
}
