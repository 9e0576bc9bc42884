/**
 * The types one file declares (`facts/records.ts` `DeclaredType`), looked up by owner, slot
 * and whether a field's type is kept apart from a method's of its name.
 *
 * @module
 */

import type { DeclaredType, Slot } from "../facts/records.ts";
import type { TypeRef } from "../facts/type_ref.ts";

type Declared = Extract<DeclaredType, { kind: "type" }>;

/** A file's declared types by owner. */
export class DeclaredTypes {
  private readonly byOwner = new Map<string, DeclaredType[]>();

  /** `all` in the order the file declares them. */
  constructor(readonly all: readonly DeclaredType[]) {
    for (const d of all) {
      const list = this.byOwner.get(d.owner);
      if (list) list.push(d);
      else this.byOwner.set(d.owner, [d]);
    }
  }

  /** The type `owner` declares in `slot` (its own when none); a field's (`field`) apart. */
  get(owner: string, slot?: Slot, field = false): TypeRef | undefined {
    for (const d of this.byOwner.get(owner) ?? []) {
      if (d.kind === "type" && (d.field ?? false) === field && sameSlot(d.slot, slot)) {
        return d.type;
      }
    }
    return undefined;
  }

  /** The type arguments class `owner` gives its base `base`. */
  baseArguments(owner: string, base: string): readonly TypeRef[] | undefined {
    for (const d of this.byOwner.get(`${owner}.${base}`) ?? []) {
      if (d.kind === "base" && !d.field) return d.args;
    }
    return undefined;
  }

  /** The types declared in slots of kind `kind`, in file order (fields' apart left out). */
  *inSlots<K extends Slot["kind"]>(
    kind: K,
  ): Iterable<Declared & { slot: Extract<Slot, { kind: K }> }> {
    for (const d of this.all) {
      if (d.kind === "type" && !d.field && d.slot?.kind === kind) {
        yield d as Declared & { slot: Extract<Slot, { kind: K }> };
      }
    }
  }
}

function sameSlot(a: Slot | undefined, b: Slot | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  switch (a.kind) {
    case "callback":
      return b.kind === "callback" && a.arg === b.arg && a.param === b.param;
    case "parameter":
      return b.kind === "parameter" && a.index === b.index;
    case "literal":
      return b.kind === "literal";
  }
}
