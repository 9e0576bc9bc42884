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
  /** A line's innermost enclosing symbol (its index in the symbols; -1 when none). */
  scopeAt: (line: number) => number;
}

/**
 * The types of a file's locals and declarations, and the symbol that encloses each line (the
 * owner of what is declared there, the scope of a reference).
 */
export function inferTypes(found: Gathered, symbols: readonly SymbolRecord[]): Inferred {
  const scopeAt = enclosingSymbols(symbols);
  const { bindings, declared, literals } = readTypes(found);
  const locals = bindLocals(found.scopes, bindings, found.outer);
  readValues(declared, literals, { scopes: found.scopes, locals, selfWords: found.selfWords });
  return {
    locals,
    declared: declaredTypes(declared, found.generics, symbols, scopeAt, found.selfWords),
    scopeAt,
  };
}

/**
 * A function from a line to the index of the innermost symbol whose lines hold it
 * (-1 when none): inner symbols are painted over outer ones.
 */
function enclosingSymbols(symbols: readonly SymbolRecord[]): (line: number) => number {
  if (symbols.length === 0) return () => -1;
  let last = 0;
  for (const s of symbols) if (s.endLine > last) last = s.endLine;
  const at = new Int32Array(last + 2).fill(-1);
  const order = symbols.map((_, i) => i).sort((a, b) =>
    (symbols[b].endLine - symbols[b].startLine) - (symbols[a].endLine - symbols[a].startLine) ||
    a - b
  );
  for (const i of order) {
    const s = symbols[i];
    for (let l = s.startLine; l <= s.endLine; l++) at[l] = i;
  }
  return (line) => (line < at.length ? at[line] : -1);
}
