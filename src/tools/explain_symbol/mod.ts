/**
 * `explain_symbol`: one symbol's definition, source, doc, members, callers and callees.
 */

import { explainSymbol } from "../../context/explain.ts";
import { toWireSymbol } from "../schemas.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import type { ExplainFilePayload } from "../explain_file/schema.ts";
import type { Project } from "../../project/project.ts";
import { command } from "./cli.ts";
import { fromFile } from "./file.ts";
import { render } from "./render.ts";
import { input, output } from "./schema.ts";

/** Whether `name` is the path of a file the index holds (not one it skipped). */
async function isIndexedFile(project: Project, name: string): Promise<boolean> {
  if (!/[/.]/.test(name)) return false;
  let rel: string;
  try {
    rel = project.resolvePath(name);
  } catch {
    return false;
  }
  const entry = (await project.index()).files.get(rel);
  return entry !== undefined && !entry.skipped;
}

/** The `explain_symbol` tool. */
export const explainSymbolTool = defineTool({
  name: "explain_symbol",
  description:
    "What a symbol does and calls: signature, doc, source or, when long, its call lines in their branches; callers with lines, callees, references.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ symbol_name, file_path, max_tokens }, ctx) => {
    const { project } = ctx;
    // A file's path: the file explained (its outline, imports and importers).
    if (!file_path && await isIndexedFile(project, symbol_name)) {
      // Loaded only then: a symbol's explanation does not load explain_file's code.
      const { explainFileTool } = await import("../explain_file/mod.ts");
      const f = await explainFileTool.handler({ file_path: symbol_name }, ctx);
      return fromFile(f as ExplainFilePayload);
    }
    const file = file_path ? project.resolvePath(file_path) : undefined;
    const e = await explainSymbol(project, symbol_name, {
      file: file || undefined,
      maxTokens: max_tokens,
    });
    return {
      symbol: toWireSymbol(e.symbol),
      source: e.source,
      source_truncated: e.sourceTruncated,
      doc: e.doc,
      parent: e.parent ? toWireSymbol(e.parent) : null,
      children: e.children.map(toWireSymbol),
      callers: e.callers,
      callers_total: e.callersTotal,
      callees: e.callees,
      callees_total: e.calleesTotal,
      unresolved_candidates: e.unresolvedCandidates,
      references: e.references,
      candidates: e.candidates.map(toWireSymbol),
      calls: e.body === "source" ? undefined : e.calls.map((c) => ({
        line: c.line,
        text: c.text,
        callee: c.callee,
        file: c.file,
        def_line: c.defLine,
        resolution: c.resolution,
        external: c.external,
      })),
      ...(e.outlineTo === undefined ? {} : { outline_to: e.outlineTo }),
    };
  },
  render,
  cli: command,
});
