/**
 * `find_references`: every reference to a symbol in code (not comments or strings), with
 * its kind, resolved through scopes and imports.
 */

import { loadGraph } from "../../graph/graph.ts";
import { findReferences, resolvedAt } from "../../graph/references.ts";
import { usesByName } from "../../graph/uses_by_name.ts";
import { CodectxError } from "../../errors.ts";
import type { SymbolRecord } from "../../types.ts";
import { toWireSymbol } from "../schemas.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { command } from "./cli.ts";
import { render } from "./render.ts";
import { type FindReferencesPayload, input, output } from "./schema.ts";
import { textCheck } from "./text_check.ts";

/** The `find_references` tool. */
export const findReferencesTool = defineTool({
  name: "find_references",
  description:
    "Every use of a symbol (call, import, read…) with file:line, through scopes and imports.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ symbol_name, file_path, limit, include_tests }, { project }) => {
    const file = file_path === undefined ? undefined : project.resolvePath(file_path);
    const graph = await loadGraph(project);
    // A name no definition is spelled as (a field: `methodNotAllowed`) but code uses: its
    // uses by name, not a definition that matched it by case only (`Mux.MethodNotAllowed`).
    const written = symbol_name.trim().split(/[.:#/]/).pop() ?? "";
    // The answer checked against the text: every line of code holding the name, listed or not.
    const checked = async (
      p: Omit<FindReferencesPayload, "text_check">,
    ): Promise<FindReferencesPayload> => {
      if (p.truncated) return { ...p, text_check: null };
      const listed = new Set(
        [...p.definitions, ...p.references].map((r) => `${r.file}:${r.line}`),
      );
      // The name as the definitions spell it (`refs Save_Obj` matched `save_obj` by case).
      const name = p.symbol === written || p.definitions.some((d) => d.name === written)
        ? written
        : p.definitions[0]?.name ?? written;
      const check = await textCheck(project, name, listed, include_tests ?? true);
      // Unlisted calls of another definition of the name are named by it; another definition
      // (`def get_all(` of a sibling class) read as a call is other code.
      const to = resolvedAt(
        graph,
        name,
        new Set(check?.unlisted.filter((u) => u.kind === "call").map((u) => `${u.file}:${u.line}`)),
      );
      const text_check = check && {
        ...check,
        unlisted: check.unlisted.map((u) => {
          const other = u.kind === "call" ? to.get(`${u.file}:${u.line}`) : undefined;
          if (!other) return u;
          return other.definition
            ? { ...u, kind: "code" as const }
            : { ...u, resolves_to: other.to };
        }),
      };
      return { ...p, text_check };
    };
    const byName = (definitions: SymbolRecord[]) => {
      if (file !== undefined || definitions.some((d) => d.name === written)) return null;
      const uses = usesByName(graph, written, include_tests ?? true);
      if (uses.length === 0) return null;
      const max = limit ?? 200;
      return {
        symbol: written,
        definitions: definitions.map(toWireSymbol),
        references: uses.slice(0, max),
        total: uses.length,
        truncated: uses.length > max,
        by_resolution: { exact: 0, inferred: 0, name: uses.length },
      };
    };
    let r;
    try {
      r = findReferences(graph, symbol_name, { file, limit, includeTests: include_tests });
    } catch (err) {
      const uses = err instanceof CodectxError && err.code === "not_found" ? byName([]) : null;
      if (uses) return await checked(uses);
      throw err;
    }
    const uses = byName(r.definitions);
    if (uses) return await checked(uses);
    return await checked({
      symbol: r.definitions[0].qualifiedName,
      definitions: r.definitions.map(toWireSymbol),
      references: r.references,
      total: r.total,
      truncated: r.truncated,
      by_resolution: r.byResolution,
    });
  },
  render,
  cli: command,
});
