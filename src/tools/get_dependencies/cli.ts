/**
 * `codectx deps [FILE] [--json]`: a file's imports and importers, or the project's
 * dependency graph in brief (external packages by use, import cycles).
 *
 * @module
 */

import type { CliOutput, ToolCommand } from "../tool.ts";
import type { GetDependenciesPayload } from "./schema.ts";
import { importersText } from "./render.ts";

/** The payload as `codectx deps` prints it. */
export function print(p: GetDependenciesPayload): CliOutput {
  const out: string[] = [];
  if (p.importers && !p.file) return { out: [importersText(p.importers, "--json lists them")] };
  if (p.file) {
    out.push(`${p.file} (${p.language})`);
    for (const i of p.imports) {
      const to = i.resolved
        ? [i.resolved, ...(i.also ?? [])].join(", ")
        : i.external
        ? `external ${i.package ?? ""}`.trim()
        : "unresolved";
      const names = i.names.length ? `  [${i.names.join(", ")}]` : "";
      out.push(`  ${String(i.line).padStart(4)}  ${i.module} -> ${to}${names}`);
    }
    // Each importer as file:line (the files alone cost another search for the line).
    if (p.importers?.length) {
      return { out: [...out, importersText(p.importers, "--json lists them")] };
    }
    const by = p.imported_by;
    out.push(`imported by ${by.length} file${by.length === 1 ? "" : "s"}`);
    for (const f of by) out.push(`  ${f}`);
    return { out };
  }
  const nodes = p.nodes ?? [];
  const edges = p.edges ?? [];
  const external = p.external ?? [];
  const cycles = p.cycles ?? [];
  out.push(
    `${nodes.length} files, ${edges.length} internal imports, ${external.length} external packages, ${p.unresolved} unresolved`,
  );
  if (external.length) {
    out.push("external packages (imports, files):");
    for (const e of external.slice(0, 20)) out.push(`  ${e.package}  ${e.count}, ${e.files}`);
    if (external.length > 20) out.push(`  … ${external.length - 20} more (--json for all)`);
  }
  out.push(`${cycles.length} import cycle${cycles.length === 1 ? "" : "s"}`);
  for (const c of cycles.slice(0, 10)) out.push(`  ${c.join(" -> ")}`);
  return { out };
}

/** `codectx deps`. */
export const command: ToolCommand<GetDependenciesPayload> = {
  command: "deps",
  synopsis: "[FILE]  imports and importers; --package P: who imports P",
  help: `Usage: codectx deps [FILE] [options]

The imports of FILE (each resolved to a project file or marked external) and the files
that import it; with --package P, every file and line that imports package or module P
(requests, os.path, github.com/spf13/cast, @scope/pkg, a project module or folder; a C
header as openssl/ssl.h matches both include forms, fs matches node:fs);
without either, the project's dependency graph: external packages by use and import cycles.

Options:
  --package P       the files and lines that import P (or a submodule of it)
`,
  positional: { arg: "file_path" },
  options: { package: { type: "string", arg: "package" } },
  print,
};
