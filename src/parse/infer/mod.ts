/**
 * Type inference of one file, in one pass over what `gather.ts` collected: each local's
 * type from the nodes it is bound to, the scopes holding them (`../scopes.ts`), each
 * declaration's type and owner. What it answers is what `references.ts` needs to classify
 * receivers and what the graph reads of the file's declared types.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { DeclaredType } from "../../facts/records.ts";
import type { TypeRef } from "../../facts/type_ref.ts";
import type { SymbolRecord } from "../../types.ts";
import type { DeclaredCapture, Gathered, LocalCapture } from "../gather.ts";
import { type Binding, bindLocals, type Locals } from "../scopes.ts";
import { Contexts } from "./contexts.ts";
import { type Declared, declaredTypes, genericTypes, literalTypes } from "./declared.ts";
import {
  callbackOwner,
  callbackType,
  elementType,
  localType,
  memberType,
  parameterSlot,
  slotOf,
  typeName,
  valueType,
} from "./types.ts";

export { classifyReceiver } from "./receivers.ts";

/** What a file's types are. */
export interface Inferred {
  /** Which names are local, and the types of the names bound at file level. */
  locals: Locals;
  /** The types the file declares, each with its owner and slot. */
  declared: DeclaredType[];
}

/**
 * The types of a file's locals and declarations; `scopeAt` gives a line's innermost
 * enclosing symbol (the owner of what is declared there).
 */
export function inferTypes(
  found: Gathered,
  symbols: readonly SymbolRecord[],
  scopeAt: (line: number) => number,
): Inferred {
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
  const locals = bindLocals(found.scopes, bindings, found.outer);
  const declared = found.declared.flatMap(declaredOf);
  literalTypes(declared, found.literals, contexts, {
    scopes: found.scopes,
    locals,
    selfWords: found.selfWords,
  });
  genericTypes(declared, found.generics);
  return { locals, declared: declaredTypes(declared, symbols, scopeAt, found.selfWords) };
}

/** A local's binding with its type read from what it is bound to. */
function bindingOf(l: LocalCapture): Binding {
  const type: TypeRef | null = l.type
    ? localType(l.type)
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
    rank: l.type ? 3 : l.destructured || l.element ? 2 : l.value || l.callee ? 1 : 0,
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
