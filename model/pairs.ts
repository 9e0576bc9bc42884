/**
 * (query, code) pairs from source files, with codectx's own parser: the query is the first
 * sentence of a function's or method's doc (its own name dropped when it opens the
 * sentence, as Go and Rust docs do); the code is the function with that doc removed, cut
 * like codectx's first chunk of it (60 lines, 2,000 characters). The same extraction
 * feeds training (`model/data.ts`) and evaluation (`bench/model_eval.ts`).
 *
 * @module
 */

import { parseSource } from "../src/parse/parser.ts";
import { DEFAULT_CHUNK_LIMITS } from "../src/index/chunker.ts";
import type { SymbolRecord } from "../src/types.ts";

/** A function or method found in a file. */
export interface FunctionRecord {
  file: string;
  /** Qualified name. */
  symbol: string;
  parent: string | null;
  line: number;
  /** The code without its doc (first chunk's worth). */
  code: string;
  /** The query made from its doc, or null when it has none usable. */
  query: string | null;
  /** True when it had a doc that could not be removed cleanly (not a usable candidate). */
  docLeft: boolean;
}

const FUNCTION_KINDS = new Set(["function", "method", "constructor"]);
/** JS/TS constants and variables count when their value is a function. */
const VALUE_KINDS = new Set(["constant", "variable"]);

/** Openings of docs that describe no behaviour. */
const USELESS =
  /^(deprecated|internal|private|todo|fixme|xxx|hack|see |copied|inherit|override|implements?\b|nolint|generated|for internal use|do not use|\{?@)/i;

/**
 * The first sentence of a doc as a search query, or null when it is not one (too short,
 * boilerplate). Inline markup (`{@link X}`, `[X]`, backticks, HTML tags) is reduced to its
 * text, and a leading mention of the function's own name is dropped (`Foo returns the
 * sum` → `returns the sum`), since a person searching does not know the name.
 *
 * @example
 * ```ts
 * docQuery("ReadFile reads the named file and returns the contents.\nMore.", "ReadFile");
 * // "reads the named file and returns the contents"
 * ```
 */
export function docQuery(doc: string, name: string): string | null {
  // The first paragraph, before any block tag or section heading.
  let text = doc.replace(/\r/g, "").split(/\n\s*\n/)[0];
  text = text.split(/\n\s*(?:@[a-zA-Z]|:param|:return|:raises|:type|#+\s|Args:|Returns?:)/)[0];
  text = text
    .replace(
      /\{@(?:link|linkplain|code|literal)\s+([^}]*)\}/g,
      (_m, x: string) => x.trim().split(/\s+/)[0].replace(/^#/, "").replace(/#/g, "."),
    )
    .replace(/\[`?([^\]`]+)`?\]\([^)]*\)/g, "$1")
    .replace(/\[`?([^\]`]+)`?\](?!\()/g, "$1")
    .replace(/<\/?[a-zA-Z][^>]*>/g, " ")
    .replace(/[`*]|:(?:func|meth|class|attr|mod|data|exc|obj|ref):/g, "")
    .replace(/\b(e\.g|i\.e|etc|vs|cf)\./gi, "$1")
    .replace(/\s+/g, " ")
    .trim();
  const m = /^(.*?[.!?])(?:\s|$)/.exec(text);
  let s = (m ? m[1] : text).replace(/[.:;,!]+$/, "").trim();
  // Drop a leading mention of the function's own name.
  const first = s.split(" ")[0]?.replace(/[()`'":,]/g, "") ?? "";
  const bare = name.replace(/^.*[.:]/, "");
  if (first === bare || first === name || first.endsWith(`.${bare}`)) {
    s = s.slice(s.indexOf(" ") + 1).trim();
    if (/^(is|are)\s/.test(s)) s = s.replace(/^(is|are)\s+(an?|the)?\s*/, "");
  }
  const words = s.split(/\s+/).filter((w) => /[a-zA-Z]/.test(w));
  if (words.length < 3 || USELESS.test(s) || s.startsWith(">>>")) return null;
  return words.length > 40 ? s.split(/\s+/).slice(0, 40).join(" ") : s;
}

/** Where a Python definition's header ends (0-based line index), or -1 for a one-liner. */
export function pythonHeaderEnd(lines: string[], sym: SymbolRecord): number {
  let depth = 0;
  for (let j = sym.line - 1; j < lines.length && j < sym.line + 60; j++) {
    const code = lines[j].replace(/#.*$/, "");
    for (const ch of code) {
      if ("([{".includes(ch)) depth++;
      else if (")]}".includes(ch)) depth--;
    }
    if (depth <= 0 && /:\s*$/.test(code)) return j;
    if (depth <= 0 && /:\s*\S/.test(code) && !/[([{,\\]\s*$/.test(code)) return -1;
  }
  return -1;
}

/**
 * The lines of a Python definition with its docstring (the body's first statement)
 * removed; null when the docstring cannot be found cleanly.
 */
function pythonWithoutDoc(lines: string[], sym: SymbolRecord): string[] | null {
  const head = pythonHeaderEnd(lines, sym);
  if (head < 0) return null;
  let k = head + 1;
  while (k < sym.endLine && lines[k].trim() === "") k++;
  const m = /^\s*[rRuUbB]{0,2}("""|'''|"|')/.exec(lines[k] ?? "");
  if (!m) return null;
  const quote = m[1];
  let end = k;
  if (!lines[k].slice(m[0].length).includes(quote)) {
    if (quote.length === 1) return null;
    end = k + 1;
    while (end < sym.endLine && !lines[end].includes(quote)) end++;
    if (end >= sym.endLine) return null;
  }
  const body = lines.slice(sym.startLine - 1, sym.endLine);
  body.splice(k - (sym.startLine - 1), end - k + 1);
  return body;
}

/** First chunk's worth of code: at most 60 lines and 2,000 characters. */
function firstChunk(codeLines: string[]): string {
  const text = codeLines.slice(0, DEFAULT_CHUNK_LIMITS.maxLines).join("\n");
  return text.length > DEFAULT_CHUNK_LIMITS.maxChars
    ? text.slice(0, DEFAULT_CHUNK_LIMITS.maxChars)
    : text;
}

/**
 * Every function and method of a file, with its doc removed from its code and the query
 * its doc makes.
 *
 * @example
 * ```ts
 * const fns = await fileFunctions("m.go", "package m\n// Add adds two ints.\nfunc Add(a, b int) int { return a + b }\n", "go");
 * fns[0].query; // "adds two ints"
 * ```
 */
export async function fileFunctions(
  file: string,
  text: string,
  language: string,
): Promise<FunctionRecord[]> {
  const parsed = await parseSource(file, text, language);
  if (parsed.error) return [];
  const lines = text.split("\n");
  const out: FunctionRecord[] = [];
  const scripting = language === "javascript" || language === "typescript";
  for (const sym of parsed.symbols) {
    if (!FUNCTION_KINDS.has(sym.kind)) {
      // `export const map = (…) => …` / `= dual(2, (self, f) => …)`: a function all the same.
      if (!scripting || !VALUE_KINDS.has(sym.kind)) continue;
      const head = lines.slice(sym.startLine - 1, Math.min(sym.endLine, sym.startLine + 5)).join(
        "\n",
      );
      if (!/=>|\bfunction\b/.test(head)) continue;
    }
    const doc = sym.doc.trim();
    let body: string[] | null;
    if (!doc) body = lines.slice(sym.startLine - 1, sym.endLine);
    else if (language === "python") body = pythonWithoutDoc(lines, sym);
    else body = lines.slice(sym.startLine - 1, sym.endLine);
    const base = {
      file,
      symbol: sym.qualifiedName,
      parent: sym.parent,
      line: sym.line,
      query: null,
    };
    if (!body) {
      out.push({ ...base, code: "", docLeft: true });
      continue;
    }
    const code = firstChunk(body);
    const query = doc ? docQuery(doc, sym.name) : null;
    // A doc that is still in the code (odd layouts) would leak the answer.
    const probe = doc.replace(/\s+/g, " ").slice(0, 40);
    const leaked = doc !== "" && probe.length > 10 && code.replace(/\s+/g, " ").includes(probe);
    out.push({ ...base, code, query: leaked ? null : query, docLeft: leaked });
  }
  return out;
}
