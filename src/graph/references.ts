/**
 * `find_references`: every occurrence of a symbol in code, resolved through scopes and
 * imports, so a local that shadows the name or a same-named symbol elsewhere is not
 * counted, and an alias (`from a import f as g`) is.
 *
 * @module
 */

import type { ReferenceKind, SymbolRecord } from "../types.ts";
import { slot } from "../util/memo.ts";
import type { CodeGraph, GraphFile } from "./graph.ts";
import { OCC_SHIFT } from "./graph.ts";
import { findSymbols } from "./lookup.ts";
import { namesOf, type Sureness } from "./names.ts";
import { refAt } from "../facts/codec.ts";
import { readProjectFileSync } from "../index/safe_read.ts";
import { isTestFile } from "../index/test_files.ts";

/** One occurrence. */
export interface Reference {
  file: string;
  line: number;
  column: number;
  kind: ReferenceKind;
  /** The trimmed source line. */
  context: string;
  /** Qualified name of the symbol it refers to (one of the definitions). */
  symbol: string;
  /** Qualified name of the enclosing symbol, or null at the top of the file. */
  in: string | null;
  /** How sure it is that this occurrence means the symbol (see {@link Sureness}). */
  resolution: Sureness;
}

/** What {@link findReferences} answers. */
export interface ReferencesResult {
  definitions: SymbolRecord[];
  references: Reference[];
  total: number;
  truncated: boolean;
  /** How many of all found (before `limit`) are exact, inferred, name-only. */
  byResolution: Record<Sureness, number>;
}

/** Options of {@link findReferences}. */
export interface ReferencesOptions {
  /** Only the definitions in this file (a project-relative path). */
  file?: string;
  /** Most references returned (default 200); `total` counts them all. */
  limit?: number;
  /** Leave out the definitions themselves. */
  excludeDefinitions?: boolean;
  /** Count occurrences in test files (default true); see `index/test_files.ts`. */
  includeTests?: boolean;
}

/**
 * The references of every definition `name` means (narrowed by `file`), in file and
 * line order. Throws `not_found` with suggestions for an unknown name.
 *
 * @example
 * ```ts
 * const r = findReferences(graph, "slugify");
 * r.references.map((x) => `${x.file}:${x.line} ${x.kind}`);
 * ```
 */
export function findReferences(
  graph: CodeGraph,
  name: string,
  opts: ReferencesOptions = {},
): ReferencesResult {
  const definitions = findSymbols(graph, name, opts.file);
  const found = referencesOf(graph, definitions, opts.excludeDefinitions ?? false, true)
    .filter((r) => (opts.includeTests ?? true) || !isTestFile(r.file));
  const byResolution: Record<Sureness, number> = { exact: 0, inferred: 0, name: 0 };
  for (const r of found) byResolution[r.resolution]++;
  const limit = opts.limit ?? 200;
  const lines = linesOf(graph);
  const references = found.slice(0, limit).map((o) => ({
    ...o,
    context: lines.line(o.file, o.line),
  }));
  return {
    definitions,
    references,
    total: found.length,
    truncated: found.length > limit,
    byResolution,
  };
}

/** The occurrences (without context) that resolve to any of `targets`, sorted. */
export function referencesOf(
  graph: CodeGraph,
  targets: readonly SymbolRecord[],
  excludeDefinitions = false,
  unresolvedByName = false,
): Omit<Reference, "context">[] {
  const names = namesOf(graph);
  const wanted = new Set(targets);
  // Methods that override or are overridden (where the language links them): inferred.
  const family = new Map<SymbolRecord, SymbolRecord>();
  for (const t of targets) {
    for (const m of names.overrideFamily(t)) if (!wanted.has(m)) family.set(m, t);
  }
  const out: Omit<Reference, "context">[] = [];
  // With `unresolvedByName`, a use of a target's own name that leads nowhere (`God.executeApp(…)`
  // where `God` is an object its members were assigned to, `persistence.save_obj(…)` through a
  // module held in a variable) is a use by name, as grep would list it: leaving it out answered
  // "no references". (Impact's reach keeps to resolved uses: its precision is measured.)
  const byName = new Map(unresolvedByName ? targets.map((t) => [t.name, t]) : []);
  for (const n of names.aliases(targets.flatMap((t) => names.importNames(t)))) {
    for (const code of graph.occurrences(n)) {
      const f = graph.files[Math.floor(code / OCC_SHIFT)];
      const i = code % OCC_SHIFT;
      const how = names.resolveRefHow(f, i);
      let hit = how.symbols.find((s) => wanted.has(s));
      let resolution = how.resolution;
      const r = refAt(f.part, i);
      if (
        !hit && !how.external && how.symbols.length === 0 && r.kind !== "definition" &&
        byName.has(r.name)
      ) {
        hit = byName.get(r.name)!;
        resolution = "name";
      }
      if (!hit) {
        const via = how.symbols.find((s) => family.has(s));
        if (!via) continue;
        // An interface's declaration of the method is not a use of an implementation.
        if (r.kind === "definition" && f.resolver?.overrideFamily === "structural") continue;
        hit = family.get(via)!;
        if (resolution === "exact") resolution = "inferred";
      }
      if (excludeDefinitions && r.kind === "definition") continue;
      out.push({
        file: f.path,
        line: r.line,
        column: r.column,
        kind: r.kind,
        symbol: hit.qualifiedName,
        in: enclosing(f, r.scope),
        resolution,
      });
    }
  }
  out.sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column
  );
  return out;
}

/**
 * What the occurrences of `name` at `spots` (`file:line`) resolve to, when that is a symbol:
 * `file:line` → its qualified name (`definition` when the line defines it). `refs` says of the lines it does not list which are calls
 * of another definition of the name (alembic's 18 `self.revision_map.get_revisions(…)` beside
 * `ScriptDirectory.get_revisions`): an assistant read "18 calls not listed" as refs' misses and
 * searched again (issue 35).
 */
export function resolvedAt(
  graph: CodeGraph,
  name: string,
  spots: ReadonlySet<string>,
): Map<string, { to: string; definition: boolean }> {
  const names = namesOf(graph);
  const out = new Map<string, { to: string; definition: boolean }>();
  if (spots.size === 0) return out;
  for (const code of graph.occurrences(name)) {
    const f = graph.files[Math.floor(code / OCC_SHIFT)];
    const i = code % OCC_SHIFT;
    const r = refAt(f.part, i);
    const spot = `${f.path}:${r.line}`;
    if (!spots.has(spot) || out.has(spot)) continue;
    const to = names.resolveRefHow(f, i).symbols[0];
    if (to) out.set(spot, { to: to.qualifiedName, definition: r.kind === "definition" });
  }
  return out;
}

function enclosing(f: GraphFile, scope: number): string | null {
  return scope >= 0 ? f.symbols[scope]?.qualifiedName ?? null : null;
}

const LINES = slot("line reader", (graph: CodeGraph) => new LineReader(graph.root));

/** The line reader of a graph: recently read files stay in memory for its generation. */
export function linesOf(graph: CodeGraph): LineReader {
  return graph.memo.get(LINES);
}

/** Reads source lines for `context`, keeping the last `keep` files read. */
export class LineReader {
  private readonly files = new Map<string, string[] | null>();

  constructor(private readonly root: string, private readonly keep = 256) {}

  /** The trimmed line (1-based), cut to 200 characters; "" when unreadable. */
  line(file: string, line: number): string {
    let lines = this.files.get(file);
    if (lines === undefined) {
      try {
        lines = new TextDecoder().decode(readProjectFileSync(this.root, file)).split("\n");
      } catch {
        lines = null;
      }
      this.files.set(file, lines);
      if (this.files.size > this.keep) this.files.delete(this.files.keys().next().value!);
    }
    const text = lines?.[line - 1]?.trim() ?? "";
    return text.length > 200 ? `${text.slice(0, 199)}…` : text;
  }
}
