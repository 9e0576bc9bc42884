/**
 * What a security rule is: the conditions a fact must meet and what to report. The
 * rules themselves are data, one file per language (`python.ts`, `javascript.ts`,
 * `go.ts`), assembled in `table.ts`.
 *
 * @module
 */

/** bandit's three levels. */
export type Level = "LOW" | "MEDIUM" | "HIGH";

/** A literal a condition compares with (bandit compares literal values this way). */
export type LiteralValue = string | number;

/** One condition; see `../conditions.ts` for what each test reads. */
export type Condition =
  /** Callee (after import aliases) matches one of these fnmatch patterns. */
  | { test: "qualname"; in: readonly string[] }
  | { test: "notQualname"; in: readonly string[] }
  /** Callee as bandit's blacklist names it (`__import__("x")` → `x`). */
  | { test: "blacklistName"; in: readonly string[] }
  /** Last part of the callee. */
  | { test: "name"; in: readonly string[] }
  | { test: "nameContains"; value: string }
  | { test: "qualnameContains"; value: string }
  | { test: "qualnameEndsWith"; value: string }
  /** A dotted part of the callee is `part` and its last part is `last`. */
  | { test: "qualnameParts"; part: string; last: string }
  /** A module imported so far equals (`exact`) or contains `module`. */
  | { test: "imported"; module: string; exact?: boolean }
  /** The keyword argument is present and its literal is one of `in`. */
  | { test: "keyword"; name: string; in: readonly LiteralValue[] }
  /** The keyword argument is absent or its literal is none of `in`. */
  | { test: "keywordNotIn"; name: string; in: readonly LiteralValue[] }
  | { test: "keywordAbsent"; name: string }
  | { test: "keywordPresent"; name: string }
  /** A keyword whose name matches `pattern` has a string value. */
  | { test: "keywordNameMatches"; pattern: RegExp }
  /** bandit's `has_shell`: a truthy `shell=` keyword. */
  | { test: "shell"; value: boolean }
  | { test: "argCount"; min?: number; max?: number }
  /** The positional argument is (not) a plain string literal. */
  | { test: "argIsString"; index: number; value: boolean }
  /** The positional argument's literal is one of `in`. */
  | { test: "arg"; index: number; in: readonly LiteralValue[] }
  /** The positional argument is an integer with one of the `mask` bits set. */
  | { test: "argIntMask"; index: number; mask: number }
  /** Positional argument `index`, else keyword `keyword`, lower-cased, is one of `in`. */
  | { test: "argOrKeywordLower"; index: number; keyword: string; in: readonly string[] }
  /** The integer in keyword `keyword`, else argument `index`, else `fallback`, is below. */
  | { test: "sizeBelow"; keyword: string; index: number; fallback: number; below: number }
  /** The program (argument 0, or its first item) is a string without a path. */
  | { test: "partialPath" }
  /** The command string (argument 0, list items joined) holds `*` and one of `commands`. */
  | { test: "wildcard"; commands: readonly string[] }
  /** The argument is built by interpolation, concatenation or formatting. */
  | { test: "argDynamic"; index: number }
  /** The first keyword `name` in the call or calls inside it: its value. */
  | { test: "nestedKeyword"; name: string; is: "absent" | "False" | "safe" | "other" }
  /** The call's result feeds a name (variable, property, function) matching `pattern`. */
  | { test: "contextMatches"; pattern: RegExp }
  /** A string fact: exact value, or starting with one of. */
  | { test: "value"; in: readonly string[] }
  | { test: "valueStartsWith"; in: readonly string[] }
  | { test: "valueMatches"; pattern: RegExp }
  | { test: "assignedToMatches"; pattern: RegExp }
  | { test: "keyOfStringAssignmentMatches"; pattern: RegExp }
  | { test: "comparedWithMatches"; pattern: RegExp }
  /** A string that is part of a query being built matches; `callee` limits the call. */
  | { test: "builtMatches"; pattern: RegExp; callee?: readonly string[] }
  /** An import: a module (or `module.name`) starts with one of the prefixes. */
  | { test: "importPrefix"; in: readonly string[] }
  /** An except handler catches one of these names ("" = bare) and holds only `only`. */
  | { test: "caught"; in: readonly string[] }
  | { test: "only"; value: string }
  /** A function has a positional default: a string for a parameter named like `pattern`. */
  | { test: "defaultStringFor"; pattern: RegExp }
  /** A function has a positional default `x.y` whose last part is one of `in`. */
  | { test: "defaultAttributeIn"; in: readonly string[] }
  /** An assignment: property name, target, and value tests. */
  | { test: "property"; in: readonly string[] }
  | { test: "assignedValue"; is: "dynamic" | "false" | "true" | "nonEmptyString" };

/** Where an issue is reported: the fact's line, or the value of a keyword. */
export type LineRef = { keyword: string };

/** A variant of a rule's outcome. */
export interface Case {
  when: readonly Condition[];
  severity?: Level;
  confidence?: Level;
  message?: string;
  /** Report nothing. */
  none?: true;
}

/** One row of the table. */
export interface Rule {
  id: string;
  name: string;
  /** Language ids the rule applies to. */
  languages: readonly string[];
  on: "call" | "import" | "string" | "assert" | "except" | "function" | "assign";
  when: readonly Condition[];
  cases?: readonly Case[];
  severity: Level;
  confidence: Level;
  /** `{name}` is replaced by the matched name. */
  message: string;
  cwe: number;
  line?: LineRef;
  group?: string;
}
