/**
 * Contextual types: the type a value gets from where it stands — the type of the name it is
 * assigned to, the return type of the function that returns it, a member of the object
 * literal that holds it, a parameter of the function it is passed to.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { TypeRef } from "../../facts/type_ref.ts";
import type { ContextCapture } from "../gather.ts";
import { namedIndex, parameterSlot, thenSteps, typeName, valueThen } from "./types.ts";

/** A name of a type path the graph resolves (`Foo`, `ns.Foo`). */
const TYPE_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/**
 * Contextual types of one file: the type a value gets from where it stands — the type of
 * the name it is assigned to, the return type of the function that returns it, a member of
 * the object literal that holds it, a parameter of the function it is passed to: a type
 * path and steps (`Op`, parameter 0; `Behavior`, `.onFetch`, parameter 1) or a value chain
 * and steps (`source.subscribe`, parameter 0).
 */
export class Contexts {
  private readonly byNode = new Map<number, ContextCapture>();
  private readonly memo = new Map<number, TypeRef | null>();

  /** The contexts of a file's values (the first of each value counts). */
  constructor(contexts: readonly ContextCapture[]) {
    for (const c of contexts) if (!this.byNode.has(c.node.id)) this.byNode.set(c.node.id, c);
  }

  /** The type value `node` gets from where it stands, or null. */
  typeOf(node: Node, depth = 0): TypeRef | null {
    const hit = this.memo.get(node.id);
    if (hit !== undefined) return hit;
    const c = this.byNode.get(node.id);
    let out: TypeRef | null = null;
    if (c && depth < 8) {
      if (c.type) {
        const t = typeName(c.type.text);
        out = isTypePath(t) ? t : null;
      } else if (c.holder) {
        const h = this.typeOf(c.holder, depth + 1);
        out = h === null || !c.member
          ? h
          : thenSteps(h, [{ kind: "member", sep: ".", name: c.member.text }]);
      } else if (c.callee) {
        const k = node.parent ? namedIndex(node) : -1;
        out = k < 0 ? null : valueThen(c.callee.text, { kind: "parameter", index: k });
      }
    }
    this.memo.set(node.id, out);
    return out;
  }

  /**
   * The type of parameter `local` (a name node) of function `fn` from the function's type
   * where it stands (`return (source) => …` from a function returning `Op`: `Op <=0>`).
   */
  parameterType(fn: Node, local: Node): TypeRef | null {
    const ctx = this.typeOf(fn);
    if (ctx === null) return null;
    const list = fn.childForFieldName("parameters");
    let param: Node | null = local;
    while (param?.parent && param.parent.id !== fn.id && param.parent.id !== list?.id) {
      param = param.parent;
    }
    if (!param?.parent) return null;
    return thenSteps(ctx, [
      param.parent.id === fn.id ? { kind: "parameter", index: 0 } : parameterSlot(param),
    ]);
  }
}

/** Whether a type is a path of names joined by `.` (`Foo`, `ns.Foo`). */
function isTypePath(t: TypeRef): boolean {
  return t.kind === "path" && t.separators.every((s) => s === ".") &&
    t.segments.every((s) => TYPE_NAME.test(s));
}
