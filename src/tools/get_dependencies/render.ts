/**
 * `get_dependencies` as Markdown: one file's imports and importers, or the whole graph.
 *
 * @module
 */

import { importedBy, importLine, join, listOf } from "../markdown.ts";
import type { GetDependenciesPayload } from "./schema.ts";

/** A file's imports and importers; without a file, imports by file, packages and cycles. */
export function render(p: GetDependenciesPayload): string {
  if (p.file) {
    return join([
      `# ${p.file} (${p.language ?? ""})`,
      listOf("Imports (line: file)", p.imports, importLine) || "Imports: none",
      importedBy(p.imported_by) || "Imported by: none",
    ]);
  }
  const edges = p.edges ?? [];
  const out = new Map<string, string[]>();
  for (const e of edges) out.set(e.from, [...(out.get(e.from) ?? []), e.to]);
  const nodes = p.nodes ?? [];
  const cycles = p.cycles ?? [];
  return join([
    `${nodes.length} files, ${edges.length} imports between them`,
    out.size
      ? `Imports (file → files):\n${
        [...out].map(([f, to]) => `- ${f} → ${to.join(", ")}`).join("\n")
      }`
      : "",
    listOf("External packages", p.external ?? [], (x) => `${x.package} (${x.files} files)`),
    cycles.length ? `Cycles:\n${cycles.map((c) => `- ${c.join(" → ")}`).join("\n")}` : "",
    p.unresolved ? `Unresolved imports: ${p.unresolved}` : "",
  ]);
}
