/**
 * Syntax errors from a tree's ERROR and MISSING nodes, in words a person acts on:
 * "expected `)`", "`(` is never closed", "unexpected `else`".
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";

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

/** The tokens (leaves) of a subtree, in order. */
function leaves(n: Node, out: Node[] = []): Node[] {
  if (n.childCount === 0) {
    out.push(n);
    return out;
  }
  for (const c of n.children) if (c) leaves(c, out);
  return out;
}

/**
 * An ERROR node: an unbalanced bracket inside it says most; otherwise the first token
 * that could not be placed, and what came before it.
 */
function explainError(n: Node, opts: SyntaxOptions): SyntaxError {
  const tokens = leaves(n).filter((t) => t.type !== "comment" && t.text.trim() !== "");
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
    const text = t.text;
    if (text in OPENERS) stack.push(t);
    else if (text in CLOSERS) {
      if (stack.length && stack[stack.length - 1].text === CLOSERS[text]) stack.pop();
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
      message: `\`${open.text}\` is never closed (expected \`${OPENERS[open.text]}\`)`,
    };
  }
  const first = tokens[0] ?? n;
  const shown = first.text.length > 30 ? `${first.text.slice(0, 30)}…` : first.text;
  const before = n.previousSibling;
  const after = before && before.text.length <= 30 ? ` after \`${lastToken(before)}\`` : "";
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
