/**
 * Receiver chains: what `a.b.c()` is reached through when `a` is `this`, a typed local or a
 * name, and `b`, `c()` are fields and calls. Each step goes through what the code declares:
 * a field's or property's type, a variable's type, a function's or method's return type
 * (`ParsedFile.types`, from the `@declared.*` captures of the query files), or the value it
 * is assigned (`this.x = new Foo()`, `x := newThing()`). Knows no language.
 *
 * A chain is the text the parser keeps for a receiver (`parse/local_scopes.ts` `chainOf`):
 * a head, then member steps (`.b`, `::b`, `->b`) and calls (`()`).
 *
 * @module
 */

import { BASE_KEY, FIELD_KEY, LITERAL_KEY } from "../parse/declared.ts";
import { CHAIN_HEAD, SELF_HEAD } from "../parse/local_scopes.ts";
import type { SymbolRecord } from "../types.ts";
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

/**
 * One step of a chain: a member by name, a call (null), an element (`[]`), a callback's
 * parameter (`<k:j>`: parameter j of the callback passed as argument k) or a function's
 * parameter (`<=j>`: parameter j of the function the value is).
 */
type Step = string | null;
const ELEMENT = "[]";
const PARAMETER = "<=";

const STEP = /(\.|::|->|\\)([$@#]*[\p{L}_][\p{L}\p{N}_]*|\d+\b)|\(\)|(\[\])|(<\d+:\d+>|<=\d+>)/gu;
const SEPARATOR = /\.|::|->|\\/;
const VARIABLE_KINDS = new Set(["variable", "constant", "field"]);
/** A tuple's field: its position. */
const POSITION = /^\d+$/;

/** Follows receiver chains of one graph; owned by its name resolver. */
export class Chains {
  private declared: Map<GraphFile, Map<string, string>> | null = null;
  private standInsOf: Map<SymbolRecord, SymbolRecord[]> | null = null;
  private depth = 0;

  constructor(private readonly graph: CodeGraph, private readonly names: ChainLookup) {}

  /** The head of a chain and its steps (`a.b().c` → `a`, [`b`, call, `c`]). */
  split(chain: string): { head: string; steps: Step[] } {
    const head = CHAIN_HEAD.exec(chain)?.[0] ?? "";
    const steps: Step[] = [];
    for (const m of chain.slice(head.length).matchAll(STEP)) {
      steps.push(m[2] ?? (m[3] ? ELEMENT : m[4] ?? null));
    }
    return { head, steps };
  }

  /** The value of an instance of `classes` after `steps`. */
  fromInstances(classes: SymbolRecord[], steps: readonly Step[], inferred: boolean): ChainValue {
    return this.walk({ ...none(), instances: classes, inferred }, steps);
  }

  /** The value of a declared type after `steps`. */
  fromType(start: ChainValue, steps: readonly Step[]): ChainValue {
    return this.walk(start, steps);
  }

  /** The value of a name chain (`pkg.New().x`) used in file `f` at symbol `scope`; null when its head is unknown. */
  fromName(f: GraphFile, chain: string, scope: number): ChainValue | null {
    const { head, steps } = this.split(chain);
    const targets = this.names.name(f, head, scope, 0);
    if (targets.length === 0) {
      if (f.externalNames.has(head)) return external();
      // Java, C#…: a bare name in a method may be a field of the enclosing class.
      const cls = f.resolver?.implicitThis ? this.names.enclosingClass(f, scope) : null;
      if (!cls) return null;
      const v = this.walk({ ...none(), instances: [cls] }, [head, ...steps]);
      return isEmpty(v) ? null : v;
    }
    return this.walk({ ...none(), targets }, steps);
  }

  /**
   * The value a name of type `text` holds, the type declared in `f` at symbol `scope`: a
   * type path (`cobra.Command`), a sequence of one (`[]Command`), or `=` and the chain of
   * the value assigned.
   */
  typeValue(f: GraphFile, text: string, scope: number): ChainValue {
    const space = text.indexOf(" ");
    if (space > 0 && !text.startsWith("=")) {
      // A type and steps from it (`Op <=0>`: parameter 0 of the function type Op).
      const start = this.typeValue(f, text.slice(0, space), scope);
      return isEmpty(start) ? start : this.walk(start, this.split(text.slice(space)).steps);
    }
    if (text.startsWith("=")) {
      const v = this.valueOf(f, text.slice(1), scope);
      return v ? { ...v, inferred: true } : none();
    }
    if (text.startsWith(ELEMENT)) {
      const inner = this.typeValue(f, text.slice(ELEMENT.length), scope);
      return { ...none(), elements: inner.instances, inferred: true };
    }
    const owners = this.names.path(f, text.split(SEPARATOR).filter(Boolean), scope) ?? [];
    return {
      ...none(),
      instances: symbolsOf(owners).filter((s) => CLASS_LIKE.has(s.kind)),
      targets: owners.filter((t) => t.kind === "external"),
      inferred: true,
    };
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
  private valueOf(f: GraphFile, chain: string, scope: number): ChainValue | null {
    if (this.depth >= MAX_DEPTH) return null;
    this.depth++;
    try {
      const { head, steps } = this.split(chain);
      if (head === SELF_HEAD) {
        const cls = this.names.enclosingClass(f, scope);
        return cls ? this.fromInstances([cls], steps, true) : null;
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
        if (step !== null && !step.startsWith("<") && next?.startsWith(PARAMETER)) {
          // `v.m<=j>`: parameter j of member m, a method or a function-typed property.
          v = this.memberParameter(v, step, next);
          i++;
        } else {
          v = step === null
            ? this.call(v)
            : step === ELEMENT
            ? this.element(v)
            : step.startsWith(PARAMETER)
            ? this.parameter(v, step)
            : step.startsWith("<")
            ? this.callbackParameter(v, step)
            : this.member(v, step, next === null);
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
  private parameter(v: ChainValue, slot: string): ChainValue {
    const out: ChainValue = { ...none(), inferred: true };
    for (const c of v.instances) merge(out, this.classDeclared(c, slot));
    for (const t of v.targets) {
      if (t.kind !== "symbol") continue;
      const s = t.symbol;
      if (CLASS_LIKE.has(s.kind)) {
        for (const ctor of this.names.members(s, "constructor")) {
          merge(out, this.ownDeclared(ctor, slot));
        }
      } else if (VARIABLE_KINDS.has(s.kind)) {
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
  private memberParameter(v: ChainValue, name: string, slot: string): ChainValue {
    const viaMember = this.parameter(this.member(v, name, true), slot);
    if (!isEmpty(viaMember)) return viaMember;
    const out: ChainValue = { ...none(), inferred: true };
    for (const c of this.classesOf(v)) merge(out, this.classDeclared(c, `.${name}${slot}`));
    return out;
  }

  /**
   * The members an object literal's method stands for: those of its name in the type the
   * literal has where it stands (`const o: T = { m() {} }`, `return { m() {} }` from a
   * function returning T).
   */
  literalOf(member: SymbolRecord): SymbolRecord[] {
    const f = this.names.fileOf(member);
    const text = f ? this.declaredIn(f).get(member.qualifiedName + LITERAL_KEY) : undefined;
    if (!f || text === undefined || this.depth >= MAX_DEPTH) return [];
    this.depth++;
    try {
      const v = this.typeValue(f, text, this.names.indexOf(member));
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
        for (const [key] of this.declaredIn(f)) {
          if (!key.endsWith(LITERAL_KEY)) continue;
          const qualified = key.slice(0, -LITERAL_KEY.length);
          const o = f.symbols.find((s) => s.qualifiedName === qualified);
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
  private callbackParameter(v: ChainValue, slot: string): ChainValue {
    const out: ChainValue = { ...none(), inferred: true };
    for (const t of v.targets) {
      if (t.kind !== "symbol") continue;
      const s = t.symbol;
      const f = this.names.fileOf(s);
      if (!f) continue;
      const declared = this.declaredIn(f);
      if (CLASS_LIKE.has(s.kind)) {
        const prefix = `${s.qualifiedName}.`;
        for (const [key, text] of declared) {
          if (!key.startsWith(prefix) || !key.endsWith(slot)) continue;
          const member = key.slice(prefix.length, key.length - slot.length);
          const ctor = this.names.members(s, member).find((m) => m.kind === "constructor");
          if (ctor) merge(out, this.typeValue(f, text, this.names.indexOf(ctor)));
        }
        continue;
      }
      const text = declared.get(s.qualifiedName + slot);
      if (text !== undefined) merge(out, this.typeValue(f, text, this.names.indexOf(s)));
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
      const typed = t.kind === "symbol" && VARIABLE_KINDS.has(t.symbol.kind)
        ? this.declaredValue(t.symbol)
        : null;
      if (typed) out.instances.push(...typed.elements);
    }
    return out;
  }

  /** The instances a variable, constant or field symbol holds, from its declared type; null for other targets. */
  private declaredInstances(t: Target): SymbolRecord[] | null {
    if (t.kind !== "symbol" || !VARIABLE_KINDS.has(t.symbol.kind)) return null;
    return this.declaredValue(t.symbol)?.instances ?? null;
  }

  /** The value of a symbol's declared type (a function's: its return type), or null. */
  private declaredValue(s: SymbolRecord): ChainValue | null {
    const f = this.names.fileOf(s);
    const text = f ? this.declaredIn(f).get(s.qualifiedName) : undefined;
    if (!f || text === undefined) return null;
    return this.typeValue(f, text, this.names.indexOf(s));
  }

  /**
   * The value of field `name`'s declared type in `cls` or its bases; a tuple struct's field
   * `j` (Rust `self.0`) is as the struct declares its position j (`<=j>`, as a constructor's
   * parameter).
   */
  private fieldType(cls: SymbolRecord, name: string): ChainValue {
    return this.classDeclared(cls, POSITION.test(name) ? `<=${name}>` : `.${name}`);
  }

  /**
   * The value of what `cls` or its bases declare under the class's name and `suffix`
   * (`.field`, `<=0>`, `.onFetch<=1>`); a field's own key (`FIELD_KEY`) first.
   */
  private classDeclared(cls: SymbolRecord, suffix: string): ChainValue {
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
      const key = c.qualifiedName + suffix;
      const scope = this.names.indexOf(c);
      const text = types.get(key + FIELD_KEY) ?? types.get(key);
      if (text !== undefined) {
        const param = GENERIC.exec(text);
        if (!param) return this.typeValue(f, text, scope);
        const a = args[Number(param[1])];
        return a ? this.typeValue(a.file, a.text, a.scope) : none();
      }
      for (const b of this.names.bases(c)) {
        const given = types.get(`${c.qualifiedName}.${b.name}${BASE_KEY}`)?.split(",") ?? [];
        queue.push([
          b,
          given.map((t) => {
            const param = GENERIC.exec(t);
            return param ? args[Number(param[1])] ?? null : { file: f, text: t, scope };
          }),
        ]);
      }
    }
    return none();
  }

  /** The value of what symbol `s` declares under its name and `suffix` (`<=0>`), or none. */
  private ownDeclared(s: SymbolRecord, suffix: string): ChainValue {
    const f = this.names.fileOf(s);
    const text = f ? this.declaredIn(f).get(s.qualifiedName + suffix) : undefined;
    return f && text !== undefined ? this.typeValue(f, text, this.names.indexOf(s)) : none();
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
    return f !== undefined && this.declaredIn(f).has(`${cls.qualifiedName}.${name}${FIELD_KEY}`);
  }

  /** A file's declared types by key (built for every file on first use). */
  private declaredIn(f: GraphFile): Map<string, string> {
    if (!this.declared) {
      this.declared = new Map();
      for (const g of this.graph.files) {
        if (g.part.types?.length) this.declared.set(g, new Map(g.part.types));
      }
    }
    return this.declared.get(f) ?? EMPTY;
  }
}

const EMPTY: Map<string, string> = new Map();

/** A type argument: its type as written and where (to resolve its names there). */
interface TypeArgument {
  file: GraphFile;
  text: string;
  scope: number;
}

/** A declared type that is the enclosing class's type parameter i (`%i`). */
const GENERIC = /^%(\d+)$/;

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
