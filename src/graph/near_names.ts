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
export function nearSymbols(
  symbols: readonly SymbolRecord[],
  wanted: string,
  compareSymbols: (a: SymbolRecord, b: SymbolRecord) => number,
): string[] {
  const key = loose(wanted.split(".").pop()!);
  // Among names as near, the member of the owner as written first (`UUID.Strin`: UUID.String).
  const owner = loose(wanted.split(".").slice(0, -1).join("."));
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
  // 0 for a member of that owner, 1 otherwise: read once per name kept, not per comparison.
  const ranked = [...best.values()].map((e) => ({
    ...e,
    other: owner && loose(e.s.parent ?? "") === owner ? 0 : 1,
  }));
  return ranked
    .sort((a, b) => a.d - b.d || a.other - b.other || compareSymbols(a.s, b.s))
    .slice(0, 5)
    .map(({ s }) => `${s.qualifiedName} (${s.file}:${s.line})`);
}
