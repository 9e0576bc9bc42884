/**
 * The call graph around a symbol: who calls it and what it calls, resolved through the
 * same scopes and imports as references, walked up to a depth without looping on
 * cycles. Every edge says how sure it is (`resolution`, see {@link Sureness}); only
 * exact and inferred edges count as resolved and are walked further. A call that leads
 * outside the project is a callee labelled `builtin` or `external`, not a project node;
 * a call whose receiver is unknown while project symbols of that name exist is `unknown`.
 *
 * @module
 */

import type { SymbolRecord } from "../types.ts";
import { slot } from "../util/memo.ts";
import type { CodeGraph, GraphFile } from "./graph.ts";
import { OCC_SHIFT } from "./graph.ts";
import { CLASS_LIKE, namesOf, type Sureness } from "./names.ts";
import { refAt, refCount } from "../facts/codec.ts";
import { receiverText } from "../facts/text.ts";
import type { TypeRef } from "../facts/type_ref.ts";
import { isTestFile } from "../index/test_files.ts";

/** A node of the call graph: a symbol, a file's top level, or a call outside the project. */
export interface CallNode {
  /** Qualified name; the file path for top-level code; the call as written when unresolved. */
  name: string;
  file: string | null;
  /** Line of the definition (null outside the project). */
  line: number | null;
  /** The symbol's kind, `file`, or `builtin`, `external`, `unknown` for calls outside it. */
  kind: string;
  /** True for exact and inferred edges to project symbols. */
  resolved: boolean;
  resolution: Sureness;
  /** True for builtins and library calls. */
  external: boolean;
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
  resolution: Sureness;
  external: boolean;
}

/** What {@link callGraph} answers. */
export interface CallGraphResult {
  symbol: SymbolRecord;
  callers: CallNode[];
  callees: CallNode[];
  edges: CallEdge[];
  /**
   * Calls of the root's name through a receiver of unknown type that resolved to nothing:
   * they may call it, but nothing says so.
   */
  unresolvedCandidates: number;
}

/** Options of {@link callGraph}. */
export interface CallGraphOptions {
  /** Count calls in test files (default true); see `index/test_files.ts`. */
  includeTests?: boolean;
}

/** A call site and where it leads. */
export interface CallSite {
  /** The calling symbol, or null for a file's top-level code. */
  caller: SymbolRecord | null;
  file: GraphFile;
  line: number;
  /** Project symbols it calls (overload stubs folded into their implementation). */
  targets: SymbolRecord[];
  resolution: Sureness;
  /** For a call that reaches no project symbol: what it is. */
  outside: "builtin" | "external" | "unknown" | null;
  /** The call as written (`os.getcwd`, `len`). */
  written: string;
}

/**
 * Callers and callees of `root`, `depth` hops each way (1–5).
 *
 * @example
 * ```ts
 * const g = callGraph(graph, findSymbols(graph, "main")[0], 2);
 * g.edges.map((e) => `${e.from} -> ${e.to} (${e.resolution})`);
 * ```
 */
export function callGraph(
  graph: CodeGraph,
  root: SymbolRecord,
  depth: number,
  opts: CallGraphOptions = {},
): CallGraphResult {
  const calls = callIndexOf(graph);
  const includeTests = opts.includeTests ?? true;
  const keep = (f: GraphFile) => includeTests || !isTestFile(f.path);
  root = calls.implementation(root);
  const edges: CallEdge[] = [];
  const edgeKeys = new Set<string>();
  const addEdge = (e: CallEdge) => {
    const k = `${e.from}\0${e.to}\0${e.file}\0${e.line}`;
    if (!edgeKeys.has(k)) {
      edgeKeys.add(k);
      edges.push(e);
    }
  };

  // Callers, breadth first.
  const callers: CallNode[] = [];
  const seenUp = new Set<SymbolRecord | string>([root]);
  let frontier: SymbolRecord[] = [root];
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next: SymbolRecord[] = [];
    for (const target of frontier) {
      for (const site of calls.callersOf(target)) {
        if (!keep(site.file)) continue;
        const from = site.caller?.qualifiedName ?? site.file.path;
        const resolved = site.resolution !== "name";
        addEdge({
          from,
          to: target.qualifiedName,
          file: site.file.path,
          line: site.line,
          resolved,
          resolution: site.resolution,
          external: false,
        });
        const key = site.caller ?? `file:${site.file.path}`;
        if (seenUp.has(key)) continue;
        seenUp.add(key);
        const s = site.caller;
        callers.push({
          name: from,
          file: site.file.path,
          line: s ? s.line : 1,
          kind: s ? s.kind : "file",
          resolved,
          resolution: site.resolution,
          external: false,
          depth: d,
          callFile: site.file.path,
          callLine: site.line,
        });
        if (s && resolved) next.push(s);
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
      for (const site of calls.callsFrom(source)) {
        if (site.outside) {
          const external = site.outside !== "unknown";
          addEdge({
            from: source.qualifiedName,
            to: site.written,
            file: site.file.path,
            line: site.line,
            resolved: false,
            resolution: site.resolution,
            external,
          });
          const key = `?${site.written}`;
          if (seenDown.has(key)) continue;
          seenDown.add(key);
          callees.push({
            name: site.written,
            file: null,
            line: null,
            kind: site.outside,
            resolved: false,
            resolution: site.resolution,
            external,
            depth: d,
            callFile: site.file.path,
            callLine: site.line,
          });
          continue;
        }
        const resolved = site.resolution !== "name";
        for (const t of site.targets) {
          if (!keep(site.file) || (!includeTests && isTestFile(t.file))) continue;
          addEdge({
            from: source.qualifiedName,
            to: t.qualifiedName,
            file: site.file.path,
            line: site.line,
            resolved,
            resolution: site.resolution,
            external: false,
          });
          if (seenDown.has(t)) continue;
          seenDown.add(t);
          callees.push({
            name: t.qualifiedName,
            file: t.file,
            line: t.line,
            kind: t.kind,
            resolved,
            resolution: site.resolution,
            external: false,
            depth: d,
            callFile: site.file.path,
            callLine: site.line,
          });
          if (resolved) next.push(t);
        }
      }
    }
    frontier = next;
  }
  const unresolvedCandidates = calls.candidatesOf(root).filter((f) => keep(f)).length;
  return { symbol: root, callers, callees, edges, unresolvedCandidates };
}

const CALL_INDEX = slot("call index", (graph: CodeGraph) => new CallIndex(graph));

/** The call index of a graph (one per graph, so its caches live as long as it). */
export function callIndexOf(graph: CodeGraph): CallIndex {
  return graph.memo.get(CALL_INDEX);
}

/** Call references per enclosing symbol and call sites per target, for one graph. */
export class CallIndex {
  private readonly byScope = new Map<GraphFile, Map<number, number[]>>();

  constructor(private readonly graph: CodeGraph) {}

  /**
   * The definition that holds the body of an overloaded function: the last of the
   * definitions with its qualified name in its file (Python `@overload` stubs and
   * TypeScript overload signatures come before the implementation). Others as they are.
   */
  implementation(s: SymbolRecord): SymbolRecord {
    if (s.kind !== "function" && s.kind !== "method") return s;
    const f = namesOf(this.graph).fileOf(s);
    if (!f) return s;
    let last = s;
    for (const x of f.symbols) {
      if (x.qualifiedName === s.qualifiedName && x.kind === s.kind && x.line > last.line) last = x;
    }
    return last;
  }

  /** Indexes of the call references whose enclosing symbol is `scope` in file `f`. */
  private callsIn(f: GraphFile, scope: number): number[] {
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

  /** The calls made directly in `source`'s body, in source order, each resolved. */
  callsFrom(source: SymbolRecord): CallSite[] {
    const names = namesOf(this.graph);
    const f = names.fileOf(source);
    if (!f) return [];
    const out: CallSite[] = [];
    for (const i of this.callsIn(f, names.indexOf(source))) {
      const r = refAt(f.part, i);
      const how = names.resolveRefHow(f, i);
      // As written (`nodeMu.Lock`), or through the receiver's declared type (`sync.Mutex.Lock`
      // for a `timeMu sync.Mutex`, when the type is a plain name); a bare member name says too
      // little of a call outside.
      const typed = r.receiverKind === "typed" && r.receiver?.kind === "type" &&
        isPlainName(r.receiver.type);
      const receiver = r.receiver && (r.receiverKind === "name" || typed)
        ? receiverText(r.receiver)
        : "";
      const written = receiver ? `${receiver}.${r.name}` : r.name;
      const site: CallSite = {
        caller: source,
        file: f,
        line: r.line,
        targets: [],
        resolution: how.resolution,
        outside: null,
        written,
      };
      if (how.symbols.length) {
        site.targets = [...new Set(how.symbols.map((t) => this.implementation(t)))];
      } else if (how.external) {
        site.outside = "external";
        site.resolution = "exact";
      } else if (!r.receiverKind) {
        // A bare name nothing in scope defines: the language's (Python `len`, Go `append`,
        // JS `setTimeout`) — or, where names are global, a library's (C `printf`).
        site.outside = f.resolver?.scoping === "global" ? "external" : "builtin";
        site.resolution = "exact";
      } else if (this.projectMembers(f, r.name) === 0) {
        // A member no project file defines (`", ".join`, `list.append`): not ours.
        site.outside = "external";
        site.resolution = "name";
      } else {
        site.outside = "unknown";
        site.resolution = "name";
      }
      out.push(site);
    }
    return out;
  }

  /** How many members named `name` the project defines in `f`'s language family. */
  private projectMembers(f: GraphFile, name: string): number {
    return namesOf(this.graph).membersNamed(f, name).length;
  }

  /** Calls of `target` (of its class too, for a constructor), each with its resolution. */
  callersOf(target: SymbolRecord): CallSite[] {
    const names = namesOf(this.graph);
    const wanted = new Set<SymbolRecord>([target, ...this.overloads(target)]);
    const family = new Set(names.overrideFamily(target).filter((m) => !wanted.has(m)));
    const lookFor = new Set<string>(names.importNames(target));
    if (target.kind === "constructor") {
      const f = names.fileOf(target);
      const cls = f ? names.enclosingClass(f, names.indexOf(target)) : null;
      if (cls && CLASS_LIKE.has(cls.kind)) {
        wanted.add(cls);
        lookFor.add(cls.name);
      }
    }
    const out: CallSite[] = [];
    for (const n of names.aliases(lookFor)) {
      for (const code of this.graph.occurrences(n)) {
        const f = this.graph.files[Math.floor(code / OCC_SHIFT)];
        const i = code % OCC_SHIFT;
        const r = refAt(f.part, i);
        if (r.kind !== "call") continue;
        const how = names.resolveRefHow(f, i);
        let resolution = how.resolution;
        if (!how.symbols.some((s) => wanted.has(s))) {
          if (!how.symbols.some((s) => family.has(s))) continue;
          if (resolution === "exact") resolution = "inferred";
        }
        out.push({
          caller: f.symbols[r.scope] ?? null,
          file: f,
          line: r.line,
          targets: [target],
          resolution,
          outside: null,
          written: r.name,
        });
      }
    }
    return out;
  }

  /**
   * The files of the calls of `target`'s name (one entry per call) made through a
   * receiver of unknown type that resolved to nothing: candidates, not callers.
   */
  candidatesOf(target: SymbolRecord): GraphFile[] {
    const names = namesOf(this.graph);
    const home = names.fileOf(target);
    const out: GraphFile[] = [];
    for (const code of this.graph.occurrences(target.name)) {
      const f = this.graph.files[Math.floor(code / OCC_SHIFT)];
      if (f.resolver !== home?.resolver) continue;
      const i = code % OCC_SHIFT;
      const r = refAt(f.part, i);
      if (r.kind !== "call" || !r.receiverKind) continue;
      const how = names.resolveRefHow(f, i);
      if (how.symbols.length === 0 && !how.external) out.push(f);
    }
    return out;
  }

  /** The other definitions of an overloaded function (its stubs). */
  private overloads(s: SymbolRecord): SymbolRecord[] {
    if (s.kind !== "function" && s.kind !== "method") return [];
    const f = namesOf(this.graph).fileOf(s);
    return f
      ? f.symbols.filter((x) => x !== s && x.qualifiedName === s.qualifiedName && x.kind === s.kind)
      : [];
  }
}

/** A type that is a plain name: a path of word characters joined by `.` or `::`. */
function isPlainName(t: TypeRef): boolean {
  return t.kind === "path" && t.separators.every((s) => s === "." || s === "::") &&
    t.segments.every((s) => PLAIN_SEGMENT.test(s));
}

const PLAIN_SEGMENT = /^[\w$:]*$/;
