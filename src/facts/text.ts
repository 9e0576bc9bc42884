/**
 * The facts as text, both ways: `textOf` writes a type, a chain, a receiver, a declared type
 * as they were stored up to store format 10 (`=newThing()`, `[]Command`, `Op <=0>`,
 * `Query.observers`); `typeRefOf` and the other readers read that text back. Each reader is
 * the exact inverse of its writer on every text parse produces.
 *
 * @module
 */

import type { ReceiverKind } from "../types.ts";
import type { DeclaredType, Receiver, Slot } from "./records.ts";
import type { Chain, Separator, Step, TypeRef } from "./type_ref.ts";

/** The head written for a value chain that starts at the enclosing instance (`this`, `self`). */
export const SELF_HEAD = "#self";
/** Key suffix of a field's type kept apart from a method of the field's name. */
const FIELD_KEY = " field";
/** Key suffix of an object literal member's contextual type. */
const LITERAL_KEY = " in";
/** Key suffix of the type arguments a class gives a base. */
const BASE_KEY = " base";

const NAME = String.raw`[$@#]*[\p{L}_][\p{L}\p{N}_]*`;
const HEAD = new RegExp(`^${NAME}`, "u");
const STEP = new RegExp(
  String.raw`^(?:(\.|::|->|\\)(${NAME}|\d+)|(\(\))|(\[\])|<(\d+):(\d+)>|<=(\d+)>)`,
  "u",
);
const SEPARATOR = /(\.|::|->|\\)/;

/** A step as text. */
export function stepText(s: Step): string {
  switch (s.kind) {
    case "member":
      return s.sep + s.name;
    case "call":
      return "()";
    case "element":
      return "[]";
    case "callback":
      return `<${s.arg}:${s.param}>`;
    case "parameter":
      return `<=${s.index}>`;
  }
}

/** Steps as text (`.b().c<0:1>`). */
export function stepsText(steps: readonly Step[]): string {
  let out = "";
  for (const s of steps) out += stepText(s);
  return out;
}

/** A chain as text (`this.#client.getQueryCache()`, `#self.make()`). */
export function chainText(c: Chain): string {
  return (c.head.kind === "self" ? SELF_HEAD : c.head.name) + stepsText(c.steps);
}

/** Steps read from text (each as {@link stepText} writes it), or null when the text is other. */
export function stepsOf(text: string): Step[] | null {
  const steps: Step[] = [];
  let i = 0;
  while (i < text.length) {
    const m = STEP.exec(text.slice(i));
    if (!m) return null;
    if (m[1] !== undefined) steps.push({ kind: "member", sep: m[1] as Separator, name: m[2] });
    else if (m[3] !== undefined) steps.push({ kind: "call" });
    else if (m[4] !== undefined) steps.push({ kind: "element" });
    else if (m[5] !== undefined) steps.push({ kind: "callback", arg: +m[5], param: +m[6] });
    else steps.push({ kind: "parameter", index: +m[7] });
    i += m[0].length;
  }
  return steps;
}

/** A chain read from text, or null when the text is no chain. */
export function chainOfText(text: string): Chain | null {
  const head = HEAD.exec(text)?.[0];
  if (head === undefined) return null;
  const steps = stepsOf(text.slice(head.length));
  if (steps === null) return null;
  return { head: head === SELF_HEAD ? { kind: "self" } : { kind: "name", name: head }, steps };
}

/** A type as text. */
export function textOf(t: TypeRef): string {
  switch (t.kind) {
    case "path": {
      let out = t.segments[0];
      for (let i = 1; i < t.segments.length; i++) out += t.separators[i - 1] + t.segments[i];
      return out;
    }
    case "sequence":
      return "[]" + textOf(t.of);
    case "shape":
      return `{${t.fields.map(([n, f]) => `${n}:${textOf(f)}`).join(";")}}`;
    case "function":
      return "()" + textOf(t.result);
    case "generic":
      return `%${t.index}`;
    case "value":
      return "=" + chainText(t.chain);
    case "stepped":
      return `${textOf(t.from)} ${stepsText(t.steps)}`;
    case "written":
      return t.text;
  }
}

/** A type read from text; what fits no other form is `written`. */
export function typeRefOf(text: string): TypeRef {
  return readType(text) ?? { kind: "written", text };
}

function readType(text: string): TypeRef | null {
  if (text.startsWith("=")) {
    const chain = chainOfText(text.slice(1));
    return chain ? { kind: "value", chain } : null;
  }
  const space = text.indexOf(" ");
  if (space >= 0) {
    const from = readType(text.slice(0, space));
    const steps = stepsOf(text.slice(space + 1));
    return from && steps && from.kind !== "stepped" ? { kind: "stepped", from, steps } : null;
  }
  if (/\s/.test(text)) return null;
  if (text.startsWith("[]")) {
    const of = readType(text.slice(2));
    return of ? { kind: "sequence", of } : null;
  }
  if (text.startsWith("{") && text.endsWith("}")) return readShape(text);
  if (text.startsWith("()") && text.length > 2) {
    const result = readType(text.slice(2));
    return result ? { kind: "function", result } : null;
  }
  const generic = /^%(\d+)$/.exec(text);
  if (generic && String(+generic[1]) === generic[1]) return { kind: "generic", index: +generic[1] };
  if (/^[{(]/.test(text)) return null;
  const parts = text.split(SEPARATOR);
  const segments: string[] = [];
  const separators: Separator[] = [];
  parts.forEach((p, i) => i % 2 ? separators.push(p as Separator) : segments.push(p));
  return { kind: "path", segments, separators };
}

/** `{name:T;…}` read back, or null. */
function readShape(text: string): TypeRef | null {
  const fields: [string, TypeRef][] = [];
  const body = text.slice(1, -1);
  if (body === "") return { kind: "shape", fields };
  for (const field of splitTop(body, ";")) {
    const colon = field.indexOf(":");
    if (colon <= 0) return null;
    const type = readType(field.slice(colon + 1));
    if (!type) return null;
    fields.push([field.slice(0, colon), type]);
  }
  const shape: TypeRef = { kind: "shape", fields };
  return textOf(shape) === text ? shape : null;
}

/** `text` split at `sep` outside brackets and braces. */
export function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "{" || ch === "(" || ch === "[") depth++;
    else if (ch === "}" || ch === ")" || ch === "]") depth--;
    else if (depth === 0 && ch === sep) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** A receiver as text: a chain, a type, alternatives joined by `|`. */
export function receiverText(r: Receiver): string {
  switch (r.kind) {
    case "chain":
      return chainText(r.chain);
    case "type":
      return textOf(r.type);
    case "either":
      return r.options.map(receiverText).join("|");
  }
}

/** A receiver of kind `kind` read from text, or null when the text is no receiver of it. */
export function receiverOf(kind: ReceiverKind, text: string): Receiver | null {
  const options = text.split("|");
  if (options.length > 1) {
    const read = options.map((o) => receiverOf(kind, o));
    return read.every((r) => r !== null && r.kind !== "either")
      ? { kind: "either", options: read as Receiver[] }
      : null;
  }
  if (kind === "typed") return { kind: "type", type: typeRefOf(text) };
  const chain = chainOfText(text);
  return chain ? { kind: "chain", chain } : null;
}

/** A slot as the text its key ends with. */
function slotText(slot: Slot | undefined): string {
  if (!slot) return "";
  switch (slot.kind) {
    case "callback":
      return `<${slot.arg}:${slot.param}>`;
    case "parameter":
      return `<=${slot.index}>`;
    case "literal":
      return LITERAL_KEY;
  }
}

/** A declared type as the `[key, type]` text it was stored as. */
export function declaredText(d: DeclaredType): [string, string] {
  const field = d.field ? FIELD_KEY : "";
  if (d.kind === "base") return [d.owner + BASE_KEY + field, d.args.map(textOf).join(",")];
  return [d.owner + slotText(d.slot) + field, textOf(d.type)];
}

/** A declared type read from its `[key, type]` text. */
export function declaredOf([key, text]: readonly [string, string]): DeclaredType {
  let owner = key;
  const field = owner.endsWith(FIELD_KEY);
  if (field) owner = owner.slice(0, -FIELD_KEY.length);
  const flag = field ? { field: true as const } : {};
  if (owner.endsWith(BASE_KEY)) {
    return {
      kind: "base",
      owner: owner.slice(0, -BASE_KEY.length),
      ...flag,
      args: text.split(",").map(typeRefOf),
    };
  }
  let slot: Slot | undefined;
  const m = /<(\d+):(\d+)>$|<=(\d+)>$/.exec(owner);
  if (owner.endsWith(LITERAL_KEY)) {
    slot = { kind: "literal" };
    owner = owner.slice(0, -LITERAL_KEY.length);
  } else if (m && (m[1] === undefined || String(+m[1]) === m[1]) && sameNumber(m[2] ?? m[3])) {
    slot = m[1] !== undefined
      ? { kind: "callback", arg: +m[1], param: +m[2] }
      : { kind: "parameter", index: +m[3] };
    owner = owner.slice(0, m.index);
  }
  return { kind: "type", owner, ...(slot ? { slot } : {}), ...flag, type: typeRefOf(text) };
}

/** Whether a number's digits are written as the number is (no leading zeros). */
function sameNumber(digits: string): boolean {
  return String(+digits) === digits;
}
