/**
 * Local scopes of one file: the scopes its query marks (`@local.scope`), the names bound
 * in them (`@local.definition`) with what each is known to hold, and lookups of a name at a
 * place — a local name is no reference, and a receiver's head may be a local of known type.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import { textOf } from "../facts/text.ts";
import type { TypeRef } from "../facts/type_ref.ts";

/**
 * What a local is known to hold: a type, or values to try in turn (`const o = xs.find(…)`:
 * `find()`'s result, else an element of `xs`).
 */
export type LocalType = TypeRef | { kind: "values"; options: TypeRef[] };

/** A region whose bindings are local to it. */
export interface Scope {
  start: number;
  end: number;
  node: Node;
  /** Start of the scope's own `name` field (a function's name binds outside it). */
  nameStart?: number;
  /** Local names → their type when the scope shows it. */
  bindings: Map<string, LocalType | null>;
  /** Names the scope declares bound outside it (Python `global x`): never its locals. */
  outer?: Set<string>;
  /** Per name, its bindings in the order written: see {@link Holding}. */
  history?: Map<string, Holding[]>;
}

/**
 * One binding of a name in a scope: bound at `site`, it holds from `from` — the end of its
 * value (`let x = x.m()`, `x = x.strip()`, `x := x`: inside the value the name still means
 * what it did before) or the site itself — with `type`, what `bindings` held after it.
 */
interface Holding {
  site: number;
  from: number;
  type: LocalType | null;
}

/** A name bound by a parameter or a local variable. */
export interface Binding {
  start: number;
  end: number;
  name: string;
  type: LocalType | null;
  /** Among bindings of one name node, the higher rank wins (see `references.ts`). */
  rank?: number;
  /** End of the value bound: the binding holds only after it (`let x = x.m()`). */
  valueEnd?: number;
}

/** What is known of a file's local names once scopes hold their bindings. */
export interface Locals {
  /** Start offsets of the bindings that are inside some scope. */
  sites: Set<number>;
  /** Types of names bound outside every scope (module-level `x = Foo()`). */
  fileTypes: Map<string, LocalType>;
}

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
  const fileTypes = new Map<string, LocalType>();
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
export function lookup(stack: readonly Scope[], name: string): LocalType | null | undefined {
  for (let i = stack.length - 1; i >= 0; i--) {
    const b = stack[i].bindings;
    if (b.has(name)) return b.get(name);
  }
  return undefined;
}

/**
 * The type `name` has at offset `pos` and the site of the binding that gave it: in the
 * innermost scope that binds it, the binding that took hold last before `pos`; in a scope
 * whose first binding of the name is still being bound, the scopes around it; before any
 * binding of the scope (a closure that runs later), its last binding, as {@link lookup}.
 */
export function lookupAt(
  stack: readonly Scope[],
  name: string,
  pos: number,
): [LocalType | null, number] | undefined {
  // Inside the value of a name's first binding (`const s = make(() => s.stop())`): the
  // name of a scope around, else that binding itself (a closure that runs later).
  let own: Holding | undefined;
  for (let i = stack.length - 1; i >= 0; i--) {
    const scope = stack[i];
    // A value's chain read where it was bound: scopes opened after that are not its.
    if (pos >= 0 && (scope.start > pos || scope.end < pos)) continue;
    const list = scope.history?.get(name);
    if (!list) continue;
    let held: Holding | undefined;
    for (const h of list) {
      if (h.site < pos && h.from <= pos && (!held || h.from >= held.from)) held = h;
    }
    if (held) return [held.type, held.site];
    if (pos < list[0].site) {
      const last = list[list.length - 1];
      return [last.type, last.site];
    }
    // A binding is not its own value: read at its own site (a parameter filled with what
    // the function of its name gives), the name is what it is outside.
    if (list[0].site !== pos) own ??= list[0];
  }
  return own ? [own.type, own.site] : undefined;
}

/**
 * Puts each binding in the innermost scope that holds it, except that a scope's own name
 * (`def helper` inside a function) binds in the scope around it. Returns the start
 * offsets of the bindings that are local (inside some scope).
 */
/** Whether a local's type is a value's (or values to try). */
export function isValue(t: LocalType | null): boolean {
  return t?.kind === "value" || t?.kind === "values";
}

/** The values a local may hold, in the order tried. */
export function valuesOf(t: LocalType): TypeRef[] {
  return t.kind === "values" ? t.options : [t];
}

/** Whether two local types are the same. */
function sameLocal(a: LocalType | null, b: LocalType | null): boolean {
  if (a === null || b === null) return a === b;
  return valuesOf(a).map(textOf).join("|") === valuesOf(b).map(textOf).join("|");
}

function bindScopes(scopes: readonly Scope[], bindings: Binding[]): Set<number> {
  const local = new Set<number>();
  bindings.sort((a, b) => a.start - b.start || (a.rank ?? 0) - (b.rank ?? 0));
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
    // Later wins: a later declaration, or for one name node the better-ranked binding —
    // except that two values of one name node are both kept, the first tried first
    // (`const o = xs.find(…)`: `xs.find()`'s result, else an element of xs).
    const had = scope.bindings.get(b.name) ?? null;
    if (!scope.history) scope.history = new Map();
    const list = scope.history.get(b.name) ?? [];
    scope.history.set(b.name, list);
    let held = list[list.length - 1];
    const same = held?.site === b.start;
    const before = same ? list[list.length - 2]?.type : had;
    if (!same) list.push(held = { site: b.start, from: b.start, type: had });
    if (b.valueEnd !== undefined) held.from = Math.max(held.from, b.valueEnd);
    // (`had` is this name node's only once a binding here changed it: `x := x.M()` after
    // `for _, x := range xs` replaces the element.)
    const both = same && !sameLocal(had, before ?? null) && isValue(had) && isValue(b.type) &&
      !sameLocal(had, b.type);
    held.type = both
      ? { kind: "values", options: [...valuesOf(had!), ...valuesOf(b.type!)] }
      : b.type ?? had;
    scope.bindings.set(b.name, held.type);
    local.add(b.start);
  }
  return local;
}
