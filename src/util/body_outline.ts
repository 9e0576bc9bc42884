/**
 * A long body as an outline: the lines of its calls, the branch and loop heads that enclose
 * them (`if`, `else`, `case`, `for`, `try`, `except`…, a nested `def`) and the `return`,
 * `raise` and `throw` lines that sit directly in a block shown — what a body does, when, and
 * what it calls, without reading it whole (issue 35: after `explain`, assistants read the body
 * with `sed` to learn the conditions around its calls). Blocks are found by indentation, which
 * every language codectx reads is written with.
 *
 * @module
 */

import { bracketBalance, type BracketRules } from "./brackets.ts";

/**
 * A line of the outline: its file line, how deep it is among the lines shown, its code (a
 * statement over several lines joined) and the file lines it stands for (itself and the lines
 * of the statement it goes on to).
 */
export interface OutlineLine {
  line: number;
  depth: number;
  text: string;
  lines: number[];
}

/** A head of a block: a branch, a loop, a handler, a nested definition. */
const HEAD =
  /^\}?\s*(if|else|elif|unless|switch|case|default|for|foreach|while|do|loop|match|select|try|except|catch|finally|rescue|ensure|with|async\s+(for|with|def)|def|function|func|fn|when)\b(?!\s*(=[^=]|[.,)\]]))/;
/** A head that goes on a chain begun above it at the same indentation (`else` of an `if`). */
const CONTINUES = /^\}?\s*(else|elif|except|catch|finally|rescue|ensure|when|case|default)\b/;
/** A line that leaves the body or the block. */
const EXIT = /^\}?\s*(return|raise|throw|goto|continue|panic!?\s*\()(\b|\s|\(|;|$)/;
/**
 * An assignment whose right side calls (`status = p->fn(argc, argv)`, `x := f()`, `let y =
 * await g()`): what decides the flow below it, whether or not the callee is in the project.
 */
const ASSIGN_CALL =
  /^(?:(?:let|const|var|auto|int|char|bool|size_t|struct\s+\w+)\s+)?[\w$.*&>\[\]-]+(?:\s*,\s*[\w$.*&>\[\]-]+)*\s*(?::=|=)\s*(?:await\s+|yield\s+|try\s+|new\s+|&)?[\w$.>:-]+\s*\(/;
/** A line that is a comment or a preprocessor line, not code. */
const NOT_CODE = /^(#|\/\/|\/\*|\*|--|;)/;
/** Longest line quoted. */
const MAX_TEXT = 160;

/** Columns of a line's indentation (a tab to the next multiple of 8). */
function indentOf(line: string): number {
  let n = 0;
  for (const ch of line) {
    if (ch === " ") n++;
    else if (ch === "\t") n = n + 8 - (n % 8);
    else break;
  }
  return n;
}

/** A line's code as the outline shows it: trimmed, a brace that opens or closes a block gone. */
function shown(text: string): string {
  const t = text.trim().replace(/^\}\s*/, "").replace(/\s*\{$/, "");
  return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT - 1)}…` : t;
}

/** What the outline knows of a body's lines: which are code, how indented, which are heads. */
export interface BodyLines {
  /** The body's lines. */
  lines: string[];
  /** The file line of `lines[0]`. */
  first: number;
  /** Per line: its indentation, or -1 when it is no code (blank, comment, inside a string). */
  indent: number[];
  /** File lines of the definitions nested in the body (a method of an object literal). */
  defs: Set<number>;
}

/**
 * The body's lines read for outlines: which lines are code (not blank, not a comment, not
 * inside a triple-quoted string) and how indented. `skip` lines from the start (the
 * definition's own line and what comes before it) are none of the body's; `defs` are the file
 * lines of the definitions it nests, heads of their blocks whatever their keyword.
 */
export function bodyLines(
  lines: string[],
  first: number,
  skip = 0,
  defs: Iterable<number> = [],
): BodyLines {
  let inString: string | null = null;
  const indent = lines.map((l, i) => {
    const t = l.trim();
    const quotes = t.match(/"""|'''/g) ?? [];
    const wasIn = inString;
    for (const q of quotes) inString = inString === null ? q : inString === q ? null : inString;
    if (i < skip || t === "" || wasIn !== null || NOT_CODE.test(t)) return -1;
    // A line that opens a string left open is code (`x = """`), the next ones are not.
    return indentOf(l);
  });
  return { lines, first, indent, defs: new Set(defs) };
}

/** Whether line `i` heads a block: a branch, a loop, a handler or a definition. */
function isHead(b: BodyLines, i: number): boolean {
  return b.defs.has(b.first + i) || HEAD.test(b.lines[i].trim());
}

/**
 * Line `i` with the lines its brackets left open go on to (at most `most` more), joined; and the
 * index of the last of them.
 */
function joined(b: BodyLines, i: number, most = 5): { text: string; end: number } {
  let text = b.lines[i].trim();
  let open = 0;
  let j = i;
  for (; j < b.lines.length && j <= i + most; j++) {
    if (j > i) text += ` ${b.lines[j].trim()}`;
    open += bracketBalance(b.lines[j], ARGUMENTS);
    if (open <= 0) break;
  }
  return { text, end: Math.min(j, b.lines.length - 1) };
}

/** The index of the line that holds line `i` (a lesser indentation before it), or -1. */
function parentOf(b: BodyLines, i: number): number {
  const own = b.indent[i];
  const t = b.lines[i].trim();
  // A `case` may sit at its `switch`'s indentation (tmux, the kernel's style).
  const isCase = /^(case|default)\b/.test(t);
  for (let j = i - 1; j >= 0; j--) {
    const d = b.indent[j];
    if (d < 0) continue;
    if (d < own) return j;
    if (isCase && d === own && /^\}?\s*switch\b/.test(b.lines[j].trim())) return j;
  }
  return -1;
}

/** The heads a chain head (`else`, `except`) continues, up to the one that began it. */
function chainOf(b: BodyLines, i: number): number[] {
  const out: number[] = [];
  const own = b.indent[i];
  let at = i;
  while (CONTINUES.test(b.lines[at].trim())) {
    let j = at - 1;
    while (j >= 0 && (b.indent[j] < 0 || b.indent[j] > own)) j--;
    if (j < 0 || b.indent[j] !== own || !isHead(b, j)) break;
    out.push(j);
    at = j;
  }
  return out;
}

/**
 * The lines that decide a body's flow whether or not they call: every head (`if`, `case <-ch:`,
 * a loop), every exit, every assignment from a call, and the one statement of a block that
 * holds one (`run_setup = RUN_SETUP_GENTLY;` under its `if`). The blind answerers of issue 35
 * read them with `sed` after an outline of call lines only (raft's `if time.Now().Sub(last) <
 * timeout`, git's `status = p->fn(...)` and `if (status) return status;`).
 */
function flowLines(b: BodyLines): number[] {
  const out: number[] = [];
  for (let i = 0; i < b.lines.length; i++) {
    if (b.indent[i] < 0) continue;
    const t = b.lines[i].trim();
    if (isHead(b, i) || EXIT.test(t) || ASSIGN_CALL.test(t) || soleStatement(b, i)) out.push(i);
    // The lines a statement goes on to are its own.
    i = joined(b, i).end;
  }
  return out;
}

/** Whether line `i` is the only statement of a head's block (a body of one line). */
function soleStatement(b: BodyLines, i: number): boolean {
  const p = parentOf(b, i);
  if (p < 0 || !isHead(b, p) || b.indent[p] >= b.indent[i]) return false;
  const own = b.indent[p];
  let code = 0;
  for (let j = joined(b, p).end + 1; j < b.lines.length; j++) {
    if (b.indent[j] < 0) continue;
    if (b.indent[j] <= own) break;
    code++;
    j = joined(b, j).end;
  }
  return code === 1;
}

/**
 * The outline of the body for the call lines `calls` (file lines) and the lines that decide
 * its flow ({@link flowLines}; all of them with `flow`): each with the heads that enclose it
 * (and the heads their chain began with: the `if` of an `else`), then every exit (`return`,
 * `raise`) whose blocks are all shown, in line order, each with its depth among the lines
 * shown. A call line outside `b` is shown at depth 0 with `callText`'s text.
 */
export function bodyOutline(
  b: BodyLines,
  calls: Iterable<number>,
  callText: (line: number) => string = () => "",
  flow = false,
): OutlineLine[] {
  const keep = new Set<number>(flow ? flowLines(b) : []);
  const outside: number[] = [];
  const withHeads = (i: number) => {
    for (let p = parentOf(b, i); p >= 0; p = parentOf(b, p)) {
      if (!isHead(b, p)) continue;
      keep.add(p);
      for (const c of chainOf(b, p)) keep.add(c);
    }
  };
  for (const line of calls) {
    const i = line - b.first;
    if (i < 0 || i >= b.lines.length || b.indent[i] < 0) {
      outside.push(line);
      continue;
    }
    keep.add(i);
    withHeads(i);
  }
  if (keep.size) {
    // Exits in blocks already shown: each of their enclosing heads kept (or the body's top).
    b.lines.forEach((l, i) => {
      if (b.indent[i] < 0 || keep.has(i) || !EXIT.test(l.trim())) return;
      for (let p = parentOf(b, i); p >= 0; p = parentOf(b, p)) {
        if (isHead(b, p) && !keep.has(p)) return;
      }
      keep.add(i);
    });
  }
  const depth = (i: number) => {
    let d = 0;
    for (let p = parentOf(b, i); p >= 0; p = parentOf(b, p)) if (keep.has(p)) d++;
    return d;
  };
  const out: OutlineLine[] = [];
  let end = -1;
  for (const i of [...keep].sort((x, y) => x - y)) {
    // A line of a statement shown already (a call in an `if`'s condition) is that statement's.
    if (i <= end) {
      out[out.length - 1].lines.push(b.first + i);
      continue;
    }
    const j = joined(b, i);
    end = j.end;
    out.push({ line: b.first + i, depth: depth(i), text: shown(j.text), lines: [b.first + i] });
  }
  for (const line of outside) out.push({ line, depth: 0, text: callText(line), lines: [line] });
  return out.sort((x, y) => x.line - y.line);
}

/** A line that ends inside its expression: after an operator or an open comment. */
const GOES_ON = /(&&|\|\||[-+*\/%<>=!&|^,(]|\/\*.*|\b(and|or|not))$/;

/** A head that begins a definition: the conditions of a line stop there. */
const DEFINITION = /^\}?\s*(def|function|func|fn|async\s+def|class)\b/;

/** A head of a block that holds a line: its file lines and its code as one line, no comments. */
export interface Head {
  line: number;
  end: number;
  text: string;
}

/** Lines a head's statement goes on to, at most (a condition written over many lines). */
const HEAD_MORE = 9;

/**
 * The branch and loop heads that hold file line `line` of `b` inside its definition, the `max`
 * innermost of them, each with the heads its chain began with (the `if` and `elif`s of an
 * `else`), outermost first: the conditions under which a line runs (issue 35: after an exact
 * search found a message, assistants read the lines above it with `sed` to learn what has to be
 * true for it to be raised). A line that is no code (a comment) is in the block of the code
 * line after it.
 *
 * @example
 * ```ts
 * headsOf(bodyLines(["func f() {", "\tif a {", "\t\tif b {", "\t\t\tboom()"], 1), 4);
 * // [{line: 2, end: 2, text: "if a"}, {line: 3, end: 3, text: "if b"}]
 * ```
 */
export function headsOf(b: BodyLines, line: number, max = Infinity): Head[] {
  let i = line - b.first;
  while (i >= 0 && i < b.lines.length && b.indent[i] < 0) i++;
  if (i < 0 || i >= b.lines.length) return [];
  const held = new Set<number>();
  let kept = 0;
  for (let p = parentOf(b, i); p >= 0 && kept < max; p = parentOf(b, p)) {
    if (DEFINITION.test(b.lines[p].trim()) || b.defs.has(b.first + p)) break;
    if (!isHead(b, p)) continue;
    kept++;
    for (const h of [p, ...chainOf(b, p)]) held.add(h);
  }
  return [...held].sort((x, y) => x - y).map((p) => headAt(b, p));
}

/** The head at line `p`: over several lines as one, its comments left out. */
function headAt(b: BodyLines, p: number): Head {
  const j = joined(b, p, HEAD_MORE);
  let end = j.end;
  let text = j.text.replace(/\/\*.*?\*\//g, " ").trim();
  // A condition that goes on after an operator (`if a &&` then `b {`) goes on to its line.
  for (let k = end + 1; k < b.lines.length && k <= p + HEAD_MORE && GOES_ON.test(text); k++) {
    text = `${text} ${b.lines[k].trim()}`.replace(/\/\*.*?\*\//g, " ").trim();
    end = k;
  }
  return { line: b.first + p, end: b.first + end, text: shown(text.replace(/\s+/g, " ")) };
}

/** Lines above a line that its statement may have begun on, at most. */
const STATEMENT_LINES = 8;

/** A call's arguments: parentheses and square brackets (braces open blocks, not arguments). */
const ARGUMENTS: BracketRules = {
  open: "([",
  close: ")]",
  quotes: "\"'`",
  escapes: "\"'`",
  // `#` opens a comment after a space or at the line's start (`x = f(a)  # note`), not in
  // JavaScript's `this.#field`.
  comment: (text, i) =>
    (text[i] === "#" && (i === 0 || text[i - 1] === " " || text[i - 1] === "\t")) ||
    (text[i] === "/" && (text[i + 1] === "/" || text[i + 1] === "*")),
};

/**
 * The file line the statement holding file line `line` of `b` begins on: a line above it
 * whose bracket is still open at `line` (`raise CommandError(` above the message's line), or
 * `line` itself. An exact search finds a message on its own line; what an answerer names is
 * the `raise`, `return` or call it is an argument of.
 */
export function statementStart(b: BodyLines, line: number): number {
  let i = line - b.first;
  if (i <= 0 || i >= b.lines.length) return line;
  for (let hops = 0; hops < 3; hops++) {
    let balance = 0;
    let start = -1;
    for (let k = i - 1; k >= Math.max(0, i - STATEMENT_LINES); k--) {
      if (b.indent[k] < 0 && !b.lines[k].trim()) continue;
      balance += bracketBalance(b.lines[k], ARGUMENTS);
      if (balance > 0) {
        start = k;
        break;
      }
    }
    if (start < 0) break;
    i = start;
  }
  return b.first + i;
}
