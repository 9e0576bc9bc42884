/**
 * A file's references of one kind grouped by the symbol that encloses them: the calls a
 * function makes, the bases a class names.
 *
 * @module
 */

import { type GraphPart, refAt, refCount } from "../facts/codec.ts";
import type { ReferenceKind } from "../types.ts";

/**
 * The indexes of the references of `kind` in a file's graph part, by the index of their
 * enclosing symbol (`scope`), in source order.
 */
export function refsByScope(part: GraphPart, kind: ReferenceKind): Map<number, number[]> {
  const byScope = new Map<number, number[]>();
  const n = refCount(part);
  for (let i = 0; i < n; i++) {
    const r = refAt(part, i);
    if (r.kind !== kind) continue;
    const list = byScope.get(r.scope);
    if (list) list.push(i);
    else byScope.set(r.scope, [i]);
  }
  return byScope;
}
