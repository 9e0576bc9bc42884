/**
 * The captures of the reference half of a query file (see the table in `parser.ts`): the
 * role of each capture name, and one match's captures read by role.
 *
 * @module
 */

import type { Node, QueryMatch } from "npm:web-tree-sitter@0.25.10";
import type { ReferenceKind } from "../types.ts";

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
      | "local.scope"
      | "local.definition"
      | "local.type"
      | "local.outer"
      | "local.value"
      | "local.element"
      | "local.destructured"
      | "local.callee"
      | "local.contextual"
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

const REF_KINDS: ReadonlySet<string> = new Set([
  "call",
  "import",
  "type",
  "inherit",
  "read",
  "write",
  "ignore",
]);

const PLAIN_ROLES: ReadonlySet<string> = new Set([
  "import.module",
  "import.name",
  "import.alias",
  "import.kind",
  "import.default",
  "import.wildcard",
  "local.scope",
  "local.definition",
  "local.type",
  "local.outer",
  "local.value",
  "local.element",
  "local.destructured",
  "local.callee",
  "local.contextual",
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

/** The captures of one match, by role (the first of each role, as the engine reads them). */
export interface MatchCaptures {
  ref: Node | null;
  refKind: ReferenceKind | "ignore";
  receiver: Node | null;
  /** The last token of a receiver spread over sibling tokens (`@reference.receiver.tail`). */
  receiverTail: Node | null;
  self: boolean;
  typed: boolean;
  module: Node | null;
  name: Node | null;
  alias: Node | null;
  importKind: Node | null;
  default: Node | null;
  wildcard: boolean;
  scope: Node | null;
  local: Node | null;
  type: Node | null;
  /** A name bound outside its scope (Python `global x`, `nonlocal x`). */
  outer: Node | null;
  /** The expression a local is bound to (`x := newThing()`): its type is that value's. */
  value: Node | null;
  /** The sequence a local takes the elements of (`for _, x := range xs`). */
  element: Node | null;
  /** The object a destructured local is a property of (`const { a } = obj`: `obj.a`). */
  destructured: Node | null;
  /** The function a callback is passed to, when the local is the callback's parameter. */
  callee: Node | null;
  /**
   * The function whose parameter the local is, when the function's type comes from where it
   * stands (returned as a declared function type, assigned to a typed name, a property of a
   * typed object literal): the parameter's type is that function type's.
   */
  contextual: Node | null;
  /** A function's parameter that is a callback, and that callback's parameter (typed). */
  declArgument: Node | null;
  declParameter: Node | null;
  /** A field, property, variable or function whose type is declared, and that type. */
  declName: Node | null;
  declType: Node | null;
  /** …or the expression it is assigned (`self.x = Foo()`). */
  declValue: Node | null;
  /**
   * The name of a member of an object literal: the literal's type comes from where it
   * stands (`const o: T = {…}`, `return {…}` from a function returning T), and the member
   * stands for T's member of that name.
   */
  declLiteral: Node | null;
  /**
   * A value whose type comes from where it stands: `@declared.type` (`const o: T = v`,
   * `return v` from a function returning T, `v as T`), the member `@declared.member` of the
   * object literal `@declared.holder` (`{ key: v }`), argument of `@declared.callee`
   * (`f({…})`), or the same as `@declared.holder`'s (`(v)`).
   */
  declContext: Node | null;
  declHolder: Node | null;
  declMember: Node | null;
  declCallee: Node | null;
  /** A type parameter of a class, interface or type alias (`T` of `Box<T>`). */
  declGeneric: Node | null;
  /** A base a class or interface names with type arguments, and those arguments. */
  declBase: Node | null;
  declArguments: Node | null;
  package: Node | null;
}

/** Names the captures of one match by their role. */
export function readMatch(match: QueryMatch, roles: ReadonlyMap<string, RefRole>): MatchCaptures {
  const c: MatchCaptures = {
    ref: null,
    refKind: "read",
    receiver: null,
    receiverTail: null,
    self: false,
    typed: false,
    module: null,
    name: null,
    alias: null,
    importKind: null,
    default: null,
    wildcard: false,
    scope: null,
    local: null,
    type: null,
    outer: null,
    value: null,
    element: null,
    destructured: null,
    callee: null,
    contextual: null,
    declArgument: null,
    declParameter: null,
    declName: null,
    declType: null,
    declValue: null,
    declLiteral: null,
    declContext: null,
    declHolder: null,
    declMember: null,
    declCallee: null,
    declGeneric: null,
    declBase: null,
    declArguments: null,
    package: null,
  };
  for (const capture of match.captures) {
    const role = roles.get(capture.name);
    if (!role) continue;
    const node = capture.node;
    switch (role.role) {
      case "reference":
        c.ref = node;
        c.refKind = role.kind;
        break;
      case "receiver":
        c.receiver ??= node;
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
        c.receiverTail ??= node;
        break;
      case "import.module":
        c.module ??= node;
        break;
      case "import.name":
        c.name ??= node;
        break;
      case "import.alias":
        c.alias ??= node;
        break;
      case "import.kind":
        c.importKind ??= node;
        break;
      case "import.default":
        c.default ??= node;
        break;
      case "import.wildcard":
        c.wildcard = true;
        break;
      case "local.scope":
        c.scope ??= node;
        break;
      case "local.definition":
        c.local ??= node;
        break;
      case "local.type":
        c.type ??= node;
        break;
      case "local.outer":
        c.outer ??= node;
        break;
      case "local.value":
        c.value ??= node;
        break;
      case "local.element":
        c.element ??= node;
        break;
      case "local.destructured":
        c.destructured ??= node;
        break;
      case "local.callee":
        c.callee ??= node;
        break;
      case "local.contextual":
        c.contextual ??= node;
        break;
      case "declared.literal":
        c.declLiteral ??= node;
        break;
      case "declared.context":
        c.declContext ??= node;
        break;
      case "declared.holder":
        c.declHolder ??= node;
        break;
      case "declared.member":
        c.declMember ??= node;
        break;
      case "declared.callee":
        c.declCallee ??= node;
        break;
      case "declared.generic":
        c.declGeneric ??= node;
        break;
      case "declared.base":
        c.declBase ??= node;
        break;
      case "declared.arguments":
        c.declArguments ??= node;
        break;
      case "declared.argument":
        c.declArgument ??= node;
        break;
      case "declared.parameter":
        c.declParameter ??= node;
        break;
      case "declared.name":
        c.declName ??= node;
        break;
      case "declared.type":
        c.declType ??= node;
        break;
      case "declared.value":
        c.declValue ??= node;
        break;
      case "package":
        c.package ??= node;
        break;
    }
  }
  return c;
}
