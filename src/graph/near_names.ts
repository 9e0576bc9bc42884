/**
 * "Did you mean": the defined names spelled close to a name that matched nothing, for the
 * `not_found` error of a symbol lookup (`lookup.ts`).
 *
 * @module
 */

import type { SymbolRecord } from "../types.ts";
import { editDistance } from "../util/suggest.ts";

/** Compares spellings loosely: case and `_`/`-`/`$` do not count (`parseConfig` ~ `parse_config`). */
function loose(s: string): string {
  return s.toLowerCase().replace(/[_\-$]/g, "");
}

/**
 * Up to five `qualified_name (file:line)` spelled close to the last part of `wanted`, nearest
 * first, ties in `compareSymbols` order.
 */
export function nearNames(
  symbols: readonly SymbolRecord[],
  wanted: string,
  compareSymbols: (a: SymbolRecord, b: SymbolRecord) => number,
): string[] {
  const key = loose(wanted.split(".").pop()!);
  // Among names as near, the member of the owner as written first (`UUID.Strin`: UUID.String).
  const owner = loose(wanted.split(".").slice(0, -1).join("."));
  const other = (s: SymbolRecord) => owner && loose(s.parent ?? "") === owner ? 0 : 1;
  const best = new Map<string, { d: number; s: SymbolRecord }>();
  for (const s of symbols) {
    if (s.kind === "section") continue;
    const k = loose(s.name);
    let d: number;
    if (k === key) d = 0;
    else if (k.startsWith(key) || key.startsWith(k) && k.length >= 4) d = 1;
    else d = 1 + editDistance(key, k, 3);
    if (d > 3) continue;
    const prev = best.get(s.qualifiedName);
    if (!prev || d < prev.d || (d === prev.d && compareSymbols(s, prev.s) < 0)) {
      best.set(s.qualifiedName, { d, s });
    }
  }
  return [...best.values()]
    .sort((a, b) => a.d - b.d || other(a.s) - other(b.s) || compareSymbols(a.s, b.s))
    .slice(0, 5)
    .map(({ s }) => `${s.qualifiedName} (${s.file}:${s.line})`);
}
