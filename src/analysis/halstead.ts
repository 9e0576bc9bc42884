/**
 * Halstead measures counted the way radon's HalsteadVisitor does: an operator node's
 * anonymous children form its operator, its named children are the operands; operands
 * are told apart by their text, or as radon does for Python.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import { pythonString } from "./literals.ts";

/** Halstead measures (radon's names). */
export interface Halstead {
  /** Distinct operators and operands. */
  h1: number;
  h2: number;
  /** Total operators and operands. */
  N1: number;
  N2: number;
  vocabulary: number;
  length: number;
  volume: number;
  difficulty: number;
  effort: number;
}

/** The kinds of `@halstead.<kind>` captures. */
export type HalsteadKind = "binary" | "unary" | "compare" | "logical" | "assign";

const BRACKETS: ReadonlySet<string> = new Set(["(", ")", "[", "]"]);

/** A key naming one node. */
export function spanKey(node: Node): string {
  return `${node.startIndex}:${node.endIndex}:${node.type}`;
}

/**
 * The operator (anonymous children, a multi-word operator once; or the `explicit` nodes)
 * and the operands (the other named children) of a node.
 */
export function operatorParts(node: Node, explicit?: Node[]): { ops: string[]; operands: Node[] } {
  const ops: string[] = [];
  const operands: Node[] = [];
  let previousOp: string | null = null;
  const explicitIds = explicit ? new Set(explicit.map((n) => n.id)) : null;
  for (const child of node.children) {
    if (!child) continue;
    // Comments and line continuations are extras, neither operator nor operand.
    if (child.isExtra) continue;
    if (explicitIds) {
      if (explicitIds.has(child.id)) ops.push(child.text);
      else if (child.isNamed) operands.push(child);
      continue;
    }
    if (child.isNamed) {
      operands.push(child);
      previousOp = null;
      continue;
    }
    const t = child.type;
    if (BRACKETS.has(t)) continue;
    // `not in` and `is not` are two tokens of one type.
    if (previousOp === t && t.includes(" ")) continue;
    ops.push(t);
    previousOp = t;
  }
  return { ops, operands };
}

/** Counts operators and operands the way radon's HalsteadVisitor does. */
export class HalsteadCounter {
  private operatorsSeen = new Set<string>();
  private operandsSeen = new Set<string>();
  private operators = 0;
  private operands = 0;

  constructor(private readonly python: boolean, private readonly source: string) {}

  add(
    kind: HalsteadKind,
    node: Node,
    context: string,
    logicalOps: Map<string, string>,
    explicit?: Node[],
  ): void {
    const { ops, operands } = operatorParts(node, explicit);
    if (kind === "assign") {
      // `x += 1` is the operator `+`; a plain `=` is no operator.
      const op = ops[0] ?? "";
      if (op === "=" || !op.endsWith("=")) return;
      this.count([`binary:${op.slice(0, -1)}`], operands, context);
      return;
    }
    if (kind === "logical") {
      // `a and b and c` is one operator with three operands (radon's BoolOp).
      const op = ops[0] ?? "";
      const kept: Node[] = [];
      let merged = false;
      for (const o of operands) {
        if (o.type === node.type && logicalOps.get(spanKey(o)) === op) merged = true;
        else kept.push(o);
      }
      this.count(merged ? [] : ops.map((o) => `logical:${o}`), kept, context, merged ? op : null);
      return;
    }
    this.count(ops.map((o) => `${kind}:${o}`), operands, context);
  }

  private count(ops: string[], operands: Node[], context: string, mergedOp: string | null = null) {
    this.operators += ops.length;
    for (const o of ops) this.operatorsSeen.add(o);
    if (mergedOp !== null) this.operatorsSeen.add(`logical:${mergedOp}`);
    this.operands += operands.length;
    for (const o of operands) {
      this.operandsSeen.add(`${context}\u0000${this.python ? pythonOperandKey(o) : textKey(o)}`);
    }
  }

  report(): Halstead {
    return halsteadReport(
      this.operatorsSeen.size,
      this.operandsSeen.size,
      this.operators,
      this.operands,
    );
  }
}

/** Halstead measures from the four counts (radon's `halstead_visitor_report`). */
export function halsteadReport(h1: number, h2: number, N1: number, N2: number): Halstead {
  const vocabulary = h1 + h2;
  const length = N1 + N2;
  const volume = vocabulary > 0 ? length * Math.log2(vocabulary) : 0;
  const difficulty = h2 > 0 ? (h1 * N2) / (2 * h2) : 0;
  return { h1, h2, N1, N2, vocabulary, length, volume, difficulty, effort: difficulty * volume };
}

function textKey(node: Node): string {
  let n: Node = node;
  while (n.type === "parenthesized_expression" && n.namedChildCount === 1) n = n.namedChild(0)!;
  return n.text.replace(/\s+/g, " ");
}

/**
 * radon's operand identity: a name is its id, an attribute its last name, a constant its
 * value (so `1`, `1.0` and `True` are one operand, and so are `'x'` and `x`); anything
 * else is a new operand each time.
 */
function pythonOperandKey(node: Node): string {
  let n: Node = node;
  while (n.type === "parenthesized_expression" && n.namedChildCount === 1) n = n.namedChild(0)!;
  switch (n.type) {
    case "identifier":
      return `s:${n.text}`;
    case "attribute": {
      const attr = n.childForFieldName("attribute");
      return attr ? `s:${attr.text}` : unique(n);
    }
    case "string":
    case "concatenated_string": {
      const v = pythonString(n.text);
      if (!v || v.formatted) return unique(n);
      return `${v.bytes ? "b" : "s"}:${v.value}`;
    }
    case "integer":
    case "float":
      return numberKey(n.text) ?? unique(n);
    case "true":
      return "n:1";
    case "false":
      return "n:0";
    case "none":
      return "k:None";
    case "ellipsis":
      return "k:Ellipsis";
    default:
      return unique(n);
  }
}

function unique(n: Node): string {
  return `u:${n.startIndex}:${n.endIndex}:${n.type}`;
}

function numberKey(text: string): string | null {
  const t = text.replace(/_/g, "").toLowerCase();
  if (t.endsWith("j")) {
    const v = Number(t.slice(0, -1));
    return v === 0 ? "n:0" : `j:${v}`;
  }
  if (/^0[box]/.test(t)) {
    try {
      return `n:${normalizeBig(BigInt(t))}`;
    } catch {
      return null;
    }
  }
  if (/^\d+$/.test(t)) return `n:${normalizeBig(BigInt(t))}`;
  const v = Number(t);
  return Number.isNaN(v) ? null : `n:${v}`;
}

function normalizeBig(b: bigint): string {
  const asNumber = Number(b);
  return BigInt(asNumber) === b ? String(asNumber) : b.toString();
}
