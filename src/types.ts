/**
 * Core records shared by parsing, indexing, storage and tools.
 *
 * These are the in-memory (camelCase) shapes. The wire shapes (snake_case) live in
 * `src/tools/schemas.ts` and are produced once, at the tool edge.
 */

/** How many results a search gives when the caller does not say (`top_k`). */
export const DEFAULT_TOP_K = 10;

/** Every kind a definition may have, as the query files name them (`@definition.KIND`). */
export const SYMBOL_KINDS = [
  "function",
  "method",
  "constructor",
  "class",
  "interface",
  "struct",
  "enum",
  "trait",
  "type",
  "constant",
  "variable",
  "field",
  "module",
  "namespace",
  "macro",
  "section",
] as const;

/** What a definition is. */
export type SymbolKind = typeof SYMBOL_KINDS[number];

/** Kinds whose body is code that runs: functions, methods, constructors. */
export const FUNCTION_KINDS: ReadonlySet<string> = new Set<SymbolKind>([
  "function",
  "method",
  "constructor",
]);

/**
 * Kinds that are called (functions, methods, constructors, macros): explain_symbol's callers
 * of one are its call sites; of any other kind (a type, a constant), its uses.
 */
export const CALLABLE_KINDS: ReadonlySet<string> = new Set<SymbolKind>([
  ...FUNCTION_KINDS as ReadonlySet<SymbolKind>,
  "macro",
]);

/** Kinds that hold members: types and modules (what `Foo.bar` can name a member of). */
export const CLASS_LIKE: ReadonlySet<SymbolKind> = new Set<SymbolKind>([
  "class",
  "interface",
  "struct",
  "enum",
  "trait",
  "type",
  "module",
]);

/** Kinds that name a type (a module is none). */
export const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>([
  "class",
  "struct",
  "trait",
  "enum",
  "interface",
  "type",
]);

/** Kinds a member of a class may have. */
export const MEMBER_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>([
  "method",
  "constructor",
  "field",
  "function",
  "constant",
  "variable",
]);

/** Kinds that hold a value, not code or members: variables, constants, fields. */
export const VALUE_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>([
  "constant",
  "variable",
  "field",
]);

/** One definition found in a file. Lines are 1-based. */
export interface SymbolRecord {
  name: string;
  /** Dotted path of enclosing definitions plus the name, e.g. `Session.request`. */
  qualifiedName: string;
  kind: SymbolKind;
  /** Project-relative path with `/` separators. */
  file: string;
  /** The line that holds the name (LSP selection range). */
  line: number;
  /** First line of the whole definition, decorators/annotations included (doc comments not). */
  startLine: number;
  /** Last line of the body. */
  endLine: number;
  /** The declaration head, without the body. */
  signature: string;
  /** Docstring or leading doc comment, cleaned of comment markers; "" when none. */
  doc: string;
  /** Qualified name of the enclosing definition, or null at top level. */
  parent: string | null;
  language: string;
}

/** A parse failure or partial parse, recorded per file. */
export interface ParseIssue {
  message: string;
  line?: number;
}

/**
 * What the parser returns for one file (with what it reads for the graph: `facts/records.ts`
 * `ParsedSource`).
 */
export interface ParsedFile {
  language: string;
  /** Symbols in source order. */
  symbols: SymbolRecord[];
  /** Number of lines in the file. */
  lines: number;
  /** Set when the grammar failed to load or the parser threw; symbols may then be empty. */
  error?: string;
  /** Count of tree-sitter ERROR/MISSING nodes (the file still yields what can be read). */
  syntaxErrors: number;
  /** Import statements, in source order. */
  imports?: ImportRecord[];
  /** The package or namespace the file declares (Go, Java, Kotlin, C#, PHP, Scala), if any. */
  package?: string;
}

/** Every way a name may occur (the graph part stores a reference's kind as its index here). */
export const REFERENCE_KINDS = [
  "definition",
  "call",
  "import",
  "type",
  "inherit",
  "read",
  "write",
  /** A name written as a string in a module's export list (Python `__all__ = ["f"]`). */
  "export_list",
  /** A declaration of what is defined elsewhere (a C prototype: `int f(int);`). */
  "declaration",
] as const;

/** How a name occurs. */
export type ReferenceKind = typeof REFERENCE_KINDS[number];

/**
 * What is known of the object a member is reached through (`obj.name`):
 * `self` (`self`/`this`: the enclosing class), `typed` (a variable whose type the same
 * scope shows: a constructor call, an annotation), `local` (a variable of unknown type),
 * `name` (a name or dotted path that is no local: an import, a class, a global), `expr`
 * (anything else).
 */
export type ReceiverKind = "self" | "typed" | "local" | "name" | "expr";

/** One name an import brings in: `name` as exported, `alias` when renamed; `*` for all. */
export interface ImportedName {
  name: string;
  alias: string | null;
}

/** One import statement (or one module of a statement that imports several). */
export interface ImportRecord {
  /** The module as written, without quotes (`./util`, `..pkg.mod`, `<stdio.h>`). */
  module: string;
  line: number;
  /** The statement's keyword when the language has several (`require_relative`, `mod`). */
  kind: string;
  names: ImportedName[];
  /** The local name of the module itself (`import numpy as np`, `import * as ns`). */
  alias: string | null;
}

/** A retrievable span of a file. */
export interface ChunkRecord {
  /** Stable id: `${file}:${startLine}-${endLine}`. */
  id: string;
  file: string;
  startLine: number;
  endLine: number;
  /** Qualified name of the enclosing symbol, or null for top-level code. */
  symbol: string | null;
  /** Kind of the enclosing symbol, or null. */
  kind: SymbolKind | null;
  language: string;
  text: string;
}

/** A file as the walker sees it. */
export interface WalkEntry {
  /** Project-relative path, `/` separators. */
  path: string;
  /** Absolute path on disk. */
  absPath: string;
  size: number;
  mtimeMs: number;
}
