/**
 * What a member's receiver is, from the chain written before the member and what the
 * scopes around know of its head: the enclosing instance, a typed value (and the steps
 * after its type), a local, a name, or an expression (`facts/records.ts` `Receiver`).
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { Receiver } from "../../facts/records.ts";
import { receiverText, SELF_HEAD, stepsText } from "../../facts/text.ts";
import type { Chain, Step, TypeRef } from "../../facts/type_ref.ts";
import type { ReceiverKind } from "../../types.ts";
import { type Locals, type LocalType, lookup, lookupAt, type Scope, valuesOf } from "../scopes.ts";
import {
  CHAIN_HEAD,
  chainOf,
  type Declared,
  splitTop,
  thenSteps,
  typeName,
  writtenType,
} from "./types.ts";

/** What a value is read through where it stands: the file's scopes, locals and self words. */
export interface Reading {
  scopes: readonly Scope[];
  locals: Locals;
  selfWords: ReadonlySet<string>;
}

/**
 * What a member's receiver is: `self`, a typed value, a local, a name or an expression.
 *
 * A receiver that names the instance is kept as a chain too (`super(C, self)` is `super()`).
 * A receiver that is a chain of members and calls (`this.#client.getQueryCache()`,
 * `c.parent`, `pkg.New()`) keeps the chain, normalized by {@link chainOf}: headed by a word
 * of `selfWords` it is `self` (`this.#client`); headed by a local of known type `T` it is
 * `typed` as `T` then the rest of the chain; headed by a local bound to a value
 * (`x := newThing()`) the value's chain takes the local's place; otherwise it is a `name`
 * (`pkg.New()`). The graph follows the chain through declared types.
 */
export function classifyReceiver(
  receiver: Pick<Node, "text">,
  how: { self: boolean; typed: boolean; start?: number },
  stack: readonly Scope[],
  fileTypes: ReadonlyMap<string, LocalType>,
  selfWords: ReadonlySet<string> = NO_WORDS,
): [ReceiverKind, Receiver | null] {
  const text = receiver.text;
  if (how.self) {
    // `function (this: T)` types `this` in that function.
    const bound = lookup(stack, text);
    if (bound && bound.kind !== "value" && bound.kind !== "values") {
      return ["typed", { kind: "type", type: bound }];
    }
    const chain = chainOf(text);
    return ["self", chain ? { kind: "chain", chain } : null];
  }
  if (how.typed) return ["typed", { kind: "type", type: typeName(text) }];
  const chain = chainOf(text);
  if (chain === null) return ["expr", null];
  return classifyChain(chain, stack, fileTypes, selfWords, 0, how.start ?? -1);
}

const NO_WORDS: ReadonlySet<string> = new Set();

/** {@link classifyReceiver} of a chain, read at offset `pos`, `depth` locals deep. */
export function classifyChain(
  chain: Chain,
  stack: readonly Scope[],
  fileTypes: ReadonlyMap<string, LocalType>,
  selfWords: ReadonlySet<string>,
  depth: number,
  pos: number,
): [ReceiverKind, Receiver | null] {
  const named: Receiver = { kind: "chain", chain };
  // A chain that starts at the instance already (a declared value's) is no local's.
  if (chain.head.kind === "self") return ["name", named];
  const head = chain.head.name;
  const rest = chain.steps;
  // `this.x`; `this` itself when a local holds it (`const self = this`).
  if ((rest.length || depth > 0) && selfWords.has(head)) return ["self", named];
  const bound = lookupAt(stack, head, pos);
  // A value's chain is read where it was bound (`let x = x.m()`: the `x` before).
  const site = bound?.[1] ?? pos;
  const type = bound !== undefined ? bound[0] : fileTypes.get(head);
  if (type === undefined) return ["name", named];
  if (type === null) return rest.length ? ["expr", null] : ["local", named];
  if (type.kind === "value" || type.kind === "values") {
    // A local bound to a value: its chain takes the local's place (`x := f(); x.m()`).
    if (depth >= 4) return ["expr", null];
    const through = (t: TypeRef) =>
      classifyChain(
        t.kind === "value" ? { head: t.chain.head, steps: [...t.chain.steps, ...rest] } : chain,
        stack,
        fileTypes,
        selfWords,
        depth + 1,
        site,
      );
    const alternatives = valuesOf(type);
    if (alternatives.length > 1) {
      // Values to try in turn, as one receiver of alternatives when they are of one kind.
      const each = alternatives.map(through);
      const [kind] = each[0];
      if (each.every(([k, r]) => k === kind && r !== null)) {
        const options = each.flatMap(([, r]) => r!.kind === "either" ? r!.options : [r!]);
        return [kind, { kind: "either", options }];
      }
      return each.find(([k]) => k !== "expr") ?? each[0];
    }
    return through(alternatives[0]);
  }
  if (isShape(type)) {
    // An anonymous struct (a test table's row), a local function: read here.
    const read = throughShape(type, rest);
    if (read === null) return rest.length ? ["expr", null] : ["local", named];
    const [inner, steps] = read;
    const shaped: TypeRef = steps.length === 0
      ? inner
      : inner.kind === "written"
      ? { kind: "written", text: `${inner.text} ${stepsText(steps)}` }
      : { kind: "stepped", from: inner, steps };
    return ["typed", { kind: "type", type: shaped }];
  }
  return ["typed", { kind: "type", type: thenSteps(type, rest) }];
}

/**
 * Whether steps through a type are read here: an anonymous struct, a function type, a type
 * written as one (`{a:T}`, `() => T`), sequences of them.
 */
function isShape(t: TypeRef): boolean {
  while (t.kind === "sequence") t = t.of;
  return t.kind === "shape" || t.kind === "function" ||
    (t.kind === "written" && /^(?:\{|\(\))/.test(t.text));
}

/**
 * Steps taken through an anonymous struct type (see {@link structShape}), a function's
 * (a call gives its result) and sequences of them: `[]{flags:[]Flag}` and `[].flags[]` give
 * `Flag` and no steps left. Returns the first type that is no shape and the steps left after
 * it, or null when a step does not fit the shape (an unknown field) or the chain ends inside
 * one.
 */
function throughShape(type: TypeRef, rest: readonly Step[]): [TypeRef, Step[]] | null {
  let t = type;
  let i = 0;
  for (; isShape(t); i++) {
    const step = rest[i];
    let inner: TypeRef | null | undefined = null;
    if (step?.kind === "element") inner = t.kind === "sequence" ? t.of : null;
    else if (step?.kind === "call") {
      inner = t.kind === "function"
        ? t.result
        : t.kind === "written" && t.text.startsWith("()")
        ? writtenType(t.text.slice(2))
        : null;
    } else if (step?.kind === "member" && step.sep === "." && FIELD_NAME.test(step.name)) {
      inner = t.kind === "shape"
        ? t.fields.find(([n]) => n === step.name)?.[1]
        : t.kind === "written" && t.text.startsWith("{")
        ? writtenField(t.text, step.name)
        : undefined;
    }
    if (!inner) return null;
    t = inner;
  }
  return [t, rest.slice(i)];
}

/** A field name a step through a shape may take. */
const FIELD_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/** The type of field `name` in a type written as a shape (`{name:T;…}`), or undefined. */
function writtenField(shape: string, name: string): TypeRef | undefined {
  for (const field of splitTop(shape.slice(1, -1), ";")) {
    const colon = field.indexOf(":");
    if (field.slice(0, colon) === name) return writtenType(field.slice(colon + 1));
  }
  return undefined;
}

/**
 * Value chains of a file's declared types read where they stand: the contextual type of each
 * object literal member that has one becomes a declared type (slot `literal`); a value
 * assigned from a local (`self.command = command`) is of the local's type there.
 */
export function readValues(
  declared: Declared[],
  literals: readonly [Node, TypeRef, number][],
  at: Reading,
): void {
  for (const [name, type, pos] of literals) {
    const read = readValue(at, type, pos);
    if (read !== null) {
      declared.push({ name, type: read, assigned: false, slot: { kind: "literal" } });
    }
  }
  // A value assigned from a local (`self.command = command`) is of the local's type there.
  for (const d of declared) {
    if (d.assigned && d.type?.kind === "value") {
      d.type = readValue(at, d.type, d.name.startIndex);
    }
  }
}

/**
 * A type that is a value chain (`source.subscribe`, parameter 0) with its head read where it
 * is used at `pos`: a local of known type gives its type (`Observable`, then the steps), the
 * enclosing instance a chain from it; other chains stay; a local of unknown type gives null.
 */
function readValue(at: Reading, type: TypeRef, pos: number): TypeRef | null {
  if (type.kind !== "value") return type;
  const { head, steps } = type.chain;
  const stack = at.scopes.filter((s) => s.start <= pos && pos < s.end);
  const [kind, read] = classifyChain(
    { head, steps: [] },
    stack,
    at.locals.fileTypes,
    at.selfWords,
    0,
    pos,
  );
  if (read === null || (kind !== "typed" && kind !== "name" && kind !== "self")) return null;
  if (read.kind === "either") {
    // Alternatives the graph does not read in a declared type: kept as they are written.
    const text = receiverText(read);
    const after = stepsText(steps);
    if (kind === "typed") {
      return { kind: "written", text: text + (text.includes(" ") || !after ? "" : " ") + after };
    }
    const first = CHAIN_HEAD.exec(text)?.[0];
    const self = first !== undefined && at.selfWords.has(first);
    return {
      kind: "written",
      text: `=${self ? SELF_HEAD + text.slice(first.length) : text}${after}`,
    };
  }
  if (read.kind === "type") return thenSteps(read.type, steps);
  // (A chain headed by the instance is spelled so by `declaredTypes`.)
  return {
    kind: "value",
    chain: { head: read.chain.head, steps: [...read.chain.steps, ...steps] },
  };
}
