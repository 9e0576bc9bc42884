/**
 * `get_impact` as Markdown: what changed first, then what is likely to break, then what
 * reaches the change hop by hop (how sure when less than exact), then the tests to run.
 *
 * @module
 */

import { join, listOf, sureness } from "../markdown.ts";
import type { ChangedSymbol, GetImpactPayload, ImpactedSymbol } from "./schema.ts";

/** `modified function slugify app/utils.py:9-11 — signature: old → new`. */
export function changedLine(c: ChangedSymbol): string {
  const sig = c.signature_changed
    ? ` — signature: \`${c.old_signature}\` → \`${c.signature}\``
    : "";
  const refs = c.references ? `, ${c.references} uses` : "";
  return `${c.change} ${c.kind} ${c.qualified_name} ${c.file}:${c.line}-${c.end_line}${refs}${sig}`;
}

/** `main (function) app/main.py:18 ← slugify`: the path back to the change. */
export function impactedLine(x: ImpactedSymbol): string {
  const back = x.path.slice(0, -1).reverse().join(" ← ");
  return `${x.qualified_name} (${x.kind}) ${x.file}:${x.line} ← ${back}${sureness(x)}`;
}

/** The change, the likely breaks, the rest by hop, the tests. */
export function render(p: GetImpactPayload): string {
  const hops = [...new Set(p.impacted.map((x) => x.hop))].sort((a, b) => a - b);
  const deepest = p.risk.by_hop.filter((h) => h.exact + h.inferred + h.name > 0).at(-1)?.hop ?? 0;
  const tests = p.tests_to_run;
  const fnsByFile = new Map<string, string[]>();
  for (const f of tests.functions) {
    fnsByFile.set(f.file, [...(fnsByFile.get(f.file) ?? []), f.qualified_name]);
  }
  const what = p.source === "base" ? `the working tree against ${p.base}` : `the ${p.source}`;
  return join([
    `Impact of ${what}: ${
      p.files.length || "no"
    } files, ${p.changed.length} definitions changed, ` +
    `${p.impacted_total} reached in ${deepest} hops, ${tests.files.length} test files` +
    (p.truncated ? ` (first ${p.impacted.length} shown)` : ""),
    listOf("Changed", p.changed, changedLine),
    listOf(
      "Likely to break",
      p.risk.likely_breaks,
      (b) =>
        `${b.qualified_name} ${b.reason === "deleted" ? "deleted" : "signature changed"}, ` +
        `still used ${b.references}×: ${b.sites.join(", ")}${
          b.references > b.sites.length ? ", …" : ""
        }`,
    ),
    ...hops.map((h) => listOf(`Hop ${h}`, p.impacted.filter((x) => x.hop === h), impactedLine)),
    listOf("Tests to run", tests.files, (f) => {
      const fns = fnsByFile.get(f);
      return fns ? `${f}: ${fns.join(", ")}` : f;
    }),
  ]);
}
