/**
 * How parse tells graph what a value is: a type (`cobra.Command`, `[]Command`), the value of a
 * chain of members and calls (`this.getCache().get()`), or a type and steps from it (`Op`,
 * then parameter 0). Receivers' types and declared types are these records, built by
 * `parse/infer/` and followed by `graph/chains.ts`; `text.ts` writes them as the short text
 * tests and messages show.
 *
 * @module
 */

/** How a member step is written: `.b`, `::b`, `->b`, `\b`. */
export type Separator = "." | "::" | "->" | "\\";

/** One step along a chain. */
export type Step =
  /** A member by name (`.b`, `::b`; a tuple's field by position: `.0`). */
  | { kind: "member"; sep: Separator; name: string }
  /** A call: `()` (arguments are not kept). */
  | { kind: "call" }
  /** An element of a sequence: `xs[i]`, `for x of xs`. */
  | { kind: "element" }
  /** Parameter `param` of the callback passed as argument `arg` of the function before. */
  | { kind: "callback"; arg: number; param: number }
  /** Parameter `index` of the function the value is. */
  | { kind: "parameter"; index: number };

/** Where a chain starts: the enclosing instance (`this`, `self` in a value), or a name as written. */
export type Head = { kind: "self" } | { kind: "name"; name: string };

/** A head and the steps taken from it (`a.b().c`). */
export interface Chain {
  head: Head;
  steps: Step[];
}

/** What a value is. */
export type TypeRef =
  /** A type by its name as written, split at its separators (`cobra.Command`, `std::fs::File`). */
  | { kind: "path"; segments: string[]; separators: Separator[] }
  /** A sequence of a type (`[]Command`, `Foo[]`, `Array<Foo>`). */
  | { kind: "sequence"; of: TypeRef }
  /** An anonymous struct's fields and their types (Go `struct { flags []Flag }`). */
  | { kind: "shape"; fields: [string, TypeRef][] }
  /** A function type and the type of its (first) result (`func() *Command`). */
  | { kind: "function"; result: TypeRef }
  /** The enclosing class's type parameter `index` (`T` of `class Box<T>`). */
  | { kind: "generic"; index: number }
  /** The type of the value of a chain (`x = newThing()`, `self.x = Foo()`). */
  | { kind: "value"; chain: Chain }
  /** A type, then steps from it (`Op`, then parameter 0: a callback typed by where it stands). */
  | { kind: "stepped"; from: TypeRef; steps: Step[] }
  /** A type written in a way the graph cannot follow (`(a: A) => void`), kept as written. */
  | { kind: "written"; text: string };
