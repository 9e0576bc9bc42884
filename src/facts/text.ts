/**
 * The facts as short text, for tests, messages and a call as written (`get_call_graph`'s
 * `pkg.New().Run`): a type (`[]Command`, `=#self.make()`: the value of a chain, `Op <=0>`: a
 * type then steps), a chain, a receiver (`a|b`: values tried in turn), a declared type as a
 * key and a type (`Query.observers` `[]Obs`). Text only goes out: nothing reads it back (the
 * graph reads the records, `codec.ts` stores them).
 *
 * @module
 */

import type { DeclaredType, Receiver, Slot } from "./records.ts";
import type { Chain, Step, TypeRef } from "./type_ref.ts";

/** The head written for a value chain that starts at the enclosing instance (`this`, `self`). */
export const SELF_HEAD = "#self";
/** Key suffix of a field's type kept apart from a method of the field's name. */
const FIELD_KEY = " field";
/** Key suffix of an object literal member's contextual type. */
const LITERAL_KEY = " in";
/** Key suffix of the type arguments a class gives a base. */
const BASE_KEY = " base";

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
