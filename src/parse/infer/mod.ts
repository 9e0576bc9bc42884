/**
 * Type inference of one file, in one pass over what `gather.ts` collected: the types its
 * captured nodes give (`types.ts`), the scopes holding the locals (`../scopes.ts`), value
 * chains read through the locals where they stand (`receivers.ts`), each declaration's owner
 * and slot (`declared.ts`). What it answers is what `references.ts` needs to classify
 * receivers and what the graph reads of the file's declared types.
 *
 * @module
 */

import type { DeclaredType } from "../../facts/records.ts";
import type { SymbolRecord } from "../../types.ts";
import type { Gathered } from "../gather.ts";
import { bindLocals, type Locals } from "../scopes.ts";
import { declaredTypes } from "./declared.ts";
import { readValues } from "./receivers.ts";
import { readTypes } from "./types.ts";

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
  const { bindings, declared, literals } = readTypes(found);
  const locals = bindLocals(found.scopes, bindings, found.outer);
  readValues(declared, literals, { scopes: found.scopes, locals, selfWords: found.selfWords });
  return {
    locals,
    declared: declaredTypes(declared, found.generics, symbols, scopeAt, found.selfWords),
  };
}
