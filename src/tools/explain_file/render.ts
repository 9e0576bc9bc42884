/**
 * `explain_file` as Markdown: the file's symbols as an outline, its imports and importers;
 * its source when asked.
 *
 * @module
 */

import { fence, firstLine, importedBy, importLine, join, listOf } from "../markdown.ts";
import { isTestFile } from "../../util/test_files.ts";
import type { ExplainFilePayload } from "./schema.ts";

/**
 * The files that import this one, the tests counted (`codectx deps FILE` lists them): an
 * outline is read for what the file is and who uses it, and a package's tests listed by name
 * were half of what an assistant read of it (issue 35).
 */
function importers(p: ExplainFilePayload): string {
  const tests = p.imported_by.filter(isTestFile).length;
  const code = p.imported_by.filter((f) => !isTestFile(f));
  const counted = tests
    ? `${code.length ? "and " : "Imported by "}${tests} test file${
      tests === 1 ? "" : "s"
    } (deps ${p.file} lists them)`
    : "";
  return join([importedBy(code), counted]);
}

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
  // One line asked for: that line in its function, nothing of the outline.
  if (p.line_context) {
    return join([`# ${p.file} — ${p.language}, ${p.lines} lines`, ...p.line_context]);
  }
  return join([
    `# ${p.file} — ${p.language}, ${p.lines} lines`,
    p.parse_error ? `Parse error: ${p.parse_error}` : "",
    lines.length ? `Symbols (line: signature):\n${lines.join("\n")}` : "",
    listOf("Imports (line: file)", p.imports, importLine),
    importers(p),
    typeof p.source === "string"
      ? `Source${p.source_truncated ? " (truncated)" : ""}:\n${fence(p.source, p.language)}`
      : "",
  ]);
}
