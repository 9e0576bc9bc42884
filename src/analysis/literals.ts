/**
 * Values of literals as their language defines them: Python strings (prefixes, escapes,
 * implicit concatenation), and the string literals of C-like languages.
 *
 * @module
 */

/** A decoded Python string literal. */
export interface PythonString {
  value: string;
  bytes: boolean;
  /** An f-string: its value is only its literal text. */
  formatted: boolean;
}

const PY_STRING = /^([A-Za-z]*)("""|'''|"|')([\s\S]*)\2$/;

/**
 * Decodes a Python string literal, or the parts of an implicit concatenation
 * (`'a' "b"`). Null when the text is not a string literal.
 *
 * @example
 * ```ts
 * pythonString("b'a\\x41'"); // { value: "aA", bytes: true, formatted: false }
 * pythonString("'a' r'\\n'"); // { value: "a\\n", bytes: false, formatted: false }
 * ```
 */
export function pythonString(text: string): PythonString | null {
  const parts = splitConcatenated(text);
  if (parts.length === 0) return null;
  let bytes = false;
  let formatted = false;
  let value = "";
  for (const p of parts) {
    const m = PY_STRING.exec(p);
    if (!m) return null;
    const prefix = m[1].toLowerCase();
    if (prefix.includes("f")) formatted = true;
    if (prefix.includes("b")) bytes = true;
    value += prefix.includes("r") ? m[3] : unescapePython(m[3]);
  }
  return { value, bytes, formatted };
}

/** Splits `'a' "b"` (implicit concatenation, possibly over lines) into its literals. */
function splitConcatenated(text: string): string[] {
  const parts: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (
      i < n && (text[i] === " " || text[i] === "\t" || text[i] === "\n" ||
        text[i] === "\r" || text[i] === "\\" || text[i] === "(" || text[i] === ")")
    ) i++;
    if (i >= n) break;
    if (text[i] === "#") {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    const start = i;
    while (i < n && /[A-Za-z]/.test(text[i])) i++;
    const q = text[i];
    if (q !== "'" && q !== '"') return [];
    const triple = text.startsWith(q.repeat(3), i);
    const close = triple ? q.repeat(3) : q;
    i += close.length;
    while (i < n && !text.startsWith(close, i)) i += text[i] === "\\" ? 2 : 1;
    i += close.length;
    parts.push(text.slice(start, i));
  }
  return parts;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\n": "",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

const PY_ESCAPE =
  /\\(\r\n|[\n\\'"abfnrtv]|[0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/g;

function unescapePython(body: string): string {
  if (!body.includes("\\")) return body;
  return body.replace(PY_ESCAPE, (all, e: string) => {
    if (e === "\r\n") return "";
    if (e in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[e];
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    const cp = parseInt(e.slice(1), 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
  });
}

/**
 * The value of a C-like string literal (`"…"`, `'…'`, `` `…` `` without substitutions):
 * quotes removed, common escapes decoded. Null when it is not one.
 *
 * @example
 * ```ts
 * cLikeString('"a\\tb"'); // "a\tb"
 * cLikeString("`raw`"); // "raw"
 * ```
 */
export function cLikeString(text: string): string | null {
  if (text.length < 2) return null;
  const q = text[0];
  if ((q !== '"' && q !== "'" && q !== "`") || text[text.length - 1] !== q) return null;
  const body = text.slice(1, -1);
  if (q === "`") return body;
  return body.replace(
    /\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/gs,
    (_, e: string) => {
      if (e[0] === "u" && e.length > 1) {
        return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ""), 16));
      }
      if (e[0] === "x" && e.length === 3) return String.fromCharCode(parseInt(e.slice(1), 16));
      return SIMPLE_ESCAPES[e] ?? (e === "0" ? "\0" : e);
    },
  );
}
