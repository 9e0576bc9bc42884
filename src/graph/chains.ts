/**
 * Receiver chains: what `a.b.c()` is reached through when `a` is `this`, a typed local or a
 * name, and `b`, `c()` are fields and calls. Each step goes through what the code declares:
 * a field's or property's type, a variable's type, a function's or method's return type
 * (`ParsedFile.types`, from the `@declared.*` captures of the query files), or the value it
 * is assigned (`this.x = new Foo()`, `x := newThing()`). Knows no language.
 *
 * A chain is what the parser keeps of a receiver or a value (`facts/type_ref.ts` `Chain`): a
 * head, then member steps (`.b`, `::b`, `->b`), calls, elements and parameters.
 *
 * @module
 */

import type { Slot } from "../facts/records.ts";
import type { Chain, Step, TypeRef } from "../facts/type_ref.ts";
import { type SymbolRecord, VALUE_KINDS } from "../types.ts";
import { DeclaredTypes } from "./declared_types.ts";
import type { CodeGraph, GraphFile } from "./graph.ts";
import { CLASS_LIKE, MAX_DEPTH, symbolsOf, symbolTarget, type Target } from "./targets.ts";

/** What chains need from the name resolver that owns them. */
export interface ChainLookup {
  fileOf(s: SymbolRecord): GraphFile | undefined;
  indexOf(s: SymbolRecord): number;
  name(f: GraphFile, name: string, scope: number, depth: number): Target[];
  path(f: GraphFile, segments: readonly string[], scope: number): Target[] | null;
  memberOfTarget(t: Target, name: string, depth: number): Target[];
  members(cls: SymbolRecord, name: string): SymbolRecord[];
  /** The symbols declared inside `s` (its members, an object literal's methods…). */
  children(s: SymbolRecord): readonly SymbolRecord[];
  bases(cls: SymbolRecord): SymbolRecord[];
  enclosingClass(f: GraphFile, scope: number): SymbolRecord | null;
}

/** A value along a chain: instances of classes, and what names lead to. */
export interface ChainValue {
  /** Classes whose instance the value is. */
  instances: SymbolRecord[];
  /** Classes whose instances the value holds as a sequence (`[]*Command`, `Foo[]`). */
  elements: SymbolRecord[];
  /** Modules, classes (as themselves), functions, variables… */
  targets: Target[];
  /** True once a declared type was followed (the answer is then `inferred`). */
  inferred: boolean;
}

/** A tuple's field: its position. */
const POSITION = /^\d+$/;

/** Follows receiver chains of one graph; owned by its name resolver. */
export class Chains {
  private readonly declared = new Map<GraphFile, DeclaredTypes>();
  private standInsOf: Map<SymbolRecord, SymbolRecord[]> | null = null;
  private depth = 0;

  constructor(private readonly graph: CodeGraph, private readonly names: ChainLookup) {}

  /** The value of an instance of `classes` after `steps`. */
  fromInstances(classes: SymbolRecord[], steps: readonly Step[], inferred: boolean): ChainValue {
    return this.walk({ ...none(), instances: classes, inferred }, steps);
  }

  /** The value of a declared type after `steps`. */
  fromType(start: ChainValue, steps: readonly Step[]): ChainValue {
    return this.walk(start, steps);
  }

  /** The value of a name chain (`pkg.New().x`) used in file `f` at symbol `scope`; null when its head is unknown. */
  fromName(f: GraphFile, chain: Chain, scope: number): ChainValue | null {
    if (chain.head.kind === "self") return this.valueOf(f, chain, scope);
    const head = chain.head.name;
    const steps = chain.steps;
    const targets = this.names.name(f, head, scope, 0);
    if (targets.length === 0) {
      if (f.externalNames.has(head)) return external();
      // Java, C#…: a bare name in a method may be a field of the enclosing class.
      const cls = f.resolver?.implicitThis ? this.names.enclosingClass(f, scope) : null;
      if (!cls) return null;
      const v = this.walk({ ...none(), instances: [cls] }, [
        { kind: "member", sep: ".", name: head },
        ...steps,
      ]);
      return isEmpty(v) ? null : v;
    }
    return this.walk({ ...none(), targets }, steps);
  }

  /**
   * The value a name of type `type` holds, the type declared in `f` at symbol `scope`: a
   * type path (`cobra.Command`), a sequence of one (`[]Command`), the value of a chain, a
   * type and steps from it. A shape, a function type or a type parameter leads nowhere here.
   */
  typeValue(f: GraphFile, type: TypeRef, scope: number): ChainValue {
    switch (type.kind) {
      case "stepped": {
        // A type and steps from it (`Op`, then parameter 0 of the function type Op).
        const start = this.typeValue(f, type.from, scope);
        return isEmpty(start) ? start : this.walk(start, type.steps);
      }
      case "value": {
        const v = this.valueOf(f, type.chain, scope);
        return v ? { ...v, inferred: true } : none();
      }
      case "sequence": {
        const inner = this.typeValue(f, type.of, scope);
        return { ...none(), elements: inner.instances, inferred: true };
      }
      case "path": {
        const owners = this.names.path(f, type.segments.filter(Boolean), scope) ?? [];
        return {
          ...none(),
          instances: symbolsOf(owners).filter((s) => CLASS_LIKE.has(s.kind)),
          targets: owners.filter((t) => t.kind === "external"),
          inferred: true,
        };
      }
      default:
        return { ...none(), inferred: true };
    }
  }

  /** The members named `name` of a value: of its instances' classes and of its targets. */
  membersOf(v: ChainValue, name: string): Target[] {
    const out: Target[] = [];
    for (const c of v.instances) out.push(...this.names.members(c, name).map(symbolTarget));
    for (const t of v.targets) {
      const typed = this.declaredInstances(t);
      if (typed) {
        for (const c of typed) out.push(...this.names.members(c, name).map(symbolTarget));
      } else out.push(...this.names.memberOfTarget(t, name, 0));
    }
    return out;
  }

  /** The value of a chain in file `f` at `scope`: headed by the enclosing instance or a name. */
  private valueOf(f: GraphFile, chain: Chain, scope: number): ChainValue | null {
    if (this.depth >= MAX_DEPTH) return null;
    this.depth++;
    try {
      if (chain.head.kind === "self") {
        const cls = this.names.enclosingClass(f, scope);
        return cls ? this.fromInstances([cls], chain.steps, true) : null;
      }
      const v = this.fromName(f, chain, scope);
      if (v) v.inferred = true;
      return v;
    } finally {
      this.depth--;
    }
  }

  private walk(start: ChainValue, steps: readonly Step[]): ChainValue {
    let v = start;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      const next = steps[i + 1];
      if (this.depth >= MAX_DEPTH) return none();
      this.depth++;
      try {
        if (step.kind === "member" && next?.kind === "parameter") {
          // `v.m<=j>`: parameter j of member m, a method or a function-typed property.
          v = this.memberParameter(v, step.name, next);
          i++;
        } else {
          switch (step.kind) {
            case "call":
              v = this.call(v);
              break;
            case "element":
              v = this.element(v);
              break;
            case "parameter":
              v = this.parameter(v, step);
              break;
            case "callback":
              v = this.callbackParameter(v, step);
              break;
            case "member":
              v = this.member(v, step.name, next?.kind === "call");
          }
        }
      } finally {
        this.depth--;
      }
      if (isEmpty(v)) break;
    }
    return v;
  }

  /**
   * `v.name`: a member symbol, or a field's declared type — the field's when it is read, not
   * `called`, and a method has its name (Rust `cmd.version` vs `cmd.version(..)`).
   */
  private member(v: ChainValue, name: string, called: boolean): ChainValue {
    const out: ChainValue = { ...none(), inferred: v.inferred };
    const classes = [...v.instances];
    for (const t of v.targets) {
      const typed = this.declaredInstances(t);
      if (typed) {
        classes.push(...typed);
        out.inferred = true;
        continue;
      }
      const found = this.names.memberOfTarget(t, name, 0);
      if (found.length) out.targets.push(...found);
      else if (t.kind === "symbol" && CLASS_LIKE.has(t.symbol.kind)) {
        merge(out, this.fieldType(t.symbol, name));
      }
    }
    for (const c of classes) {
      const ms = called || !this.fieldOnly(c, name) ? this.names.members(c, name) : [];
      if (ms.length) out.targets.push(...ms.map(symbolTarget));
      else merge(out, this.fieldType(c, name));
    }
    return out;
  }

  /** `v()`: a class called is its instance; a function its return type. */
  private call(v: ChainValue): ChainValue {
    const out: ChainValue = { ...none(), inferred: v.inferred };
    for (const t of v.targets) {
      if (t.kind === "external") out.targets.push(t);
      if (t.kind !== "symbol") continue;
      const s = t.symbol;
      if (CLASS_LIKE.has(s.kind)) out.instances.push(s);
      else if (s.kind === "function" || s.kind === "method" || s.kind === "constructor") {
        const r = this.declaredValue(s);
        if (r) merge(out, r);
        else if (this.names.children(s).some((c) => c.kind === "method")) {
          // No declared return type, an object literal returned: its methods are the value's.
          out.instances.push(s);
          out.inferred = true;
        }
      }
    }
    return out;
  }

  /**
   * `<=j>`: parameter j of the function the value is — of a function type (`type Op =
   * (source: Obs) => Obs`, an interface's call signature), a function or method, a class's
   * constructor, a variable of a function type; a method of an object literal takes its
   * parameter types from the member of the literal's type it stands for.
   */
  private parameter(v: ChainValue, slot: Slot & { kind: "parameter" }): ChainValue {
    const out: ChainValue = { ...none(), inferred: true };
    for (const c of v.instances) merge(out, this.classDeclared(c, null, slot));
    for (const t of v.targets) {
      if (t.kind !== "symbol") continue;
      const s = t.symbol;
      if (CLASS_LIKE.has(s.kind)) {
        for (const ctor of this.names.members(s, "constructor")) {
          merge(out, this.ownDeclared(ctor, slot));
        }
      } else if (VALUE_KINDS.has(s.kind)) {
        const typed = this.declaredValue(s);
        if (typed) merge(out, this.parameter(typed, slot));
      } else {
        const own = this.ownDeclared(s, slot);
        if (!isEmpty(own)) merge(out, own);
        else {
          for (const m of this.literalOf(s)) merge(out, this.ownDeclared(m, slot));
        }
      }
    }
    return out;
  }

  /** `v.name<=j>`: parameter j of member `name`, a method or a property of a function type. */
  private memberParameter(
    v: ChainValue,
    name: string,
    slot: Slot & { kind: "parameter" },
  ): ChainValue {
    const viaMember = this.parameter(this.member(v, name, true), slot);
    if (!isEmpty(viaMember)) return viaMember;
    const out: ChainValue = { ...none(), inferred: true };
    for (const c of this.classesOf(v)) merge(out, this.classDeclared(c, name, slot));
    return out;
  }

  /**
   * The members an object literal's method stands for: those of its name in the type the
   * literal has where it stands (`const o: T = { m() {} }`, `return { m() {} }` from a
   * function returning T).
   */
  literalOf(member: SymbolRecord): SymbolRecord[] {
    const f = this.names.fileOf(member);
    const type = f ? this.declaredIn(f).get(member.qualifiedName, LITERAL) : undefined;
    if (!f || type === undefined || this.depth >= MAX_DEPTH) return [];
    this.depth++;
    try {
      const v = this.typeValue(f, type, this.names.indexOf(member));
      return symbolsOf(this.membersOf(v, member.name)).filter((m) => m !== member);
    } finally {
      this.depth--;
    }
  }

  /** The object literal methods that stand for member `m` (see {@link literalOf}). */
  standIns(m: SymbolRecord): readonly SymbolRecord[] {
    if (!this.standInsOf) {
      this.standInsOf = new Map();
      for (const f of this.graph.files) {
        if (!f.part.literalSlots) continue;
        for (const d of this.declaredIn(f).inSlots("literal")) {
          const o = f.symbols.find((s) => s.qualifiedName === d.owner);
          for (const x of o ? this.literalOf(o) : []) {
            const list = this.standInsOf.get(x);
            if (list) list.push(o!);
            else this.standInsOf.set(x, [o!]);
          }
        }
      }
    }
    return this.standInsOf.get(m) ?? [];
  }

  /**
   * `<k:j>`: parameter j of a callback passed as argument k to the function `v` (to a
   * class: to its constructor), as the function declares it.
   */
  private callbackParameter(v: ChainValue, slot: Slot & { kind: "callback" }): ChainValue {
    const out: ChainValue = { ...none(), inferred: true };
    for (const t of v.targets) {
      if (t.kind !== "symbol") continue;
      const s = t.symbol;
      const f = this.names.fileOf(s);
      if (!f) continue;
      const declared = this.declaredIn(f);
      if (CLASS_LIKE.has(s.kind)) {
        const prefix = `${s.qualifiedName}.`;
        for (const d of declared.inSlots("callback")) {
          if (!d.owner.startsWith(prefix) || d.slot.arg !== slot.arg) continue;
          if (d.slot.param !== slot.param) continue;
          const member = d.owner.slice(prefix.length);
          const ctor = this.names.members(s, member).find((m) => m.kind === "constructor");
          if (ctor) merge(out, this.typeValue(f, d.type, this.names.indexOf(ctor)));
        }
        continue;
      }
      const type = declared.get(s.qualifiedName, slot);
      if (type !== undefined) merge(out, this.typeValue(f, type, this.names.indexOf(s)));
    }
    return out;
  }

  /** `v[i]`, `range v`: the elements of a sequence (of a named one too: `type Options []Option`). */
  private element(v: ChainValue): ChainValue {
    const out: ChainValue = { ...none(), instances: [...v.elements], inferred: v.inferred };
    for (const c of v.instances) {
      const seq = this.declaredValue(c);
      if (seq) out.instances.push(...seq.elements);
    }
    for (const t of v.targets) {
      const typed = t.kind === "symbol" && VALUE_KINDS.has(t.symbol.kind)
        ? this.declaredValue(t.symbol)
        : null;
      if (typed) out.instances.push(...typed.elements);
    }
    return out;
  }

  /** The instances a variable, constant or field symbol holds, from its declared type; null for other targets. */
  private declaredInstances(t: Target): SymbolRecord[] | null {
    if (t.kind !== "symbol" || !VALUE_KINDS.has(t.symbol.kind)) return null;
    return this.declaredValue(t.symbol)?.instances ?? null;
  }

  /** The value of a symbol's declared type (a function's: its return type), or null. */
  private declaredValue(s: SymbolRecord): ChainValue | null {
    const f = this.names.fileOf(s);
    const type = f ? this.declaredIn(f).get(s.qualifiedName) : undefined;
    if (!f || type === undefined) return null;
    return this.typeValue(f, type, this.names.indexOf(s));
  }

  /**
   * The value of field `name`'s declared type in `cls` or its bases; a tuple struct's field
   * `j` (Rust `self.0`) is as the struct declares its position j (`<=j>`, as a constructor's
   * parameter).
   */
  private fieldType(cls: SymbolRecord, name: string): ChainValue {
    return POSITION.test(name)
      ? this.classDeclared(cls, null, { kind: "parameter", index: Number(name) })
      : this.classDeclared(cls, name);
  }

  /**
   * The value of what `cls` or its bases declare for their member `member` (the class
   * itself when null) in `slot` (a field, parameter 0, `onFetch`'s parameter 1); a field's
   * type kept apart from a method's first.
   */
  private classDeclared(cls: SymbolRecord, member: string | null, slot?: Slot): ChainValue {
    const seen = new Set<SymbolRecord>();
    // Each class with the type arguments it is reached through (`%i` in a base's arguments
    // is the deriving class's own argument i).
    const queue: [SymbolRecord, readonly (TypeArgument | null)[]][] = [[cls, []]];
    for (let i = 0; i < queue.length && i < MAX_DEPTH * 4; i++) {
      const [c, args] = queue[i];
      if (seen.has(c)) continue;
      seen.add(c);
      const f = this.names.fileOf(c);
      if (!f) continue;
      const types = this.declaredIn(f);
      const owner = member === null ? c.qualifiedName : `${c.qualifiedName}.${member}`;
      const scope = this.names.indexOf(c);
      const type = types.get(owner, slot, true) ?? types.get(owner, slot);
      if (type !== undefined) {
        if (type.kind !== "generic") return this.typeValue(f, type, scope);
        const a = args[type.index];
        return a ? this.typeValue(a.file, a.type, a.scope) : none();
      }
      for (const b of this.names.bases(c)) {
        const given = types.baseArguments(c.qualifiedName, b.name) ?? [];
        queue.push([
          b,
          given.map((t): TypeArgument | null =>
            t.kind === "generic" ? args[t.index] ?? null : { file: f, type: t, scope }
          ),
        ]);
      }
    }
    return none();
  }

  /** The value of what symbol `s` declares in `slot` (its parameter 0), or none. */
  private ownDeclared(s: SymbolRecord, slot: Slot): ChainValue {
    const f = this.names.fileOf(s);
    const type = f ? this.declaredIn(f).get(s.qualifiedName, slot) : undefined;
    return f && type !== undefined ? this.typeValue(f, type, this.names.indexOf(s)) : none();
  }

  /** The classes a value is an instance of, variables' declared types included. */
  private classesOf(v: ChainValue): SymbolRecord[] {
    const out = [...v.instances];
    for (const t of v.targets) out.push(...(this.declaredInstances(t) ?? []));
    return out;
  }

  /** Whether `cls` declares a field `name` whose type is kept apart from a method's of that name. */
  private fieldOnly(cls: SymbolRecord, name: string): boolean {
    const f = this.names.fileOf(cls);
    return f !== undefined &&
      this.declaredIn(f).get(`${cls.qualifiedName}.${name}`, undefined, true) !== undefined;
  }

  /** A file's declared types (read on first use). */
  private declaredIn(f: GraphFile): DeclaredTypes {
    let d = this.declared.get(f);
    if (!d) this.declared.set(f, d = new DeclaredTypes(f.part.declared));
    return d;
  }
}

const LITERAL: Slot = { kind: "literal" };

/** A type argument: its type as written and where (to resolve its names there). */
interface TypeArgument {
  file: GraphFile;
  type: TypeRef;
  scope: number;
}

function none(): ChainValue {
  return { instances: [], elements: [], targets: [], inferred: false };
}

function external(): ChainValue {
  return { ...none(), targets: [{ kind: "external" }] };
}

function isEmpty(v: ChainValue): boolean {
  return v.instances.length === 0 && v.elements.length === 0 && v.targets.length === 0;
}

/** Adds `v`'s instances and elements to `out` (a declared type was followed: inferred). */
function merge(out: ChainValue, v: ChainValue): void {
  if (isEmpty(v)) return;
  out.instances.push(...v.instances);
  out.elements.push(...v.elements);
  out.targets.push(...v.targets.filter((t) => t.kind === "external"));
  out.inferred = true;
}

/** Whether a value leads only outside the project. */
export function isExternal(v: ChainValue): boolean {
  return v.instances.length === 0 && v.elements.length === 0 && v.targets.length > 0 &&
    v.targets.every((t) => t.kind === "external");
}
