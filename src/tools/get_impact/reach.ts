/**
 * What reaches a changed definition: the definitions that use it (hop 1), those that use
 * them (hop 2), … through the same references as `find_references`, each with the path that
 * reaches it and the weakest resolution on that path. At hop 1 the uses of its name that
 * resolve to nothing, where it can be seen, count too (`name`): all there is of a definition
 * the index no longer has, and a method called on a receiver of unknown type.
 *
 * @module
 */

import type { CodeGraph, GraphFile } from "../../graph/graph.ts";
import { OCC_SHIFT } from "../../graph/graph.ts";
import { namesOf, type Sureness } from "../../graph/names.ts";
import { referencesOf } from "../../graph/references.ts";
import { refAt, refCount } from "../../facts/codec.ts";
import type { SymbolRecord } from "../../types.ts";
import type { Change } from "./changes.ts";

const STRENGTH: Record<Sureness, number> = { name: 0, inferred: 1, exact: 2 };

/** The weaker of two resolutions. */
export function weakest(a: Sureness, b: Sureness): Sureness {
  return STRENGTH[a] <= STRENGTH[b] ? a : b;
}

/** A use of a definition. */
export interface Use {
  file: string;
  line: number;
  kind: string;
  resolution: Sureness;
  /** The definition it is in (undefined at the top of a file). */
  in: SymbolRecord | undefined;
}

/** A definition reached. */
export interface Reached {
  record: SymbolRecord;
  hop: number;
  resolution: Sureness;
  path: string[];
  via: { file: string; line: number; kind: string };
  /**
   * Whether the walk goes on from it: every step matched by name only on its path named a
   * definition whose name the project defines once (`param.handle_parse_result(…)` on an
   * untyped loop variable leads on; `x.run()` does not).
   */
  leads: boolean;
}

/** The walk's answer. */
export interface Reach {
  reached: Reached[];
  /** Every use found, with its hop (top-of-file ones too). */
  uses: Array<Use & { hop: number }>;
  /** Uses of each change at hop 1 (by the change's index). */
  direct: Use[][];
}

/** The definition of `f` holding `line` whose qualified name is `name`. */
function enclosing(f: GraphFile | undefined, name: string | null, line: number) {
  if (!f || name === null) return undefined;
  let best: SymbolRecord | undefined;
  for (const s of f.symbols) {
    if (s.qualifiedName !== name || s.startLine > line || s.endLine < line) continue;
    if (!best || s.endLine - s.startLine < best.endLine - best.startLine) best = s;
  }
  return best;
}

/**
 * The methods `m` overrides: its class's bases' (and theirs') methods of its name. A call of
 * one may run `m` (Python's `self.convert(…)` in `ParamType` runs `File.convert`), in every
 * language, whether or not its references count such calls.
 */
function overridden(graph: CodeGraph, m: SymbolRecord): SymbolRecord[] {
  if (m.kind !== "method" || m.parent === null) return [];
  const names = namesOf(graph);
  const f = graph.byPath.get(m.file);
  const cls = f && names.enclosingClass(f, names.indexOf(m));
  if (!cls) return [];
  const out = new Set<SymbolRecord>();
  const up = names.bases(cls);
  for (let i = 0; i < up.length && i < 64; i++) {
    for (const o of names.members(up[i], m.name)) if (o !== m) out.add(o);
    for (const b of names.bases(up[i])) if (!up.includes(b)) up.push(b);
  }
  return [...out];
}

/**
 * Uses of indexed definitions, by the qualified name of the one each reaches — a call of a
 * method one of them overrides counts for it, `inferred` at best.
 */
function usesOf(graph: CodeGraph, targets: SymbolRecord[]): Map<string, Use[]> {
  const out = new Map<string, Use[]>();
  const wanted = new Set(targets);
  const over = new Map<SymbolRecord, SymbolRecord[]>();
  for (const t of targets) {
    for (const o of overridden(graph, t)) {
      if (!wanted.has(o)) over.set(o, [...(over.get(o) ?? []), t]);
    }
  }
  const bySymbol = new Map<string, SymbolRecord[]>();
  for (const t of [...targets, ...over.keys()]) {
    bySymbol.set(t.qualifiedName, [...(bySymbol.get(t.qualifiedName) ?? []), t]);
  }
  for (const r of referencesOf(graph, [...targets, ...over.keys()], true)) {
    const use = {
      file: r.file,
      line: r.line,
      kind: r.kind,
      resolution: r.resolution,
      in: enclosing(graph.byPath.get(r.file), r.in, r.line),
    };
    const hit = bySymbol.get(r.symbol) ?? [];
    if (hit.some((t) => wanted.has(t))) out.set(r.symbol, [...(out.get(r.symbol) ?? []), use]);
    if (r.kind === "definition") continue;
    const weaker = { ...use, resolution: weakest(use.resolution, "inferred") };
    for (const m of new Set(hit.flatMap((t) => over.get(t) ?? []))) {
      out.set(m.qualifiedName, [...(out.get(m.qualifiedName) ?? []), weaker]);
    }
  }
  for (const t of targets) {
    const uses = instanceCalls(graph, t);
    if (uses.length) out.set(t.qualifiedName, [...(out.get(t.qualifiedName) ?? []), ...uses]);
  }
  return out;
}

/**
 * The calls of an instance that run `m`, when it is its language's call method (Python's
 * `__call__`): `self.type(value)` names the field, not the method, so the member calls of
 * the files of its language are resolved to find them.
 */
function instanceCalls(graph: CodeGraph, m: SymbolRecord): Use[] {
  const home = graph.byPath.get(m.file);
  if (!home?.resolver || home.resolver.callMethod !== m.name || m.kind !== "method") return [];
  const names = namesOf(graph);
  const out: Use[] = [];
  for (const f of graph.files) {
    if (f.resolver !== home.resolver) continue;
    for (let i = 0, n = refCount(f.part); i < n; i++) {
      const r = refAt(f.part, i);
      if (r.kind !== "call" || r.name === m.name || !r.receiverKind) continue;
      const how = names.resolveRefHow(f, i);
      if (!how.symbols.includes(m)) continue;
      const scope = r.scope >= 0 ? f.symbols[r.scope] : undefined;
      out.push({ file: f.path, line: r.line, kind: r.kind, resolution: how.resolution, in: scope });
    }
  }
  return out;
}

/**
 * Uses of a name that resolve to no definition: what pointed at a definition the change
 * removed from `file`. Matched by name only, in the files that could see it: that file, the
 * files that import it, and those beside it (a Go or Java package).
 */
function orphanUses(graph: CodeGraph, name: string, file: string): Use[] {
  const names = namesOf(graph);
  const dir = file.slice(0, file.lastIndexOf("/") + 1);
  // Only the files naming it are asked whom they import (not every file, as `importedBy`).
  const sees = (f: GraphFile) =>
    f.path === file || (f.path.startsWith(dir) && !f.path.slice(dir.length).includes("/")) ||
    f.imports.some((i) => i.targets.includes(file));
  const out: Use[] = [];
  for (const code of graph.occurrences(name)) {
    const f = graph.files[Math.floor(code / OCC_SHIFT)];
    if (!sees(f)) continue;
    const r = refAt(f.part, code % OCC_SHIFT);
    if (r.kind === "definition" || names.resolveRefHow(f, code % OCC_SHIFT).symbols.length) {
      continue;
    }
    const scope = r.scope >= 0 ? f.symbols[r.scope] : undefined;
    out.push({ file: f.path, line: r.line, kind: r.kind, resolution: "name", in: scope });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/**
 * Walks `depth` hops out from `changes`. A definition is reached once, at its nearest hop,
 * by the path whose weakest resolution is strongest; a definition reached by a name-only
 * match is walked further only when that name is defined once in the project (see
 * {@link Reached.leads}). Changed definitions are not "reached".
 */
export function reach(graph: CodeGraph, changes: Change[], depth: number): Reach {
  const changed = new Set(changes.flatMap((c) => c.records));
  const changedNames = new Set(changes.map((c) => `${c.wire.file}\0${c.wire.qualified_name}`));
  const isChanged = (s: SymbolRecord) =>
    changed.has(s) || changedNames.has(`${s.file}\0${s.qualifiedName}`);
  // A definition inside a changed one (a deleted function's local object and its `next`)
  // goes with it: its bare name, looked up alone, would match every other `next`.
  const insideChanged = (c: Change) => {
    const q = c.wire.qualified_name;
    const cut = q.lastIndexOf(".");
    return cut > 0 && changedNames.has(`${c.wire.file}\0${q.slice(0, cut)}`);
  };
  const reached = new Map<SymbolRecord, Reached>();
  const uses: Reach["uses"] = [];
  const direct: Use[][] = [];

  // Hop 1: the uses of each changed definition.
  let frontier: Reached[] = [];
  const once = (name: string) => (graph.symbolsByName.get(name) ?? []).length === 1;
  const offer = (
    use: Use,
    hop: number,
    from: { path: string[]; resolution: Sureness; leads: boolean },
    target: string,
  ) => {
    uses.push({ ...use, hop });
    const s = use.in;
    if (!s || isChanged(s)) return;
    const resolution = weakest(from.resolution, use.resolution);
    const leads = from.leads && (use.resolution !== "name" || once(target));
    const had = reached.get(s);
    if (had && (had.hop < hop || STRENGTH[had.resolution] >= STRENGTH[resolution])) return;
    const r: Reached = {
      record: s,
      hop,
      resolution,
      path: [...from.path, s.qualifiedName],
      via: { file: use.file, line: use.line, kind: use.kind },
      leads,
    };
    reached.set(s, r);
    if (!had) frontier.push(r);
    else frontier[frontier.indexOf(had)] = r;
  };
  const byTarget = usesOf(graph, changes.flatMap((c) => c.records));
  for (const c of changes) {
    // Resolved uses, and the uses of its name that resolve to nothing where it can be seen
    // (a deleted definition's; a method reached through a receiver of unknown type).
    const found = [
      ...c.records.flatMap((r) => byTarget.get(r.qualifiedName) ?? []),
      ...(c.wire.change === "added" || insideChanged(c)
        ? []
        : orphanUses(graph, c.wire.qualified_name.split(".").pop()!, c.wire.file)),
    ];
    // A definition using itself (recursion) is not a use from outside.
    const outside = found.filter((u) =>
      !(u.in && isChanged(u.in) && u.in.qualifiedName === c.wire.qualified_name)
    );
    direct.push(outside);
    if (c.wire.change === "added") continue;
    const name = c.wire.qualified_name.split(".").pop()!;
    for (const u of outside) {
      offer(u, 1, { path: [c.wire.qualified_name], resolution: "exact", leads: true }, name);
    }
  }

  // Hops 2…depth: the uses of what the previous hop reached (not of name-only matches).
  for (let hop = 2; hop <= depth && frontier.length; hop++) {
    const from = frontier.filter((r) => r.leads);
    frontier = [];
    const byName = new Map<string, Reached[]>();
    for (const r of from) {
      byName.set(r.record.qualifiedName, [...(byName.get(r.record.qualifiedName) ?? []), r]);
    }
    const found = usesOf(graph, from.map((r) => r.record));
    for (const [name, list] of found) {
      const sources = byName.get(name) ?? [];
      // Of several reached definitions with this name, the best-resolved path leads on.
      const src = sources.sort((a, b) => STRENGTH[b.resolution] - STRENGTH[a.resolution])[0];
      if (!src) continue;
      for (const u of list) {
        if (u.in === src.record) continue;
        offer(u, hop, src, src.record.name);
      }
    }
  }
  return { reached: [...reached.values()], uses, direct };
}
