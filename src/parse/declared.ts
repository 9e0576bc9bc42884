/**
 * Types the parser records for the graph's receiver chains (`src/graph/chains.ts`): the
 * declared types of a file's fields, variables and functions (`@declared.*`) keyed by the
 * qualified name they belong to, and the types of locals read from what they are bound to
 * (`@local.value`, `.element`, `.destructured`, `.callee`). Types are written as the graph
 * reads them: a type path (`cobra.Command`), a sequence (`[]Command`), or `=` and a value's
 * chain (`=newThing()`, `=xs[]`, `=obj.a`, `=operate<0:1>`).
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import { FUNCTION_KINDS, type SymbolRecord } from "../types.ts";
import { CHAIN_HEAD, chainOf, SELF_HEAD, typeName, valueType } from "./local_scopes.ts";

export interface Declared {
  name: Node;
  type: string | null;
  assigned: boolean;
  /** `<k:j>`: the type is that of parameter j of the callback the function takes as parameter k. */
  slot: string;
}

/**
 * `<k:j>` for parameter `param` of callback parameter `arg` (positions among the named
 * children of their lists; a TypeScript `this:` parameter is not counted: callers do not pass it).
 */
export function slotOf(arg: Node, param: Node): string {
  return `<${namedIndex(arg)}:${parameterIndex(param)}>`;
}

/** `<=j>` for parameter `param` of a function: its type is the function's parameter j's. */
export function parameterSlot(param: Node): string {
  return `<=${parameterIndex(param)}>`;
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
 * The declared types of a file, as `[key, type]`: the key is a symbol's qualified name (a
 * function's or method's return type, a variable's type) or, for a name that is no symbol,
 * the enclosing class's qualified name and the name (`QueryObserver.#client`, Go
 * `Command.parent`; set inside a method, `this.x = new Foo()` is the class's `x`). The type
 * is a type path (`cobra.Command`) or `=` and the chain of the value it is assigned
 * (`=newThing()`).
 */
export function declaredTypes(
  declared: readonly Declared[],
  symbols: readonly SymbolRecord[],
  scopeAt: (line: number) => number,
  selfWords: ReadonlySet<string>,
): [string, string][] {
  if (declared.length === 0) return [];
  const byQualified = new Map(symbols.map((s) => [s.qualifiedName, s]));
  // A declared type wins; assigned values count only when they all agree
  // (`this.options = new Options()` and `this.options = options` tell nothing).
  const types = new Map<string, string>();
  const values = new Map<string, string | null>();
  // Keys typed by a symbol's own declaration, and by a field that is no symbol: a field
  // and a method of one name (Rust `version: Option<Str>` and `fn version(self) -> Self`)
  // keep both, the field's under `key` + FIELD_KEY.
  const ownKeys = new Set<string>();
  const fieldKeys = new Set<string>();
  for (const d of declared) {
    const name = d.name.text;
    const line = d.name.startPosition.row + 1;
    let owner: SymbolRecord | undefined = symbols[scopeAt(line)];
    let key: string;
    const own = owner !== undefined && owner.name === name && owner.line === line;
    if (own) key = owner!.qualifiedName + d.slot;
    else {
      while (owner && FUNCTION_KINDS.has(owner.kind)) {
        owner = owner.parent === null ? undefined : byQualified.get(owner.parent);
      }
      key = (owner ? `${owner.qualifiedName}.${name}` : name) + d.slot;
    }
    if (!d.assigned) {
      if (d.type === null) continue;
      if (own && fieldKeys.has(key)) {
        types.set(key + FIELD_KEY, types.get(key)!);
        fieldKeys.delete(key);
        types.delete(key);
      }
      if (!own && ownKeys.has(key)) key += FIELD_KEY;
      if (types.has(key)) continue;
      types.set(key, d.type);
      (own ? ownKeys : fieldKeys).add(key);
    } else {
      const type = d.type === null ? null : selfHeaded(d.type, selfWords);
      values.set(key, values.has(key) && values.get(key) !== type ? null : type);
    }
  }
  for (const [key, type] of values) if (type !== null && !types.has(key)) types.set(key, type);
  return [...types];
}

/** `=this.make()` → `=#self.make()`: a value chain headed by the instance, in one spelling. */
export function selfHeaded(type: string, selfWords: ReadonlySet<string>): string {
  if (!type.startsWith("=")) return type;
  const head = CHAIN_HEAD.exec(type.slice(1))?.[0];
  return head && selfWords.has(head) ? `=${SELF_HEAD}${type.slice(1 + head.length)}` : type;
}

/** Suffix of the key of a field's type when a method of the class has the field's name. */
export const FIELD_KEY = " field";

/** A local's declared type; after `...` (a variadic parameter: `cmds ...*Command`) a sequence of it. */
export function localType(type: Node): string {
  const name = typeName(type.text);
  return type.previousSibling?.text === "..." ? `[]${name}` : name;
}

/**
 * The type of a callback's parameter from the callee's declaration: `=f<k:j>` is parameter
 * j of the callback passed as argument k of `f` (`operate((source, subscriber) => …)`).
 * Positions are those of the nodes among their parent's named children.
 */
export function callbackType(callee: Node, param: Node): string | null {
  const chain = chainOf(callee.text);
  if (chain === null) return null;
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
  return j < 0 || k < 0 ? null : `=${chain}<${k}:${j}>`;
}

/** Whether `fn` is a callback passed as an argument (its parent is the argument list). */
function isArgument(fn: Node): boolean {
  return fn.parent !== null && fn.parent.parent !== null &&
    fn.parent.parent.childForFieldName("arguments")?.id === fn.parent.id;
}

/** The type of property `name` of `obj` (`=obj.name`), or null. */
export function memberType(obj: Node, name: string): string | null {
  const t = valueType(obj);
  return t === null ? null : `${t}.${name}`;
}

/**
 * The type of an element of `seq` (`=xs[]`), or null; of a literal that names its sequence
 * type (Go `range []struct{ in XY }{…}`, `range []*Command{a, b}`), that type's element.
 */
export function elementType(seq: Node | null): string | null {
  const t = seq ? valueType(seq) : null;
  if (t !== null) return `${t}[]`;
  const written = seq?.childForFieldName("type");
  const type = written ? typeName(written.text) : "";
  return type.startsWith("[]") ? type.slice(2) : null;
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

/**
 * Suffix of the key of an object literal member's contextual type (`merged.add in` →
 * `Merged`): the literal's type, whose member of that name the member stands for.
 */
export const LITERAL_KEY = " in";

/**
 * Suffix of the key of the type arguments a class or interface gives a base
 * (`Op.Unary base` → `Observable,Observable`; `%i`: the class's own type parameter i).
 */
export const BASE_KEY = " base";

/** Where a value's type comes from where it stands (see `MatchCaptures.declContext`). */
export interface Context {
  node: Node;
  type: Node | null;
  holder: Node | null;
  member: Node | null;
  callee: Node | null;
}

/** A type written as a path the graph resolves (`Foo`, `ns.Foo`). */
const TYPE_PATH = /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

/**
 * Contextual types of one file: the type a value gets from where it stands — the type of
 * the name it is assigned to, the return type of the function that returns it, a member of
 * the object literal that holds it, a parameter of the function it is passed to. Written
 * as the graph reads them: a type path and steps (`Op <=0>`, `Behavior .onFetch<=1>`) or a
 * value chain and steps (`=source.subscribe<=0>`).
 */
export class Contexts {
  private readonly byNode = new Map<number, Context>();
  private readonly memo = new Map<number, string | null>();

  add(c: Context): void {
    if (!this.byNode.has(c.node.id)) this.byNode.set(c.node.id, c);
  }

  /** The type value `node` gets from where it stands, or null. */
  typeOf(node: Node, depth = 0): string | null {
    const hit = this.memo.get(node.id);
    if (hit !== undefined) return hit;
    const c = this.byNode.get(node.id);
    let out: string | null = null;
    if (c && depth < 8) {
      if (c.type) {
        const t = typeName(c.type.text);
        out = TYPE_PATH.test(t) ? t : null;
      } else if (c.holder) {
        const h = this.typeOf(c.holder, depth + 1);
        out = h === null ? null : c.member ? withSteps(h, `.${c.member.text}`) : h;
      } else if (c.callee) {
        const chain = chainOf(c.callee.text);
        const k = node.parent ? namedIndex(node) : -1;
        out = chain === null || k < 0 ? null : `=${chain}<=${k}>`;
      }
    }
    this.memo.set(node.id, out);
    return out;
  }

  /**
   * The type of parameter `local` (a name node) of function `fn` from the function's type
   * where it stands (`return (source) => …` from a function returning `Op`: `Op <=0>`).
   */
  parameterType(fn: Node, local: Node): string | null {
    const ctx = this.typeOf(fn);
    if (ctx === null) return null;
    const list = fn.childForFieldName("parameters");
    let param: Node | null = local;
    while (param?.parent && param.parent.id !== fn.id && param.parent.id !== list?.id) {
      param = param.parent;
    }
    if (!param?.parent) return null;
    return withSteps(ctx, param.parent.id === fn.id ? "<=0>" : parameterSlot(param));
  }
}

/** A type (`T`, `T .a`, `=f()`) followed by more steps. */
function withSteps(type: string, steps: string): string {
  return type.startsWith("=") || type.includes(" ") ? type + steps : `${type} ${steps}`;
}
