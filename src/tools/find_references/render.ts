/**
 * `find_references` as Markdown: references grouped by file, how sure said once.
 *
 * @module
 */

import { commonResolution, join, listOf, sureness, symbolLine } from "../markdown.ts";
import type { FindReferencesPayload } from "./schema.ts";

type Reference = FindReferencesPayload["references"][number];

/** The count by resolution, the definitions, then each file's references. */
export function render(p: FindReferencesPayload): string {
  const refs = p.references;
  const byFile = new Map<string, Reference[]>();
  for (const r of refs) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  const usual = commonResolution(refs);
  const groups = [...byFile].map(([file, rs]) =>
    `${file}\n${
      rs.map((r, i) => {
        // The enclosing definition once per run of lines inside it.
        const inside = r.in && (i === 0 || rs[i - 1].in !== r.in) ? ` in ${r.in}` : "";
        const sure = r.resolution === usual ? "" : sureness(r);
        return `  ${r.line} ${r.kind}${sure}${inside}: ${r.context.trim()}`;
      }).join("\n")
    }`
  );
  const by = p.by_resolution;
  const counts = ([["exact", "exact"], ["inferred", "inferred"], ["name", "by name only"]] as const)
    .filter(([k]) => by[k] > 0).map(([k, label]) => `${label} ${by[k]}`).join(", ");
  const usualWord = usual === undefined ? "" : sureness({ resolution: usual }).replace(/^, /, "");
  return join([
    `${p.symbol}: ${p.total} references${p.truncated ? ` (first ${refs.length} shown)` : ""}${
      counts ? `; ${counts}` : ""
    }${usualWord ? `; lines below are ${usualWord} unless marked` : ""}`,
    listOf("Defined at", p.definitions, symbolLine),
    groups.join("\n"),
  ]);
}
