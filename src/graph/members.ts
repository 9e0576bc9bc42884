/**
 * Classes and their members: which class encloses a symbol, what a class inherits from
 * (its `inherit` references, resolved), and its members by name, bases included. Members
 * are looked for beside the class (same file, same folder and family; anywhere in the
 * family for languages with global scoping).
 *
 * Results are cached, so they live as long as the name resolver that owns this.
 *
 * @module
 */

import type { SymbolRecord } from "../types.ts";
import type { CodeGraph, GraphFile } from "./graph.ts";
import { refsByScope } from "./ref_scopes.ts";
import { dirOf } from "./resolve/types.ts";
import { CLASS_LIKE, MAX_DEPTH, symbolsOf, type Target } from "./targets.ts";

/** What class lookups need from the name resolver that owns them. */
export interface NameLookup {
  /** The file a symbol is defined in. */
  fileOf(s: SymbolRecord): GraphFile | undefined;
  /** The position of a symbol in its file's symbols. */
  indexOf(s: SymbolRecord): number;
  /** The symbols reference `i` of file `f` refers to. */
  resolveRef(f: GraphFile, i: number): SymbolRecord[];
  /** A name used bare in file `f` at a reference whose enclosing symbol is `scope`. */
  name(f: GraphFile, name: string, scope: number, depth: number): Target[];
}

/** Class lookups of one graph, owned by its name resolver. */
export class Members {
  private readonly memberCache = new Map<SymbolRecord, Map<string, SymbolRecord[]>>();
  private readonly byQualified = new Map<GraphFile, Map<string, SymbolRecord>>();
  private readonly inherits = new Map<GraphFile, Map<number, number[]>>();
  private byParent: Map<string, SymbolRecord[]> | null = null;
  private derivedOf: Map<SymbolRecord, SymbolRecord[]> | null = null;
  private readonly interfaces = new Map<unknown, SymbolRecord[]>();
  /** How deep `bases` → `resolveRef` → `members` → `bases` has nested (cyclic inheritance). */
  private basesDepth = 0;

  constructor(private readonly graph: CodeGraph, private readonly names: NameLookup) {}

  /** Members named `name` of a class, its bases included (cached). */
  members(cls: SymbolRecord, name: string, seen = new Set<SymbolRecord>()): SymbolRecord[] {
    let byName = this.memberCache.get(cls);
    if (!byName) this.memberCache.set(cls, byName = new Map());
    const hit = byName.get(name);
    if (hit) return hit;
    seen.add(cls);
    let out = this.ownMembers(cls, name);
    if (out.length === 0 && seen.size <= MAX_DEPTH) {
      for (const base of this.bases(cls)) {
        if (seen.has(base)) continue;
        out = this.members(base, name, seen);
        if (out.length) break;
      }
    }
    byName.set(name, out);
    return out;
  }

  private ownMembers(cls: SymbolRecord, name: string): SymbolRecord[] {
    return this.declaredMembers(cls, (s) => s.name === name);
  }

  /**
   * Every member a class declares itself, wherever its language puts them: inside it, or
   * beside it (a Go method in another file of the package, a Rust `impl` block below the
   * struct), by the rule of {@link members}; in file order.
   */
  allMembers(cls: SymbolRecord): SymbolRecord[] {
    const home = this.names.fileOf(cls);
    const byName = new Map<string, SymbolRecord[]>();
    for (const s of this.declaredMembers(cls, () => true, false)) {
      const list = byName.get(s.name);
      if (list) list.push(s);
      else byName.set(s.name, [s]);
    }
    // Each name by the rule of one name ({@link ownMembers}): the class's own file first.
    return [...byName.values()].flatMap((list) => this.homeFirst(list, home))
      .sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);
  }

  /**
   * The class's own file first: two classes of one name in one folder (regex's `Regex` in
   * re_bytes.rs and re_unicode.rs) each keep their own; a Go method in another file of the
   * package comes through when the class's file has none.
   */
  private homeFirst(found: SymbolRecord[], home: GraphFile | undefined): SymbolRecord[] {
    const own = found.filter((s) => this.names.fileOf(s) === home);
    return own.length > 0 ? own : found;
  }

  private declaredMembers(
    cls: SymbolRecord,
    keep: (s: SymbolRecord) => boolean,
    homeFirst = true,
  ): SymbolRecord[] {
    const home = this.names.fileOf(cls);
    if (!home) return [];
    const global = home.resolver?.scoping === "global";
    const dir = dirOf(home.path);
    const found = this.childrenOf(cls.qualifiedName).filter((s) => {
      if (!keep(s)) return false;
      const g = this.names.fileOf(s);
      if (!g) return false;
      return g === home || (g.resolver === home.resolver && (global || dirOf(g.path) === dir));
    });
    return homeFirst ? this.homeFirst(found, home) : found;
  }

  /** The symbols declared inside `s` in its own file (members, an object literal's methods…). */
  children(s: SymbolRecord): SymbolRecord[] {
    const home = this.names.fileOf(s);
    return this.childrenOf(s.qualifiedName).filter((c) => this.names.fileOf(c) === home);
  }

  /**
   * The symbols whose parent is `qualifiedName`, in list order: asked of the index's columns
   * (no record of another file made), else from every symbol by parent (built on first use).
   */
  private childrenOf(qualifiedName: string): readonly SymbolRecord[] {
    const by = this.graph.symbolsBy;
    if (by) return by("parent", "exact", sameText, qualifiedName);
    if (!this.byParent) {
      this.byParent = new Map();
      for (const f of this.graph.files) {
        for (const s of f.symbols) {
          if (s.parent === null) continue;
          const list = this.byParent.get(s.parent);
          if (list) list.push(s);
          else this.byParent.set(s.parent, [s]);
        }
      }
    }
    return this.byParent.get(qualifiedName) ?? [];
  }

  /** The classes a class inherits from (its `inherit` references, resolved). */
  bases(cls: SymbolRecord): SymbolRecord[] {
    const f = this.names.fileOf(cls);
    if (!f || this.basesDepth >= MAX_DEPTH) return [];
    this.basesDepth++;
    try {
      return this.basesIn(f, cls);
    } finally {
      this.basesDepth--;
    }
  }

  private basesIn(f: GraphFile, cls: SymbolRecord): SymbolRecord[] {
    const out: SymbolRecord[] = [];
    for (const i of this.inheritsIn(f).get(this.names.indexOf(cls)) ?? []) {
      for (const s of this.names.resolveRef(f, i)) {
        if (CLASS_LIKE.has(s.kind) && s !== cls) out.push(s);
      }
    }
    return out;
  }

  /** The file's `inherit` references by the index of the class that makes them (cached). */
  private inheritsIn(f: GraphFile): Map<number, number[]> {
    let byScope = this.inherits.get(f);
    if (!byScope) this.inherits.set(f, byScope = refsByScope(f.part, "inherit"));
    return byScope;
  }

  /**
   * The methods of the same name in the classes a method's class inherits from and in
   * those that inherit from it or from a base that declares it (its override family:
   * bases, subclasses and siblings under a common declaration, as TypeScript's references
   * count them), itself excluded; empty for other
   * symbols and for languages whose resolver does not link overrides.
   */
  overrideFamily(method: SymbolRecord): SymbolRecord[] {
    if (method.kind !== "method" || method.parent === null) return [];
    const f = this.names.fileOf(method);
    if (!f?.resolver?.overrideFamily) return [];
    const cls = this.enclosingClass(f, this.names.indexOf(method));
    if (!cls) return [];
    if (f.resolver.overrideFamily === "structural") return this.implemented(cls, method);
    const out = new Set<SymbolRecord>();
    const up = [...this.bases(cls)];
    for (let i = 0; i < up.length && i < 64; i++) {
      for (const m of this.ownMembers(up[i], method.name)) out.add(m);
      for (const b of this.bases(up[i])) if (!up.includes(b)) up.push(b);
    }
    // Down from the class and from every class above it that declares the method:
    // overrides in sibling classes too, but only under a common declaration.
    const declaring = up.filter((c) => this.ownMembers(c, method.name).length > 0);
    const down: SymbolRecord[] = [];
    for (const c of [cls, ...declaring]) {
      for (const d of this.derived().get(c) ?? []) if (!down.includes(d)) down.push(d);
    }
    for (let i = 0; i < down.length && i < 256; i++) {
      for (const m of this.ownMembers(down[i], method.name)) out.add(m);
      for (const d of this.derived().get(down[i]) ?? []) if (!down.includes(d)) down.push(d);
    }
    out.delete(method);
    return [...out].filter((m) => m.kind === "method");
  }

  /**
   * The methods named as `method` of the interfaces `type` implements: interfaces of the
   * same family whose every method `type` has (by name, methods beside the type).
   */
  private implemented(type: SymbolRecord, method: SymbolRecord): SymbolRecord[] {
    if (type.kind === "interface") return [];
    const home = this.names.fileOf(type);
    if (!home) return [];
    const mine = new Set(this.methodsBeside(type).map((m) => m.name));
    const out: SymbolRecord[] = [];
    for (const iface of this.interfacesOf(home)) {
      const ms = this.methodsBeside(iface);
      if (!ms.some((m) => m.name === method.name) || !ms.every((m) => mine.has(m.name))) continue;
      out.push(...ms.filter((m) => m.name === method.name));
    }
    return out;
  }

  /** A type's methods declared in its own folder (a Go package). */
  private methodsBeside(type: SymbolRecord): SymbolRecord[] {
    const home = this.names.fileOf(type);
    if (!home) return [];
    const dir = dirOf(home.path);
    return this.childrenOf(type.qualifiedName).filter((s) => {
      const g = this.names.fileOf(s);
      return s.kind === "method" && g !== undefined && g.resolver === home.resolver &&
        dirOf(g.path) === dir;
    });
  }

  /** Every interface of a file's family (built once per family). */
  private interfacesOf(f: GraphFile): SymbolRecord[] {
    let list = this.interfaces.get(f.resolver);
    if (!list) {
      list = [];
      for (const g of this.graph.files) {
        if (g.resolver !== f.resolver) continue;
        for (const s of g.symbols) if (s.kind === "interface") list.push(s);
      }
      this.interfaces.set(f.resolver, list);
    }
    return list;
  }

  /** Classes by the classes they inherit from, over files that link overrides (built once). */
  private derived(): Map<SymbolRecord, SymbolRecord[]> {
    if (!this.derivedOf) {
      this.derivedOf = new Map();
      for (const f of this.graph.files) {
        if (f.resolver?.overrideFamily !== "inherit") continue;
        for (const s of f.symbols) {
          if (!CLASS_LIKE.has(s.kind)) continue;
          for (const b of this.bases(s)) {
            const list = this.derivedOf.get(b);
            if (list) list.push(s);
            else this.derivedOf.set(b, [s]);
          }
        }
      }
    }
    return this.derivedOf;
  }

  /** The class a reference's enclosing symbol belongs to (`self`/`this`), or null. */
  enclosingClass(f: GraphFile, scope: number): SymbolRecord | null {
    if (scope < 0) return null;
    const s = f.symbols[scope];
    if (!s) return null;
    if (CLASS_LIKE.has(s.kind)) return s;
    return s.parent === null ? null : this.classNamed(f, s.parent);
  }

  /** The class a nested class is declared in, or null. */
  outerClass(cls: SymbolRecord): SymbolRecord | null {
    const f = this.names.fileOf(cls);
    return f && cls.parent !== null ? this.classNamed(f, cls.parent) : null;
  }

  /** A class by qualified name: in the file, else (Go receiver, Rust `impl`) by name. */
  private classNamed(f: GraphFile, qualified: string): SymbolRecord | null {
    let map = this.byQualified.get(f);
    if (!map) {
      map = new Map();
      for (const s of f.symbols) if (!map.has(s.qualifiedName)) map.set(s.qualifiedName, s);
      this.byQualified.set(f, map);
    }
    for (let q: string | null = qualified; q !== null;) {
      const s = map.get(q);
      if (s && CLASS_LIKE.has(s.kind)) return s;
      if (s) {
        q = s.parent;
        continue;
      }
      break;
    }
    const last = qualified.slice(qualified.lastIndexOf(".") + 1);
    return symbolsOf(this.names.name(f, last, -1, 0)).find((x) => CLASS_LIKE.has(x.kind)) ??
      null;
  }
}

const sameText = (v: string) => v;
