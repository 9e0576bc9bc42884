/**
 * Raw line metrics: lines of code, logical lines, comment lines, blank lines.
 *
 * Python follows radon's `raw.analyze` exactly (radon 5.1 on CPython 3.11): lines are
 * stripped and grouped into the smallest runs the tokenizer accepts (open brackets,
 * unterminated strings and backslash continuations join lines); a group that is one
 * comment or one string is a comment or a docstring; logical lines count statements the
 * way radon does (a `:` that does not end the group makes two). Other languages count
 * physical lines around the comment spans the tree gives.
 *
 * @module
 */

/** Line counts of one file (radon's `raw` names). */
export interface RawMetrics {
  /** Physical lines. */
  loc: number;
  /** Logical lines (statements). */
  lloc: number;
  /** Source lines: lines that hold code. */
  sloc: number;
  /** Comment tokens (one per `#`/`//` comment; a block comment counts its lines). */
  comments: number;
  /** Lines inside multi-line docstrings. */
  multi: number;
  blank: number;
  /** Lines that hold only a comment or a one-line docstring. */
  singleComments: number;
}

/** Counts of a text with no lines yet. */
function noLines(): RawMetrics {
  return { loc: 0, lloc: 0, sloc: 0, comments: 0, multi: 0, blank: 0, singleComments: 0 };
}

const enum Tok {
  Comment,
  String,
  Colon,
  Semicolon,
  Other,
}

interface Token {
  kind: Tok;
  /** Line (0-based) where the token starts and ends. */
  start: number;
  end: number;
}

const STRING_PREFIXES = new Set(["r", "u", "f", "b", "br", "rb", "fr", "rf"]);

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 128;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 12 || c === 11;
}

/**
 * radon's raw metrics of Python source.
 *
 * @example
 * ```ts
 * pythonRaw("def f(x):\n    # hi\n    return x\n");
 * // { loc: 3, lloc: 2, sloc: 2, comments: 1, multi: 0, blank: 0, singleComments: 1 }
 * ```
 */
export function pythonRaw(source: string): RawMetrics {
  const lines = splitLines(source);
  const out = noLines();
  // One scanner over the whole text; a group ends at a line end outside brackets,
  // strings and continuations.
  let tokens: Token[] = [];
  let groupStart = 0;
  let depth = 0;
  let line = 0;
  let i = 0;
  const n = source.length;
  let continued = false;

  const endGroup = (lastLine: number) => {
    finishGroup(tokens, lines, groupStart, lastLine, out);
    tokens = [];
    groupStart = lastLine + 1;
    depth = 0;
  };

  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (c === 13 && source.charCodeAt(i + 1) === 10) i++;
      i++;
      if (depth <= 0 && !continued) endGroup(line);
      continued = false;
      line++;
      continue;
    }
    if (isSpace(c)) {
      i++;
      continue;
    }
    continued = false;
    if (c === 35 /* # */) {
      const start = line;
      while (i < n && source.charCodeAt(i) !== 10 && source.charCodeAt(i) !== 13) i++;
      tokens.push({ kind: Tok.Comment, start, end: start });
      continue;
    }
    if (c === 92 /* \ */) {
      const next = source.charCodeAt(i + 1);
      if (next === 10 || next === 13) {
        continued = true;
        i++;
        continue;
      }
      i++;
      tokens.push({ kind: Tok.Other, start: line, end: line });
      continue;
    }
    if (c === 34 || c === 39) {
      const r = scanString(source, i, i, line);
      tokens.push({ kind: Tok.String, start: line, end: r.line });
      i = r.end;
      line = r.line;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(source.charCodeAt(j))) j++;
      const q = source.charCodeAt(j);
      if ((q === 34 || q === 39) && STRING_PREFIXES.has(source.slice(i, j).toLowerCase())) {
        const r = scanString(source, i, j, line);
        tokens.push({ kind: Tok.String, start: line, end: r.line });
        i = r.end;
        line = r.line;
        continue;
      }
      tokens.push({ kind: Tok.Other, start: line, end: line });
      i = j;
      continue;
    }
    if (c === 40 || c === 91 || c === 123) depth++;
    else if (c === 41 || c === 93 || c === 125) depth--;
    if (c === 58 /* : */) {
      if (source.charCodeAt(i + 1) === 61) {
        tokens.push({ kind: Tok.Other, start: line, end: line });
        i += 2;
        continue;
      }
      tokens.push({ kind: Tok.Colon, start: line, end: line });
    } else if (c === 59 /* ; */) {
      tokens.push({ kind: Tok.Semicolon, start: line, end: line });
    } else if (c >= 48 && c <= 57) {
      // A number is one token: digits, letters (0x1F, 1e5, 2j), dots and underscores.
      let j = i + 1;
      while (j < n && (isIdentPart(source.charCodeAt(j)) || source.charCodeAt(j) === 46)) j++;
      tokens.push({ kind: Tok.Other, start: line, end: line });
      i = j;
      continue;
    } else {
      tokens.push({ kind: Tok.Other, start: line, end: line });
    }
    i++;
  }
  if (line < lines.length || tokens.length > 0) endGroup(Math.max(line, groupStart));
  out.loc = out.sloc + out.blank + out.multi + out.singleComments;
  return out;
}

/** Scans a string literal whose quote is at `q` (prefix starts at `start`). */
function scanString(
  source: string,
  _start: number,
  q: number,
  line: number,
): { end: number; line: number } {
  const quote = source.charCodeAt(q);
  const n = source.length;
  const triple = source.charCodeAt(q + 1) === quote && source.charCodeAt(q + 2) === quote;
  let i = triple ? q + 3 : q + 1;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 92 /* \ */) {
      const next = source.charCodeAt(i + 1);
      if (next === 13 && source.charCodeAt(i + 2) === 10) {
        i += 3;
        line++;
      } else {
        if (next === 10 || next === 13) line++;
        i += 2;
      }
      continue;
    }
    if (c === 10 || c === 13) {
      if (!triple) return { end: i, line }; // unterminated: the tokenizer gives up here too
      if (c === 13 && source.charCodeAt(i + 1) === 10) i++;
      line++;
      i++;
      continue;
    }
    if (c === quote) {
      if (!triple) return { end: i + 1, line };
      if (source.charCodeAt(i + 1) === quote && source.charCodeAt(i + 2) === quote) {
        return { end: i + 3, line };
      }
    }
    i++;
  }
  return { end: n, line };
}

function finishGroup(
  tokens: Token[],
  lines: string[],
  first: number,
  last: number,
  out: RawMetrics,
): void {
  let comments = 0;
  for (const t of tokens) if (t.kind === Tok.Comment) comments++;
  out.comments += comments;
  const single = tokens.length === 1 ? tokens[0] : null;
  if (single?.kind === Tok.Comment) {
    out.singleComments++;
  } else if (single?.kind === Tok.String) {
    if (single.start === single.end) {
      out.singleComments++;
    } else {
      for (let l = first; l <= last && l < lines.length; l++) {
        if (lines[l].trim() === "") out.blank++;
        else out.multi++;
      }
    }
  } else {
    for (let l = first; l <= last && l < lines.length; l++) {
      if (lines[l].trim() === "") out.blank++;
      else out.sloc++;
    }
  }
  out.lloc += logicalLines(tokens);
}

/** radon's `_logical`: statements split on `;`, a `:` not at the end makes two. */
function logicalLines(tokens: Token[]): number {
  let total = 0;
  let sub: Tok[] = [];
  const flush = (final: boolean) => {
    // radon keeps ENDMARKER in the last piece; the colon test is relative to it.
    const processed = final ? [...sub, Tok.Other] : sub;
    const lastColon = processed.lastIndexOf(Tok.Colon);
    if (lastColon >= 0) total += lastColon === processed.length - 2 ? 1 : 2;
    else if (sub.length > 0) total += 1;
    sub = [];
  };
  for (const t of tokens) {
    if (t.kind === Tok.Comment) continue;
    if (t.kind === Tok.Semicolon) flush(false);
    else sub.push(t.kind);
  }
  flush(true);
  return total;
}

function splitLines(source: string): string[] {
  const lines = source.split(/\r\n|\r|\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** A span of a comment in the source (character offsets). */
export interface Span {
  start: number;
  end: number;
}

/**
 * Line metrics of any language from its comment spans: a line is blank, comment-only or
 * code; a logical line is a code line with more than brackets and separators on it.
 *
 * @example
 * ```ts
 * genericRaw("int x; // y\n\n// z\n}\n", [{ start: 7, end: 11 }, { start: 13, end: 17 }]);
 * // { loc: 4, lloc: 1, sloc: 2, comments: 2, multi: 0, blank: 1, singleComments: 1 }
 * ```
 */
export function genericRaw(source: string, comments: readonly Span[]): RawMetrics {
  const out = noLines();
  const spans = [...comments].sort((a, b) => a.start - b.start);
  let s = 0;
  let pos = 0;
  const n = source.length;
  while (pos < n) {
    let end = source.indexOf("\n", pos);
    if (end < 0) end = n;
    let code = false;
    let logical = false;
    let comment = false;
    for (let i = pos; i < end; i++) {
      while (s < spans.length && spans[s].end <= i) s++;
      if (s < spans.length && spans[s].start <= i) {
        comment = true;
        i = Math.min(end, spans[s].end) - 1;
        continue;
      }
      const c = source.charCodeAt(i);
      if (c === 32 || c === 9 || c === 13 || c === 12) continue;
      code = true;
      if (!PUNCTUATION.has(c)) logical = true;
    }
    if (code) {
      out.sloc++;
      if (logical) out.lloc++;
    } else if (comment) out.singleComments++;
    else out.blank++;
    if (comment) out.comments++;
    pos = end + 1;
    if (end === n) break;
  }
  out.loc = out.sloc + out.blank + out.singleComments;
  return out;
}

/** Characters that alone do not make a logical line: `{ } ( ) [ ] ; ,`. */
const PUNCTUATION = new Set([123, 125, 40, 41, 91, 93, 59, 44]);
