/**
 * The uses of a name no definition is spelled as (a struct field, an enum variant, a key the
 * index holds no symbol for): every occurrence of the name as written, by name only. An
 * assistant that asked `refs methodNotAllowed` (a Go struct field) was answered with the
 * method `Mux.MethodNotAllowed`, a case-insensitive match, and went on to grep (issue 35).
 *
 * @module
 */

import type { CodeGraph } from "./graph.ts";
import { OCC_SHIFT } from "./graph.ts";
import { refAt } from "../facts/codec.ts";
import { isTestFile } from "../index/test_files.ts";
import { linesOf, type Reference } from "./references.ts";

/**
 * The occurrences of `name` exactly as written (its last dotted part), sorted, each by name
 * only, with its line of code; definitions are not among them (`name` has none).
 *
 * @example
 * ```ts
 * usesByName(graph, "methodNotAllowed").map((r) => `${r.file}:${r.line} ${r.kind}`);
 * ```
 */
export function usesByName(
  graph: CodeGraph,
  name: string,
  includeTests = true,
): Reference[] {
  const lines = linesOf(graph);
  const out: Reference[] = [];
  for (const code of graph.occurrences(name)) {
    const f = graph.files[Math.floor(code / OCC_SHIFT)];
    if (!includeTests && isTestFile(f.path)) continue;
    const r = refAt(f.part, code % OCC_SHIFT);
    if (r.kind === "definition" || r.name !== name) continue;
    out.push({
      file: f.path,
      line: r.line,
      column: r.column,
      kind: r.kind,
      context: lines.line(f.path, r.line),
      symbol: name,
      in: r.scope >= 0 ? f.symbols[r.scope]?.qualifiedName ?? null : null,
      resolution: "name",
    });
  }
  return out.sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column
  );
}
