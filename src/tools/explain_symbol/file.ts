/**
 * A file's path given to `explain_symbol` (`codectx explain nova/scheduler/filters/__init__.py`)
 * answers with the file's outline, as `explain_file` has it: a blind assistant got near symbol
 * names (`pp`, `API`, `IP`) for it (issue 35). The explanation is carried in explain_symbol's
 * payload: the file as a symbol of kind `file`, its definitions as members, the files that
 * import it as its users, its imports as what it calls.
 *
 * @module
 */

import { render as renderFile } from "../explain_file/render.ts";
import type { ExplainFilePayload } from "../explain_file/schema.ts";
import type { ExplainSymbolPayload } from "./schema.ts";

/** The kind of the symbol that stands for a whole file. */
export const FILE_KIND = "file";

/** `explain_file`'s payload as explain_symbol's. */
export function fromFile(f: ExplainFilePayload): ExplainSymbolPayload {
  return {
    symbol: {
      name: f.file.slice(f.file.lastIndexOf("/") + 1),
      qualified_name: f.file,
      kind: FILE_KIND,
      file: f.file,
      line: 1,
      end_line: f.lines,
      signature: "",
      doc: f.parse_error ?? "",
      parent: null,
      language: f.language,
    },
    source: "",
    source_truncated: false,
    doc: "",
    parent: null,
    children: f.symbols,
    callers: f.imported_by.map((file) => ({
      name: "<import>",
      file,
      line: 0,
      resolution: "exact",
      text: "",
    })),
    callers_total: f.imported_by.length,
    callees: f.imports.map((i) => ({
      name: i.module,
      file: i.resolved ?? "",
      line: i.line,
      resolution: i.resolved ? "exact" : "name",
      text: i.names.join(", "),
    })),
    callees_total: f.imports.length,
    unresolved_candidates: 0,
    references: f.imported_by.length,
    candidates: [],
  };
}

/** The text of a file's explanation: `explain_file`'s. */
export function renderFileExplanation(p: ExplainSymbolPayload): string {
  return renderFile({
    file: p.symbol.file,
    language: p.symbol.language,
    lines: p.symbol.end_line,
    size: 0,
    symbols: p.children,
    imports: p.callees.map((c) => ({
      module: c.name,
      resolved: c.file || null,
      external: !c.file,
      package: null,
      line: c.line,
      names: c.text ? c.text.split(", ") : [],
    })),
    imported_by: p.callers.map((c) => c.file),
    parse_error: p.symbol.doc || null,
  });
}
