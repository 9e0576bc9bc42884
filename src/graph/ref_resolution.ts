/**
 * What one reference leads to, and how sure that is: a definition is itself, an import what
 * its statement binds, a bare name what the scopes around it give, a member what its
 * receiver leads to — the enclosing class (`self.`, `this.`, `super()`), a typed receiver
 * and its chain, a dotted name. The scope lookups are the name resolver's (`names.ts`),
 * which owns this and caches each reference's answer.
 *
 * @module
 */

import type { Receiver, ReferenceRecord } from "../facts/records.ts";
import type { Chain, TypeRef } from "../facts/type_ref.ts";
import type { SymbolRecord } from "../types.ts";
import type { GraphFile } from "./graph.ts";
import { type ChainLookup, type Chains, type ChainValue, isExternal } from "./chains.ts";
import type { Binding } from "./resolve/types.ts";
import { symbolsOf, type Target } from "./targets.ts";

/**
 * What resolving one reference needs from the name resolver that owns it (`names.ts`
 * satisfies it): scope and path lookups, an import binding's targets, the enclosing class and
 * its bases, and the one definition of a name.
 */
export interface RefLookup
  extends Pick<ChainLookup, "path" | "memberOfTarget" | "members" | "bases" | "enclosingClass"> {
  /** What `name` means in file `f` at symbol `scope`; `global`: where names are global, anywhere. */
  name(f: GraphFile, name: string, scope: number, depth: number, global?: boolean): Target[];
  /** Every top-level definition of `name` in the family, where top-level names are global (C, Ruby…). */
  globalName(f: GraphFile, name: string): SymbolRecord[];
  /** What an import binding leads to. */
  binding(b: Binding, depth: number): Target[];
  /** The one member named `name` in the project's files of `f`'s family, if there is exactly one. */
  unique(f: GraphFile, name: string): SymbolRecord[];
  /** Whether any file of `f`'s family defines `name` (at any depth). */
  definedInFamily(f: GraphFile, name: string): boolean;
}

/** A receiver that names the enclosing class's bases (`super`, `super()`, `super(C, self)`). */
const SUPER = /^super\b/;

/**
 * How sure a resolution is: `exact` through scopes, imports, module paths and the
 * enclosing class; `inferred` through the receiver's likely type (an annotation, a
 * declared type, `x = Foo()`) or the one project-wide definition of a language whose
 * names are global (Ruby, PHP…; in C, where the linker joins them, it is exact); `name` when only the name matched (a member of a
 * receiver of unknown type, the one member of that name in the project).
 */
export type Sureness = "exact" | "inferred" | "name";

/** What one reference leads to, and how sure that is. */
export interface RefTargets {
  symbols: SymbolRecord[];
  resolution: Sureness;
  /** True when it leads outside the project (an external import, a member of one). */
  external: boolean;
}

const NOTHING: RefTargets = { symbols: [], resolution: "name", external: false };
/** A member of a value whose type is a library's or the runtime's. */
const EXTERNAL: RefTargets = { symbols: [], resolution: "inferred", external: true };

function targetsOf(targets: readonly Target[], resolution: Sureness): RefTargets {
  const symbols = symbolsOf(targets);
  if (symbols.length) return { symbols, resolution, external: false };
  return { symbols, resolution, external: targets.some((t) => t.kind === "external") };
}

function byName(symbols: SymbolRecord[]): RefTargets {
  return { symbols, resolution: "name", external: false };
}

/** A receiver's chain (self, local and name receivers), or null. */
function chainOf(r: Receiver | undefined): Chain | null {
  return r?.kind === "chain" ? r.chain : null;
}

const NO_TYPE: TypeRef = { kind: "written", text: "" };
const NO_CHAIN: Chain = { head: { kind: "name", name: "" }, steps: [] };

/**
 * Whether a chain is a plain dotted path (`os.path`, `pkg::sub`): names and member steps
 * only, no private `#name` (that is a member of an instance).
 */
function isPath(c: Chain): boolean {
  if (c.head.kind !== "name" || c.head.name.includes("#")) return false;
  return c.steps.every((s) => s.kind === "member" && !s.name.includes("#"));
}

/** Resolves single references for the name resolver that owns it. */
export class RefResolution {
  constructor(private readonly names: RefLookup, private readonly chains: Chains) {}

  /** What reference `r` of file `f` leads to, and how sure that is. */
  resolve(f: GraphFile, r: ReferenceRecord): RefTargets {
    if (r.kind === "definition") {
      const s = f.symbols.find((x) => x.line === r.line && x.name === r.name);
      return s ? { symbols: [s], resolution: "exact", external: false } : NOTHING;
    }
    if (r.kind === "import" && !r.receiverKind) return targetsOf(this.imported(f, r), "exact");
    if (r.receiver?.kind === "either") {
      // Receivers to try in turn (`xs.find()`'s result, else an element of xs).
      let guess: RefTargets = NOTHING;
      for (const receiver of r.receiver.options) {
        const found = this.resolve(f, { ...r, receiver });
        if (found.external || (found.symbols.length && found.resolution !== "name")) return found;
        if (guess.symbols.length === 0) guess = found;
      }
      return guess;
    }
    switch (r.receiverKind) {
      case undefined: {
        const found = targetsOf(this.names.name(f, r.name, r.scope, 0, false), "exact");
        if (found.symbols.length || found.external) return found;
        const global = this.names.globalName(f, r.name);
        const one = f.resolver?.linked ? "exact" : "inferred";
        return {
          symbols: global,
          resolution: global.length === 1 ? one : "name",
          external: false,
        };
      }
      case "self": {
        const cls = this.names.enclosingClass(f, r.scope);
        if (!cls) return byName(this.names.unique(f, r.name));
        const chain = chainOf(r.receiver);
        const viaSuper = chain?.head.kind === "name" && SUPER.test(chain.head.name);
        const start = viaSuper ? this.names.bases(cls) : [cls];
        const steps = chain?.steps ?? [];
        if (steps.length && !viaSuper) {
          return this.viaChain(f, r, this.chains.fromInstances(start, steps, false));
        }
        for (const c of start) {
          const m = this.names.members(c, r.name);
          if (m.length) return { symbols: m, resolution: "exact", external: false };
        }
        return this.instanceCalled(f, r, this.chains.fromInstances(start, [], false)) ?? NOTHING;
      }
      case "typed": {
        // A type, and steps from it (`Op <=0>.meta`).
        const typed: TypeRef = r.receiver?.kind === "type" ? r.receiver.type : NO_TYPE;
        const type = typed.kind === "stepped" ? typed.from : typed;
        const start = this.chains.typeValue(f, type, r.scope);
        if (start.instances.length === 0 && start.elements.length === 0) {
          if (isExternal(start)) return EXTERNAL;
          return byName(this.names.unique(f, r.name));
        }
        const steps = typed.kind === "stepped" ? typed.steps : [];
        return this.viaChain(f, r, this.chains.fromType(start, steps));
      }
      case "name": {
        const chain = chainOf(r.receiver) ?? NO_CHAIN;
        if (!isPath(chain)) return this.viaChain(f, r, this.chains.fromName(f, chain, r.scope));
        const segments = [
          chain.head.kind === "name" ? chain.head.name : "",
          ...chain.steps.map((s) => s.kind === "member" ? s.name : ""),
        ].filter(Boolean);
        const owners = this.names.path(f, segments, r.scope);
        if (owners === null) {
          // A bare receiver bound nowhere in scope and defined nowhere in the project is
          // the runtime's (`console`, `window`, `process`): its members are not ours.
          const bare = chain.steps.length === 0 && chain.head.kind === "name";
          if (bare && this.undefinedAnywhere(f, segments[0])) return EXTERNAL;
          if (!f.resolver?.implicitThis) return byName(this.names.unique(f, r.name));
          return this.viaChain(f, r, this.chains.fromName(f, chain, r.scope));
        }
        const found = targetsOf(
          owners.flatMap((t) => this.names.memberOfTarget(t, r.name, 0)),
          "exact",
        );
        if (found.symbols.length || found.external || owners.length === 0) return found;
        // Through a variable of declared type (`pkg.Default.m()`).
        const typed = this.chains.membersOf(
          { instances: [], elements: [], targets: owners, inferred: true },
          r.name,
        );
        return typed.length ? targetsOf(typed, "inferred") : found;
      }
      default:
        return byName(this.names.unique(f, r.name));
    }
  }

  /**
   * A field called (`self.type(value)`) whose value is an instance of a class with the
   * language's call method (`ParamType.__call__`): that method, `inferred`.
   */
  private instanceCalled(f: GraphFile, r: ReferenceRecord, v: ChainValue): RefTargets | null {
    const method = f.resolver?.callMethod;
    if (!method || r.kind !== "call") return null;
    const field = this.chains.fromType(v, [{ kind: "member", sep: ".", name: r.name }]);
    const symbols = symbolsOf(this.chains.membersOf(field, method));
    return symbols.length ? { symbols, resolution: "inferred", external: false } : null;
  }

  /** Whether no file of `f`'s language family defines `name` (at any depth). */
  private undefinedAnywhere(f: GraphFile, name: string): boolean {
    if (f.resolver?.implicitThis || f.resolver?.scoping === "global") return false;
    return !this.names.definedInFamily(f, name);
  }

  /**
   * What a member reached through a receiver chain leads to: the members of the chain's
   * value, `inferred` when a declared type was followed; by name when the chain leads nowhere.
   */
  private viaChain(f: GraphFile, r: ReferenceRecord, v: ChainValue | null): RefTargets {
    if (v === null) return byName(this.names.unique(f, r.name));
    if (isExternal(v)) return { symbols: [], resolution: "inferred", external: true };
    const symbols = symbolsOf(this.chains.membersOf(v, r.name));
    if (symbols.length) {
      return { symbols, resolution: v.inferred ? "inferred" : "exact", external: false };
    }
    const called = this.instanceCalled(f, r, v);
    if (called) return called;
    if (v.targets.some((t) => t.kind === "external")) {
      return { symbols: [], resolution: "inferred", external: true };
    }
    return byName(this.names.unique(f, r.name));
  }

  /**
   * An imported name where it is imported: what the import statement it belongs to binds.
   * A statement may span lines (`import {\n a,\n} from "m"` is recorded at the line of its
   * module, Python's `from m import (\n a)` at the first): it is the nearest statement that
   * names it, as exported (`a` of `{a as b}`) or as bound (`d` of `import d from`). A
   * statement of an external module binds nothing of the project, even when another
   * statement imports a project name of the same spelling.
   */
  private imported(f: GraphFile, r: ReferenceRecord): Target[] {
    const binds = (b: Binding) => "name" in b && (b.name === r.name || b.local === r.name);
    const names = (i: GraphFile["imports"][number]) =>
      i.bindings.some(binds) ||
      i.names.some((n) => n === r.name || n.startsWith(`${r.name} as `)) ||
      i.record.names.some((n) => n.name === r.name || n.alias === r.name);
    let best: GraphFile["imports"][number] | null = null;
    for (const i of f.imports) {
      if (!names(i)) continue;
      const d = Math.abs(i.record.line - r.line);
      if (best === null || d < Math.abs(best.record.line - r.line)) best = i;
    }
    if (best === null) return [];
    if (best.external) return [{ kind: "external" }];
    const out: Target[] = [];
    for (const i of f.imports) {
      if (i.record.line !== best.record.line || i.external) continue;
      const exported = i.bindings.filter((b) => "name" in b && b.name === r.name);
      for (const b of exported.length ? exported : i.bindings.filter(binds)) {
        out.push(...this.names.binding(b, 1));
      }
    }
    return out;
  }
}
