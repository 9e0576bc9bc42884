/**
 * Which language a snippet is in: an explicit name (with common aliases), the extension
 * of a path, or, failing both, detection — telltale patterns score the candidates and
 * the best few are parsed, the one with the fewest syntax errors winning.
 *
 * @module
 */

import { languageById, languageForPath } from "../parse/languages.ts";
import { analysisGrammar } from "./grammar.ts";
import { STOPPABLE, stopPoint } from "./stop_flag.ts";

export { VALIDATABLE } from "./project_view.ts";

/** Names people use for the languages, beyond the ids. */
const ALIASES: Record<string, string> = {
  py: "python",
  python3: "python",
  py3: "python",
  js: "javascript",
  node: "javascript",
  nodejs: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  ecmascript: "javascript",
  ts: "typescript",
  golang: "go",
  rs: "rust",
  "c++": "cpp",
  cxx: "cpp",
  cc: "cpp",
  hpp: "cpp",
  "c#": "csharp",
  cs: "csharp",
  "c-sharp": "csharp",
  rb: "ruby",
  kt: "kotlin",
  kts: "kotlin",
  sh: "bash",
  shell: "bash",
  zsh: "bash",
};

/**
 * A language id from a user's name for it (`py`, `C++`, `TypeScript`), or undefined.
 *
 * @example
 * ```ts
 * normalizeLanguage("C#"); // "csharp"
 * ```
 */
export function normalizeLanguage(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  const id = ALIASES[key] ?? key;
  return languageById(id)?.grammar ? id : undefined;
}

/** A language id from a path's extension, when it names a validatable language. */
export function languageFromPath(path: string): string | undefined {
  const info = languageForPath(path);
  return info?.grammar ? info.id : undefined;
}

/** Telltale patterns, each worth its weight for its language. */
const SIGNS: ReadonlyArray<readonly [string, RegExp, number]> = [
  ["python", /^\s*def \w+\s*\(.*\)\s*(->\s*[^:]+)?:\s*$/m, 4],
  ["python", /^\s*(async\s+)?def \w+\s*\(/m, 2],
  ["python", /^\s*class \w+(\(.*\))?:\s*$/m, 4],
  ["python", /^\s*(from [\w.]+ import |import \w+(\.\w+)*(\s+as \w+)?\s*$)/m, 3],
  ["python", /^\s*(elif .*|else|try|finally|except.*):\s*$/m, 3],
  ["python", /\bself\.\w+|\bNone\b|\bTrue\b|\bFalse\b|\bprint\(/, 1],
  ["python", /^\s*(if|for|while|with) .*:\s*$/m, 2],
  ["javascript", /\b(const|let|var)\s+[\w${}\[\], ]+\s*=/, 2],
  ["javascript", /=>|\bfunction\s*\w*\s*\(/, 2],
  ["javascript", /\bconsole\.\w+\(|\brequire\(|module\.exports|\bdocument\.|\bwindow\./, 2],
  ["javascript", /===|!==/, 1],
  ["typescript", /:\s*(string|number|boolean|any|void|unknown|never)\b/, 3],
  ["typescript", /^\s*(export\s+)?(interface|type)\s+\w+/m, 3],
  ["typescript", /\bimport type\b|\bas const\b|\bprivate readonly\b/, 3],
  ["typescript", /\b(const|let|var)\s+\w+\s*=|=>|\bfunction\b/, 1],
  ["tsx", /<[A-Z]\w*[\s/>]|return\s*\(\s*</, 2],
  ["go", /^package \w+\s*$/m, 5],
  ["go", /\bfunc\s+(\(\w+ \*?\w+\)\s*)?\w+\(/, 4],
  ["go", /:=|\bfmt\.\w+\(|\bnil\b/, 1],
  ["rust", /\bfn\s+\w+(<.*>)?\s*\(/, 4],
  ["rust", /\blet\s+mut\b|\bimpl\b|\w+!\(|&str\b|\bpub\s+(fn|struct|enum)\b/, 2],
  ["java", /\b(public|private|protected)\s+(static\s+)?(final\s+)?(class|void|int|String)\b/, 3],
  ["java", /System\.out\.|^import java\.|@Override/m, 3],
  ["c", /^#include\s*[<"]\w+\.h[>"]/m, 3],
  ["c", /\b(printf|malloc|free|sizeof)\s*\(|\bint\s+main\s*\(/, 2],
  ["cpp", /^#include\s*<\w+>\s*$/m, 2],
  ["cpp", /\bstd::|\bnamespace\s+\w+|template\s*<|\bcout\s*<<|::\w+\(/, 3],
  ["csharp", /^using System|\bConsole\.Write|\{\s*get;\s*set;\s*\}|\bnamespace\s+[\w.]+/m, 3],
  ["csharp", /\bpublic\s+(static\s+)?(async\s+)?(void|Task|string|int)\s+\w+\(/, 2],
  ["ruby", /^\s*def \w+[!?]?(\(.*\))?\s*$/m, 3],
  ["ruby", /^\s*end\s*$/m, 2],
  ["ruby", /\bputs\b|\brequire '|\battr_(accessor|reader)\b|\bdo \|\w+\|/, 3],
  ["php", /<\?php/, 6],
  ["php", /\$\w+\s*(=|->)/, 2],
  ["kotlin", /\bfun\s+\w+\s*\(|\bval\s+\w+|\bdata class\b/, 3],
  ["swift", /\bfunc\s+\w+\s*\(|\bguard let\b|\bimport (Foundation|UIKit|SwiftUI)\b/, 3],
  ["scala", /\bobject\s+\w+|\bcase class\b|\bdef\s+\w+\s*\(.*\)\s*:\s*\w+\s*=/, 3],
  ["lua", /\blocal\s+\w+\s*=|\bfunction\s+[\w.:]+\s*\(.*\)\s*$|\bthen\b|--/m, 2],
  ["bash", /^#!.*\b(ba|z)?sh\b|^\s*(fi|done|esac)\s*$|\$\{?\w+\}?|\becho\b/m, 2],
];

const SHEBANGS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^#!.*\bpython/, "python"],
  [/^#!.*\b(node|deno|bun)\b/, "javascript"],
  [/^#!.*\b(ba|z|da)?sh\b/, "bash"],
  [/^#!.*\bruby\b/, "ruby"],
  [/^#!.*\bphp\b/, "php"],
  [/^#!.*\blua\b/, "lua"],
];

/**
 * Detects a snippet's language, or returns undefined when nothing points to one.
 *
 * @example
 * ```ts
 * await detectLanguage("def f(x):\n    return x\n"); // "python"
 * ```
 */
export async function detectLanguage(code: string): Promise<string | undefined> {
  for (const [re, id] of SHEBANGS) if (re.test(code)) return id;
  const sample = code.length > 20_000 ? code.slice(0, 20_000) : code;
  const scores = new Map<string, number>();
  for (const [id, re, weight] of SIGNS) {
    if (re.test(sample)) scores.set(id, (scores.get(id) ?? 0) + weight);
  }
  // TypeScript reads JavaScript; only its own signs make a snippet TypeScript.
  if ((scores.get("typescript") ?? 0) <= 1) scores.delete("typescript");
  if (scores.has("tsx") && !scores.has("typescript") && !scores.has("javascript")) {
    scores.delete("tsx");
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  if (ranked.length === 0) return undefined;
  if (ranked.length === 1 || ranked[0][1] >= ranked[1][1] + 4) return ranked[0][0];
  let best: { id: string; errors: number; score: number } | null = null;
  for (const [id, score] of ranked) {
    const errors = await errorCount(id, sample);
    if (!best || errors < best.errors || (errors === best.errors && score > best.score)) {
      best = { id, errors, score };
    }
  }
  return best?.id;
}

async function errorCount(id: string, code: string): Promise<number> {
  const g = await analysisGrammar(id);
  if (!g) return Infinity;
  const tree = g.parser.parse(code, null, STOPPABLE);
  stopPoint();
  if (!tree) return Infinity;
  try {
    const root = tree.rootNode;
    if (!root.hasError) return 0;
    let n = 0;
    const stack = [root];
    while (stack.length) {
      const node = stack.pop()!;
      if (node.isError || node.isMissing) n++;
      for (const c of node.children) if (c && (c.hasError || c.isMissing)) stack.push(c);
    }
    return n;
  } finally {
    tree.delete();
  }
}
