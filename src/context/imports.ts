/**
 * The import lines of a file, read from its text: what a reader of one definition needs to
 * know where the names it uses come from.
 *
 * @module
 */

/** One import statement as written (possibly several lines). */
export interface ImportLines {
  line: number;
  endLine: number;
  text: string[];
}

/** The start of an import statement, per language; top-level (or shallow) lines only. */
const STARTS: Record<string, RegExp> = {
  python: /^\s{0,4}(import\s|from\s+\S+\s+import\b)/,
  javascript:
    /^(import\s|import\(|export\s+(\*|\{[^}]*\}|type\s)\s*.*from\s|(const|let|var)\s+.*=\s*require\()/,
  typescript:
    /^(import\s|export\s+(\*|\{[^}]*\}|type\s)\s*.*from\s|(const|let|var)\s+.*=\s*require\()/,
  tsx: /^(import\s|export\s+(\*|\{[^}]*\}|type\s)\s*.*from\s)/,
  go: /^import\s/,
  rust: /^\s*(pub(\([^)]*\))?\s+)?(use\s|extern\s+crate\s|mod\s+\w+\s*;)/,
  java: /^(import|package)\s/,
  kotlin: /^(import|package)\s/,
  scala: /^\s*(import|package)\s/,
  c: /^\s*#\s*include\b/,
  cpp: /^\s*(#\s*include\b|using\s+namespace\s|import\s)/,
  csharp: /^\s*(using\s+[\w.]+\s*(=\s*[\w.<>]+\s*)?;|namespace\s+[\w.]+\s*;)/,
  php: /^\s*(use\s|namespace\s|(require|include)(_once)?\b)/,
  ruby: /^\s*(require|require_relative|load)\b/,
  lua: /^\s*(local\s+\w+\s*=\s*)?require\b/,
  swift: /^\s*(@testable\s+)?import\s/,
  bash: /^\s*(source|\.)\s+\S/,
};

const MAX_STATEMENT_LINES = 40;

function balance(line: string): number {
  let n = 0;
  for (const ch of line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, "")) {
    if (ch === "(" || ch === "{" || ch === "[") n++;
    else if (ch === ")" || ch === "}" || ch === "]") n--;
  }
  return n;
}

/**
 * Import statements of a file's lines, in order; a statement that opens a bracket runs to
 * the line that closes it (`from x import (\n a,\n b)`, `import {\n a\n} from "x"`).
 *
 * @example
 * ```ts
 * importLines(["import os", "", "def f(): pass"], "python"); // [{line: 1, endLine: 1, text: ["import os"]}]
 * ```
 */
export function importLines(lines: readonly string[], language: string): ImportLines[] {
  const start = STARTS[language];
  if (!start) return [];
  const out: ImportLines[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!start.test(lines[i])) continue;
    let depth = balance(lines[i]);
    let j = i;
    // Go's `import (` block and bracketed lists run to their closing line.
    while (depth > 0 && j + 1 < lines.length && j - i < MAX_STATEMENT_LINES) {
      j++;
      depth += balance(lines[j]);
    }
    out.push({ line: i + 1, endLine: j + 1, text: lines.slice(i, j + 1) });
    i = j;
  }
  return out;
}
