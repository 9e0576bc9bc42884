/**
 * The parsing engine: source text in, {@link ParsedFile} out. It knows no language:
 * grammars, query files and node-type lists come from `languages.ts`, and symbols come
 * from the captures of one query per file (`@definition.<kind>`, `@name`, `@body`,
 * `@parent`, `@scope`; see `queries/README.md`).
 *
 * The same query also says where names are used (read by `references.ts`):
 *
 * | capture                         | on                                   | meaning                                                |
 * | ------------------------------- | ------------------------------------ | ------------------------------------------------------ |
 * | `@reference.<kind>`             | a name node                          | `call`, `type`, `inherit`, `write`, `read`; `ignore` drops the node (a keyword argument's name) |
 * | `@reference.receiver`           | the object of `obj.name` (same match) | what the member is reached through                    |
 * | `@reference.receiver.self`      | `self` / `this` (same match)          | the member belongs to the enclosing class             |
 * | `@reference.receiver.type`      | a type whose instance is the object  | `Foo().bar()`, `Foo.new.bar`: `bar` is `Foo.bar`       |
 * | `@import.module`                | the module as written                | one import record per module node                      |
 * | `@import.name` / `@import.alias`| an imported name and its alias       | an alias without a name renames the module itself      |
 * | `@import.default`               | the local name of a default import   | binds the module's `default` export                    |
 * | `@import.wildcard`              | `*`                                  | every name of the module                               |
 * | `@import.kind`                  | the keyword (`require_relative`, `mod`) | read by the language's import resolver              |
 * | `@local.scope`                  | a function, lambda, comprehension    | names bound inside are local to it                     |
 * | `@local.definition`             | a parameter or local variable        | bound in the innermost scope; a scope's own `name` binds outside it |
 * | `@local.type`                   | its type (same match)                | a constructor call or annotation: `x.m()` is then `Type.m` |
 * | `@package`                      | the declared package / namespace     | Go, Java, Kotlin, C#, PHP, Scala                       |
 *
 * When several patterns capture one name node, definitions win, then imported names, then
 * the pattern written first: query files list specific patterns before the catch-all
 * `(identifier) @reference.read`.
 *
 * @module
 */

import { Language, Parser, Query } from "web-tree-sitter";
import type { Node, QueryMatch } from "web-tree-sitter";
import { createRequire } from "node:module";
import type { ParsedFile, SymbolKind, SymbolRecord } from "../types.ts";
import {
  type GrammarInfo,
  languageById,
  languageForPath,
  type LanguageInfo,
  LANGUAGES,
  looksLikeCpp,
} from "./languages.ts";
import { collectReferences, type RefRole, refRoleOf } from "./references.ts";
import { scanText } from "./text.ts";

/** What a capture name means to the engine. */
type Role =
  | { readonly role: "definition"; readonly kind: SymbolKind }
  | { readonly role: "scope" | "local" | "name" | "body" | "parent" | "other" };

/** A grammar ready to use: parser, compiled query, capture roles. */
export interface Loaded {
  readonly info: GrammarInfo;
  readonly parser: Parser;
  readonly query: Query;
  readonly roles: Map<string, Role>;
  /** Roles of the reference, import and local-scope captures (see `references.ts`). */
  readonly refRoles: Map<string, RefRole>;
  readonly sets: {
    readonly comment: Set<string>;
    readonly wrapper: Set<string>;
    readonly group: Set<string>;
    readonly attribute: Set<string>;
    readonly modifier: Set<string>;
    readonly ctor: Set<string>;
    readonly methodParent: Set<SymbolKind>;
  };
}

/** A definition or scope found by the query, before it becomes a symbol. */
interface Found {
  /** Index of the query pattern that found it: on a tie for one name, the first wins. */
  pattern: number;
  node: Node;
  /** null only for a `@local` region. */
  nameNode: Node | null;
  /** null: a scope (Rust `impl Foo`) or a `@local` region, which are no symbols. */
  kind: SymbolKind | null;
  /** A `@local` region (Java anonymous class body): definitions inside are not indexed. */
  local: boolean;
  body: Node | null;
  parentNode: Node | null;
  start: number;
  end: number;
  /** Filled while nesting. */
  qualifiedName: string;
  nameText: string;
}

const KINDS: ReadonlySet<string> = new Set<SymbolKind>([
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
]);

/** Definitions inside these are local (a helper inside a function) and are not indexed. */
const LOCAL_SCOPES: ReadonlySet<SymbolKind | null> = new Set<SymbolKind | null>([
  "function",
  "method",
  "constructor",
]);

/** Kinds whose signature is their first line (`X = {`), not their whole text. */
const WEAK_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>(["constant", "variable", "field"]);

const SIGNATURE_MAX = 200;

const LANGUAGE_IDS = LANGUAGES.map((l) => l.id);

let initPromise: Promise<void> | undefined;
/** Grammar loads run one at a time: concurrent `Language.load` calls corrupt wasm linking. */
let loadChain: Promise<unknown> = Promise.resolve();
const grammars = new Map<string, Promise<Loaded>>();

function roleOf(name: string): Role {
  if (name.startsWith("definition.")) {
    const kind = name.slice("definition.".length);
    if (!KINDS.has(kind)) throw new Error(`unknown definition kind in capture @${name}`);
    return { role: "definition", kind: kind as SymbolKind };
  }
  if (
    name === "scope" || name === "local" || name === "name" || name === "body" || name === "parent"
  ) {
    return { role: name };
  }
  return { role: "other" };
}

async function readQuery(file: string): Promise<string> {
  const url = new URL(`./queries/${file}`, import.meta.url);
  if (url.protocol === "file:") return await Deno.readTextFile(url);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`cannot read query ${url}: HTTP ${res.status}`);
  return await res.text();
}

async function load(info: GrammarInfo): Promise<Loaded> {
  initPromise ??= Parser.init();
  await initPromise;
  const wasmPath = createRequire(import.meta.url).resolve(`tree-sitter-wasms/out/${info.wasm}`);
  const loading = loadChain.catch(() => {}).then(() => Language.load(wasmPath));
  loadChain = loading;
  const language = await loading;
  const query = new Query(language, await readQuery(info.query));
  const parser = new Parser();
  parser.setLanguage(language);
  const roles = new Map<string, Role>();
  const refRoles = new Map<string, RefRole>();
  for (const name of query.captureNames) {
    roles.set(name, roleOf(name));
    const refRole = refRoleOf(name);
    if (refRole) refRoles.set(name, refRole);
  }
  return {
    info,
    parser,
    query,
    roles,
    refRoles,
    sets: {
      comment: new Set(info.commentTypes),
      wrapper: new Set(info.wrapperTypes),
      group: new Set(info.groupTypes),
      attribute: new Set(info.attributeTypes),
      modifier: new Set(info.modifierTypes),
      ctor: new Set(info.constructorNames),
      methodParent: new Set(info.methodParents),
    },
  };
}

/**
 * Load (once) the grammar and compiled query of a tree-sitter language. Rejects when the
 * wasm file or the query cannot be loaded, or the query does not compile.
 *
 * @example
 * ```ts
 * await loadGrammar("rust"); // compiles src/parse/queries/rust.scm
 * ```
 */
export function loadGrammar(languageId: string): Promise<Loaded> {
  let loaded = grammars.get(languageId);
  if (!loaded) {
    const info = languageById(languageId)?.grammar;
    loaded = info
      ? load(info)
      : Promise.reject(new Error(`no tree-sitter grammar for language '${languageId}'`));
    grammars.set(languageId, loaded);
  }
  return loaded;
}

/**
 * The language id of a file from its path, or undefined when codectx does not index it.
 *
 * @example
 * ```ts
 * languageOf("pkg/server.go"); // "go"
 * ```
 */
export function languageOf(relPath: string): string | undefined {
  return languageForPath(relPath)?.id;
}

/**
 * Parse one file's text into symbols. Never throws: a missing grammar, an unknown
 * language or a parser failure is reported in `error`; syntax errors are counted in
 * `syntaxErrors` and the readable rest of the file still yields symbols.
 *
 * `language` overrides detection by path. A `.h` file whose text looks like C++ is
 * parsed as `cpp` even when `language` is `c` (the returned `language` says so).
 *
 * @example
 * ```ts
 * const parsed = await parseSource("app/session.py", "class Session:\n    def get(self): ...\n");
 * parsed.symbols.map((s) => s.qualifiedName); // ["Session", "Session.get"]
 * ```
 */
export async function parseSource(
  relPath: string,
  source: string,
  language?: string,
): Promise<ParsedFile> {
  const lines = countLines(source);
  let info: LanguageInfo | undefined;
  try {
    info = language === undefined ? languageForPath(relPath) : languageById(language);
    if (!info) {
      const what = language === undefined ? `file '${relPath}'` : `language '${language}'`;
      return {
        language: language ?? "unknown",
        symbols: [],
        lines,
        syntaxErrors: 0,
        error: `unsupported ${what}; known languages: ${knownIds()}`,
      };
    }
    if (info.id === "c" && relPath.endsWith(".h") && looksLikeCpp(source)) {
      info = languageById("cpp") ?? info;
    }
    if (info.text) {
      return {
        language: info.id,
        symbols: scanText(info.text, relPath, source),
        lines,
        syntaxErrors: 0,
      };
    }
    const loaded = await loadGrammar(info.id);
    return parseWith(loaded, info.id, relPath, source, lines);
  } catch (e) {
    return {
      language: info?.id ?? language ?? "unknown",
      symbols: [],
      lines,
      syntaxErrors: 0,
      error: e instanceof Error ? e.message : String(e),
    };
  }
}

function knownIds(): string {
  return languageIds().join(", ");
}

/** Every language id codectx knows, in table order. */
export function languageIds(): string[] {
  return LANGUAGE_IDS;
}

function parseWith(
  g: Loaded,
  languageId: string,
  file: string,
  source: string,
  lines: number,
): ParsedFile {
  const tree = g.parser.parse(source);
  if (!tree) {
    return {
      language: languageId,
      symbols: [],
      lines,
      syntaxErrors: 0,
      error: "parser returned no tree",
    };
  }
  try {
    const root = tree.rootNode;
    const syntaxErrors = root.hasError ? countErrors(root) : 0;
    const matches = g.query.matches(root);
    const found = collect(g, matches);
    const symbols = build(g, found, languageId, file, source);
    if (g.refRoles.size === 0) return { language: languageId, symbols, lines, syntaxErrors };
    const names = found.filter((f) => f.kind !== null && f.nameNode).map((f) => f.nameNode!);
    const refs = collectReferences(matches, g.refRoles, names, symbols);
    return { language: languageId, symbols, lines, syntaxErrors, ...refs };
  } finally {
    tree.delete();
  }
}

/**
 * Run the one query and keep one record per name node: when several patterns capture
 * the same name (`const f = () => …` is a function and a constant), the pattern that
 * comes first in the query file wins, so query files list specific patterns first.
 */
function collect(g: Loaded, matches: readonly QueryMatch[]): Found[] {
  const byName = new Map<number, Found>();
  const scopes = new Map<number, Found>();
  for (const match of matches) {
    let node: Node | null = null;
    let kind: SymbolKind | null = null;
    let nameNode: Node | null = null;
    let body: Node | null = null;
    let parentNode: Node | null = null;
    let isScope = false;
    let isLocal = false;
    for (const capture of match.captures) {
      const role = g.roles.get(capture.name);
      if (!role) continue;
      switch (role.role) {
        case "definition":
          node = capture.node;
          kind = role.kind;
          break;
        case "scope":
          node = capture.node;
          isScope = true;
          break;
        case "local":
          node = capture.node;
          isLocal = true;
          break;
        case "name":
          nameNode ??= capture.node;
          break;
        case "body":
          body ??= capture.node;
          break;
        case "parent":
          parentNode ??= capture.node;
          break;
      }
    }
    if (!node || (!nameNode && !isLocal)) continue;
    const found: Found = {
      pattern: match.patternIndex,
      node,
      nameNode,
      kind: isScope || isLocal ? null : kind,
      local: isLocal,
      body,
      parentNode,
      start: node.startIndex,
      end: node.endIndex,
      qualifiedName: "",
      nameText: "",
    };
    if (isScope || isLocal) {
      const seen = scopes.get(found.start);
      if (!seen || found.pattern < seen.pattern) scopes.set(found.start, found);
      continue;
    }
    const key = nameNode!.startIndex;
    const seen = byName.get(key);
    if (!seen || found.pattern < seen.pattern) byName.set(key, found);
  }
  const all = [...byName.values(), ...scopes.values()];
  // Outer before inner: by start, then the longer first; a definition before a scope
  // on the same node.
  all.sort((a, b) => a.start - b.start || b.end - a.end || (a.kind ? 0 : 1) - (b.kind ? 0 : 1));
  return all;
}

function build(
  g: Loaded,
  found: Found[],
  language: string,
  file: string,
  source: string,
): SymbolRecord[] {
  const symbols: SymbolRecord[] = [];
  const stack: Found[] = [];
  for (const f of found) {
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.end <= f.start || top.end < f.end) stack.pop();
      else break;
    }
    const enclosing = stack.length > 0 ? stack[stack.length - 1] : null;
    if (enclosing && (enclosing.local || LOCAL_SCOPES.has(enclosing.kind))) continue;
    if (f.local || !f.nameNode) {
      stack.push(f);
      continue;
    }
    const name = source.slice(f.nameNode.startIndex, f.nameNode.endIndex);
    // An explicit parent (Go receiver, C++ `Foo::bar`) names a type in the enclosing scope.
    const explicit = f.parentNode
      ? source.slice(f.parentNode.startIndex, f.parentNode.endIndex)
      : "";
    const outer = enclosing ? enclosing.qualifiedName : null;
    const parent = explicit ? (outer ? `${outer}.${explicit}` : explicit) : outer;
    f.qualifiedName = parent ? `${parent}.${name}` : name;
    f.nameText = name;
    stack.push(f);
    if (f.kind === null) continue;

    let kind = f.kind;
    if (
      kind === "function" && !explicit && enclosing &&
      (enclosing.kind === null || g.sets.methodParent.has(enclosing.kind))
    ) {
      kind = "method";
    }
    if (
      kind === "method" &&
      (g.sets.ctor.has(name) ||
        (g.info.constructorIsClassName && name === (explicit || enclosing?.nameText)))
    ) {
      kind = "constructor";
    }
    symbols.push(toSymbol(g, f, f.nameNode, kind, name, parent, language, file, source));
  }
  symbols.sort((a, b) => a.startLine - b.startLine || a.line - b.line);
  return symbols;
}

function toSymbol(
  g: Loaded,
  f: Found,
  nameNode: Node,
  kind: SymbolKind,
  name: string,
  parent: string | null,
  language: string,
  file: string,
  source: string,
): SymbolRecord {
  const sets = g.sets;
  // head: the definition plus a grouping declaration that starts on its line
  // (`const f = …` → the whole `const` statement); outer: plus wrappers (decorators,
  // `export`), then preceding attribute siblings (Rust `#[derive]`).
  // Each step up or sideways is a call into the parser's memory: take each once.
  let head = f.node;
  let outer = head;
  if (sets.group.size > 0 || sets.wrapper.size > 0) {
    let p = head.parent;
    while (p && sets.group.has(p.type) && sameRow(p, head)) {
      head = p;
      p = p.parent;
    }
    outer = head;
    while (p && (sets.wrapper.has(p.type) || (sets.group.has(p.type) && sameRow(p, outer)))) {
      outer = p;
      p = p.parent;
    }
  }
  let first = outer;
  let above = outer.previousSibling;
  while (above && sets.attribute.has(above.type)) {
    first = above;
    above = above.previousSibling;
  }

  const body = f.body ?? f.node.childForFieldName("body");
  let doc = "";
  if (g.info.docStyle === "docstring" && body) doc = docstring(body, sets.comment, source);
  if (!doc) doc = commentAbove(first, above, sets.comment, source);

  return {
    name,
    qualifiedName: f.qualifiedName,
    kind,
    file,
    line: nameNode.startPosition.row + 1,
    startLine: first.startPosition.row + 1,
    endLine: lastRow(outer) + 1,
    signature: signature(head, body, kind, g.info.signatureFirstLine, sets, source),
    doc,
    parent,
    language,
  };
}

function sameRow(a: Node, b: Node): boolean {
  return a.startPosition.row === b.startPosition.row;
}

/** The last row a node covers; a node ending at column 0 ends on the row before. */
function lastRow(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

function signature(
  head: Node,
  body: Node | null,
  kind: SymbolKind,
  firstLine: boolean,
  sets: Loaded["sets"],
  source: string,
): string {
  const start = signatureStart(head, sets);
  let end = body && body.startIndex >= start ? body.startIndex : head.endIndex;
  if (firstLine || (!body && WEAK_KINDS.has(kind))) {
    const nl = source.indexOf("\n", start);
    if (nl >= 0 && nl < end) end = nl;
  }
  // Collapse at most a little more than the cap: a huge head is cut anyway.
  const text = source.slice(start, Math.min(end, start + SIGNATURE_MAX * 4)).replace(/\s+/g, " ")
    .replace(/[\s;]+$/, "").replace(/ =$/, "").trim();
  return text.length > SIGNATURE_MAX ? `${text.slice(0, SIGNATURE_MAX - 1)}…` : text;
}

/** Where the declaration head begins once leading annotations/decorators are skipped. */
function signatureStart(head: Node, sets: Loaded["sets"]): number {
  if (sets.attribute.size === 0) return head.startIndex;
  let start = head.startIndex;
  for (let c = head.firstChild; c; c = c.nextSibling) {
    if (sets.attribute.has(c.type)) {
      start = c.endIndex;
      continue;
    }
    if (sets.modifier.has(c.type)) {
      let inner = c.firstChild;
      while (inner && (sets.attribute.has(inner.type) || sets.comment.has(inner.type))) {
        inner = inner.nextSibling;
      }
      if (inner) return inner.startIndex;
      start = c.endIndex;
      continue;
    }
    if (sets.comment.has(c.type)) continue;
    return c.startIndex;
  }
  return start;
}

/** The first string statement of a body (Python's docstring), cleaned like `inspect.cleandoc`. */
function docstring(body: Node, comments: Set<string>, source: string): string {
  let stmt = body.firstNamedChild;
  while (stmt && comments.has(stmt.type)) stmt = stmt.nextNamedSibling;
  if (!stmt || stmt.type !== "expression_statement") return "";
  const str = stmt.firstNamedChild;
  if (!str || str.type !== "string" || str.nextNamedSibling) return "";
  const raw = source.slice(str.startIndex, str.endIndex);
  const m = /^[rRuUbBfF]{0,2}("""|'''|"|')([\s\S]*?)\1$/.exec(raw);
  return m ? cleanDoc(m[2]) : "";
}

/**
 * The contiguous block of own-line comments right above `node`, markers stripped.
 *
 * Two grammar quirks are looked through: a definition that opens its parent's body
 * (Ruby puts the body's first comment before `body_statement`) is looked above from the
 * parent, and a comment swallowed as the last child of the previous node (Kotlin's
 * import list) still counts.
 */
function commentAbove(
  node: Node,
  previous: Node | null,
  comments: Set<string>,
  source: string,
): string {
  let p = previous;
  for (let anchor = node; !p;) {
    const up = anchor.parent;
    if (!up || up.startIndex !== anchor.startIndex) break;
    anchor = up;
    p = anchor.previousSibling;
  }
  let below = node.startPosition.row;
  if (p && !comments.has(p.type) && lastRow(p) >= below - 1) {
    for (let depth = 0; p && !comments.has(p.type) && depth < 3; depth++) p = p.lastChild;
  }
  const parts: string[] = [];
  for (; p && comments.has(p.type); p = p.previousSibling) {
    if (lastRow(p) < below - 1 || !startsLine(source, p.startIndex)) break;
    const text = source.slice(p.startIndex, p.endIndex);
    // Rust/C inner doc (`//!`, `/*!`) documents the enclosing item, not the next one.
    if (text.startsWith("//!") || text.startsWith("/*!")) break;
    parts.push(text);
    below = p.startPosition.row;
  }
  if (parts.length === 0) return "";
  parts.reverse();
  return cleanDoc(parts.map(stripCommentMarkers).join("\n"));
}

function startsLine(source: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const c = source.charCodeAt(i);
    if (c === 10) return true;
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

const BLOCK_COMMENT = /^\/\*+!?|\*+\/$/g;
const LUA_BLOCK = /^--\[(=*)\[|\](=*)\]$/g;
const LINE_MARKER = /^\s*(?:\/\/[/!]?|#+|--+|;+)\s?/;
const STAR_PREFIX = /^\s*\*(?!\/) ?/;

/** Remove comment syntax from one comment node's text. */
function stripCommentMarkers(text: string): string {
  if (text.startsWith("/*")) {
    return text.replace(BLOCK_COMMENT, "").split("\n").map((l) => l.replace(STAR_PREFIX, ""))
      .join("\n");
  }
  if (text.startsWith("--[")) return text.replace(LUA_BLOCK, "");
  if (text.startsWith("=begin")) return text.replace(/^=begin.*\n?|\n?=end.*$/g, "");
  return text.split("\n").map((l) => l.replace(LINE_MARKER, "")).join("\n");
}

/** Trim blank edge lines, strip the first line, dedent the rest (`inspect.cleandoc`). */
function cleanDoc(text: string): string {
  const lines = text.replace(/\r/g, "").split("\n");
  let indent = Infinity;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i];
    const n = l.length - l.trimStart().length;
    if (n < l.length && n < indent) indent = n;
  }
  lines[0] = lines[0].trim();
  if (indent !== Infinity) {
    for (let i = 1; i < lines.length; i++) lines[i] = lines[i].slice(indent).trimEnd();
  }
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a] === "") a++;
  while (b > a && lines[b - 1] === "") b--;
  return lines.slice(a, b).join("\n");
}

/** Count ERROR and MISSING nodes, descending only into subtrees that contain errors. */
function countErrors(node: Node): number {
  let count = node.isError || node.isMissing ? 1 : 0;
  // `children`, not `nextSibling`: sibling steps skip zero-width MISSING nodes.
  for (const c of node.children) {
    if (c && (c.hasError || c.isMissing)) count += countErrors(c);
  }
  return count;
}

function countLines(source: string): number {
  if (source.length === 0) return 0;
  let n = 0;
  for (let i = source.indexOf("\n"); i >= 0; i = source.indexOf("\n", i + 1)) n++;
  return source.endsWith("\n") ? n : n + 1;
}
