/**
 * The records parse hands graph for one file: each occurrence of a name with what its
 * receiver is known to be, and the types the file declares — by whom, for which slot.
 *
 * @module
 */

import type { ImportRecord, ParsedFile, ReceiverKind, ReferenceKind } from "../types.ts";
import type { Chain, TypeRef } from "./type_ref.ts";

/**
 * What is known of the object a member is reached through (its kind is the reference's
 * `receiverKind`): the chain as written (`self`, `local`, `name`: `this.#client`, `pkg.New()`),
 * the type it has (`typed`), or values to try in turn, each of the same kind
 * (`xs.find()`'s result, else an element of `xs`).
 */
export type Receiver =
  | { kind: "chain"; chain: Chain }
  | { kind: "type"; type: TypeRef }
  | { kind: "either"; options: Receiver[] };

/** One occurrence of a name. Lines and columns are 1-based (columns in UTF-16 units). */
export interface ReferenceRecord {
  name: string;
  line: number;
  column: number;
  kind: ReferenceKind;
  /** Index in the file's `symbols` of the innermost enclosing symbol; -1 at top level. */
  scope: number;
  /** Set for a member reached through an object (`obj.name`, `pkg::name`). */
  receiverKind?: ReceiverKind;
  /** What the receiver is (absent for an `expr` receiver). */
  receiver?: Receiver;
}

/** Which type of an owner a declared type is, besides the owner's own. */
export type Slot =
  /** Parameter `param` of the callback the function takes as its parameter `arg`. */
  | { kind: "callback"; arg: number; param: number }
  /** The function's parameter `index` (a tuple struct's field `index`). */
  | { kind: "parameter"; index: number }
  /** An object literal's member: the member of the literal's type it stands for. */
  | { kind: "literal" };

/**
 * A type a file declares: `owner` is a symbol's qualified name (a function's return type, a
 * variable's type) or, for a name that is no symbol, the enclosing class's and the name
 * (`QueryObserver.#client`); `field` keeps a field's type apart from a method of its name.
 * A base's type arguments are kept under the class and the base's name (`Op.Unary`).
 */
export type DeclaredType =
  | { kind: "type"; owner: string; slot?: Slot; field?: true; type: TypeRef }
  | { kind: "base"; owner: string; field?: true; args: TypeRef[] };

/** What parse reads of one file for the graph. */
export interface FileFacts {
  references: ReferenceRecord[];
  imports: ImportRecord[];
  package?: string;
  /** Absent when the file declares none. */
  declared?: DeclaredType[];
}

/** A parsed file with its facts for the graph (absent for text formats and failed parses). */
export interface ParsedSource extends ParsedFile {
  /**
   * Every occurrence of a name in code (not comments or strings) that is not a local
   * variable, in source order. Calls are the references of kind `call`; their `scope` is
   * the calling symbol.
   */
  references?: ReferenceRecord[];
  /** The types the file declares, read by the graph's receiver chains. */
  declared?: DeclaredType[];
}
