/**
 * The types a file's captured nodes give (`readTypes`), as the records of
 * `facts/type_ref.ts`: a chain of members and calls from a receiver's or a value's text
 * (`this.#client.get()`), a type from a type's text (`[]*Command`, `Array<Obs>`, Go
 * `struct { … }`); each local's type from what it is bound to (a type written, a value, an
 * element, a destructured property, a callback's parameter, the function type where its
 * function stands), each declaration's type and slot, each object literal's type where it
 * stands.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { Slot } from "../../facts/records.ts";
import type { ContextCapture, DeclaredCapture, Gathered, LocalCapture } from "../gather.ts";
import type { Binding } from "../scopes.ts";
import { stepsText, textOf } from "../../facts/text.ts";
import type { Chain, Separator, Step, TypeRef } from "../../facts/type_ref.ts";

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
 * chainOf("walker\n  .hidden(true)\n  // no need…\n  .max_depth(d)"); // walker, .hidden, a call, .max_depth, a call
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
    // A comment between two steps of a chain written over several lines.
    const comment = COMMENT_BETWEEN.exec(rest);
    if (comment) {
      i += comment[0].length;
      continue;
    }
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

/** A line comment that ends its line, or a block comment, where a chain may go on after it. */
const COMMENT_BETWEEN = /^\s*(?:\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)/;

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
export function writtenType(text: string): TypeRef {
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
 * The slot of parameter `param` of callback parameter `arg` (positions among the named
 * children of their lists; a TypeScript `this:` parameter is not counted: callers do not pass it).
 */
export function slotOf(arg: Node, param: Node): Slot {
  return { kind: "callback", arg: namedIndex(arg), param: parameterIndex(param) };
}

/** The slot of parameter `param` of a function: its type is the function's parameter j's. */
export function parameterSlot(param: Node): Slot & { kind: "parameter" } {
  return { kind: "parameter", index: parameterIndex(param) };
}

/**
 * The position of a parameter in its list, a TypeScript `this:` parameter (always first) not
 * counted; in a list whose entries are its `type` fields (a Rust tuple struct's `(pub A,
 * B)`), among those.
 */
function parameterIndex(param: Node): number {
  const list = param.parent;
  if (!list) return -1;
  let k = 0;
  let first: Node = param;
  for (let n = param.previousNamedSibling; n; n = n.previousNamedSibling) {
    k++;
    first = n;
  }
  if (list.fieldNameForNamedChild(k) === "type") {
    let j = 0;
    for (let i = 0; i < k; i++) if (list.fieldNameForNamedChild(i) === "type") j++;
    return j;
  }
  return k > 0 && THIS_PARAMETER.test(first.text) ? k - 1 : k;
}

/** A TypeScript `this:` parameter (callers do not pass it). */
const THIS_PARAMETER = /^this\b/;

/** The position of a node among its parent's named children. */
export function namedIndex(node: Node): number {
  let k = 0;
  for (let n = node.previousNamedSibling; n; n = n.previousNamedSibling) k++;
  return k;
}

/** A local's declared type; after `...` (a variadic parameter: `cmds ...*Command`) a sequence of it. */
export function localType(type: Node): TypeRef {
  const name = typeName(type.text);
  return type.previousSibling?.text === "..." ? { kind: "sequence", of: name } : name;
}

/** The value of `chain` text, then `steps`; null when the text is no chain. */
export function valueThen(text: string, ...steps: Step[]): TypeRef | null {
  const chain = chainOf(text);
  return chain === null
    ? null
    : { kind: "value", chain: { head: chain.head, steps: [...chain.steps, ...steps] } };
}

/**
 * The type of a callback's parameter from the callee's declaration: parameter j of the
 * callback passed as argument k of `f` (`operate((source, subscriber) => …)`).
 * Positions are those of the nodes among their parent's named children.
 */
export function callbackType(callee: Node, param: Node): TypeRef | null {
  if (chainOf(callee.text) === null) return null;
  // The parameter (the name, or the node around it), its list, the callback, the arguments.
  let p: Node | null = param;
  for (let up = 0; p?.parent?.parent && !isArgument(p.parent.parent); up++) {
    if (up >= 2) return null;
    p = p.parent;
  }
  const fn = p?.parent?.parent;
  if (!p?.parent || !fn?.parent || !isArgument(fn)) return null;
  const j = namedIndex(p);
  const k = namedIndex(fn);
  return j < 0 || k < 0 ? null : valueThen(callee.text, { kind: "callback", arg: k, param: j });
}

/** Whether `fn` is a callback passed as an argument (its parent is the argument list). */
function isArgument(fn: Node): boolean {
  return fn.parent !== null && fn.parent.parent !== null &&
    fn.parent.parent.childForFieldName("arguments")?.id === fn.parent.id;
}

/** The type of property `name` of `obj` (`obj.name`), or null. */
export function memberType(obj: Node, name: string): TypeRef | null {
  const t = valueType(obj);
  return t === null ? null : thenSteps(t, [{ kind: "member", sep: ".", name }]);
}

/**
 * The type of an element of `seq` (`xs[i]`), or null; of a literal that names its sequence
 * type (Go `range []struct{ in XY }{…}`, `range []*Command{a, b}`), that type's element.
 */
export function elementType(seq: Node | null): TypeRef | null {
  const t = seq ? valueType(seq) : null;
  if (t !== null) return thenSteps(t, [{ kind: "element" }]);
  const written = seq?.childForFieldName("type");
  const type = written ? typeName(written.text) : null;
  return type?.kind === "sequence" ? type.of : null;
}

/**
 * For a parameter of a function type (`subscriber` in `init: (src: S, subscriber: T) => …`),
 * the name of the function that declares that parameter and the parameter holding the
 * function type (`init`): the node around the function type whose list is some node's
 * `parameters`. Null when the function type is not a parameter's.
 */
export function callbackOwner(param: Node): [Node, Node] | null {
  let node: Node | null = param.parent?.parent ?? null; // the function type
  for (let up = 0; node?.parent?.parent && up < 4; up++, node = node.parent) {
    const list = node.parent;
    const fn = list.parent!;
    if (fn.childForFieldName("parameters")?.id === list.id) {
      const name = fn.childForFieldName("name");
      return name ? [name, node] : null;
    }
  }
  return null;
}

/** `text` split at `sep` outside brackets and braces. */
export function splitTop(text: string, sep: string): string[] {
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

/** A declared type as gathered: the name node it is declared at, before its owner is known. */
export interface Declared {
  name: Node;
  /** The type (null for a value that is no chain). */
  type: TypeRef | null;
  assigned: boolean;
  /** Which of the owner's types: a callback's parameter, a parameter, a literal's member. */
  slot?: Slot;
  /** The type arguments a class gives the base `name` (then `type` is null). */
  args?: TypeRef[];
}

/** What a file's captured nodes say of types, before scopes are read. */
export interface CapturedTypes {
  /** Each name a scope binds with its type, in match order (contextual parameters last). */
  bindings: Binding[];
  /** Each declaration's type (and each base's type arguments), in match order. */
  declared: Declared[];
  /** Each object literal member's name, the literal's type where it stands and its offset. */
  literals: [Node, TypeRef, number][];
}

/** The types of a file's locals, declarations and object literals, from their nodes. */
export function readTypes(found: Gathered): CapturedTypes {
  const contexts = new Contexts(found.contexts);
  const bindings: Binding[] = [];
  // Parameters typed where their function stands come after the others (as they are read
  // once every context is known).
  const contextual: Binding[] = [];
  for (const l of found.locals) {
    if (l.contextual) {
      const type = contexts.parameterType(l.contextual, l.local);
      if (type !== null) {
        contextual.push({ start: l.start, end: l.end, name: l.name, type, rank: 1 });
      }
    } else bindings.push(bindingOf(l));
  }
  bindings.push(...contextual);
  const literals: [Node, TypeRef, number][] = [];
  for (const [name, holder] of found.literals) {
    const type = contexts.typeOf(holder);
    if (type !== null) literals.push([name, type, holder.startIndex]);
  }
  return { bindings, declared: found.declared.flatMap(declaredOf), literals };
}

/** A local's binding with its type read from what it is bound to. */
function bindingOf(l: LocalCapture): Binding {
  const type: TypeRef | null = l.type
    ? localType(l.type)
    : l.injected
    ? { kind: "value", chain: { head: { kind: "name", name: l.name }, steps: [{ kind: "call" }] } }
    : l.value
    ? valueType(l.value)
    : l.destructured
    ? memberType(l.destructured, l.name)
    : l.callee
    ? callbackType(l.callee, l.local)
    : elementType(l.element);
  return {
    start: l.start,
    end: l.end,
    name: l.name,
    type,
    // For one name node: a declared type beats an element's or a property's, which
    // beats the value bound (`const o = xs.find(…)` is an element, not find's result).
    rank: l.type ? 3 : l.destructured || l.element ? 2 : l.value || l.callee || l.injected ? 1 : 0,
    ...(l.value ? { valueEnd: l.value.endIndex } : {}),
  };
}

/** A declaration's type (and a base's type arguments), as its captures give them. */
function declaredOf(c: DeclaredCapture): Declared[] {
  const out: Declared[] = [];
  // A literal assigned (`this.x = null`) says nothing of the type.
  const literal = c.value !== null && c.value.namedChildCount === 0 &&
    !c.value.type.includes("identifier");
  let name: Node | null = c.name;
  let argument = c.argument;
  // A callback's parameter (`@declared.parameter`): the function declaring it names it.
  if (c.parameter && !name) {
    const owner = callbackOwner(c.parameter);
    if (owner) [name, argument] = owner;
  }
  if (name && (c.type || (c.value && !literal))) {
    out.push({
      name,
      type: c.type ? typeName(c.type.text) : valueType(c.value!),
      assigned: !c.type,
      ...(c.parameter
        ? { slot: argument ? slotOf(argument, c.parameter) : parameterSlot(c.parameter) }
        : {}),
    });
  }
  if (c.base && c.arguments) {
    const args = c.arguments.namedChildren.map((n) => typeName(n ? n.text : ""));
    out.push({ name: c.base, type: null, assigned: false, args });
  }
  return out;
}

/** A name of a type path the graph resolves (`Foo`, `ns.Foo`). */
const TYPE_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/**
 * Contextual types of one file: the type a value gets from where it stands — the type of
 * the name it is assigned to, the return type of the function that returns it, a member of
 * the object literal that holds it, a parameter of the function it is passed to: a type
 * path and steps (`Op`, parameter 0; `Behavior`, `.onFetch`, parameter 1) or a value chain
 * and steps (`source.subscribe`, parameter 0).
 */
class Contexts {
  private readonly byNode = new Map<number, ContextCapture>();
  private readonly memo = new Map<number, TypeRef | null>();

  /** The contexts of a file's values (the first of each value counts). */
  constructor(contexts: readonly ContextCapture[]) {
    for (const c of contexts) if (!this.byNode.has(c.node.id)) this.byNode.set(c.node.id, c);
  }

  /** The type value `node` gets from where it stands, or null. */
  typeOf(node: Node, depth = 0): TypeRef | null {
    const hit = this.memo.get(node.id);
    if (hit !== undefined) return hit;
    const c = this.byNode.get(node.id);
    let out: TypeRef | null = null;
    if (c && depth < 8) {
      if (c.type) {
        const t = typeName(c.type.text);
        out = isTypePath(t) ? t : null;
      } else if (c.holder) {
        const h = this.typeOf(c.holder, depth + 1);
        out = h === null || !c.member
          ? h
          : thenSteps(h, [{ kind: "member", sep: ".", name: c.member.text }]);
      } else if (c.callee) {
        const k = node.parent ? namedIndex(node) : -1;
        out = k < 0 ? null : valueThen(c.callee.text, { kind: "parameter", index: k });
      }
    }
    this.memo.set(node.id, out);
    return out;
  }

  /**
   * The type of parameter `local` (a name node) of function `fn` from the function's type
   * where it stands (`return (source) => …` from a function returning `Op`: `Op <=0>`).
   */
  parameterType(fn: Node, local: Node): TypeRef | null {
    const ctx = this.typeOf(fn);
    if (ctx === null) return null;
    const list = fn.childForFieldName("parameters");
    let param: Node | null = local;
    while (param?.parent && param.parent.id !== fn.id && param.parent.id !== list?.id) {
      param = param.parent;
    }
    if (!param?.parent) return null;
    return thenSteps(ctx, [
      param.parent.id === fn.id ? { kind: "parameter", index: 0 } : parameterSlot(param),
    ]);
  }
}

/** Whether a type is a path of names joined by `.` (`Foo`, `ns.Foo`). */
function isTypePath(t: TypeRef): boolean {
  return t.kind === "path" && t.separators.every((s) => s === ".") &&
    t.segments.every((s) => TYPE_NAME.test(s));
}
