/**
 * `get_dependencies` as Markdown: one file's imports and importers, or the whole graph.
 *
 * @module
 */

import { importedBy, importLine, join, listOf } from "../markdown.ts";
import type { GetDependenciesPayload } from "./schema.ts";

/** A file's imports and importers; without a file, imports by file, packages and cycles. */
export function render(p: GetDependenciesPayload): string {
  if (p.importers) {
    // One line per file: its import lines and what they import.
    const byFile = new Map<string, Array<(typeof p.importers)[number]>>();
    for (const i of p.importers) byFile.set(i.file, [...(byFile.get(i.file) ?? []), i]);
    return join([
      `# Imported by ${byFile.size} files (${p.importers.length} imports)`,
      [...byFile].map(([file, list]) => {
        const what = [
          ...new Set(
            list.map((i) => i.module + (i.names.length ? ` (${i.names.join(", ")})` : "")),
          ),
        ];
        return `- ${file}:${list.map((i) => i.line).join(", ")} ${what.join("; ")}`;
      }).join("\n"),
    ]);
  }
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
