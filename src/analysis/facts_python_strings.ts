/**
 * Python string facts: a string literal with where it goes (the names it is assigned to,
 * the key it is stored under, the name it is compared with) and, for bandit's SQL check,
 * the query text it builds through `%`/`+`, `.format` or an f-string and the call that
 * text is passed to. Bytes literals are left out.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import { lineOf, type StringFact } from "./facts.ts";
import { pythonString } from "./literals.ts";
import type { ParentFinder } from "./tree_walk.ts";

/**
 * Literal parts of a `+`/`%` chain joined into a query's text: enough for any SQL
 * statement a rule recognizes, and joining every part of a chain for each of its strings
 * would cost the square of its length.
 */
const MAX_CHAIN_PARTS = 64;

/** What the strings of one file share: their parents, and each operator chain's parts. */
interface Surroundings {
  parents: ParentFinder;
  /** The top of the operator chain a `binary_operator` belongs to, by node id. */
  chainTop: Map<number, Node>;
  /** The leaves (parentheses looked through) of a chain, by the id of its top. */
  chainLeaves: Map<number, Node[]>;
}

const surroundings = new WeakMap<ParentFinder, Surroundings>();

function surroundingsOf(parents: ParentFinder): Surroundings {
  let s = surroundings.get(parents);
  if (!s) surroundings.set(parents, s = { parents, chainTop: new Map(), chainLeaves: new Map() });
  return s;
}

/**
 * The fact of a string literal node, or null for a bytes or unreadable literal. `parents`
 * answers parents of the file's tree (strings are asked in source order).
 *
 * @example
 * ```ts
 * stringFact(node, new ParentFinder(tree.rootNode))?.[0].assignedTo; // ["password"] for `password = "hunter2"`
 * ```
 */
export function stringFact(node: Node, parents: ParentFinder): StringFact[] | null {
  const s = pythonString(node.text);
  if (!s || s.bytes) return null;
  const line = lineOf(node);
  const parentOf = (n: Node) => parents.parentOf(n);
  const parent = parentOf(node);
  const fact: StringFact = {
    kind: "string",
    line,
    value: s.value,
    assignedTo: [],
    keyOfStringAssignment: null,
    comparedWith: null,
    built: null,
  };
  if (!parent) return [fact];
  // `a = b = "x"`: climb the chain of assignments whose value this is.
  if (
    parent.type === "assignment" && isField(parent, "right", node) &&
    !parent.childForFieldName("type")
  ) {
    for (let a: Node | null = parent; a?.type === "assignment"; a = parentOf(a)) {
      const left = a.childForFieldName("left");
      if (left?.type === "identifier") fact.assignedTo.push(left.text);
      else if (left?.type === "attribute") {
        fact.assignedTo.push(left.childForFieldName("attribute")?.text ?? "");
      }
      const above = parentOf(a);
      if (!above || above.type !== "assignment" || !isField(above, "right", a)) break;
    }
  } else if (parent.type === "subscript" && isField(parent, "subscript", node)) {
    const assign = parentOf(parent);
    if (assign?.type === "assignment" && isField(assign, "left", parent)) {
      const value = assign.childForFieldName("right");
      const v = value && (value.type === "string" || value.type === "concatenated_string")
        ? pythonString(value.text)
        : null;
      if (v && !v.bytes && !v.formatted) fact.keyOfStringAssignment = v.value;
    }
  } else if (parent.type === "comparison_operator") {
    const operands = parent.namedChildren.filter((c) => c && !c.isExtra);
    if (operands[0]?.type === "identifier" && operands[1]?.id === node.id) {
      fact.comparedWith = operands[0].text;
    }
  }
  fact.built = builtQuery(node, s.formatted ? s.value : null, surroundingsOf(parents));
  return [fact];
}

function isField(parent: Node, field: string, child: Node): boolean {
  return parent.childForFieldName(field)?.id === child.id;
}

/**
 * bandit's `_evaluate_ast` for SQL: a string inside `%`/`+` expressions (all literal
 * parts joined), the receiver of `.format`, or an f-string; plus the name of the call
 * it is passed to.
 */
function builtQuery(
  node: Node,
  formatted: string | null,
  around: Surroundings,
): StringFact["built"] {
  const up = (n: Node) => upOf(n, around.parents);
  const parent = up(node);
  if (!parent) return null;
  let text: string;
  let wrapper: Node | null;
  if (parent.type === "binary_operator") {
    const top = chainTop(parent, around);
    // bandit joins the string with the operands of the chain above its own operator.
    const leaves = chainLeaves(top, around).filter((c) =>
      c.startIndex < parent.startIndex || c.startIndex >= parent.endIndex
    );
    text = [node, ...leaves]
      .filter((s) => s.type === "string" || s.type === "concatenated_string")
      .map((s) => pythonString(s.text))
      .filter((v) => v && !v.bytes && !v.formatted)
      .map((v) => v!.value)
      .join(" ");
    wrapper = up(top);
  } else if (
    parent.type === "attribute" && parent.childForFieldName("attribute")?.text === "format"
  ) {
    text = pythonString(node.text)?.value ?? "";
    const call = around.parents.parentOf(parent);
    wrapper = call ? up(call) : null;
  } else if (formatted !== null) {
    text = formatted;
    wrapper = parent;
  } else {
    return null;
  }
  if (wrapper?.type === "argument_list") wrapper = around.parents.parentOf(wrapper);
  let callee = "";
  if (wrapper?.type === "call") {
    const fn = wrapper.childForFieldName("function");
    if (fn?.type === "identifier") callee = fn.text;
    else if (fn?.type === "attribute") callee = fn.childForFieldName("attribute")?.text ?? "";
  }
  return { text, callee };
}

/** The outermost `binary_operator` of the chain `op` is in, remembered for its members. */
function chainTop(op: Node, around: Surroundings): Node {
  const climbed: Node[] = [];
  let top = op;
  for (;;) {
    const known = around.chainTop.get(top.id);
    if (known) {
      top = known;
      break;
    }
    climbed.push(top);
    const p = upOf(top, around.parents);
    if (p?.type !== "binary_operator") break;
    top = p;
  }
  for (const n of climbed) around.chainTop.set(n.id, top);
  return top;
}

/** The first {@link MAX_CHAIN_PARTS} operands of a chain that are not operators themselves. */
function chainLeaves(top: Node, around: Surroundings): Node[] {
  let leaves = around.chainLeaves.get(top.id);
  if (leaves) return leaves;
  const out: Node[] = [];
  const walk = (n: Node) => {
    for (const side of [n.childForFieldName("left"), n.childForFieldName("right")]) {
      if (out.length >= MAX_CHAIN_PARTS) return;
      const c = side ? unwrap(side) : null;
      if (!c) continue;
      if (c.type === "binary_operator") walk(c);
      else out.push(c);
    }
  };
  walk(top);
  leaves = out;
  around.chainLeaves.set(top.id, leaves);
  return leaves;
}

/** The parent, looking through parentheses (the AST has none). */
function upOf(n: Node, parents: ParentFinder): Node | null {
  let p = parents.parentOf(n);
  while (p?.type === "parenthesized_expression") p = parents.parentOf(p);
  return p;
}

function unwrap(n: Node): Node {
  let c = n;
  while (c.type === "parenthesized_expression") {
    const inner = c.namedChildren.find((x) => x && !x.isExtra);
    if (!inner) break;
    c = inner;
  }
  return c;
}
