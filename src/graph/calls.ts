/**
 * The call graph around a symbol: who calls it and what it calls, resolved through the
 * same scopes and imports as references, walked up to a depth without looping on
 * cycles. A call the graph cannot resolve is kept as a callee with `resolved: false`.
 *
 * @module
 */

import type { SymbolRecord } from "../types.ts";
import type { CodeGraph, GraphFile } from "./graph.ts";
import { OCC_SHIFT } from "./graph.ts";
import { CLASS_LIKE, namesOf } from "./names.ts";
import { refAt, refCount } from "../index/graph_part.ts";

/** A node of the call graph: a symbol, a file's top level, or an unresolved callee. */
export interface CallNode {
  /** Qualified name; the file path for top-level code; the call as written when unresolved. */
  name: string;
  file: string | null;
  /** Line of the definition (null when unresolved). */
  line: number | null;
  kind: string;
  resolved: boolean;
  /** Hops from the root symbol. */
  depth: number;
  /** Where the call that reached it is (the first one found). */
  callFile: string;
  callLine: number;
}

/** One call: `from` calls `to` at `file:line`. */
export interface CallEdge {
  from: string;
  to: string;
  file: string;
  line: number;
  resolved: boolean;
}

/** What {@link callGraph} answers. */
export interface CallGraphResult {
  symbol: SymbolRecord;
  callers: CallNode[];
  callees: CallNode[];
  edges: CallEdge[];
}

type Caller = { symbol: SymbolRecord | null; file: GraphFile };

/**
 * Callers and callees of `root`, `depth` hops each way (1–5).
 *
 * @example
 * ```ts
 * const g = callGraph(graph, findSymbols(graph, "main")[0], 2);
 * g.edges.map((e) => `${e.from} -> ${e.to}`);
 * ```
 */
export function callGraph(graph: CodeGraph, root: SymbolRecord, depth: number): CallGraphResult {
  const names = namesOf(graph);
  const calls = new CallIndex(graph);
  const edges: CallEdge[] = [];
  const edgeKeys = new Set<string>();
  const addEdge = (e: CallEdge) => {
    const k = `${e.from}\0${e.to}\0${e.file}\0${e.line}`;
    if (!edgeKeys.has(k)) {
      edgeKeys.add(k);
      edges.push(e);
    }
  };
  const label = (c: Caller) => c.symbol?.qualifiedName ?? c.file.path;

  // Callers, breadth first.
  const callers: CallNode[] = [];
  const seenUp = new Set<SymbolRecord | string>([root]);
  let frontier: SymbolRecord[] = [root];
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next: SymbolRecord[] = [];
    for (const target of frontier) {
      for (const site of calls.callersOf(target)) {
        const from = label(site.caller);
        addEdge({
          from,
          to: target.qualifiedName,
          file: site.caller.file.path,
          line: site.line,
          resolved: true,
        });
        const key = site.caller.symbol ?? `file:${site.caller.file.path}`;
        if (seenUp.has(key)) continue;
        seenUp.add(key);
        const s = site.caller.symbol;
        callers.push({
          name: from,
          file: site.caller.file.path,
          line: s ? s.line : 1,
          kind: s ? s.kind : "file",
          resolved: true,
          depth: d,
          callFile: site.caller.file.path,
          callLine: site.line,
        });
        if (s) next.push(s);
      }
    }
    frontier = next;
  }

  // Callees, breadth first.
  const callees: CallNode[] = [];
  const seenDown = new Set<SymbolRecord | string>([root]);
  frontier = [root];
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next: SymbolRecord[] = [];
    for (const source of frontier) {
      const f = names.fileOf(source);
      if (!f) continue;
      for (const i of calls.callsIn(f, names.indexOf(source))) {
        const r = refAt(f.part, i);
        const targets = names.resolveRef(f, i);
        if (targets.length === 0) {
          const written = r.receiverKind === "name" && r.receiver
            ? `${r.receiver}.${r.name}`
            : r.name;
          addEdge({
            from: source.qualifiedName,
            to: written,
            file: f.path,
            line: r.line,
            resolved: false,
          });
          if (seenDown.has(`?${written}`)) continue;
          seenDown.add(`?${written}`);
          callees.push({
            name: written,
            file: null,
            line: null,
            kind: "unknown",
            resolved: false,
            depth: d,
            callFile: f.path,
            callLine: r.line,
          });
          continue;
        }
        for (const t of targets) {
          addEdge({
            from: source.qualifiedName,
            to: t.qualifiedName,
            file: f.path,
            line: r.line,
            resolved: true,
          });
          if (seenDown.has(t)) continue;
          seenDown.add(t);
          callees.push({
            name: t.qualifiedName,
            file: t.file,
            line: t.line,
            kind: t.kind,
            resolved: true,
            depth: d,
            callFile: f.path,
            callLine: r.line,
          });
          next.push(t);
        }
      }
    }
    frontier = next;
  }
  return { symbol: root, callers, callees, edges };
}

/** Call references per enclosing symbol and call sites per target, for one graph. */
class CallIndex {
  private readonly byScope = new Map<GraphFile, Map<number, number[]>>();

  constructor(private readonly graph: CodeGraph) {}

  /** Indexes of the call references whose enclosing symbol is `scope` in file `f`. */
  callsIn(f: GraphFile, scope: number): number[] {
    let map = this.byScope.get(f);
    if (!map) {
      map = new Map();
      const n = refCount(f.part);
      for (let i = 0; i < n; i++) {
        const r = refAt(f.part, i);
        if (r.kind !== "call") continue;
        const list = map.get(r.scope);
        if (list) list.push(i);
        else map.set(r.scope, [i]);
      }
      this.byScope.set(f, map);
    }
    return map.get(scope) ?? [];
  }

  /** Calls of `target` (of its class too, for a constructor), with the calling symbol. */
  callersOf(target: SymbolRecord): Array<{ caller: Caller; line: number }> {
    const names = namesOf(this.graph);
    const wanted = new Set<SymbolRecord>([target]);
    const lookFor = new Set<string>([target.name]);
    if (target.kind === "constructor") {
      const f = names.fileOf(target);
      const cls = f ? names.enclosingClass(f, names.indexOf(target)) : null;
      if (cls && CLASS_LIKE.has(cls.kind)) {
        wanted.add(cls);
        lookFor.add(cls.name);
      }
    }
    const out: Array<{ caller: Caller; line: number }> = [];
    for (const n of names.aliases(lookFor)) {
      for (const code of this.graph.occurrences(n)) {
        const f = this.graph.files[Math.floor(code / OCC_SHIFT)];
        const i = code % OCC_SHIFT;
        const r = refAt(f.part, i);
        if (r.kind !== "call") continue;
        if (!names.resolveRef(f, i).some((s) => wanted.has(s))) continue;
        out.push({ caller: { symbol: f.symbols[r.scope] ?? null, file: f }, line: r.line });
      }
    }
    return out;
  }
}
