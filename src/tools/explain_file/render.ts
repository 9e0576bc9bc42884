/**
 * `explain_file` as Markdown: the file's symbols as an outline, its imports and importers;
 * its source when asked.
 *
 * @module
 */

import { fence, firstLine, importedBy, importLine, join, listOf } from "../markdown.ts";
import type { ExplainFilePayload } from "./schema.ts";

/** The outline (members indented under their parent), imports, importers and source. */
export function render(p: ExplainFilePayload): string {
  const symbols = p.symbols;
  const depth = (s: ExplainFilePayload["symbols"][number]): number => {
    let d = 0;
    for (let parent = s.parent ?? ""; parent && d < 6; d++) {
      parent = symbols.find((x) => x.qualified_name === parent)?.parent ?? "";
    }
    return d;
  };
  const lines = symbols.map((s) => {
    const doc = firstLine(s.doc, 80);
    const head = s.signature || `${s.kind} ${s.name}`;
    return `${"  ".repeat(depth(s))}- ${s.line}: ${head}${doc ? ` — ${doc}` : ""}`;
  });
  return join([
    `# ${p.file} — ${p.language}, ${p.lines} lines`,
    p.parse_error ? `Parse error: ${p.parse_error}` : "",
    lines.length ? `Symbols (line: signature):\n${lines.join("\n")}` : "",
    listOf("Imports (line: file)", p.imports, importLine),
    importedBy(p.imported_by),
    typeof p.source === "string"
      ? `Source${p.source_truncated ? " (truncated)" : ""}:\n${fence(p.source, p.language)}`
      : "",
  ]);
}
