/**
 * The captures of the reference half of a query file (see the table in `parser.ts`): the
 * role of each capture name, and one match's captures read by role.
 *
 * @module
 */

import { REFERENCE_KINDS, type ReferenceKind } from "../types.ts";
import { CAPTURE_INTS } from "./matches.ts";

/** What a reference/import/local capture means. */
export type RefRole =
  | { readonly role: "reference"; readonly kind: ReferenceKind | "ignore" }
  | {
    readonly role:
      | "receiver"
      | "receiver.self"
      | "receiver.type"
      | "receiver.tail"
      | "import.module"
      | "import.name"
      | "import.alias"
      | "import.kind"
      | "import.default"
      | "import.wildcard"
      | "import.statement"
      | "local.scope"
      | "local.definition"
      | "local.type"
      | "local.outer"
      | "local.value"
      | "local.element"
      | "local.destructured"
      | "local.callee"
      | "local.contextual"
      | "local.injected"
      | "declared.argument"
      | "declared.parameter"
      | "declared.name"
      | "declared.type"
      | "declared.value"
      | "declared.literal"
      | "declared.context"
      | "declared.holder"
      | "declared.member"
      | "declared.callee"
      | "declared.generic"
      | "declared.base"
      | "declared.arguments"
      | "package";
  };

/** The kinds a `@reference.KIND` capture may name (a definition is named by the definitions). */
const REF_KINDS: ReadonlySet<string> = new Set([
  ...REFERENCE_KINDS.filter((k) => k !== "definition"),
  "ignore",
]);

const PLAIN_ROLES: ReadonlySet<string> = new Set([
  "import.module",
  "import.name",
  "import.alias",
  "import.kind",
  "import.default",
  "import.wildcard",
  "import.statement",
  "local.scope",
  "local.definition",
  "local.type",
  "local.outer",
  "local.value",
  "local.element",
  "local.destructured",
  "local.callee",
  "local.contextual",
  "local.injected",
  "declared.argument",
  "declared.parameter",
  "declared.name",
  "declared.type",
  "declared.value",
  "declared.literal",
  "declared.context",
  "declared.holder",
  "declared.member",
  "declared.callee",
  "declared.generic",
  "declared.base",
  "declared.arguments",
  "package",
]);

/**
 * The role of a capture name, or undefined when it is none of this module's
 * (definitions, `@import` and `_`-prefixed helper captures).
 */
export function refRoleOf(name: string): RefRole | undefined {
  if (name === "reference.receiver") return { role: "receiver" };
  if (name === "reference.receiver.self") return { role: "receiver.self" };
  if (name === "reference.receiver.type") return { role: "receiver.type" };
  if (name === "reference.receiver.tail") return { role: "receiver.tail" };
  if (name.startsWith("reference.")) {
    const kind = name.slice("reference.".length);
    if (!REF_KINDS.has(kind)) throw new Error(`unknown reference kind in capture @${name}`);
    return { role: "reference", kind: kind as ReferenceKind | "ignore" };
  }
  if (PLAIN_ROLES.has(name)) return { role: name } as RefRole;
  return undefined;
}

/**
 * The captures of one match, by role (the first of each role, as the engine reads them):
 * each the capture's offset in `FileMatches.data`, -1 when the match has none.
 */
export interface MatchCaptures {
  ref: number;
  refKind: ReferenceKind | "ignore";
  receiver: number;
  /** The last token of a receiver spread over sibling tokens (`@reference.receiver.tail`). */
  receiverTail: number;
  self: boolean;
  typed: boolean;
  module: number;
  name: number;
  alias: number;
  importKind: number;
  default: number;
  wildcard: boolean;
  /** A whole import statement (`@import.statement`): the lines a reader is shown. */
  statement: number;
  scope: number;
  local: number;
  type: number;
  /** A name bound outside its scope (Python `global x`, `nonlocal x`). */
  outer: number;
  /** The expression a local is bound to (`x := newThing()`): its type is that value's. */
  value: number;
  /** The sequence a local takes the elements of (`for _, x := range xs`). */
  element: number;
  /** The object a destructured local is a property of (`const { a } = obj`: `obj.a`). */
  destructured: number;
  /** The function a callback is passed to, when the local is the callback's parameter. */
  callee: number;
  /**
   * The function whose parameter the local is, when the function's type comes from where it
   * stands (returned as a declared function type, assigned to a typed name, a property of a
   * typed object literal): the parameter's type is that function type's.
   */
  contextual: number;
  /**
   * A parameter a framework fills with what the function of its name gives (a pytest
   * fixture): its value is a call of that name, as seen outside the function.
   */
  injected: number;
  /** A function's parameter that is a callback, and that callback's parameter (typed). */
  declArgument: number;
  declParameter: number;
  /** A field, property, variable or function whose type is declared, and that type. */
  declName: number;
  declType: number;
  /** …or the expression it is assigned (`self.x = Foo()`). */
  declValue: number;
  /**
   * The name of a member of an object literal: the literal's type comes from where it
   * stands (`const o: T = {…}`, `return {…}` from a function returning T), and the member
   * stands for T's member of that name.
   */
  declLiteral: number;
  /**
   * A value whose type comes from where it stands: `@declared.type` (`const o: T = v`,
   * `return v` from a function returning T, `v as T`), the member `@declared.member` of the
   * object literal `@declared.holder` (`{ key: v }`), argument of `@declared.callee`
   * (`f({…})`), or the same as `@declared.holder`'s (`(v)`).
   */
  declContext: number;
  declHolder: number;
  declMember: number;
  declCallee: number;
  /** A type parameter of a class, interface or type alias (`T` of `Box<T>`). */
  declGeneric: number;
  /** A base a class or interface names with type arguments, and those arguments. */
  declBase: number;
  declArguments: number;
  package: number;
}

/** A {@link MatchCaptures} with nothing read (reused match after match). */
export function emptyCaptures(): MatchCaptures {
  return clear({} as MatchCaptures);
}

/** Sets every field of `c` to nothing read. */
function clear(c: MatchCaptures): MatchCaptures {
  c.ref = -1;
  c.refKind = "read";
  c.receiver = -1;
  c.receiverTail = -1;
  c.self = false;
  c.typed = false;
  c.module = -1;
  c.name = -1;
  c.alias = -1;
  c.importKind = -1;
  c.default = -1;
  c.wildcard = false;
  c.statement = -1;
  c.scope = -1;
  c.local = -1;
  c.type = -1;
  c.outer = -1;
  c.value = -1;
  c.element = -1;
  c.destructured = -1;
  c.callee = -1;
  c.contextual = -1;
  c.injected = -1;
  c.declArgument = -1;
  c.declParameter = -1;
  c.declName = -1;
  c.declType = -1;
  c.declValue = -1;
  c.declLiteral = -1;
  c.declContext = -1;
  c.declHolder = -1;
  c.declMember = -1;
  c.declCallee = -1;
  c.declGeneric = -1;
  c.declBase = -1;
  c.declArguments = -1;
  c.package = -1;
  return c;
}

/**
 * Names the captures of the match at `at` in `data` by their role, into `c` (every field
 * set: `c` is reused from match to match).
 */
export function readMatch(
  data: Int32Array,
  at: number,
  roleAt: readonly (RefRole | undefined)[],
  c: MatchCaptures,
): MatchCaptures {
  clear(c);
  const last = at + 2 + data[at + 1] * CAPTURE_INTS;
  for (let node = at + 2; node < last; node += CAPTURE_INTS) {
    const role = roleAt[data[node]];
    if (!role) continue;
    switch (role.role) {
      case "reference":
        c.ref = node;
        c.refKind = role.kind;
        break;
      case "receiver":
        if (c.receiver < 0) c.receiver = node;
        break;
      case "receiver.self":
        c.receiver = node;
        c.self = true;
        break;
      case "receiver.type":
        c.receiver = node;
        c.typed = true;
        break;
      case "receiver.tail":
        if (c.receiverTail < 0) c.receiverTail = node;
        break;
      case "import.module":
        if (c.module < 0) c.module = node;
        break;
      case "import.name":
        if (c.name < 0) c.name = node;
        break;
      case "import.alias":
        if (c.alias < 0) c.alias = node;
        break;
      case "import.kind":
        if (c.importKind < 0) c.importKind = node;
        break;
      case "import.default":
        if (c.default < 0) c.default = node;
        break;
      case "import.wildcard":
        c.wildcard = true;
        break;
      case "import.statement":
        if (c.statement < 0) c.statement = node;
        break;
      case "local.scope":
        if (c.scope < 0) c.scope = node;
        break;
      case "local.definition":
        if (c.local < 0) c.local = node;
        break;
      case "local.type":
        if (c.type < 0) c.type = node;
        break;
      case "local.outer":
        if (c.outer < 0) c.outer = node;
        break;
      case "local.value":
        if (c.value < 0) c.value = node;
        break;
      case "local.element":
        if (c.element < 0) c.element = node;
        break;
      case "local.destructured":
        if (c.destructured < 0) c.destructured = node;
        break;
      case "local.callee":
        if (c.callee < 0) c.callee = node;
        break;
      case "local.contextual":
        if (c.contextual < 0) c.contextual = node;
        break;
      case "local.injected":
        if (c.injected < 0) c.injected = node;
        break;
      case "declared.literal":
        if (c.declLiteral < 0) c.declLiteral = node;
        break;
      case "declared.context":
        if (c.declContext < 0) c.declContext = node;
        break;
      case "declared.holder":
        if (c.declHolder < 0) c.declHolder = node;
        break;
      case "declared.member":
        if (c.declMember < 0) c.declMember = node;
        break;
      case "declared.callee":
        if (c.declCallee < 0) c.declCallee = node;
        break;
      case "declared.generic":
        if (c.declGeneric < 0) c.declGeneric = node;
        break;
      case "declared.base":
        if (c.declBase < 0) c.declBase = node;
        break;
      case "declared.arguments":
        if (c.declArguments < 0) c.declArguments = node;
        break;
      case "declared.argument":
        if (c.declArgument < 0) c.declArgument = node;
        break;
      case "declared.parameter":
        if (c.declParameter < 0) c.declParameter = node;
        break;
      case "declared.name":
        if (c.declName < 0) c.declName = node;
        break;
      case "declared.type":
        if (c.declType < 0) c.declType = node;
        break;
      case "declared.value":
        if (c.declValue < 0) c.declValue = node;
        break;
      case "package":
        if (c.package < 0) c.package = node;
        break;
    }
  }
  return c;
}
