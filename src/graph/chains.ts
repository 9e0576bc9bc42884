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

import { FIELD_KEY } from "../parse/declared.ts";
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
 * One step of a chain: a member by name, a call (null), an element (`[]`) or a callback's
 * parameter (`<k:j>`: parameter j of the callback passed as argument k).
 */
type Step = string | null;
const ELEMENT = "[]";

const STEP = /(\.|::|->|\\)([$@#]*[\p{L}_][\p{L}\p{N}_]*)|\(\)|(\[\])|(<\d+:\d+>)/gu;
const SEPARATOR = /\.|::|->|\\/;
const VARIABLE_KINDS = new Set(["variable", "constant", "field"]);

/** Follows receiver chains of one graph; owned by its name resolver. */
export class Chains {
  private declared: Map<GraphFile, Map<string, string>> | null = null;
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
    for (const [i, step] of steps.entries()) {
      if (this.depth >= MAX_DEPTH) return none();
      this.depth++;
      try {
        v = step === null
          ? this.call(v)
          : step === ELEMENT
          ? this.element(v)
          : step.startsWith("<")
          ? this.callbackParameter(v, step)
          : this.member(v, step, steps[i + 1] === null);
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
      }
    }
    return out;
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

  /** The value of field `name`'s declared type in `cls` or its bases. */
  private fieldType(cls: SymbolRecord, name: string): ChainValue {
    const seen = new Set<SymbolRecord>();
    const queue = [cls];
    for (let i = 0; i < queue.length && i < MAX_DEPTH * 4; i++) {
      const c = queue[i];
      if (seen.has(c)) continue;
      seen.add(c);
      const f = this.names.fileOf(c);
      const types = f ? this.declaredIn(f) : EMPTY;
      const key = `${c.qualifiedName}.${name}`;
      const text = types.get(key + FIELD_KEY) ?? types.get(key);
      if (f && text !== undefined) return this.typeValue(f, text, this.names.indexOf(c));
      queue.push(...this.names.bases(c));
    }
    return none();
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
