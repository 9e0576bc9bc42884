/**
 * Local scopes of one file: the scopes its query marks (`@local.scope`), the names bound
 * in them (`@local.definition`, with `@local.type` when a type shows), and what that
 * tells about a reference: a local name is no reference, and a member's receiver is a
 * local, a typed value, a name or an expression.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { Receiver } from "../facts/records.ts";
import { splitTop, stepsText, textOf } from "../facts/text.ts";
import type { Chain, Separator, Step, TypeRef } from "../facts/type_ref.ts";
import type { ReceiverKind } from "../types.ts";

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
function lookupAt(
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
    own ??= list[0];
  }
  return own ? [own.type, own.site] : undefined;
}

/**
 * Puts each binding in the innermost scope that holds it, except that a scope's own name
 * (`def helper` inside a function) binds in the scope around it. Returns the start
 * offsets of the bindings that are local (inside some scope).
 */
/** Whether a local's type is a value's (or values to try). */
function isValue(t: LocalType | null): boolean {
  return t?.kind === "value" || t?.kind === "values";
}

/** The values a local may hold, in the order tried. */
function valuesOf(t: LocalType): TypeRef[] {
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

/**
 * What a member's receiver is: `self`, a typed value, a local, a name or an expression.
 *
 * A receiver that names the instance is kept as a chain too (`super(C, self)` is `super()`).
 * A receiver that is a chain of members and calls (`this.#client.getQueryCache()`,
 * `c.parent`, `pkg.New()`) keeps the chain, normalized by {@link chainOf}: headed by a word
 * of `selfWords` it is `self` (`this.#client`); headed by a local of known type `T` it is
 * `typed` as `T` then the rest of the chain; headed by a local bound to a value
 * (`x := newThing()`) the value's chain takes the local's place; otherwise it is a `name`
 * (`pkg.New()`). The graph follows the chain through declared types.
 */
export function classifyReceiver(
  receiver: Pick<Node, "text">,
  how: { self: boolean; typed: boolean; start?: number },
  stack: readonly Scope[],
  fileTypes: ReadonlyMap<string, LocalType>,
  selfWords: ReadonlySet<string> = NO_WORDS,
): [ReceiverKind, Receiver | null] {
  const text = receiver.text;
  if (how.self) {
    // `function (this: T)` types `this` in that function.
    const bound = lookup(stack, text);
    if (bound && bound.kind !== "value" && bound.kind !== "values") {
      return ["typed", { kind: "type", type: bound }];
    }
    const chain = chainOf(text);
    return ["self", chain ? { kind: "chain", chain } : null];
  }
  if (how.typed) return ["typed", { kind: "type", type: typeName(text) }];
  const chain = chainOf(text);
  if (chain === null) return ["expr", null];
  return classifyChain(chain, stack, fileTypes, selfWords, 0, how.start ?? -1);
}

const NO_WORDS: ReadonlySet<string> = new Set();

/** {@link classifyReceiver} of a chain, read at offset `pos`, `depth` locals deep. */
export function classifyChain(
  chain: Chain,
  stack: readonly Scope[],
  fileTypes: ReadonlyMap<string, LocalType>,
  selfWords: ReadonlySet<string>,
  depth: number,
  pos: number,
): [ReceiverKind, Receiver | null] {
  const named: Receiver = { kind: "chain", chain };
  // A chain that starts at the instance already (a declared value's) is no local's.
  if (chain.head.kind === "self") return ["name", named];
  const head = chain.head.name;
  const rest = chain.steps;
  // `this.x`; `this` itself when a local holds it (`const self = this`).
  if ((rest.length || depth > 0) && selfWords.has(head)) return ["self", named];
  const bound = lookupAt(stack, head, pos);
  // A value's chain is read where it was bound (`let x = x.m()`: the `x` before).
  const site = bound?.[1] ?? pos;
  const type = bound !== undefined ? bound[0] : fileTypes.get(head);
  if (type === undefined) return ["name", named];
  if (type === null) return rest.length ? ["expr", null] : ["local", named];
  if (type.kind === "value" || type.kind === "values") {
    // A local bound to a value: its chain takes the local's place (`x := f(); x.m()`).
    if (depth >= 4) return ["expr", null];
    const through = (t: TypeRef) =>
      classifyChain(
        t.kind === "value" ? { head: t.chain.head, steps: [...t.chain.steps, ...rest] } : chain,
        stack,
        fileTypes,
        selfWords,
        depth + 1,
        site,
      );
    const alternatives = valuesOf(type);
    if (alternatives.length > 1) {
      // Values to try in turn, as one receiver of alternatives when they are of one kind.
      const each = alternatives.map(through);
      const [kind] = each[0];
      if (each.every(([k, r]) => k === kind && r !== null)) {
        const options = each.flatMap(([, r]) => r!.kind === "either" ? r!.options : [r!]);
        return [kind, { kind: "either", options }];
      }
      return each.find(([k]) => k !== "expr") ?? each[0];
    }
    return through(alternatives[0]);
  }
  if (isShape(type)) {
    // An anonymous struct (a test table's row), a local function: read here.
    const read = throughShape(type, rest);
    if (read === null) return rest.length ? ["expr", null] : ["local", named];
    const [inner, steps] = read;
    const shaped: TypeRef = steps.length === 0
      ? inner
      : inner.kind === "written"
      ? { kind: "written", text: `${inner.text} ${stepsText(steps)}` }
      : { kind: "stepped", from: inner, steps };
    return ["typed", { kind: "type", type: shaped }];
  }
  return ["typed", { kind: "type", type: thenSteps(type, rest) }];
}

/**
 * A type followed by more steps: a value's chain goes on, a type and steps get more steps, a
 * type as written with spaces is garbled further as it was; otherwise the type, then steps.
 */
export function thenSteps(t: TypeRef, steps: readonly Step[]): TypeRef {
  if (steps.length === 0) return t;
  switch (t.kind) {
    case "value":
      return { kind: "value", chain: { head: t.chain.head, steps: [...t.chain.steps, ...steps] } };
    case "stepped":
      return { kind: "stepped", from: t.from, steps: [...t.steps, ...steps] };
  }
  const text = textOf(t);
  return text.includes(" ")
    ? { kind: "written", text: text + stepsText(steps) }
    : { kind: "stepped", from: t, steps: [...steps] };
}

/**
 * Whether steps through a type are read here: an anonymous struct, a function type, a type
 * written as one (`{a:T}`, `() => T`), sequences of them.
 */
function isShape(t: TypeRef): boolean {
  while (t.kind === "sequence") t = t.of;
  return t.kind === "shape" || t.kind === "function" ||
    (t.kind === "written" && /^(?:\{|\(\))/.test(t.text));
}

/**
 * Steps taken through an anonymous struct type (see {@link structShape}), a function's
 * (a call gives its result) and sequences of them: `[]{flags:[]Flag}` and `[].flags[]` give
 * `Flag` and no steps left. Returns the first type that is no shape and the steps left after
 * it, or null when a step does not fit the shape (an unknown field) or the chain ends inside
 * one.
 */
function throughShape(type: TypeRef, rest: readonly Step[]): [TypeRef, Step[]] | null {
  let t = type;
  let i = 0;
  for (; isShape(t); i++) {
    const step = rest[i];
    let inner: TypeRef | null | undefined = null;
    if (step?.kind === "element") inner = t.kind === "sequence" ? t.of : null;
    else if (step?.kind === "call") {
      inner = t.kind === "function"
        ? t.result
        : t.kind === "written" && t.text.startsWith("()")
        ? writtenType(t.text.slice(2))
        : null;
    } else if (step?.kind === "member" && step.sep === "." && FIELD_NAME.test(step.name)) {
      inner = t.kind === "shape"
        ? t.fields.find(([n]) => n === step.name)?.[1]
        : t.kind === "written" && t.text.startsWith("{")
        ? writtenField(t.text, step.name)
        : undefined;
    }
    if (!inner) return null;
    t = inner;
  }
  return [t, rest.slice(i)];
}

/** A field name a step through a shape may take. */
const FIELD_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/** The type of field `name` in a type written as a shape (`{name:T;…}`), or undefined. */
function writtenField(shape: string, name: string): TypeRef | undefined {
  for (const field of splitTop(shape.slice(1, -1), ";")) {
    const colon = field.indexOf(":");
    if (field.slice(0, colon) === name) return writtenType(field.slice(colon + 1));
  }
  return undefined;
}

/** The head of a chain: a name, with the sigils some languages put on it (`$this`, `@x`, `#f`). */
export const CHAIN_HEAD = /^[$@#]*[\p{L}_][\p{L}\p{N}_]*/u;

const STEP = /^\s*(?:(\?\.|\.|::|->|\\)\s*([$@#]*[\p{L}_][\p{L}\p{N}_]*|\d+\b)|!(?!=))/u;

/**
 * A receiver's text as a chain of names, member steps and calls, or null when it is any
 * other expression: arguments are dropped (`a.b(x, y).c` → `a.b().c`), `?.` is `.`, a
 * non-null `!` is dropped, separators stay as written (`::`, `->`, `\`); a tuple's field is
 * a step of its position (Rust `self.0`).
 *
 * @example
 * ```ts
 * chainOf("this.#client\n  .getQueryCache()"); // this, then .#client, .getQueryCache, a call
 * chainOf("a + b"); // null
 * ```
 */
export function chainOf(text: string): Chain | null {
  const head = CHAIN_HEAD.exec(text);
  if (!head) return null;
  const chain: Chain = { head: { kind: "name", name: head[0] }, steps: [] };
  let i = head[0].length;
  while (i < text.length) {
    const rest = text.slice(i);
    const step = STEP.exec(rest);
    if (step) {
      if (step[2]) {
        const sep = (step[1] === "?." ? "." : step[1]) as Separator;
        chain.steps.push({ kind: "member", sep, name: step[2] });
      }
      i += step[0].length;
      continue;
    }
    // Type arguments of a call (`make<T>()`, `new Subject<Map<K, V>>()`, Rust `f::<T>()`).
    const typeArgs = TYPE_ARGUMENTS.exec(rest);
    if (typeArgs) {
      i += typeArgs[0].length;
      continue;
    }
    const open = /^\s*(\?\.)?[([]/.exec(rest);
    if (!open) return /^\s*$/.test(rest) ? chain : null;
    const at = i + open[0].length - 1;
    const close = matching(text, at);
    if (close < 0) return null;
    chain.steps.push(text[at] === "(" ? { kind: "call" } : { kind: "element" });
    i = close + 1;
  }
  return chain;
}

const CLOSE: Record<string, string> = { "(": ")", "[": "]" };
/** Type arguments (two levels of nesting) right before a call's `(`. */
const TYPE_ARGUMENTS =
  /^\s*(?:::)?<[^<>()]*(?:<[^<>()]*(?:<[^<>()]*>[^<>()]*)*>[^<>()]*)*>(?=\s*(?:\?\.)?\()/;

/** The index of the bracket that closes the `(` or `[` at `open`, or -1 (inner brackets and quotes are skipped). */
function matching(text: string, open: number): number {
  let depth = 0;
  let quote = "";
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
      continue;
    }
    // Comments (`// it's`, `/* … */`) may hold quotes and brackets.
    if (ch === "/" && text[i + 1] === "/") {
      const eol = text.indexOf("\n", i);
      if (eol < 0) return -1;
      i = eol;
      continue;
    }
    if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return -1;
      i = end + 1;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      depth--;
      if (depth === 0) return CLOSE[text[open]] === ch ? i : -1;
    }
  }
  return -1;
}

/**
 * The type a local or a declared name gets from the value it is bound to: the value's
 * chain (`newThing()`, `this.getCache()`, `new Foo()` → `Foo()`), or null when the value is
 * no chain.
 */
export function valueType(value: Node): TypeRef | null {
  // `new Foo(…)` is read as `Foo(…)`: a class called is its instance.
  const chain = chainOf(value.text.replace(/^new\s+/, ""));
  return chain === null ? null : { kind: "value", chain };
}

/**
 * A type's name as the graph resolves it: `Foo<Bar>` → `Foo`, `*Foo` → `Foo`; `pkg.Foo`
 * stays as is; a sequence is a sequence of its element's (Go `[]*Foo`, `[4]Foo`,
 * `map[K]Foo`; `Foo[]`, `Array<Foo>`); an anonymous struct (Go `struct { flags []Flag }`) is
 * its shape, each field's name and type; a Go function type or literal with a result is a
 * function of its (first) result's type (`func() *Command {…}`).
 */
export function typeName(text: string): TypeRef {
  const t = text.trim().replace(/^[*&]+/, "");
  if (STRUCT.test(t)) return structShape(t);
  if (FUNC.test(t)) return funcType(t);
  const seq = /^(?:\[[^\]]*\]|map\[[^\]]*\])/.exec(t);
  if (seq) return { kind: "sequence", of: typeName(t.slice(seq[0].length)) };
  const array = /^(?:Readonly)?Array<(.*)>$/s.exec(t);
  if (array) return { kind: "sequence", of: typeName(array[1]) };
  if (t.endsWith("[]")) return { kind: "sequence", of: typeName(t.slice(0, -2)) };
  const cut = t.search(/[<[({\s]/);
  return writtenType(cut > 0 ? t.slice(0, cut) : t);
}

/**
 * A type by its name as written: a path split at its separators (`cobra.Command`,
 * `std::fs::File`), or, when it is no name (`(a: A) => void`, `{ a: string }`), as written.
 */
function writtenType(text: string): TypeRef {
  if (/\s/.test(text) || /^[{(]/.test(text)) return { kind: "written", text };
  const parts = text.split(/(\.|::|->|\\)/);
  return {
    kind: "path",
    segments: parts.filter((_, i) => i % 2 === 0),
    separators: parts.filter((_, i) => i % 2 === 1) as Separator[],
  };
}

/** An anonymous struct type (Go `struct { … }`). */
const STRUCT = /^struct\s*\{[^]*\}$/;
/** A field list's names and type (`x, y int`); a line of one type alone is an embedded field. */
const FIELD = /^([\p{L}_][\p{L}\p{N}_]*(?:\s*,\s*[\p{L}_][\p{L}\p{N}_]*)*)\s+(\S[^]*)$/u;

/** The shape of an anonymous struct: each field's name and type (as {@link typeName} reads it). */
function structShape(text: string): TypeRef {
  const body = text.slice(text.indexOf("{") + 1, text.lastIndexOf("}"))
    .replace(/`[^`]*`|"(?:[^"\\\n]|\\.)*"/g, "")
    .replace(/\/\/[^\n]*|\/\*[^]*?\*\//g, "");
  const fields: [string, TypeRef][] = [];
  for (const line of splitTop(body.replaceAll("\n", ";"), ";")) {
    const decl = line.trim();
    if (!decl) continue;
    const m = FIELD.exec(decl);
    const type = typeName(m ? m[2] : decl);
    const written = textOf(type);
    if (/\s/.test(written)) continue;
    const names = m ? m[1].split(",").map((n) => n.trim()) : [written.split(".").pop()!];
    for (const n of names) fields.push([n, type]);
  }
  return { kind: "shape", fields };
}

/** A Go function type or literal (`func(a int) (*T, error)`, `func() *T { … }`). */
const FUNC = /^func\s*\(/;

/** A function of the type of its first result; the path `func` when it has none. */
function funcType(text: string): TypeRef {
  const open = text.indexOf("(");
  const close = matching(text, open);
  if (close < 0) return FUNC_PATH;
  let result = text.slice(close + 1);
  const body = result.indexOf("{");
  if (body >= 0 && !/^\s*(?:struct|interface)\b/.test(result)) result = result.slice(0, body);
  result = result.trim();
  if (result.startsWith("(")) result = splitTop(result.slice(1, result.lastIndexOf(")")), ",")[0];
  const type = typeName(result.replace(/^[\p{L}_][\p{L}\p{N}_]*\s+(?=\S)/u, ""));
  return textOf(type) ? { kind: "function", result: type } : FUNC_PATH;
}

const FUNC_PATH: TypeRef = { kind: "path", segments: ["func"], separators: [] };
