/**
 * A definition's body as an assistant reads it: each line with its number (so that a
 * `file:line` needs no second read), the common indentation gone, blank lines and a docstring
 * already shown above left out.
 *
 * @module
 */

/** The quotes a docstring opens with. */
const DOC_QUOTE = /^\s*[rRuUbB]?("""|''')/;

/**
 * The lines (0-based, first and last) of a docstring in `lines` whose text starts with `doc`'s
 * first line: a string literal that opens a body (Python); none for a comment above it.
 */
function docstringSpan(lines: string[], doc: string): [number, number] | undefined {
  const head = doc.trim().split("\n")[0].trim();
  if (!head) return undefined;
  const at = lines.slice(0, 12).findIndex((l) => l.includes(head));
  if (at < 0) return undefined;
  const open = lines.slice(Math.max(0, at - 1), at + 1).findLastIndex((l) => DOC_QUOTE.test(l));
  if (open < 0) return undefined;
  const start = Math.max(0, at - 1) + open;
  const quote = lines[start].match(DOC_QUOTE)![1];
  const rest = lines[start].slice(lines[start].indexOf(quote) + 3);
  if (rest.includes(quote)) return [start, start];
  for (let i = start + 1; i < lines.length; i++) if (lines[i].includes(quote)) return [start, i];
  return undefined;
}

/**
 * `source` (whose first line is line `first` of its file) as numbered lines: `1165 def f():`,
 * indented as in the file less what every line shares; blank lines and the docstring whose
 * text is `doc` (shown above it) left out.
 *
 * @example
 * ```ts
 * numberedBody('    def f():\n        """Do."""\n\n        return 1', 10, "Do.");
 * // "10 def f():\n13     return 1"
 * ```
 */
export function numberedBody(source: string, first: number, doc = ""): string {
  const lines = source.replace(/\s+$/, "").split("\n");
  const skip = docstringSpan(lines, doc);
  const kept = lines.map((text, i) => ({ n: first + i, text, i }))
    .filter((l) => l.text.trim() !== "" && !(skip && l.i >= skip[0] && l.i <= skip[1]));
  const indent = Math.min(...kept.map((l) => l.text.match(/^[ \t]*/)![0].length));
  return kept.map((l) => `${l.n} ${l.text.slice(indent).replace(/\s+$/, "")}`).join("\n");
}
