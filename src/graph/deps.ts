/**
 * `get_dependencies`: a file's imports (resolved to project files or marked external)
 * and the files that import it; or the whole project's dependency graph with external
 * packages by use and the import cycles.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import { editDistance } from "../util/suggest.ts";
import type { CodeGraph, GraphFile, ResolvedImport } from "./graph.ts";
import { resolverFor } from "./resolve/mod.ts";

/** One import on the wire. */
export interface ImportOut {
  module: string;
  resolved: string | null;
  external: boolean;
  package: string | null;
  line: number;
  names: string[];
  /** The other project files the statement imports (`from . import a, b`: b's file). */
  also?: string[];
}

/** A file's dependencies. */
export interface FileDeps {
  file: string;
  language: string;
  imports: ImportOut[];
  importedBy: string[];
}

/** An import of a package or module, where it is. */
export interface Importer {
  file: string;
  line: number;
  /** As written. */
  module: string;
  names: string[];
  external: boolean;
  /** The project file or folder it leads to, when it is the project's. */
  resolved: string | null;
}

/** The whole graph. */
export interface WholeGraph {
  nodes: Array<{ file: string; language: string; imports: number; importedBy: number }>;
  edges: Array<{ from: string; to: string; line: number }>;
  external: Array<{ package: string; count: number; files: number }>;
  cycles: string[][];
  unresolved: number;
}

function importOut(graph: CodeGraph, file: GraphFile, i: ResolvedImport): ImportOut {
  // As the graph's edges: a file import also leads to the submodules it names.
  const also = i.resolved !== null && graph.byPath.has(i.resolved)
    ? i.targets.filter((t) => t !== i.resolved && t !== file.path)
    : [];
  return {
    module: i.record.module,
    resolved: i.resolved,
    external: i.external,
    package: i.package,
    line: i.record.line,
    names: i.names,
    ...(also.length ? { also: [...new Set(also)] } : {}),
  };
}

/** An import of `file` as an importer's row: where, of what, which names. */
function importerAt(file: string, i: GraphFile["imports"][number]): Importer {
  return {
    file,
    line: i.record.line,
    module: i.record.module,
    names: i.names,
    external: i.external,
    resolved: i.resolved,
  };
}

/** Where each file importing `path` imports it (a line each import), by file then line. */
export function fileImporters(graph: CodeGraph, path: string): Importer[] {
  const out: Importer[] = [];
  for (const from of [...(graph.importedBy.get(path) ?? [])].sort()) {
    for (const i of graph.byPath.get(from)?.imports ?? []) {
      if (i.resolved !== path && !i.targets.includes(path)) continue;
      out.push(importerAt(from, i));
    }
  }
  return out;
}

/** The imports of one file and who imports it. */
export function fileDependencies(graph: CodeGraph, file: GraphFile): FileDeps {
  return {
    file: file.path,
    language: file.language,
    imports: file.imports.map((i) => importOut(graph, file, i)),
    importedBy: [...(graph.importedBy.get(file.path) ?? [])].sort(),
  };
}

/**
 * Every file with import counts, every edge (to a file or a package folder), external
 * packages by number of imports, and the cycles (strongly connected groups of files).
 */
export function wholeGraph(graph: CodeGraph): WholeGraph {
  const nodes: WholeGraph["nodes"] = [];
  const edges: WholeGraph["edges"] = [];
  const external = new Map<string, { count: number; files: Set<string> }>();
  const adjacency = new Map<string, Set<string>>();
  let unresolved = 0;
  for (const f of graph.files) {
    if (!f.resolver) continue;
    nodes.push({
      file: f.path,
      language: f.language,
      imports: f.imports.length,
      importedBy: graph.importedBy.get(f.path)?.size ?? 0,
    });
    const out = new Set<string>();
    for (const i of f.imports) {
      if (i.external) {
        const key = i.package ?? i.record.module;
        let e = external.get(key);
        if (!e) external.set(key, e = { count: 0, files: new Set() });
        e.count++;
        e.files.add(f.path);
        continue;
      }
      if (i.resolved === null) {
        unresolved++;
        continue;
      }
      // A file import also leads to the submodules it names; a package folder stands alone.
      const tos = new Set([i.resolved, ...(graph.byPath.has(i.resolved) ? i.targets : [])]);
      for (const to of tos) {
        if (to !== f.path) edges.push({ from: f.path, to, line: i.record.line });
      }
      for (const t of i.targets) if (t !== f.path) out.add(t);
    }
    adjacency.set(f.path, out);
  }
  return {
    nodes,
    edges,
    external: [...external.entries()]
      .map(([pkg, e]) => ({ package: pkg, count: e.count, files: e.files.size }))
      .sort((a, b) => b.count - a.count || (a.package < b.package ? -1 : 1)),
    cycles: stronglyConnected(adjacency),
    unresolved,
  };
}

/** Groups of two or more files that import each other (Tarjan), largest first. */
export function stronglyConnected(adjacency: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  for (const start of adjacency.keys()) {
    if (index.has(start)) continue;
    // Iterative DFS: [node, iterator over its successors].
    const work: Array<[string, Iterator<string>]> = [];
    const enter = (v: string) => {
      index.set(v, counter);
      low.set(v, counter);
      counter++;
      stack.push(v);
      onStack.add(v);
      work.push([v, (adjacency.get(v) ?? new Set<string>()).values()]);
    };
    enter(start);
    while (work.length) {
      const [v, it] = work[work.length - 1];
      const step = it.next();
      if (!step.done) {
        const w = step.value;
        if (!adjacency.has(w)) continue;
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const group: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          group.push(w);
        } while (w !== v);
        if (group.length > 1) out.push(group.sort());
      }
    }
  }
  return out.sort((a, b) => b.length - a.length || (a[0] < b[0] ? -1 : 1));
}

/** What separates a module from its submodules: `os.path`, `zod/v4`, `std::io`, `node:fs`. */
const SUBMODULE = /^(\.|\/|::|:)/;

/**
 * Whether import `i` imports `wanted`: the package, the module or a submodule of it (also as
 * `from django.core import signing` for `django.core.signing`), in either of the forms its
 * language writes it (`importPath`: `<zlib.h>` and `"zlib.h"`, `node:fs` and `fs`), or a project
 * path (its extension may be left out: `src/util/isFunction`, `zlib` for `zlib.h`).
 */
function importsPackage(
  i: ResolvedImport,
  wanted: string,
  importPath: (written: string) => string,
): boolean {
  const under = (name: string | null, of = wanted) =>
    name !== null && (name === of ||
      (name.startsWith(of) && SUBMODULE.test(name.slice(of.length))));
  return i.package === wanted || under(i.record.module) ||
    under(importPath(i.record.module), importPath(wanted)) ||
    i.names.some((n) => `${i.record.module}.${n.split(" ")[0]}` === wanted) ||
    (i.resolved !== null && (i.resolved === wanted || i.resolved.startsWith(`${wanted}/`) ||
      i.resolved.replace(/\.[^./]+$/, "") === wanted));
}

/**
 * Every import of the package or module `wanted` (`requests`, `os.path`, `github.com/spf13/cast`,
 * `@scope/pkg`, a project module as written or its path), by file and line. Nothing found is a
 * `not_found` error naming the nearest packages the project imports.
 *
 * @example
 * ```ts
 * packageImporters(graph, "yaml").map((i) => `${i.file}:${i.line}`); // ["config.py:3"]
 * ```
 */
export function packageImporters(graph: CodeGraph, wanted: string): Importer[] {
  const out: Importer[] = [];
  const sub: Importer[] = [];
  for (const f of graph.files) {
    const resolver = resolverFor(f.language);
    const importPath = resolver?.importPath ?? ((written: string) => written);
    for (const i of f.imports) {
      if (!importsPackage(i, wanted, importPath)) continue;
      // Where an import path names one package (Go: `chi/v5/middleware` is not `chi/v5`), a
      // longer path's importers count only when nothing imports the path itself.
      const into = resolver?.pathIsPackage && i.record.module !== wanted ? sub : out;
      into.push(importerAt(f.path, i));
    }
  }
  const found = out.length ? out : sub;
  if (found.length) {
    return found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  }
  const near = nearPackages(graph, wanted);
  throw new CodectxError(
    "not_found",
    `no file imports '${wanted}'; ` +
      (near.length
        ? `did you mean ${near.join(", ")}?`
        : "get_dependencies without arguments (codectx deps) lists the packages the project imports"),
  );
}

/** The imported packages closest to `wanted` (a name inside another counts as close). */
function nearPackages(graph: CodeGraph, wanted: string): string[] {
  const names = new Set<string>();
  for (const f of graph.files) {
    for (const i of f.imports) names.add(i.package ?? i.record.module);
  }
  names.delete(""); // an absolute `#include "/x.h"`'s package: git offered `did you mean , openssl?`
  const low = wanted.toLowerCase();
  return [...names]
    .map((n) => {
      const l = n.toLowerCase();
      const d = l.includes(low) || low.includes(l) ? 0 : editDistance(low, l, 3);
      return [d, n] as const;
    })
    .filter(([d]) => d <= 3)
    .sort((a, b) => a[0] - b[0] || a[1].length - b[1].length)
    .slice(0, 5)
    .map(([, n]) => n);
}
