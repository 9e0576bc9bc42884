/**
 * `explain_symbol` as Markdown: the definition, its source (doc once), members, callers and
 * callees grouped by who and where.
 *
 * @module
 */

import { CALLABLE_KINDS } from "../../types.ts";
import { fence, join, listOf, loc, sureness, symbolLine } from "../markdown.ts";
import type { ExplainSymbolPayload, Neighbour } from "./schema.ts";

/**
 * Call sites grouped by who and where: `name file:l1, l2` one line per (name, file), in the
 * payload's order; how sure the match is goes in the title when every site shares it.
 */
function sites(title: string, items: Neighbour[], total: number): string {
  if (items.length === 0) return "";
  const groups = new Map<string, { o: Neighbour; lines: number[] }>();
  for (const o of items) {
    const key = `${o.name}\0${o.file}\0${o.resolution}`;
    const g = groups.get(key);
    if (g) g.lines.push(o.line);
    else groups.set(key, { o, lines: [o.line] });
  }
  const shared = items.every((o) => o.resolution === items[0].resolution)
    ? sureness(items[0])
    : undefined;
  const more = total > items.length ? `${items.length} of ${total}` : "";
  const head = [more, shared?.replace(/^, /, "")].filter(Boolean).join(", ");
  const lines = [...groups.values()].map(({ o, lines }) =>
    `- ${o.name} ${o.file}${lines.length ? `:${lines.join(", ")}` : ""}${
      shared === undefined ? sureness(o) : ""
    }`
  );
  return `${title}${head ? ` (${head})` : ""}:\n${lines.join("\n")}`;
}

/** The definition, its source (doc once), members, callers and callees. */
export function render(p: ExplainSymbolPayload): string {
  const s = p.symbol;
  const parent = p.parent
    ? `${p.parent.qualified_name || p.parent.name} (${p.parent.kind}) ${loc(p.parent, false)}`
    : "";
  // The doc once: a docstring inside the source is not repeated above it.
  const doc = p.doc.trim();
  const docInSource = doc !== "" && p.source.includes(doc.split("\n")[0].trim());
  return join([
    `# ${s.qualified_name || s.name} — ${s.kind} in ${loc(s)}`,
    parent ? `In ${parent}.` : "",
    docInSource ? "" : doc,
    fence(p.source, s.language) + (p.source_truncated ? "\n(source truncated)" : ""),
    listOf("Members", p.children, (c) => `${c.signature || c.name} :${c.line}`),
    sites(CALLABLE_KINDS.has(s.kind) ? "Callers" : "Used by", p.callers, p.callers_total),
    sites("Callees", p.callees, p.callees_total),
    `References: ${p.references}`,
    listOf("Other symbols with this name", p.candidates, symbolLine),
  ]);
}
