/**
 * `search_symbols` as Markdown: how many, then a line per symbol (where, its signature, its
 * doc's first line).
 *
 * @module
 */

import { firstLine, join, loc } from "../markdown.ts";
import type { SearchSymbolsPayload } from "./schema.ts";

/** `n of total symbols` and one line per symbol. */
export function render(p: SearchSymbolsPayload): string {
  const symbols = p.symbols;
  return join([
    `${symbols.length} of ${p.total} symbols`,
    symbols.map((s) => {
      const doc = firstLine(s.doc, 80);
      const name = s.name;
      const qualified = s.qualified_name || name;
      const sig = s.signature;
      // The signature names the symbol and usually says its kind; a method adds its owner.
      const head = !sig
        ? `${s.kind} ${qualified}`
        : sig.includes(name) && qualified === name
        ? sig
        : `${qualified}: ${sig}`;
      return `- ${loc(s, false)} ${head}${doc ? ` — ${doc}` : ""}`;
    }).join("\n"),
  ]);
}
