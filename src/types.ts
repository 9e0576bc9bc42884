/**
 * Core records shared by parsing, indexing, storage and tools.
 *
 * These are the in-memory (camelCase) shapes. The wire shapes (snake_case) live in
 * `src/tools/schemas.ts` and are produced once, at the tool edge.
 */

/** What a definition is. */
export type SymbolKind =
  | "function"
  | "method"
  | "constructor"
  | "class"
  | "interface"
  | "struct"
  | "enum"
  | "trait"
  | "type"
  | "constant"
  | "variable"
  | "field"
  | "module"
  | "namespace"
  | "macro"
  | "section";

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

/** What the parser returns for one file. */
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
