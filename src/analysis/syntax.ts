/**
 * Syntax errors from a tree's ERROR and MISSING nodes, in words a person acts on:
 * "expected `)`", "`(` is never closed", "unexpected `else`".
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import { CodectxError } from "../errors.ts";

/** One syntax error; line and column are 1-based. */
export interface SyntaxError {
  line: number;
  column: number;
  message: string;
}

const OPENERS: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const CLOSERS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/** Language hints for the messages. */
export interface SyntaxOptions {
  /** Keywords that open a block with a `:` (Python): a missing colon is named. */
  colonBlocks?: ReadonlySet<string>;
}

/** At most this many errors are described; later ones are usually consequences. */
const LIMIT = 20;

/**
 * The syntax errors of a tree, in source order.
 *
 * @example
 * ```ts
 * syntaxErrors(parser.parse("f(1, 2\n")!.rootNode)[0].message; // "`(` is never closed"
 * ```
 */
export function syntaxErrors(root: Node, opts: SyntaxOptions = {}): SyntaxError[] {
  const out: SyntaxError[] = [];
  if (!root.hasError) return out;
  const visit = (n: Node) => {
    if (out.length >= LIMIT) return;
    if (n.isMissing) {
      out.push({ ...position(n), message: `expected ${describe(n.type, n.isNamed)}` });
      return;
    }
    if (n.isError) {
      out.push(explainError(n, opts));
      return;
    }
    for (const c of n.children) if (c && (c.hasError || c.isMissing)) visit(c);
  };
  visit(root);
  out.sort((a, b) => a.line - b.line || a.column - b.column);
  return out;
}

function position(n: Node): { line: number; column: number } {
  return { line: n.startPosition.row + 1, column: n.startPosition.column + 1 };
}

/** "`)`" for a token, "an identifier" for a named node. */
function describe(type: string, named: boolean): string {
  if (!named) return `\`${type}\``;
  const words = type.replace(/_/g, " ");
  return /^[aeiou]/.test(words) ? `an ${words}` : `a ${words}`;
}

/**
 * Most tokens of one ERROR node read to explain it: the first unbalanced bracket or the
 * first misplaced token is near its start, and a node of a million tokens (`((((…`) would
 * otherwise cost seconds to read.
 */
const MAX_TOKENS = 4_096;

/** The tokens (leaves) of a subtree, in order, at most {@link MAX_TOKENS}. */
function leaves(n: Node, out: Node[] = []): Node[] {
  const cursor = n.walk();
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) continue;
      out.push(cursor.currentNode);
      if (out.length >= MAX_TOKENS) return out;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || cursor.nodeId === n.id) return out;
      }
    }
  } finally {
    cursor.delete();
  }
}

/**
 * An ERROR node: an unbalanced bracket inside it says most; otherwise the first token
 * that could not be placed, and what came before it.
 */
function explainError(n: Node, opts: SyntaxOptions): SyntaxError {
  const tokens = leaves(n).filter((t) => t.type !== "comment" && t.startIndex !== t.endIndex);
  const head = tokens[0];
  if (head && opts.colonBlocks?.has(head.text)) {
    const row = head.startPosition.row;
    const line = tokens.filter((t) => t.startPosition.row === row);
    if (!line.some((t) => t.text === ":")) {
      const last = line[line.length - 1];
      const shown = line.map((t) => t.text).join(" ");
      return {
        line: row + 1,
        column: last.endPosition.column + 1,
        message: `expected \`:\` after \`${shown.length > 40 ? shown.slice(0, 40) + "…" : shown}\``,
      };
    }
  }
  const stack: Node[] = [];
  for (const t of tokens) {
    // A bracket token's type is its text (no string is read from the tree).
    const text = t.isNamed ? "" : t.type;
    if (Object.hasOwn(OPENERS, text)) stack.push(t);
    else if (Object.hasOwn(CLOSERS, text)) {
      if (stack.length && stack[stack.length - 1].type === CLOSERS[text]) stack.pop();
      else {return {
          ...position(t),
          message: `unexpected \`${text}\` with no matching \`${CLOSERS[text]}\``,
        };}
    }
  }
  if (stack.length) {
    const open = stack[stack.length - 1];
    return {
      ...position(open),
      message: `\`${open.type}\` is never closed (expected \`${OPENERS[open.type]}\`)`,
    };
  }
  const first = tokens[0] ?? n;
  // One token's text (a long string literal at worst), read once.
  const text = first.text;
  const shown = text.length > 30 ? `${text.slice(0, 30)}…` : text;
  const before = n.previousSibling;
  const after = before && before.endIndex - before.startIndex <= 30
    ? ` after \`${lastToken(before)}\``
    : "";
  const where = n.parent && n.parent.type !== "program" && n.parent.type !== "module" &&
      n.parent.type !== "source_file"
    ? ` in ${describe(n.parent.type, true).replace(/^an? /, "")}`
    : "";
  return {
    ...position(first),
    message: shown
      ? `unexpected \`${shown.replace(/\s+/g, " ")}\`${after}${where}`
      : "syntax error",
  };
}

function lastToken(n: Node): string {
  const t = leaves(n).filter((l) => l.text.trim() !== "");
  return t.length ? t[t.length - 1].text : n.text;
}

/**
 * Deepest bracket nesting the checks read. Parsing code nested (or left open) deeper than
 * this costs the parser's error recovery seconds per 100 KB, and its tree would pass the
 * syntax-depth limit anyway (each bracket level is two or more tree levels).
 */
export const MAX_BRACKET_DEPTH = 200;

/**
 * How deep `(`, `[` and `{` nest in a text, and how many closing brackets close nothing,
 * counting no further than `limit + 1`. Quoted text on one line and `#` / `//` comments
 * are skipped, so brackets in strings do not count. One pass, no parser.
 *
 * @example
 * ```ts
 * bracketStats("f(g([1]))"); // { depth: 3, stray: 0 }
 * bracketStats("x = '((('"); // { depth: 0, stray: 0 }
 * bracketStats("))"); // { depth: 0, stray: 2 }
 * ```
 */
export function bracketStats(
  text: string,
  limit = MAX_BRACKET_DEPTH,
): { depth: number; stray: number } {
  let depth = 0;
  let deepest = 0;
  let stray = 0;
  let quote = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      quote = 0;
      continue;
    }
    if (quote) {
      if (c === 92) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 34 || c === 39 || c === 96) quote = c;
    else if (c === 35 || (c === 47 && text.charCodeAt(i + 1) === 47)) {
      const nl = text.indexOf("\n", i);
      if (nl === -1) break;
      i = nl - 1;
    } else if (c === 40 || c === 91 || c === 123) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) break;
      }
    } else if (c === 41 || c === 93 || c === 125) {
      if (depth > 0) depth--;
      else if (++stray > limit) break;
    }
  }
  return { depth: deepest, stray };
}

/** How deep brackets nest in a text ({@link bracketStats}). */
export function bracketDepth(text: string, limit = MAX_BRACKET_DEPTH): number {
  return bracketStats(text, limit).depth;
}

/** Whether a text's brackets nest, or close nothing, past {@link MAX_BRACKET_DEPTH}. */
export function bracketsPastLimit(text: string): boolean {
  const { depth, stray } = bracketStats(text);
  return depth > MAX_BRACKET_DEPTH || stray > MAX_BRACKET_DEPTH;
}

/** The sentence of a text whose brackets nest past {@link MAX_BRACKET_DEPTH}. */
export function bracketsTooDeepMessage(what: string): string {
  return `${what} nests (or leaves open) more than ${MAX_BRACKET_DEPTH} levels of brackets, ` +
    `or closes more than ${MAX_BRACKET_DEPTH} it never opened, the most the checks read; ` +
    `balance the brackets, or check a smaller or flatter part`;
}

/**
 * Refuses, before any parsing, a text whose brackets nest past {@link MAX_BRACKET_DEPTH}
 * (`invalid_argument` naming the limit); `what` names the input ("the code").
 */
export function checkBrackets(text: string, what: string): void {
  if (bracketsPastLimit(text)) {
    throw new CodectxError("invalid_argument", bracketsTooDeepMessage(what));
  }
}
