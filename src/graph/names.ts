/**
 * What a name in a file refers to: resolution through the file's own definitions, its
 * imports (aliases, re-exports, wildcards), its package, the enclosing class (`self.`,
 * `this.`, implicit members) and typed receivers. Language differences come from the
 * resolvers (`scoping`, `implicitThis`, submodules, path heads); this code knows no
 * language. Classes, their bases and members are looked up by `members.ts`; what a single
 * reference leads to (its receiver, its import statement) by `ref_resolution.ts`.
 *
 * Results are cached per graph, so a name is resolved once per index generation.
 *
 * @module
 */

import { slot } from "../util/memo.ts";
import { refAt } from "../facts/codec.ts";
import type { SymbolRecord } from "../types.ts";
import type { CodeGraph, GraphFile } from "./graph.ts";
import { Chains } from "./chains.ts";
import { Members } from "./members.ts";
import { RefResolution, type RefTargets } from "./ref_resolution.ts";
import type { Binding, FamilyResolver, ModuleRef } from "./resolve/types.ts";
import { dirOf, OBJECT_DEFAULT } from "./resolve/types.ts";
import {
  CLASS_LIKE,
  MAX_DEPTH,
  MEMBER_KINDS,
  symbolsOf,
  symbolTarget,
  type Target,
} from "./targets.ts";

export { CLASS_LIKE, symbolsOf, type Target } from "./targets.ts";
export type { RefTargets, Sureness } from "./ref_resolution.ts";

/** Kinds of symbols that may hold an object literal whose methods are their members. */
const LITERAL_HOLDERS: ReadonlySet<string> = new Set(["constant", "variable"]);

/** Resolves names of one graph; get it with {@link namesOf}. */
export class Names {
  private readonly refCache = new Map<number, RefTargets>();
  /** Per file, the position of each of its symbols (made when the file is first asked). */
  private readonly indexInFile = new Map<GraphFile, Map<SymbolRecord, number>>();
  private readonly aliasCache = new Map<string, Set<string>>();
  private readonly nestedCache = new Map<GraphFile, Map<string, SymbolRecord[]>>();
  private readonly moduleItemsCache = new Map<GraphFile, Map<string, SymbolRecord[]>>();
  private readonly classes: Members;
  private readonly chains: Chains;
  private readonly refs: RefResolution;

  constructor(readonly graph: CodeGraph) {
    this.classes = new Members(graph, this);
    this.chains = new Chains(graph, this);
    this.refs = new RefResolution(this, this.chains);
  }

  /** The positions of the symbols of the file `s` names, when `s` is one of them. */
  private positions(s: SymbolRecord): { file: GraphFile; index: number } | undefined {
    const file = this.graph.byPath.get(s.file);
    if (!file) return undefined;
    let positions = this.indexInFile.get(file);
    if (!positions) {
      positions = new Map(file.symbols.map((x, i) => [x, i]));
      this.indexInFile.set(file, positions);
    }
    const index = positions.get(s);
    return index === undefined ? undefined : { file, index };
  }

  /** The file a symbol is defined in. */
  fileOf(s: SymbolRecord): GraphFile | undefined {
    return this.positions(s)?.file;
  }

  /** The position of a symbol in its file's symbols. */
  indexOf(s: SymbolRecord): number {
    return this.positions(s)?.index ?? -1;
  }

  private family(f: GraphFile): FamilyResolver | undefined {
    return f.resolver ? this.graph.familyOf(f.resolver) : undefined;
  }

  /**
   * The symbols reference `i` of file `f` refers to (cached). Empty when it leads to
   * nothing of the project (a local of another kind, a builtin, an external package).
   */
  resolveRef(f: GraphFile, i: number): SymbolRecord[] {
    return this.resolveRefHow(f, i).symbols;
  }

  /** What reference `i` of file `f` leads to, and how sure that is (cached). */
  resolveRefHow(f: GraphFile, i: number): RefTargets {
    const key = f.id * 2 ** 22 + i;
    let hit = this.refCache.get(key);
    if (!hit) {
      hit = this.refs.resolve(f, refAt(f.part, i));
      this.refCache.set(key, hit);
    }
    return hit;
  }

  /** How many references' answers are kept. */
  get resolvedRefs(): number {
    return this.refCache.size;
  }

  /**
   * What reference `i` of file `f` leads to, kept only when it already was: a pass over
   * every reference (ranking) keeps no answer of each (on the stdlib, a map of every one).
   */
  resolveRefOnce(f: GraphFile, i: number): RefTargets {
    return this.refCache.get(f.id * 2 ** 22 + i) ?? this.refs.resolve(f, refAt(f.part, i));
  }

  /** The names a symbol is imported by: its own, and `default` for its file's default export. */
  importNames(s: SymbolRecord): string[] {
    const f = this.fileOf(s);
    const family = f ? this.family(f) : undefined;
    return f && s.parent === null && family?.defaultExport?.(f.path) === s.name
      ? [s.name, "default"]
      : [s.name];
  }

  /**
   * Every local name the project imports `names` under (`import {f as g}` adds `g`), and
   * those names again (re-exports under another name), with `names` themselves.
   */
  aliases(names: Iterable<string>): Set<string> {
    const start = [...new Set(names)].sort();
    const key = start.join("\0");
    const hit = this.aliasCache.get(key);
    if (hit) return hit;
    const out = new Set(start);
    this.aliasCache.set(key, out);
    for (let changed = true; changed;) {
      changed = false;
      for (const f of this.graph.files) {
        // A binding's name is written in its import: a file whose imports name none of
        // these binds none of them (and its imports need not be resolved).
        if (!mentionsAny(f.part.importsText, out)) continue;
        for (const [local, bindings] of f.env) {
          if (out.has(local)) continue;
          if (bindings.some((b) => "name" in b && out.has(b.name))) {
            out.add(local);
            changed = true;
          }
        }
      }
    }
    return out;
  }

  /**
   * What a dotted path (`os.path`, `crate::util`, `Foo`) leads to from a file; null when
   * its head is unknown (neither defined, imported nor external).
   */
  path(f: GraphFile, segments: readonly string[], scope: number): Target[] | null {
    if (segments.length === 0) return null;
    const [head, ...rest] = segments;
    const pathHead = this.family(f)?.pathHead?.(head, f.path);
    let targets: Target[] = pathHead
      ? [{ kind: "module", module: pathHead }]
      : this.name(f, head, scope, 0);
    if (targets.length === 0) return f.externalNames.has(head) ? [{ kind: "external" }] : null;
    for (const seg of rest) {
      targets = targets.flatMap((t) => this.memberOfTarget(t, seg, 0));
      if (targets.length === 0) return [];
    }
    return targets;
  }

  /** A name used bare in file `f` at a reference whose enclosing symbol is `scope`. */
  name(f: GraphFile, name: string, scope: number, depth: number, global = true): Target[] {
    if (depth > MAX_DEPTH) return [];
    const resolver = f.resolver;
    if (resolver?.implicitThis && scope >= 0) {
      for (let cls = this.enclosingClass(f, scope); cls; cls = this.classes.outerClass(cls)) {
        // A constructor (Java's `Patch(int size)` in class Patch) is named after its class
        // and never what the bare name means: `Patch<T> patch` inside it is the class.
        const m = this.members(cls, name).filter((s) => s.kind !== "constructor");
        if (m.length) return m.map(symbolTarget);
      }
    }
    if (scope >= 0) {
      const inner = this.nestedIn(f, name, scope);
      if (inner.length) return inner.map(symbolTarget);
    }
    const bindings = f.env.get(name);
    const own = f.top.get(name);
    if (own && own.length) {
      // `const x = require("./x")` defines x and imports it on one line: the import wins
      // (`var vary = require("vary")` too: an external module).
      const external = f.externalNames.has(name);
      const lines = new Set(
        f.imports.filter((i) =>
          (bindings && i.bindings.some((b) => bindings.includes(b))) || (external && i.external)
        ).map((i) => i.record.line),
      );
      const mine = own.filter((s) => !lines.has(s.line));
      if (mine.length) return mine.map(symbolTarget);
    }
    if (bindings) {
      const out = bindings.flatMap((b) => this.binding(b, depth + 1));
      if (out.length) return out;
    }
    if (f.externalNames.has(name)) return [{ kind: "external" }];
    const scoping = resolver?.scoping ?? "imports";
    if (scoping === "package") {
      const out: SymbolRecord[] = [];
      for (const other of this.packageFiles(f)) out.push(...(other.top.get(name) ?? []));
      if (out.length) return out.map(symbolTarget);
    }
    for (const m of f.wildcards) {
      const out = this.moduleMember(m, name, depth + 1);
      if (out.length) return out;
    }
    if (global) return this.globalName(f, name).map(symbolTarget);
    return [];
  }

  /**
   * A name of a language whose top-level names are global (C, Ruby, PHP…): every
   * top-level definition of that name in the family; empty for other languages.
   */
  globalName(f: GraphFile, name: string): SymbolRecord[] {
    if (f.resolver?.scoping !== "global") return [];
    return this.graph.symbolsNamed(name).filter((s) => {
      const g = this.fileOf(s);
      return g !== undefined && g.resolver === f.resolver && g.top.get(name)?.includes(s);
    });
  }

  /**
   * A definition nested in a function that encloses symbol `scope` (`def wrap` inside
   * `define`, used in `define`'s body), innermost first.
   */
  private nestedIn(f: GraphFile, name: string, scope: number): SymbolRecord[] {
    const byParent = this.nestedOf(f);
    const inModules = this.moduleItemsOf(f);
    if (byParent.size === 0 && inModules.size === 0) return [];
    for (let q: string | null = f.symbols[scope]?.qualifiedName ?? null; q;) {
      const hit = byParent.get(`${q}\0${name}`) ?? inModules.get(`${q}\0${name}`);
      if (hit) return hit;
      const dot = q.lastIndexOf(".");
      q = dot < 0 ? null : q.slice(0, dot);
    }
    return [];
  }

  /**
   * The definitions of `f` declared in a module or namespace written inside the file (Rust's
   * `mod tests { … }`, a TypeScript or C++ namespace), by `parent\0name`: inside that
   * module they are seen by their bare names (`const CASEI: Options` beside `struct Options`).
   */
  private moduleItemsOf(f: GraphFile): Map<string, SymbolRecord[]> {
    return childrenOfKinds(this.moduleItemsCache, f, MODULE_KINDS);
  }

  /** The definitions of `f` whose parent is a function or method, by `parent\0name`. */
  private nestedOf(f: GraphFile): Map<string, SymbolRecord[]> {
    return childrenOfKinds(this.nestedCache, f, CALLABLE_PARENTS);
  }

  /** Files of the same package as `f` (same folder and family; same declared package). */
  private packageFiles(f: GraphFile): GraphFile[] {
    const pkg = f.part.package;
    const out: GraphFile[] = [];
    if (pkg !== undefined && f.language !== "go") {
      for (const g of this.graph.files) {
        if (g !== f && g.resolver === f.resolver && g.part.package === pkg) out.push(g);
      }
      return out;
    }
    for (const p of this.graph.view.filesIn(dirOf(f.path))) {
      const g = this.graph.byPath.get(p);
      if (g && g !== f && g.resolver === f.resolver) out.push(g);
    }
    return out;
  }

  binding(b: Binding, depth: number): Target[] {
    switch (b.kind) {
      case "module":
        return [{ kind: "module", module: b.module }];
      case "name":
        return this.moduleMember(b.module, b.name, depth);
      case "member":
        return symbolsOf(this.moduleMember(b.module, b.owner, depth))
          .filter((s) => CLASS_LIKE.has(s.kind))
          .flatMap((c) => this.members(c, b.name))
          .map(symbolTarget);
      default:
        return [];
    }
  }

  /** What module `m` calls `name`: a definition, a re-export, a submodule. */
  moduleMember(m: ModuleRef, name: string, depth: number): Target[] {
    if (depth > MAX_DEPTH) return [];
    const files = m.files.map((p) => this.graph.byPath.get(p)).filter((g): g is GraphFile => !!g);
    const own = files.flatMap((g) => g.top.get(name) ?? []);
    if (own.length) return own.map(symbolTarget);
    for (const g of files) {
      for (const b of g.env.get(name) ?? []) {
        const out = this.binding(b, depth + 1);
        if (out.length) return out;
      }
    }
    // What a wildcard re-exports comes before a submodule of that name: a barrel's
    // `export * from './parse'` names parse.ts's `parse` (a JS index's "submodule" is a guess),
    // and Python's `from pkg import x` takes pkg's attribute before pkg/x.py.
    for (const g of files) {
      for (const w of g.wildcards) {
        const out = this.moduleMember(w, name, depth + 1);
        if (out.length) return out;
      }
    }
    const family = files[0] ? this.family(files[0]) : this.familyOfDir(m);
    const sub = family?.submodule?.(m, name);
    if (sub) return [{ kind: "module", module: sub }];
    if (name === "default" && family?.defaultExport) {
      for (const g of files) {
        const local = family.defaultExport(g.path);
        if (local === OBJECT_DEFAULT) return [{ kind: "module", module: m }];
        if (local && local !== "default") {
          const out = this.name(g, local, -1, depth + 1);
          if (out.length) return out;
        }
      }
    }
    return [];
  }

  /** The family resolver for a module with no files (a namespace package): any will do. */
  private familyOfDir(m: ModuleRef): FamilyResolver | undefined {
    if (m.dir === undefined) return undefined;
    for (const p of this.graph.view.files()) {
      if (p.startsWith(m.dir === "" ? "" : m.dir + "/")) {
        const g = this.graph.byPath.get(p);
        if (g?.resolver) return this.family(g);
      }
    }
    return undefined;
  }

  /** Members named `name` of what a name leads to: a module's, a class's. */
  memberOfTarget(t: Target, name: string, depth: number): Target[] {
    if (t.kind === "external") return [t];
    if (t.kind === "module") return this.moduleMember(t.module, name, depth);
    if (t.kind === "symbol" && CLASS_LIKE.has(t.symbol.kind)) {
      return this.members(t.symbol, name).map(symbolTarget);
    }
    // A constant or variable holding an object literal: the literal's methods.
    if (t.kind === "symbol" && LITERAL_HOLDERS.has(t.symbol.kind)) {
      return this.children(t.symbol).filter((s) => s.name === name).map(symbolTarget);
    }
    return [];
  }

  /** The symbols declared inside `s` in its own file. */
  children(s: SymbolRecord): SymbolRecord[] {
    return this.classes.children(s);
  }

  /** Every member a class declares itself, inside it or beside it (Go, Rust). */
  allMembers(cls: SymbolRecord): SymbolRecord[] {
    return this.classes.allMembers(cls);
  }

  /** Members named `name` of a class, its bases included (cached). */
  members(cls: SymbolRecord, name: string): SymbolRecord[] {
    return this.classes.members(cls, name);
  }

  /**
   * A method's override family (see `Members.overrideFamily`), with the object literal
   * methods that stand for it or for a member of its family (`const o: T = { m() {} }`
   * and `T.m`, both ways), as TypeScript's references count them.
   */
  overrideFamily(method: SymbolRecord): SymbolRecord[] {
    const out = new Set(this.classes.overrideFamily(method));
    for (const m of this.chains.literalOf(method)) {
      out.add(m);
      for (const x of this.classes.overrideFamily(m)) out.add(x);
    }
    for (const m of [method, ...out]) for (const o of this.chains.standIns(m)) out.add(o);
    out.delete(method);
    return [...out];
  }

  /** The classes a class inherits from (its `inherit` references, resolved). */
  bases(cls: SymbolRecord): SymbolRecord[] {
    return this.classes.bases(cls);
  }

  /** The class a reference's enclosing symbol belongs to (`self`/`this`), or null. */
  enclosingClass(f: GraphFile, scope: number): SymbolRecord | null {
    return this.classes.enclosingClass(f, scope);
  }

  /**
   * A member whose receiver is unknown: the one member of that name in the project's
   * files of the same family, if there is exactly one.
   */
  definedInFamily(f: GraphFile, name: string): boolean {
    return this.graph.symbolsNamed(name).some((s) => this.fileOf(s)?.resolver === f.resolver);
  }

  unique(f: GraphFile, name: string): SymbolRecord[] {
    const all = this.membersNamed(f, name);
    return all.length === 1 ? all : [];
  }

  /**
   * The members named `name` in the project's files of `f`'s family. A function's own local
   * (`def helper` inside `def outer`, `const push = …` in a method's body) is no receiver's
   * member, so `xs.push()` does not lead to it; an object literal's method in a function is.
   */
  membersNamed(f: GraphFile, name: string): SymbolRecord[] {
    return this.graph.symbolsNamed(name).filter((s) => {
      if (s.parent === null || !MEMBER_KINDS.has(s.kind)) return false;
      const g = this.fileOf(s);
      if (g === undefined || g.resolver !== f.resolver) return false;
      return !(LOCAL_KINDS.has(s.kind) &&
        this.nestedOf(g).get(`${s.parent}\0${s.name}`)?.includes(s));
    });
  }
}

/** Whether `text` holds any of `names`. */
function mentionsAny(text: string, names: ReadonlySet<string>): boolean {
  for (const n of names) if (text.includes(n)) return true;
  return false;
}

/** Kinds a definition in a function's body has when it is a local of that body. */
const LOCAL_KINDS: ReadonlySet<string> = new Set(["function", "variable", "constant"]);

const NAMES = slot("name resolver", (graph: CodeGraph) => new Names(graph));

/** The name resolver of a graph (one per graph, so its caches live as long as it). */
export function namesOf(graph: CodeGraph): Names {
  return graph.memo.get(NAMES);
}

const MODULE_KINDS: ReadonlySet<string> = new Set(["module", "namespace"]);
const CALLABLE_PARENTS: ReadonlySet<string> = new Set(["function", "method"]);

/** The definitions of `f` whose parent is of one of `kinds`, by `parent\0name` (cached in `cache`). */
function childrenOfKinds(
  cache: Map<GraphFile, Map<string, SymbolRecord[]>>,
  f: GraphFile,
  kinds: ReadonlySet<string>,
): Map<string, SymbolRecord[]> {
  let byParent = cache.get(f);
  if (byParent) return byParent;
  byParent = new Map();
  const parents = new Set(f.symbols.filter((s) => kinds.has(s.kind)).map((s) => s.qualifiedName));
  for (const s of f.symbols) {
    if (s.parent === null || !parents.has(s.parent)) continue;
    const key = `${s.parent}\0${s.name}`;
    const list = byParent.get(key);
    if (list) list.push(s);
    else byParent.set(key, [s]);
  }
  cache.set(f, byParent);
  return byParent;
}
