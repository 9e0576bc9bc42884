/**
 * The types a file declares (`@declared.*`), each given its owner — a symbol's qualified
 * name or the enclosing class's and a member's — and its slot; the types of object literal
 * members from where the literal stands; a class's type parameters as such; values
 * assigned from a local read through the local's type there.
 *
 * @module
 */

import type { DeclaredType, Slot } from "../../facts/records.ts";
import { textOf } from "../../facts/text.ts";
import type { TypeRef } from "../../facts/type_ref.ts";
import { FUNCTION_KINDS, type SymbolRecord } from "../../types.ts";
import type { Declared } from "./types.ts";

/**
 * The declared types of a file: each owned by a symbol's qualified name (a function's or
 * method's return type, a variable's type) or, for a name that is no symbol, by the
 * enclosing class's qualified name and the name (`QueryObserver.#client`, Go
 * `Command.parent`; set inside a method, `this.x = new Foo()` is the class's `x`). The type
 * is a type or the value it is assigned (`newThing()`).
 */
export function declaredTypes(
  declared: readonly Declared[],
  generics: ReadonlyMap<number, string[]>,
  symbols: readonly SymbolRecord[],
  scopeAt: (line: number) => number,
  selfWords: ReadonlySet<string>,
): DeclaredType[] {
  if (declared.length === 0) return [];
  genericTypes(declared, generics);
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
          // An object literal member's value is spelled headed by the instance here too.
          type: selfHeaded(d.type!, selfWords),
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

/**
 * Declared types that are a type parameter of the enclosing class, interface or alias are
 * that parameter (its position): the type argument the member is reached through.
 */
function genericTypes(
  declared: readonly Declared[],
  generics: ReadonlyMap<number, string[]>,
): void {
  if (generics.size === 0) return;
  for (const d of declared) {
    if (d.type?.kind === "value" || (d.type === null && !d.args)) continue;
    let names: string[] | undefined;
    for (let n = d.name.parent; n && !names; n = n.parent) names = generics.get(n.id);
    if (!names) continue;
    const generic = (t: TypeRef): TypeRef => {
      const i = t.kind === "path" && t.segments.length === 1 ? names!.indexOf(t.segments[0]) : -1;
      return i < 0 ? t : { kind: "generic", index: i };
    };
    if (d.args) d.args = d.args.map(generic);
    else d.type = generic(d.type!);
  }
}

/** `this.make()` → `#self.make()`: a value chain headed by the instance, in one spelling. */
export function selfHeaded(type: TypeRef, selfWords: ReadonlySet<string>): TypeRef {
  if (type.kind !== "value") return type;
  const head = type.chain.head;
  return head.kind === "name" && selfWords.has(head.name)
    ? { kind: "value", chain: { head: { kind: "self" }, steps: type.chain.steps } }
    : type;
}
