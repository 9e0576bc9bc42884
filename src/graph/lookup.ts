/**
 * From a name a user typed to the symbols it means: a plain name (`request`), a qualified
 * one (`Session.request`, `pkg::Session::request`, `Session#request`), narrowed by a file
 * when given. An unknown name fails with `not_found` and the nearest names.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import { editDistance } from "../tools/suggest.ts";
import type { SymbolKind, SymbolRecord } from "../types.ts";
import type { CodeGraph } from "./graph.ts";

/** Kinds preferred when one name has several definitions (callables first). */
const KIND_RANK: Partial<Record<SymbolKind, number>> = {
  function: 0,
  method: 0,
  constructor: 1,
  class: 1,
  struct: 1,
  interface: 2,
  trait: 2,
  enum: 2,
  type: 3,
  macro: 3,
  module: 4,
  namespace: 4,
  constant: 5,
  variable: 5,
  field: 5,
};

/**
 * Every symbol that `name` means, best first; throws `not_found` with suggestions when
 * there is none.
 *
 * @example
 * ```ts
 * findSymbols(graph, "Session.request", "app/session.py")[0].qualifiedName; // "Session.request"
 * ```
 */
export function findSymbols(graph: CodeGraph, name: string, file?: string): SymbolRecord[] {
  const wanted = name.trim().replace(/::|#|->/g, ".").replace(/\(\)$/, "");
  const dot = wanted.lastIndexOf(".");
  const plain = dot < 0 ? wanted : wanted.slice(dot + 1);
  let found = (graph.symbolsByName.get(plain) ?? []).filter((s) =>
    dot < 0 || s.qualifiedName === wanted || s.qualifiedName.endsWith("." + wanted)
  );
  if (file !== undefined) {
    if (!graph.byPath.has(file)) {
      throw new CodectxError(
        "not_found",
        `file '${file}' is not in the index; check the path, or run index_project if it is new`,
      );
    }
    const inFile = found.filter((s) => s.file === file);
    if (inFile.length === 0) {
      const others = found.slice(0, 3).map((s) => `${s.file}:${s.line}`);
      throw new CodectxError(
        "not_found",
        `symbol '${name}' is not defined in ${file}` +
          (others.length ? `; it is defined in ${others.join(", ")}` : suggestion(graph, plain)),
      );
    }
    found = inFile;
  }
  if (found.length === 0) {
    throw new CodectxError("not_found", `symbol '${name}' not found${suggestion(graph, plain)}`);
  }
  return found.sort((a, b) =>
    (KIND_RANK[a.kind] ?? 6) - (KIND_RANK[b.kind] ?? 6) ||
    Number(a.qualifiedName !== wanted) - Number(b.qualifiedName !== wanted) ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line)
  );
}

/** `; did you mean parse_config (src/config.py:12), …?` or a hint. */
function suggestion(graph: CodeGraph, name: string): string {
  const lower = name.toLowerCase();
  const norm = lower.replace(/[_-]/g, "");
  const scored: Array<[number, string]> = [];
  const max = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  for (const candidate of graph.symbolsByName.keys()) {
    const c = candidate.toLowerCase();
    let d: number;
    if (c.replace(/[_-]/g, "") === norm) d = 0;
    else if (Math.abs(c.length - lower.length) > max) continue;
    else d = editDistance(lower, c, max);
    if (d <= max) scored.push([d, candidate]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1].length - b[1].length || (a[1] < b[1] ? -1 : 1));
  const near = scored.slice(0, 3).map(([, n]) => {
    const s = graph.symbolsByName.get(n)![0];
    return `${s.qualifiedName} (${s.file}:${s.line})`;
  });
  return near.length
    ? `; did you mean ${near.join(", ")}?`
    : "; check the spelling, or run index_project if the code is new";
}
