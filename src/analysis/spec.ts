/**
 * The analysis table: for each language codectx analyzes, which query files describe it
 * and which of the few counting conventions apply. Data only; adding a language means a
 * row here, a `metrics/<lang>.scm` and, for security rules, a `rules/<lang>.scm`.
 *
 * @module
 */

/** How one language is analyzed. */
export interface AnalysisSpec {
  /** Query file in `metrics/` (without `.scm`). */
  readonly metrics: string;
  /** Query file in `rules/` (without `.scm`), when the language has security rules. */
  readonly rules?: string;
  /** Query file in `resolve/`, when unresolved names are checked for the language. */
  readonly resolve?: string;
  /**
   * How a file's cyclomatic complexity adds up: `radon` follows radon's
   * ComplexityVisitor (closures and nested classes are left out, each method adds one);
   * `sum` is one plus every decision in the file.
   */
  readonly complexityTotal: "radon" | "sum";
  /**
   * How Halstead operands are told apart: `python` as radon does (a name, an attribute's
   * last name, a constant's value); `text` by their source text.
   */
  readonly operandKey: "python" | "text";
  /** Raw line metrics: radon's Python tokenizer, or physical lines around comments. */
  readonly raw: "python" | "lines";
}

const C_LIKE: AnalysisSpec = {
  metrics: "c",
  complexityTotal: "sum",
  operandKey: "text",
  raw: "lines",
};

const row = (metrics: string, rules?: string, resolve?: string): AnalysisSpec => ({
  ...C_LIKE,
  metrics,
  ...(rules ? { rules } : {}),
  ...(resolve ? { resolve } : {}),
});

/** Every analyzed language by id (the ids of `src/parse/languages.ts`). */
export const ANALYSIS_LANGUAGES: Readonly<Record<string, AnalysisSpec>> = {
  python: {
    metrics: "python",
    rules: "python",
    resolve: "python",
    complexityTotal: "radon",
    operandKey: "python",
    raw: "python",
  },
  javascript: row("javascript", "javascript", "javascript"),
  typescript: row("typescript", "typescript", "typescript"),
  tsx: row("typescript", "javascript", "typescript"),
  go: row("go", "go", "go"),
  rust: row("rust"),
  java: row("java"),
  c: row("c"),
  cpp: row("cpp"),
  csharp: row("csharp"),
  ruby: row("ruby"),
  php: row("php"),
  kotlin: row("kotlin"),
  swift: row("swift"),
  scala: row("scala"),
  lua: row("lua"),
  bash: row("bash"),
};
