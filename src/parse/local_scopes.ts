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
  type: string | null;
}

/** A name bound by a parameter or a local variable. */
export interface Binding {
  start: number;
  end: number;
  name: string;
  type: string | null;
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
  fileTypes: Map<string, string>;
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
 * The type `name` has at offset `pos` and the site of the binding that gave it: in the
 * innermost scope that binds it, the binding that took hold last before `pos`; in a scope
 * whose first binding of the name is still being bound, the scopes around it; before any
 * binding of the scope (a closure that runs later), its last binding, as {@link lookup}.
 */
function lookupAt(
  stack: readonly Scope[],
  name: string,
  pos: number,
): [string | null, number] | undefined {
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
    const both = same && had !== before && had?.startsWith("=") &&
      b.type?.startsWith("=") && had !== b.type;
    held.type = both ? `${had}|${b.type}` : b.type ?? had;
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
 * `typed` as `T .rest` (the type, a space, the rest of the chain); headed by a local bound
 * to a value (`x := newThing()`) the value's chain takes the local's place; otherwise it is
 * a `name` (`pkg.New()`). The graph follows the chain through declared types.
 */
export function classifyReceiver(
  receiver: Pick<Node, "text">,
  how: { self: boolean; typed: boolean; start?: number },
  stack: readonly Scope[],
  fileTypes: ReadonlyMap<string, string>,
  selfWords: ReadonlySet<string> = NO_WORDS,
): [ReceiverKind, string | null] {
  const text = receiver.text;
  if (how.self) {
    // `function (this: T)` types `this` in that function.
    const bound = lookup(stack, text);
    return bound && !bound.startsWith("=") ? ["typed", bound] : ["self", chainOf(text) ?? text];
  }
  if (how.typed) return ["typed", typeName(text)];
  const chain = chainOf(text);
  if (chain === null) return ["expr", null];
  return classifyChain(chain, stack, fileTypes, selfWords, 0, how.start ?? -1);
}

const NO_WORDS: ReadonlySet<string> = new Set();

function classifyChain(
  chain: string,
  stack: readonly Scope[],
  fileTypes: ReadonlyMap<string, string>,
  selfWords: ReadonlySet<string>,
  depth: number,
  pos: number,
): [ReceiverKind, string | null] {
  const head = CHAIN_HEAD.exec(chain)?.[0] ?? "";
  const rest = chain.slice(head.length);
  // `this.x`; `this` itself when a local holds it (`const self = this`).
  if ((rest || depth > 0) && selfWords.has(head)) return ["self", chain];
  const bound = lookupAt(stack, head, pos);
  // A value's chain is read where it was bound (`let x = x.m()`: the `x` before).
  const site = bound?.[1] ?? pos;
  const type = bound !== undefined ? bound[0] : fileTypes.get(head);
  if (type === undefined) return ["name", chain];
  if (type === null) return rest ? ["expr", null] : ["local", chain];
  if (type.startsWith("=")) {
    // A local bound to a value: its chain takes the local's place (`x := f(); x.m()`).
    if (depth >= 4) return ["expr", null];
    const alternatives = type.split("|");
    if (alternatives.length > 1) {
      // Values to try in turn, as one receiver `a|b` when they are of one kind.
      const each = alternatives.map((t) =>
        classifyChain(t.replace(/^=/, "") + rest, stack, fileTypes, selfWords, depth + 1, site)
      );
      const [kind] = each[0];
      if (each.every(([k, r]) => k === kind && r !== null)) {
        return [kind, each.map(([, r]) => r).join("|")];
      }
      return each.find(([k]) => k !== "expr") ?? each[0];
    }
    return classifyChain(type.slice(1) + rest, stack, fileTypes, selfWords, depth + 1, site);
  }
  if (SHAPE.test(type)) {
    // An anonymous struct (a test table's row), a local function: read here.
    const read = throughShape(type, rest);
    if (read === null) return rest ? ["expr", null] : ["local", chain];
    return ["typed", read[1] ? `${read[0]} ${read[1]}` : read[0]];
  }
  // Steps follow a type after one space (`Op <=0>` and `.x` make `Op <=0>.x`).
  return ["typed", !rest ? type : type.includes(" ") ? type + rest : `${type} ${rest}`];
}

/** A type read by {@link throughShape}: an anonymous struct, a function, sequences of them. */
const SHAPE = /^(?:\[\])*(?:\{|\(\))/;
/** A field step (`.name`), an element step (`[]`) or a call at the start of a chain's rest. */
const SHAPE_STEP = /^(?:\[\]|\(\)|\.([\p{L}_][\p{L}\p{N}_]*))/u;

/**
 * Steps taken through an anonymous struct type (`{name:T;…}`, see {@link typeName}), a
 * function's (`()T`: a call gives T) and sequences of them: `[]{flags:[]Flag}` and
 * `[].flags[]` give `Flag` and no steps left. Returns the first type that is no shape and
 * the steps left after it, or null when a step does not fit the shape (an unknown field)
 * or the chain ends inside one.
 */
function throughShape(type: string, rest: string): [string, string] | null {
  let t = type;
  let r = rest;
  while (SHAPE.test(t)) {
    const step = SHAPE_STEP.exec(r);
    if (!step) return null;
    if (step[1] === undefined) {
      if (!t.startsWith(step[0])) return null;
      t = t.slice(2);
    } else {
      const field = t.startsWith("{") ? shapeField(t, step[1]) : undefined;
      if (field === undefined) return null;
      t = field;
    }
    r = r.slice(step[0].length);
  }
  return [t, r];
}

/** The type of field `name` in a shape (`{name:T;…}`), or undefined. */
function shapeField(shape: string, name: string): string | undefined {
  for (const field of splitTop(shape.slice(1, -1), ";")) {
    const colon = field.indexOf(":");
    if (field.slice(0, colon) === name) return field.slice(colon + 1);
  }
  return undefined;
}

/** `text` split at `sep` outside brackets and braces. */
function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "{" || ch === "(" || ch === "[") depth++;
    else if (ch === "}" || ch === ")" || ch === "]") depth--;
    else if (depth === 0 && ch === sep) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** The head of a chain: a name, with the sigils some languages put on it (`$this`, `@x`, `#f`). */
export const CHAIN_HEAD = /^[$@#]*[\p{L}_][\p{L}\p{N}_]*/u;

/** The head written for a value chain that starts at the enclosing instance (`this`, `self`). */
export const SELF_HEAD = "#self";
const STEP = /^\s*(?:(\?\.|\.|::|->|\\)\s*([$@#]*[\p{L}_][\p{L}\p{N}_]*|\d+\b)|!(?!=))/u;

/**
 * A receiver's text as a chain of names, member steps and calls, or null when it is any
 * other expression: arguments are dropped (`a.b(x, y).c` → `a.b().c`), `?.` is `.`, a
 * non-null `!` is dropped, separators stay as written (`::`, `->`, `\`); a tuple's field is
 * a step of its position (Rust `self.0`).
 *
 * @example
 * ```ts
 * chainOf("this.#client\n  .getQueryCache()"); // "this.#client.getQueryCache()"
 * chainOf("a + b"); // null
 * ```
 */
export function chainOf(text: string): string | null {
  const head = CHAIN_HEAD.exec(text);
  if (!head) return null;
  let out = head[0];
  let i = out.length;
  while (i < text.length) {
    const rest = text.slice(i);
    const step = STEP.exec(rest);
    if (step) {
      if (step[2]) out += (step[1] === "?." ? "." : step[1]) + step[2];
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
    if (!open) return /^\s*$/.test(rest) ? out : null;
    const at = i + open[0].length - 1;
    const close = matching(text, at);
    if (close < 0) return null;
    out += text[at] === "(" ? "()" : "[]";
    i = close + 1;
  }
  return out;
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
 * The type a local or a declared name gets from the value it is bound to: `=` and the
 * value's chain (`=newThing()`, `=this.getCache()`, `new Foo()` → `=Foo()`), or null when
 * the value is no chain.
 */
export function valueType(value: Node): string | null {
  // `new Foo(…)` is read as `Foo(…)`: a class called is its instance.
  const chain = chainOf(value.text.replace(/^new\s+/, ""));
  return chain === null ? null : `=${chain}`;
}

/**
 * A type's name as the graph resolves it: `Foo<Bar>` → `Foo`, `*Foo` → `Foo`; `pkg.Foo`
 * stays as is; a sequence is `[]` and its element's (Go `[]*Foo`, `[4]Foo`, `map[K]Foo`;
 * `Foo[]`, `Array<Foo>`) → `[]Foo`; an anonymous struct (Go `struct { flags []Flag }`) is
 * its shape, each field's name and type: `{flags:[]Flag}`; a Go function type or literal
 * with a result is `()` and its (first) result's type (`func() *Command {…}` → `()Command`).
 */
export function typeName(text: string): string {
  const t = text.trim().replace(/^[*&]+/, "");
  if (STRUCT.test(t)) return structShape(t);
  if (FUNC.test(t)) return funcType(t);
  const seq = /^(?:\[[^\]]*\]|map\[[^\]]*\])/.exec(t);
  if (seq) return "[]" + typeName(t.slice(seq[0].length));
  const array = /^(?:Readonly)?Array<(.*)>$/s.exec(t);
  if (array) return "[]" + typeName(array[1]);
  if (t.endsWith("[]")) return "[]" + typeName(t.slice(0, -2));
  const cut = t.search(/[<[({\s]/);
  return cut > 0 ? t.slice(0, cut) : t;
}

/** An anonymous struct type (Go `struct { … }`). */
const STRUCT = /^struct\s*\{[^]*\}$/;
/** A field list's names and type (`x, y int`); a line of one type alone is an embedded field. */
const FIELD = /^([\p{L}_][\p{L}\p{N}_]*(?:\s*,\s*[\p{L}_][\p{L}\p{N}_]*)*)\s+(\S[^]*)$/u;

/**
 * The shape of an anonymous struct, `{name:Type;…}` with each type as {@link typeName}
 * writes it (no spaces: a receiver's type and its steps are split at the first space).
 */
function structShape(text: string): string {
  const body = text.slice(text.indexOf("{") + 1, text.lastIndexOf("}"))
    .replace(/`[^`]*`|"(?:[^"\\\n]|\\.)*"/g, "")
    .replace(/\/\/[^\n]*|\/\*[^]*?\*\//g, "");
  const fields: string[] = [];
  for (const line of splitTop(body.replaceAll("\n", ";"), ";")) {
    const decl = line.trim();
    if (!decl) continue;
    const m = FIELD.exec(decl);
    const type = typeName(m ? m[2] : decl);
    if (/\s/.test(type)) continue;
    const names = m ? m[1].split(",").map((n) => n.trim()) : [type.split(".").pop()!];
    for (const n of names) fields.push(`${n}:${type}`);
  }
  return `{${fields.join(";")}}`;
}

/** A Go function type or literal (`func(a int) (*T, error)`, `func() *T { … }`). */
const FUNC = /^func\s*\(/;

/** `()` and the type of a function's first result; `func` when it has none. */
function funcType(text: string): string {
  const open = text.indexOf("(");
  const close = matching(text, open);
  if (close < 0) return "func";
  let result = text.slice(close + 1);
  const body = result.indexOf("{");
  if (body >= 0 && !/^\s*(?:struct|interface)\b/.test(result)) result = result.slice(0, body);
  result = result.trim();
  if (result.startsWith("(")) result = splitTop(result.slice(1, result.lastIndexOf(")")), ",")[0];
  const name = typeName(result.replace(/^[\p{L}_][\p{L}\p{N}_]*\s+(?=\S)/u, ""));
  return name ? `()${name}` : "func";
}
