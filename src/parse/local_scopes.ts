/**
 * Local scopes of one file: the scopes its query marks (`@local.scope`), the names bound
 * in them (`@local.definition`, with `@local.type` when a type shows), and what that
 * tells about a reference: a local name is no reference, and a member's receiver is a
 * local, a typed value, a name or an expression.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { ReceiverKind } from "../types.ts";

/** A region whose bindings are local to it. */
export interface Scope {
  start: number;
  end: number;
  node: Node;
  /** Start of the scope's own `name` field (a function's name binds outside it). */
  nameStart?: number;
  /** Local names → their type when the scope shows it. */
  bindings: Map<string, string | null>;
  /** Names the scope declares bound outside it (Python `global x`): never its locals. */
  outer?: Set<string>;
}

/** A name bound by a parameter or a local variable. */
export interface Binding {
  start: number;
  end: number;
  name: string;
  type: string | null;
}

/** What is known of a file's local names once scopes hold their bindings. */
export interface Locals {
  /** Start offsets of the bindings that are inside some scope. */
  sites: Set<number>;
  /** Types of names bound outside every scope (module-level `x = Foo()`). */
  fileTypes: Map<string, string>;
}

/** A name, or a path of names (`os.path`, `crate::a`, `App\Models`, `$this->x`). */
const NAME_PATH = /^[$@]*[\p{L}_][\p{L}\p{N}_]*(?:(?:\.|::|->|\\)[$@]*[\p{L}_][\p{L}\p{N}_]*)*$/u;
const PATH_SEPARATOR = /\.|::|->|\\/;

/**
 * Sorts `scopes` outer before inner, puts each binding in its scope and returns what is
 * local and which file-level names have a known type. A name in `outer` (`global x`)
 * is bound outside the innermost scope holding that declaration, so assignments to it
 * there are no locals of that scope.
 */
export function bindLocals(scopes: Scope[], bindings: Binding[], outer: Binding[] = []): Locals {
  scopes.sort((a, b) => a.start - b.start || b.end - a.end);
  for (const o of outer) {
    let inner: Scope | undefined;
    for (const s of scopes) {
      if (s.start > o.start) break;
      if (s.end >= o.end) inner = s;
    }
    if (inner) (inner.outer ??= new Set()).add(o.name);
  }
  const sites = bindScopes(scopes, bindings);
  const fileTypes = new Map<string, string>();
  for (const b of bindings) {
    if (!sites.has(b.start) && b.type) fileTypes.set(b.name, b.type);
  }
  return { sites, fileTypes };
}

/** Pops scopes that end at or before `pos`. */
export function popEnded(stack: Scope[], pos: number): void {
  while (stack.length > 0 && stack[stack.length - 1].end < pos) stack.pop();
}

/** The binding of `name` in the innermost scope of `stack` that has one. */
export function lookup(stack: readonly Scope[], name: string): string | null | undefined {
  for (let i = stack.length - 1; i >= 0; i--) {
    const b = stack[i].bindings;
    if (b.has(name)) return b.get(name);
  }
  return undefined;
}

/**
 * Puts each binding in the innermost scope that holds it, except that a scope's own name
 * (`def helper` inside a function) binds in the scope around it. Returns the start
 * offsets of the bindings that are local (inside some scope).
 */
function bindScopes(scopes: readonly Scope[], bindings: Binding[]): Set<number> {
  const local = new Set<number>();
  bindings.sort((a, b) => a.start - b.start);
  const stack: Scope[] = [];
  let next = 0;
  for (const b of bindings) {
    while (next < scopes.length && scopes[next].start <= b.start) {
      popEnded(stack, scopes[next].start + 1);
      stack.push(scopes[next++]);
    }
    while (stack.length > 0 && stack[stack.length - 1].end < b.end) stack.pop();
    let i = stack.length - 1;
    if (i >= 0) {
      const top = stack[i];
      top.nameStart ??= top.node.childForFieldName("name")?.startIndex ?? -1;
      if (top.nameStart === b.start) i--;
    }
    if (i < 0) continue;
    const scope = stack[i];
    if (scope.outer?.has(b.name)) continue;
    const had = scope.bindings.get(b.name);
    scope.bindings.set(b.name, b.type ?? had ?? null);
    local.add(b.start);
  }
  return local;
}

/** What a member's receiver is: `self`, a typed value, a local, a name or an expression. */
export function classifyReceiver(
  receiver: Node,
  how: { self: boolean; typed: boolean },
  stack: readonly Scope[],
  fileTypes: ReadonlyMap<string, string>,
): [ReceiverKind, string | null] {
  const text = receiver.text;
  if (how.self) return ["self", text];
  if (how.typed) return ["typed", typeName(text)];
  if (!NAME_PATH.test(text)) return ["expr", null];
  const first = text.split(PATH_SEPARATOR, 1)[0];
  const whole = first === text;
  const bound = lookup(stack, first);
  if (bound !== undefined) {
    if (!whole) return ["expr", null];
    return bound ? ["typed", bound] : ["local", text];
  }
  const fileType = whole ? fileTypes.get(first) : undefined;
  if (fileType) return ["typed", fileType];
  return ["name", text];
}

/** `Foo<Bar>` → `Foo`; `pkg.Foo` stays as is. */
export function typeName(text: string): string {
  const cut = text.search(/[<[({\s]/);
  return (cut > 0 ? text.slice(0, cut) : text).replace(/^[*&]+/, "");
}
