/**
 * What the per-language checks of unresolved names share: the record of a name that
 * resolves nowhere, the state of one snippet's check (what it binds and imports, what
 * was found), and how a finding is reported with near names.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import { editDistance } from "../util/suggest.ts";
import type { ProjectView } from "./project_view.ts";

/** A name that resolves nowhere. */
export interface Unresolved {
  name: string;
  line: number;
  column: number;
  /** `call` (a function), `member` (a module's attribute), `import` (a module or name). */
  kind: "call" | "member" | "import";
  suggestions: string[];
}

/** A module a name is bound to by an import. */
export interface Binding {
  /** `python`: dotted module; `javascript`: specifier; `go`: import path. */
  module: string;
  /** The imported name inside the module (`from m import x` → `x`), "" for the module. */
  member: string;
}

/** The state of one snippet's check, filled by the import readers, read by the checks. */
export interface Context {
  language: string;
  view: ProjectView;
  /** Directory of the snippet's file, project-relative ("" for the root). */
  dir: string;
  binds: Set<string>;
  imported: Map<string, Binding>;
  /** A `from m import *` makes any free name possibly defined. */
  starImport: boolean;
  out: Unresolved[];
}

/**
 * Records `name` (at `node`) as unresolved, with the names of `candidates` closest to its
 * last dotted or slashed part as suggestions.
 */
export function report(
  ctx: Context,
  node: Node,
  name: string,
  kind: Unresolved["kind"],
  candidates: Iterable<string>,
): void {
  ctx.out.push({
    name,
    line: node.startPosition.row + 1,
    column: node.startPosition.column + 1,
    kind,
    suggestions: nearNames(name.split(/[./]/).pop() ?? name, candidates, name),
  });
}

/**
 * Up to three names close to `wanted` (edit distance within a third of its length, or a
 * different case), closest first.
 *
 * @example
 * ```ts
 * nearNames("getcwdd", ["getcwd", "getcwdb", "listdir"]); // ["getcwd", "getcwdb"]
 * ```
 */
export function nearNames(wanted: string, candidates: Iterable<string>, exclude = ""): string[] {
  const max = Math.max(1, Math.floor(wanted.length / 3));
  const scored: Array<[number, string]> = [];
  const lower = wanted.toLowerCase();
  for (const c of new Set(candidates)) {
    if (c === wanted || c === exclude || !c) continue;
    const d = c.toLowerCase() === lower ? 0.5 : editDistance(wanted, c, max);
    if (d <= max) scored.push([d, c]);
  }
  return scored.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1])).slice(0, 3).map((
    [, c],
  ) => c);
}
