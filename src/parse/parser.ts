/**
 * The parsing engine: source text in, {@link ParsedSource} out. It knows no language:
 * grammars, query files and node-type lists come from `languages.ts`, and symbols come
 * from the captures of one query per file (`@definition.<kind>`, `@name`, `@body`,
 * `@parent`, `@scope`; see `queries/README.md`). Its stages: load the grammar and query
 * (`grammars.ts`), parse, read definitions (`definitions.ts`, with their doc comments),
 * then references and imports (`gather.ts` → `infer/` → `references.ts`).
 *
 * The same query also says where names are used (read by `references.ts`):
 *
 * | capture                         | on                                   | meaning                                                |
 * | ------------------------------- | ------------------------------------ | ------------------------------------------------------ |
 * | `@reference.<kind>`             | a name node                          | `call`, `type`, `inherit`, `write`, `read`; `ignore` drops the node (a keyword argument's name) |
 * | `@reference.receiver`           | the object of `obj.name` (same match) | what the member is reached through                    |
 * | `@reference.receiver.self`      | `self` / `this` (same match)          | the member belongs to the enclosing class             |
 * | `@reference.receiver.type`      | a type whose instance is the object  | `Foo().bar()`, `Foo.new.bar`: `bar` is `Foo.bar`       |
 * | `@reference.receiver.tail`      | last token of a token-tree receiver  | `self . cmd . f(..)` in a macro: receiver `self.cmd`    |
 * | `@import.module`                | the module as written                | one import record per module node                      |
 * | `@import.name` / `@import.alias`| an imported name and its alias       | an alias without a name renames the module itself      |
 * | `@import.default`               | the local name of a default import   | binds the module's `default` export                    |
 * | `@import.wildcard`              | `*`                                  | every name of the module                               |
 * | `@import.kind`                  | the keyword (`require_relative`, `mod`) | read by the language's import resolver              |
 * | `@import.statement`             | a whole import statement (or a node on its lines) | its lines are what `get_context` shows of the file's imports |
 * | `@local.scope`                  | a function, lambda, comprehension    | names bound inside are local to it                     |
 * | `@local.definition`             | a parameter or local variable        | bound in the innermost scope; a scope's own `name` binds outside it |
 * | `@local.type`                   | its type (same match)                | a constructor call or annotation: `x.m()` is then `Type.m` |
 * | `@local.value` / `@local.element` | what it is bound to / whose elements | `x := f()`, `for _, x := range xs`: `x` has that type |
 * | `@declared.name` + `.type` / `.value` | a field, property, variable or function; its declared type / a value assigned | read by receiver chains `a.b().c()` (fields, return types) |
 * | `@local.destructured` / `@local.callee` | the object destructured / the function a callback is passed to | `const { a } = obj`: `obj.a`; `f((x) => …)`: `x` is as `f` declares |
 * | `@declared.argument` + `@declared.parameter` | a function's callback parameter and that callback's parameter | with `@declared.name`/`.type`: what a callback passed there receives |
 * | `@package`                      | the declared package / namespace     | Go, Java, Kotlin, C#, PHP, Scala                       |
 *
 * When several patterns capture one name node, definitions win, then imported names, then
 * the pattern written first: query files list specific patterns before the catch-all
 * `(identifier) @reference.read`.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { ParsedSource } from "../facts/records.ts";
import { definitionsOf } from "./definitions.ts";
import { loadDefinitionGrammar, loadGrammar } from "./grammars.ts";
import {
  languageById,
  languageForPath,
  languageForShebang,
  type LanguageInfo,
  LANGUAGES,
  looksLikeCpp,
} from "./languages.ts";
import { FileMatches } from "./matches.ts";
import { gather } from "./gather.ts";
import { inferTypes } from "./infer/mod.ts";
import { emitReferences } from "./references.ts";
import { scanText } from "./text.ts";

export { type Loaded, loadGrammar } from "./grammars.ts";

const LANGUAGE_IDS = LANGUAGES.map((l) => l.id);

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
 * The language `parseSource` reads a file's text in: `language`, else the path's; a `.h` file
 * whose text looks like C++ is `cpp`.
 */
export function languageOfText(
  relPath: string,
  source: string,
  language?: string,
): LanguageInfo | undefined {
  const info = language === undefined ? languageForPath(relPath) : languageById(language);
  if (info?.id === "c" && relPath.endsWith(".h") && looksLikeCpp(source)) {
    return languageById("cpp") ?? info;
  }
  // A script of no known extension whose `#!` line names an interpreter (npm's `bin/terser`).
  if (
    info?.id === "text" && source.startsWith("#!") && languageForPath(relPath)?.unnamed
  ) return languageForShebang(source) ?? info;
  return info;
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
  /** `references: false`: the symbols only (a file's other side in `get_impact`). */
  opts: { references?: boolean } = {},
): Promise<ParsedSource> {
  const lines = countLines(source);
  let info: LanguageInfo | undefined;
  try {
    info = languageOfText(relPath, source, language);
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
    if (info.text) {
      return {
        language: info.id,
        symbols: scanText(info.text, relPath, source),
        lines,
        syntaxErrors: 0,
      };
    }
    // Symbols only (the other side of a change in get_impact): the definition patterns alone.
    const loaded = await (opts.references === false ? loadDefinitionGrammar : loadGrammar)(info.id);
    const tree = loaded.parser.parse(source);
    if (!tree) {
      return {
        language: info.id,
        symbols: [],
        lines,
        syntaxErrors: 0,
        error: "parser returned no tree",
      };
    }
    try {
      const root = tree.rootNode;
      const syntaxErrors = root.hasError ? countErrors(root) : 0;
      const matches = FileMatches.of(loaded.query, tree, source);
      const { symbols, names } = definitionsOf(loaded, matches, info.id, relPath, source);
      if (loaded.refRoles.size === 0 || opts.references === false) {
        return { language: info.id, symbols, lines, syntaxErrors };
      }
      // References: gather what the captures say (a definition's name is a definition whatever
      // else captures it) → infer the types of locals and declarations → emit in file order.
      const found = gather(matches, loaded.refRoleAt, names);
      const { locals, declared, scopeAt } = inferTypes(found, symbols);
      const references = emitReferences(matches, found, locals, symbols, scopeAt);
      const imports = [...found.imports.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
      return {
        language: info.id,
        symbols,
        lines,
        syntaxErrors,
        references,
        imports,
        ...(found.package ? { package: found.package } : {}),
        ...(declared.length ? { declared } : {}),
        ...(found.importLines.length ? { importLines: found.importLines } : {}),
      };
    } finally {
      tree.delete();
    }
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

/** Count ERROR and MISSING nodes, descending only into subtrees that contain errors. */
export function countErrors(node: Node): number {
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
