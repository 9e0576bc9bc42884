/**
 * `get_dependencies` as Markdown: one file's imports and importers, or the whole graph.
 *
 * @module
 */

import { isTestFile } from "../../util/test_files.ts";
import { importedBy, importLine, join, listOf } from "../markdown.ts";
import type { GetDependenciesPayload } from "./schema.ts";

type Importer = NonNullable<GetDependenciesPayload["importers"]>[number];

/** Files listed by `importersText` before the rest are counted. */
const MAX_IMPORTER_FILES = 60;

/** The folder of a path with its slash (`a/b/`), or "" at the top. */
function folderOf(file: string): string {
  return file.slice(0, file.lastIndexOf("/") + 1);
}

/**
 * The importers of a package: `imported by N files (M imports); K test files among them` (`no
 * test files` when none), then a line a file, `file:l1, l2`, or a folder holding several on its own line with
 * its files nested under it (`folder/` then `    a.py:3`: one line `folder/ a.py:3; b.py:7`
 * was read as files at the top); an import's module is
 * said when it is not the one most lines import (`os.path` under `os`), and the names it
 * takes. Past {@link MAX_IMPORTER_FILES} files the rest are counted (`more`: how to list them).
 *
 * @example
 * ```ts
 * importersText([{ file: "a.py", line: 1, module: "os", names: [] }], "--json lists them");
 * // "imported by 1 file (1 import)\n  a.py:1"
 * ```
 */
export function importersText(importers: Importer[], more: string): string {
  const modules = Map.groupBy(importers, (i) => i.module);
  const usual = [...modules].sort((a, b) => b[1].length - a[1].length)[0]?.[0];
  const byFile = [...Map.groupBy(importers, (i) => i.file)];
  const shown = byFile.slice(0, MAX_IMPORTER_FILES);
  const lines = (list: Importer[]) =>
    list.map((i) =>
      `${i.line}${i.module === usual ? "" : ` ${i.module}`}${
        i.names.length ? ` [${i.names.join(", ")}]` : ""
      }`
    ).join(", ");
  const out: string[] = [];
  for (const [folder, files] of Map.groupBy(shown, ([file]) => folderOf(file))) {
    if (files.length === 1 || folder === "") {
      for (const [file, list] of files) out.push(`  ${file}:${lines(list)}`);
    } else {
      out.push(`  ${folder}`);
      for (const [file, list] of files) out.push(`    ${file.slice(folder.length)}:${lines(list)}`);
    }
  }
  const n = byFile.length;
  const rest = n - shown.length;
  const tests = byFile.filter(([file]) => isTestFile(file)).length;
  return [
    `imported by ${n} file${n === 1 ? "" : "s"} (${importers.length} import${
      importers.length === 1 ? "" : "s"
    }); ${tests || "no"} test file${tests === 1 ? "" : "s"} among them`,
    ...out,
    ...(rest > 0 ? [`  (${rest} more files; ${more})`] : []),
  ].join("\n");
}

/** A file's imports and importers; without a file, imports by file, packages and cycles. */
export function render(p: GetDependenciesPayload): string {
  if (p.importers && !p.file) return importersText(p.importers, "the structured result lists them");
  if (p.file) {
    return join([
      `# ${p.file} (${p.language ?? ""})`,
      listOf("Imports (line: file)", p.imports, importLine) || "Imports: none",
      p.importers?.length
        ? importersText(p.importers, "the structured result lists them")
        : importedBy(p.imported_by) || "Imported by: none",
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
