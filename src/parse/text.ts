/**
 * Symbols of text formats read without tree-sitter, by line (or character) scanners
 * that never throw on malformed input:
 *
 * - markdown: each heading is a `section`; its qualified name is the heading path joined
 *   by ` > ` (`Install > From source`), since headings often hold dots; it ends on the
 *   line before the next heading of the same or a higher level, or at the end of file.
 * - json: each key of the top-level object; `section` when its value is an object, else
 *   `field`.
 * - yaml: each key at column 0; `section` when its value is a nested block, else `field`.
 * - toml: each `[table]`/`[[array]]` header is a `section` named by its full dotted
 *   name; each key is a `field` whose parent is the table it sits in.
 * - make: each variable assignment at column 0 (`dist_tmux_SOURCES = \`, `CFLAGS +=`) is a
 *   `field` spanning its continued lines; each rule's target (`install: all`) a `section`
 *   spanning its recipe. Special targets (`.PHONY`) and targets made of variables are left out.
 * - lines: no symbols (the file's text is still chunked and searched).
 *
 * @module
 */

import type { SymbolKind, SymbolRecord } from "../types.ts";
import type { TextFormat } from "./languages.ts";
import { bracketBalance, type BracketRules } from "../util/brackets.ts";

const SIGNATURE_MAX = 200;
const DOC_MAX = 300;

/**
 * The symbols of a text file.
 *
 * @example
 * ```ts
 * scanText("markdown", "README.md", "# Title\n## Usage\n").map((s) => s.qualifiedName);
 * // ["Title", "Title > Usage"]
 * ```
 */
export function scanText(format: TextFormat, file: string, source: string): SymbolRecord[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  switch (format) {
    case "markdown":
      return scanMarkdown(file, lines);
    case "json":
      return scanJson(file, source);
    case "yaml":
      return scanYaml(file, lines);
    case "toml":
      return scanToml(file, lines);
    case "make":
      return scanMake(file, lines);
    case "lines":
      return [];
  }
}

function record(
  file: string,
  language: string,
  kind: SymbolKind,
  name: string,
  parent: string | null,
  separator: string,
  line: number,
  endLine: number,
  signature: string,
  doc: string,
): SymbolRecord {
  return {
    name,
    qualifiedName: parent ? `${parent}${separator}${name}` : name,
    kind,
    file,
    line,
    startLine: line,
    endLine: Math.max(line, endLine),
    signature: cap(signature.trim(), SIGNATURE_MAX),
    doc,
    parent,
    language,
  };
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// ---------------------------------------------------------------- markdown

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const NOT_PARAGRAPH = /^(?: {4,}|\t| {0,3}(?:[-*+>|]|\d+[.)]|#|<))/;

interface Open {
  level: number;
  symbol: SymbolRecord;
}

function scanMarkdown(file: string, lines: string[]): SymbolRecord[] {
  const out: SymbolRecord[] = [];
  const open: Open[] = [];
  let fence = "";
  let i = 0;
  if (lines[0] === "---") {
    // YAML front matter.
    for (i = 1; i < lines.length && lines[i] !== "---" && lines[i] !== "..."; i++);
    i = i < lines.length ? i + 1 : 0;
  }
  const heading = (level: number, name: string, index: number, sig: string) => {
    while (open.length > 0 && open[open.length - 1].level >= level) {
      const done = open.pop()!.symbol;
      done.endLine = Math.max(done.line, index);
    }
    const parent = open.length > 0 ? open[open.length - 1].symbol.qualifiedName : null;
    const symbol = record(
      file,
      "markdown",
      "section",
      name,
      parent,
      " > ",
      index + 1,
      lines.length,
      sig,
      "",
    );
    out.push(symbol);
    open.push({ level, symbol });
  };
  for (; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length) fence = "";
      continue;
    }
    if (fence) continue;
    const atx = ATX.exec(line);
    if (atx && atx[2].trim()) {
      heading(atx[1].length, atx[2].trim(), i, line);
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext && i > 0) {
      const prev = lines[i - 1];
      const prevIsHeading = out.length > 0 && out[out.length - 1].line === i;
      if (prev.trim() && !prevIsHeading && !NOT_PARAGRAPH.test(prev) && !FENCE.test(prev)) {
        heading(setext[1][0] === "=" ? 1 : 2, prev.trim(), i - 1, prev);
      }
    }
  }
  for (const s of out) s.doc = firstParagraph(lines, s.line + (isSetext(lines, s.line) ? 1 : 0));
  return out;
}

function isSetext(lines: string[], line: number): boolean {
  return line < lines.length && SETEXT.test(lines[line]) && !ATX.test(lines[line - 1]);
}

/** The first paragraph after a heading (0-based `from`), joined into one line and capped. */
function firstParagraph(lines: string[], from: number): string {
  let i = from;
  while (i < lines.length && !lines[i].trim()) i++;
  const parts: string[] = [];
  for (; i < lines.length && lines[i].trim(); i++) {
    const l = lines[i];
    if (ATX.test(l) || FENCE.test(l)) break;
    parts.push(l.trim());
  }
  return cap(parts.join(" "), DOC_MAX);
}

// ---------------------------------------------------------------- json

function scanJson(file: string, source: string): SymbolRecord[] {
  const out: SymbolRecord[] = [];
  const n = source.length;
  let line = 1;
  let depth = 0;
  let i = 0;
  let lastLine = 1;
  let current: SymbolRecord | null = null;
  let expectKey = false;
  let lineStart = 0;
  let started = false;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 0xfeff) {
      i++;
      continue;
    }
    if (c === 47 && source.charCodeAt(i + 1) === 47) {
      // `//` comment (JSONC)
      while (i < n && source.charCodeAt(i) !== 10) i++;
      continue;
    }
    if (c === 47 && source.charCodeAt(i + 1) === 42) {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let j = i; j < stop; j++) {
        if (source.charCodeAt(j) === 10) {
          line++;
          lineStart = j + 1;
        }
      }
      i = stop;
      continue;
    }
    if (!started) {
      // Only an object at the top has keys.
      if (c !== 123) return out;
      started = true;
    }
    if (c === 34) {
      const startLine = line;
      const startCol = i - lineStart;
      let j = i + 1;
      while (j < n) {
        const d = source.charCodeAt(j);
        if (d === 92) j += 2;
        else if (d === 34 || d === 10) break;
        else j++;
      }
      const text = source.slice(i + 1, Math.min(j, n));
      i = j + 1;
      lastLine = line;
      if (depth === 1 && expectKey) {
        let k = i;
        while (k < n && /\s/.test(source[k])) k++;
        if (source[k] === ":") {
          let v = k + 1;
          while (v < n && /\s/.test(source[v])) v++;
          const kind: SymbolKind = source[v] === "{" ? "section" : "field";
          const eol = source.indexOf("\n", i);
          const sig = source.slice(lineStart + startCol, eol < 0 ? n : eol).replace(/,\s*$/, "");
          current = record(
            file,
            "json",
            kind,
            unescapeJson(text),
            null,
            ".",
            startLine,
            startLine,
            sig,
            "",
          );
          out.push(current);
          expectKey = false;
        }
      }
      continue;
    }
    if (c === 123 || c === 91) {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (c === 125 || c === 93) {
      if (depth === 1 && current) current.endLine = Math.max(current.line, lastLine);
      depth--;
      if (depth <= 0) break;
    } else if (c === 44 && depth === 1) {
      if (current) current.endLine = Math.max(current.line, lastLine);
      current = null;
      expectKey = true;
    }
    lastLine = line;
    i++;
  }
  if (current && depth > 0) current.endLine = Math.max(current.line, lastLine);
  return out;
}

function unescapeJson(text: string): string {
  if (!text.includes("\\")) return text;
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

// ---------------------------------------------------------------- yaml

const YAML_KEY =
  /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#\-?:&*!|>'"%@`{[\]},][^#]*?|-[^\s#][^#]*?)[ \t]*:(?:[ \t]|$)/;

function scanYaml(file: string, lines: string[]): SymbolRecord[] {
  const out: SymbolRecord[] = [];
  let open: SymbolRecord | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === "---" || line === "...") {
      if (open) close(open, lines, i);
      open = null;
      continue;
    }
    const m = YAML_KEY.exec(line);
    if (!m) continue;
    if (open) close(open, lines, i);
    const key = m[1].trim();
    const name = /^["']/.test(key) ? key.slice(1, -1) : key;
    const rest = line.slice(m[0].length).replace(/(^|\s)#.*$/, "").trim();
    const kind: SymbolKind = rest === "" || /^[&!]\S*$/.test(rest) ? "section" : "field";
    const doc = commentsAbove(lines, i);
    open = record(file, "yaml", kind, name, null, ".", i + 1, i + 1, line, doc);
    out.push(open);
  }
  if (open) close(open, lines, lines.length);
  return out;
}

/** End `symbol` before line `index` (0-based), leaving out trailing blank and comment lines. */
function close(symbol: SymbolRecord, lines: string[], index: number): void {
  let end = index - 1;
  while (end >= symbol.line && isBlankOrComment(lines[end])) end--;
  symbol.endLine = Math.max(symbol.line, symbol.endLine, end + 1);
}

function isBlankOrComment(line: string): boolean {
  const t = line.trim();
  return t === "" || t.startsWith("#");
}

/** `#` comment lines directly above line `index` (0-based), markers stripped. */
function commentsAbove(lines: string[], index: number): string {
  const parts: string[] = [];
  for (let j = index - 1; j >= 0; j--) {
    const t = lines[j].trim();
    if (!t.startsWith("#")) break;
    parts.push(t.replace(/^#+\s?/, ""));
  }
  return parts.reverse().join("\n").trim();
}

// ---------------------------------------------------------------- toml

const TOML_TABLE = /^\s*\[\[?\s*([^\]#]+?)\s*\]\]?\s*(?:#.*)?$/;
const TOML_KEY_PART = `(?:[A-Za-z0-9_-]+|"(?:[^"\\\\]|\\\\.)*"|'[^']*')`;
const TOML_KEY = new RegExp(`^\\s*(${TOML_KEY_PART}(?:\\s*\\.\\s*${TOML_KEY_PART})*)\\s*=`);

function scanToml(file: string, lines: string[]): SymbolRecord[] {
  const out: SymbolRecord[] = [];
  let table: SymbolRecord | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const t = TOML_TABLE.exec(line);
    if (t) {
      if (table) close(table, lines, i);
      const name = t[1].replace(/\s*\.\s*/g, ".");
      table = record(
        file,
        "toml",
        "section",
        name,
        null,
        ".",
        i + 1,
        i + 1,
        line,
        commentsAbove(lines, i),
      );
      out.push(table);
      continue;
    }
    const k = TOML_KEY.exec(line);
    if (!k) continue;
    const name = k[1].replace(/\s*\.\s*/g, ".");
    const last = valueEnd(lines, i, k[0].length);
    const parent = table ? table.qualifiedName : null;
    out.push(
      record(
        file,
        "toml",
        "field",
        name,
        parent,
        ".",
        i + 1,
        last + 1,
        line,
        commentsAbove(lines, i),
      ),
    );
    // Lines inside a multi-line value are not keys.
    i = last;
  }
  if (table) close(table, lines, lines.length);
  return out;
}

/** The 0-based line where the value starting at `lines[index][column]` ends. */
function valueEnd(lines: string[], index: number, column: number): number {
  let text = lines[index].slice(column);
  for (const q of ['"""', "'''"]) {
    const at = text.indexOf(q);
    if (at < 0 || countOf(text, q) % 2 === 0) continue;
    for (let j = index + 1; j < lines.length; j++) {
      if (countOf(lines[j], q) % 2 === 1) return j;
    }
    return lines.length - 1;
  }
  let depth = bracketBalance(text, TOML_BRACKETS);
  let j = index;
  while (depth > 0 && j + 1 < lines.length) {
    text = lines[++j];
    depth += bracketBalance(text, TOML_BRACKETS);
  }
  return j;
}

function countOf(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Open minus closed brackets on a TOML line, outside strings and comments. */
const TOML_BRACKETS: BracketRules = {
  open: "[{",
  close: "]}",
  quotes: `"'`,
  escapes: '"',
  comment: (text, i) => text[i] === "#",
};

// ---------------------------------------------------------------- make

const MAKE_ASSIGN = /^(?:(?:export|override)\s+)*([A-Za-z_][A-Za-z0-9_.-]*)\s*(?:::|[:+?!])?=/;
const MAKE_RULE = /^([^\s:#=$%][^:#=]*?)\s*::?(?!=)/;
const MAKE_SPECIAL = /^\.[A-Z_]+$/;

function scanMake(file: string, lines: string[]): SymbolRecord[] {
  const out: SymbolRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // Recipe lines, comments and blank lines define nothing.
    if (line === "" || line.startsWith("\t") || line.startsWith("#")) continue;
    let last = i;
    while (last + 1 < lines.length && lines[last].endsWith("\\")) last++;
    const doc = commentsAbove(lines, i);
    const assign = MAKE_ASSIGN.exec(line);
    if (assign) {
      out.push(record(file, "make", "field", assign[1], null, ".", i + 1, last + 1, line, doc));
    } else {
      const rule = MAKE_RULE.exec(line);
      let end = last;
      while (end + 1 < lines.length && lines[end + 1].startsWith("\t")) end++;
      for (const target of rule ? rule[1].split(/\s+/) : []) {
        if (target === "" || target.includes("$") || MAKE_SPECIAL.test(target)) continue;
        out.push(record(file, "make", "section", target, null, ".", i + 1, end + 1, line, doc));
      }
    }
    i = last;
  }
  return out;
}
