/**
 * Types the parser records for the graph's receiver chains (`src/graph/chains.ts`): the
 * declared types of a file's fields, variables and functions (`@declared.*`) keyed by the
 * qualified name they belong to, and the types of locals read from what they are bound to
 * (`@local.value`, `.element`, `.destructured`, `.callee`), as the records of
 * `facts/type_ref.ts`: a type path (`cobra.Command`), a sequence (`[]Command`), or a value's
 * chain (`newThing()`, an element of `xs`, `obj.a`, parameter 1 of `operate`'s callback 0).
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { DeclaredType, Slot } from "../facts/records.ts";
import { textOf } from "../facts/text.ts";
import type { Step, TypeRef } from "../facts/type_ref.ts";
import { FUNCTION_KINDS, type SymbolRecord } from "../types.ts";
import { chainOf, thenSteps, typeName, valueType } from "./local_scopes.ts";

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
function namedIndex(node: Node): number {
  let k = 0;
  for (let n = node.previousNamedSibling; n; n = n.previousNamedSibling) k++;
  return k;
}

/**
 * The declared types of a file: each owned by a symbol's qualified name (a function's or
 * method's return type, a variable's type) or, for a name that is no symbol, by the
 * enclosing class's qualified name and the name (`QueryObserver.#client`, Go
 * `Command.parent`; set inside a method, `this.x = new Foo()` is the class's `x`). The type
 * is a type or the value it is assigned (`newThing()`).
 */
export function declaredTypes(
  declared: readonly Declared[],
  symbols: readonly SymbolRecord[],
  scopeAt: (line: number) => number,
  selfWords: ReadonlySet<string>,
): DeclaredType[] {
  if (declared.length === 0) return [];
  const byQualified = new Map(symbols.map((s) => [s.qualifiedName, s]));
  // A declared type wins; assigned values count only when they all agree
  // (`this.options = new Options()` and `this.options = options` tell nothing).
  const types = new Map<string, DeclaredType>();
  const values = new Map<string, [string, Slot | undefined, TypeRef | null]>();
  // Keys typed by a symbol's own declaration, and by a field that is no symbol: a field
  // and a method of one name (Rust `version: Option<Str>` and `fn version(self) -> Self`)
  // keep both, the field's marked `field`.
  const ownKeys = new Set<string>();
  const fieldKeys = new Set<string>();
  for (const d of declared) {
    const name = d.name.text;
    const line = d.name.startPosition.row + 1;
    let owner: SymbolRecord | undefined = symbols[scopeAt(line)];
    let of: string;
    const own = owner !== undefined && owner.name === name && owner.line === line;
    if (own) of = owner!.qualifiedName;
    else {
      while (owner && FUNCTION_KINDS.has(owner.kind)) {
        owner = owner.parent === null ? undefined : byQualified.get(owner.parent);
      }
      of = owner ? `${owner.qualifiedName}.${name}` : name;
    }
    const key = keyOf(of, d, false);
    if (!d.assigned) {
      if (d.type === null && !d.args) continue;
      if (own && fieldKeys.has(key)) {
        types.set(keyOf(of, d, true), { ...types.get(key)!, field: true });
        fieldKeys.delete(key);
        types.delete(key);
      }
      const field = !own && ownKeys.has(key);
      const at = field ? keyOf(of, d, true) : key;
      if (types.has(at)) continue;
      const flag = field ? { field: true as const } : {};
      types.set(
        at,
        d.args ? { kind: "base", owner: of, ...flag, args: d.args } : {
          kind: "type",
          owner: of,
          ...(d.slot ? { slot: d.slot } : {}),
          ...flag,
          type: d.type!,
        },
      );
      (own ? ownKeys : fieldKeys).add(at);
    } else {
      const type = d.type === null ? null : selfHeaded(d.type, selfWords);
      const had = values.get(key);
      values.set(key, [of, d.slot, had && !sameType(had[2], type) ? null : type]);
    }
  }
  for (const [key, [owner, slot, type]] of values) {
    if (type !== null && !types.has(key)) {
      types.set(key, { kind: "type", owner, ...(slot ? { slot } : {}), type });
    }
  }
  return [...types.values()];
}

/** Where a declared type is kept while a file's are gathered: its owner, slot and field flag. */
function keyOf(owner: string, d: Declared, field: boolean): string {
  return JSON.stringify([owner, d.args ? "base" : d.slot ?? null, field]);
}

function sameType(a: TypeRef | null, b: TypeRef | null): boolean {
  return a === null || b === null ? a === b : textOf(a) === textOf(b);
}

/** `this.make()` → `#self.make()`: a value chain headed by the instance, in one spelling. */
export function selfHeaded(type: TypeRef, selfWords: ReadonlySet<string>): TypeRef {
  if (type.kind !== "value") return type;
  const head = type.chain.head;
  return head.kind === "name" && selfWords.has(head.name)
    ? { kind: "value", chain: { head: { kind: "self" }, steps: type.chain.steps } }
    : type;
}

/** A local's declared type; after `...` (a variadic parameter: `cmds ...*Command`) a sequence of it. */
export function localType(type: Node): TypeRef {
  const name = typeName(type.text);
  return type.previousSibling?.text === "..." ? { kind: "sequence", of: name } : name;
}

/** The value of `chain` text, then `steps`; null when the text is no chain. */
function valueThen(text: string, ...steps: Step[]): TypeRef | null {
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

/** Where a value's type comes from where it stands (see `MatchCaptures.declContext`). */
export interface Context {
  node: Node;
  type: Node | null;
  holder: Node | null;
  member: Node | null;
  callee: Node | null;
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
export class Contexts {
  private readonly byNode = new Map<number, Context>();
  private readonly memo = new Map<number, TypeRef | null>();

  add(c: Context): void {
    if (!this.byNode.has(c.node.id)) this.byNode.set(c.node.id, c);
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
