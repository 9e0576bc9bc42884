/**
 * What a name leads to (a symbol, a module, something outside the project) and the symbol
 * kinds that name resolution treats alike: those that hold members and those that are
 * members.
 *
 * @module
 */

import type { SymbolRecord } from "../types.ts";
import type { ModuleRef } from "./resolve/types.ts";

/** What a name leads to. */
export type Target =
  | { kind: "symbol"; symbol: SymbolRecord }
  | { kind: "module"; module: ModuleRef }
  | { kind: "external" };

// The kind sets live in types.ts; the graph's modules take them from here too.
export { CLASS_LIKE, MEMBER_KINDS } from "../types.ts";

/**
 * How deep resolution follows re-exports, wildcards and bases before it gives up (import
 * and inheritance cycles end here).
 */
export const MAX_DEPTH = 6;

/** A symbol as a target. */
export function symbolTarget(symbol: SymbolRecord): Target {
  return { kind: "symbol", symbol };
}

/** The symbols among targets, each once, in order. */
export function symbolsOf(targets: readonly Target[]): SymbolRecord[] {
  const out: SymbolRecord[] = [];
  for (const t of targets) if (t.kind === "symbol" && !out.includes(t.symbol)) out.push(t.symbol);
  return out;
}
