/**
 * Code metrics from a syntax tree: cyclomatic complexity (McCabe), Halstead measures,
 * raw line counts and the maintainability index, per file and per function.
 *
 * The engine knows no language. A language's `metrics/<lang>.scm` query says where its
 * functions, classes, decisions and operators are (capture names below); the analysis
 * table (`spec.ts`) picks the counting conventions. Python follows radon 5.1 so that its
 * numbers agree with `radon cc`/`radon mi`.
 *
 * Captures: `@function` (+ `@function.name`, and `@function.parent` when the function
 * names its type outside it, as a Go receiver) and `@class` (+ `@class.name`) are scopes;
 * `@decision` adds one to the complexity, `@decision.barrier` adds one and hides what is
 * inside it from the complexity; `@skip`, `@skip.complexity`, `@skip.halstead` hide a
 * subtree from both or one metric; `@halstead.binary|unary|compare|logical|assign` is an
 * operator node (its anonymous children form the operator, its named children are the
 * operands; each operator of a `logical` node is also a decision); `@comment` spans feed
 * the line counts.
 *
 * @module
 */

import type { Node, QueryMatch } from "npm:web-tree-sitter@0.25.10";
import type { AnalysisGrammar } from "./grammar.ts";
import {
  type Halstead,
  HalsteadCounter,
  type HalsteadKind,
  operatorParts,
  spanKey,
} from "./halstead.ts";
import { genericRaw, pythonRaw, type RawMetrics, type Span } from "./raw.ts";

export { type Halstead, halsteadReport } from "./halstead.ts";

/** One function or method. */
export interface FunctionMetrics {
  name: string;
  /** Enclosing classes and functions, dotted: `Session.request`. */
  qualifiedName: string;
  kind: "function" | "method";
  /** Line of the name (1-based) and last line. */
  line: number;
  endLine: number;
  /** 1 + decisions in its body (nested functions and classes count for themselves). */
  complexity: number;
  /** radon's complexity rank, A (1–5) to F (41+). */
  rank: string;
}

/** Metrics of one file. */
export interface FileMetrics {
  raw: RawMetrics;
  /** Cyclomatic complexity of the whole file. */
  complexity: number;
  halstead: Halstead;
  /** Maintainability index, 0–100. */
  mi: number;
  /** radon's MI rank: A (> 19), B (10–19), C (≤ 9). */
  miRank: "A" | "B" | "C";
  functions: FunctionMetrics[];
}

interface Scope {
  kind: "function" | "class";
  name: string;
  /** A type named outside the scope (Go receiver). */
  parent: string | null;
  start: number;
  end: number;
  line: number;
  endLine: number;
  /** Kinds of the enclosing scopes, outermost first: "", "C", "CF", … */
  chain: string;
  qualifiedName: string;
  complexity: number;
}

interface Interval {
  start: number;
  end: number;
  complexity: boolean;
  halstead: boolean;
}

interface Item {
  start: number;
  /** A decision, or an operator node. */
  decision: boolean;
  kind?: HalsteadKind;
  node?: Node;
  /** Operator nodes named by `@operator` (languages whose operators are identifiers). */
  operators?: Node[];
}

const HALSTEAD_KINDS: ReadonlySet<string> = new Set([
  "binary",
  "unary",
  "compare",
  "logical",
  "assign",
]);

/**
 * Metrics of one parsed file, from the matches of its analysis query (captures of other
 * names are ignored).
 *
 * @example
 * ```ts
 * const g = (await analysisGrammar("python"))!;
 * const tree = g.parser.parse(source)!;
 * try {
 *   computeMetrics(g, source, g.analysis.matches(tree.rootNode)).mi; // e.g. 71.3
 * } finally {
 *   tree.delete();
 * }
 * ```
 */
export function computeMetrics(
  g: AnalysisGrammar,
  source: string,
  matches: readonly QueryMatch[],
): FileMetrics {
  const scopes: Scope[] = [];
  const intervals: Interval[] = [];
  const items: Item[] = [];
  const comments: Span[] = [];
  for (const m of matches) collectMatch(m, scopes, intervals, items, comments);

  // One sweep in document order: scopes and hidden intervals open before what they hold.
  scopes.sort((a, b) => a.start - b.start || b.end - a.end);
  intervals.sort((a, b) => a.start - b.start || b.end - a.end);
  items.sort((a, b) => a.start - b.start);
  const radon = g.spec.complexityTotal === "radon";
  const open: Scope[] = [];
  const hidden: Interval[] = [];
  let si = 0;
  let ii = 0;
  let complexity = 1;
  const counter = new HalsteadCounter(g.spec.operandKey === "python", source);
  const logicalOps = new Map<string, string>();
  const operatorItems: Array<{ item: Item; context: string }> = [];

  const advance = (pos: number) => {
    while (si < scopes.length && scopes[si].start <= pos) {
      const s = scopes[si++];
      while (open.length && open[open.length - 1].end <= s.start) open.pop();
      s.chain = open.map((o) => (o.kind === "class" ? "C" : "F")).join("");
      s.qualifiedName = [...open.map((o) => o.name), ...(s.parent ? [s.parent] : []), s.name]
        .join(".");
      if (radon && s.kind === "function" && s.chain === "C") complexity++;
      open.push(s);
    }
    while (ii < intervals.length && intervals[ii].start <= pos) {
      const iv = intervals[ii++];
      while (hidden.length && hidden[hidden.length - 1].end <= iv.start) hidden.pop();
      hidden.push(iv);
    }
    while (open.length && open[open.length - 1].end <= pos) open.pop();
    while (hidden.length && hidden[hidden.length - 1].end <= pos) hidden.pop();
  };
  const isHidden = (what: "complexity" | "halstead") => hidden.some((h) => h[what]);
  const innermost = () => (open.length ? open[open.length - 1] : null);
  const countDecision = (n: number) => {
    if (isHidden("complexity")) return;
    const inner = innermost();
    if (inner?.kind === "function") inner.complexity += n;
    if (!radon) {
      complexity += n;
      return;
    }
    const chain = open.map((o) => (o.kind === "class" ? "C" : "F")).join("");
    if (chain === "" || chain === "F" || chain === "C" || chain === "CF") complexity += n;
  };

  for (const item of items) {
    advance(item.start);
    if (item.decision) {
      countDecision(1);
      continue;
    }
    if (isHidden("halstead") && isHidden("complexity")) continue;
    const parts = operatorParts(item.node!, item.operators);
    if (item.kind === "logical") {
      countDecision(parts.ops.length);
      logicalOps.set(spanKey(item.node!), parts.ops[0] ?? "");
    }
    if (isHidden("halstead")) continue;
    let context = "";
    for (let k = open.length - 1; k >= 0; k--) {
      if (open[k].kind === "function") {
        context = open[k].name;
        break;
      }
    }
    operatorItems.push({ item, context });
  }
  // Scopes after the last item still open (a method adds to radon's total).
  advance(Number.MAX_SAFE_INTEGER);
  for (const { item, context } of operatorItems) {
    counter.add(item.kind!, item.node!, context, logicalOps, item.operators);
  }

  const raw = g.spec.raw === "python" ? pythonRaw(source) : genericRaw(source, comments);
  const halstead = counter.report();
  const mi = maintainabilityIndex(
    halstead.volume,
    complexity,
    raw.lloc,
    raw.sloc ? ((raw.comments + raw.multi) / raw.sloc) * 100 : 0,
  );
  const functions: FunctionMetrics[] = scopes.filter((s) => s.kind === "function").map((s) => ({
    name: s.name,
    qualifiedName: s.qualifiedName,
    kind: s.chain.endsWith("C") || s.parent ? "method" : "function",
    line: s.line,
    endLine: s.endLine,
    complexity: s.complexity,
    rank: complexityRank(s.complexity),
  }));
  return { raw, complexity, halstead, mi, miRank: miRank(mi), functions };
}

function collectMatch(
  m: QueryMatch,
  scopes: Scope[],
  intervals: Interval[],
  items: Item[],
  comments: Span[],
): void {
  let scopeNode: Node | null = null;
  let scopeKind: "function" | "class" | null = null;
  let nameNode: Node | null = null;
  let parentNode: Node | null = null;
  const explicit = m.captures.filter((c) => c.name === "operator").map((c) => c.node);
  for (const c of m.captures) {
    const name = c.name;
    const node = c.node;
    switch (name) {
      case "function":
      case "class":
        scopeNode = node;
        scopeKind = name;
        break;
      case "function.name":
      case "class.name":
        nameNode = node;
        break;
      case "function.parent":
        parentNode = node;
        break;
      case "decision":
        items.push({ start: node.startIndex, decision: true });
        break;
      case "decision.barrier":
        items.push({ start: node.startIndex, decision: true });
        intervals.push({
          start: node.startIndex + 1,
          end: node.endIndex,
          complexity: true,
          halstead: false,
        });
        break;
      case "skip":
      case "skip.complexity":
      case "skip.halstead":
        intervals.push({
          start: node.startIndex,
          end: node.endIndex,
          complexity: name !== "skip.halstead",
          halstead: name !== "skip.complexity",
        });
        break;
      case "comment":
        comments.push({ start: node.startIndex, end: node.endIndex });
        break;
      default:
        if (name.startsWith("halstead.")) {
          const kind = name.slice("halstead.".length);
          if (HALSTEAD_KINDS.has(kind)) {
            items.push({
              start: node.startIndex,
              decision: false,
              kind: kind as HalsteadKind,
              node,
              ...(explicit.length ? { operators: explicit } : {}),
            });
          }
        }
    }
  }
  if (scopeNode && scopeKind) {
    const end = scopeNode.endPosition;
    scopes.push({
      kind: scopeKind,
      name: nameNode ? nameNode.text : "<anonymous>",
      parent: parentNode ? parentNode.text : null,
      start: scopeNode.startIndex,
      end: scopeNode.endIndex,
      line: (nameNode ?? scopeNode).startPosition.row + 1,
      endLine: end.column === 0 && end.row > scopeNode.startPosition.row ? end.row : end.row + 1,
      chain: "",
      qualifiedName: "",
      complexity: 1,
    });
  }
}

/**
 * radon's maintainability index: 171 − 5.2 ln V − 0.23 G − 16.2 ln L + 50 sin √(2.46 C),
 * scaled to 0–100 (V Halstead volume, G complexity, L logical lines, C percent of comment
 * lines in radians).
 *
 * @example
 * ```ts
 * maintainabilityIndex(0, 1, 10, 0); // 100 (no operators)
 * ```
 */
export function maintainabilityIndex(
  volume: number,
  complexity: number,
  lloc: number,
  commentPercent: number,
): number {
  if (volume <= 0 || lloc <= 0) return 100;
  const comments = Math.sqrt(2.46 * (commentPercent * Math.PI / 180));
  const raw = 171 - 5.2 * Math.log(volume) - 0.23 * complexity - 16.2 * Math.log(lloc) +
    50 * Math.sin(comments);
  return Math.min(Math.max(0, (raw * 100) / 171), 100);
}

/** radon's MI rank: A above 19, B above 9, C otherwise. */
export function miRank(mi: number): "A" | "B" | "C" {
  return mi > 19 ? "A" : mi > 9 ? "B" : "C";
}

/** radon's complexity rank: A 1–5, B 6–10, C 11–20, D 21–30, E 31–40, F 41+. */
export function complexityRank(cc: number): string {
  if (cc <= 5) return "A";
  if (cc <= 10) return "B";
  if (cc <= 20) return "C";
  if (cc <= 30) return "D";
  if (cc <= 40) return "E";
  return "F";
}
