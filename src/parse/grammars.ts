/**
 * Grammars for the parse engine: the tree-sitter language of an id (its wasm file), its
 * one query (`queries/<lang>.scm`, read by the query loader) compiled once, and what each
 * capture name means to the engine.
 *
 * @module
 */

import { Language, Parser, Query } from "npm:web-tree-sitter@0.25.10";
import { SYMBOL_KINDS, type SymbolKind } from "../types.ts";
import { assetUrl, packageFileUrl } from "../util/assets.ts";
import { type GrammarInfo, languageById } from "./languages.ts";
import { readQuery } from "./query_loader.ts";
import { treeSitterModule } from "./matches.ts";
import { type RefRole, refRoleOf } from "./captures.ts";
import { IMPORT_RENAMES, renameImports } from "./wasm_imports.ts";

/** What a definition capture name means to the engine. */
export type Role =
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
  /** `roles` and `refRoles` by capture index (as `FileMatches` holds captures). */
  readonly roleAt: readonly Role[];
  readonly refRoleAt: readonly (RefRole | undefined)[];
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

const KINDS: ReadonlySet<string> = new Set(SYMBOL_KINDS);

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

/**
 * The top-level patterns of a query text that definitions are read from (a capture
 * `@definition.<kind>`, `@scope` or `@local`), in order: a query for a file's symbols alone,
 * which compiles in a fraction of the whole one's time (TypeScript: 31 of 147 patterns,
 * ~0.45 of ~4 s at load 14). A pattern ends where its brackets close and no capture or
 * quantifier follows.
 */
export function definitionPatterns(text: string): string {
  const patterns: string[] = [];
  let depth = 0;
  let start = -1;
  let end = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === ";") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (/\s/.test(ch)) continue;
    if (depth === 0 && end >= 0 && !/[@*+?!]/.test(ch)) {
      patterns.push(text.slice(start, end));
      start = end = -1;
    }
    if (start < 0) start = i;
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    else if (ch === "@") { while (i + 1 < text.length && /[\w.-]/.test(text[i + 1])) i++; }
    if (depth === 0) end = i + 1;
  }
  if (start >= 0) patterns.push(text.slice(start, end < 0 ? text.length : end));
  return patterns.filter((p) => /@(definition\.[\w.]+|scope|local)(?![\w.])/.test(p)).join("\n");
}

async function load(info: GrammarInfo, definitionsOnly = false): Promise<Loaded> {
  initPromise ??= Parser.init(treeSitterModule);
  await initPromise;
  const wasmUrl = packageFileUrl(`tree-sitter-wasms/out/${info.wasm}`);
  const bytes = renameImports(await Deno.readFile(wasmUrl), IMPORT_RENAMES);
  const loading = loadChain.catch(() => {}).then(() => Language.load(bytes));
  loadChain = loading;
  const language = await loading;
  const text = await readQuery(assetUrl(`src/parse/queries/${info.query}`));
  const query = new Query(language, definitionsOnly ? definitionPatterns(text) : text);
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
    roleAt: query.captureNames.map((name) => roles.get(name)!),
    refRoleAt: query.captureNames.map((name) => refRoles.get(name)),
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

const functionSizes = new Map<string, number>();

const definitionGrammars = new Map<string, Promise<Loaded>>();

/**
 * A grammar whose query reads definitions only (no references, imports, locals): the whole
 * grammar when this process has it already, else one compiled from
 * {@link definitionPatterns} (once). For `parseSource(…, { references: false })`.
 */
export function loadDefinitionGrammar(languageId: string): Promise<Loaded> {
  const whole = grammars.get(languageId);
  if (whole) return whole;
  let loaded = definitionGrammars.get(languageId);
  if (!loaded) {
    const info = languageById(languageId)?.grammar;
    loaded = info
      ? load(info, true)
      : Promise.reject(new Error(`no tree-sitter grammar for language '${languageId}'`));
    definitionGrammars.set(languageId, loaded);
  }
  return loaded;
}

/**
 * The size in bytes of the largest function of a grammar's wasm file: its lexer, usually.
 * V8's optimising compiler needs memory in proportion to it (see `index/lean_pool.ts`).
 *
 * @example
 * ```ts
 * largestWasmFunction(languageById("cpp")!.grammar!); // 591958
 * ```
 */
export function largestWasmFunction(info: GrammarInfo): number {
  let size = functionSizes.get(info.wasm);
  if (size === undefined) {
    size = largestFunction(Deno.readFileSync(packageFileUrl(`tree-sitter-wasms/out/${info.wasm}`)));
    functionSizes.set(info.wasm, size);
  }
  return size;
}

/** The largest function body of a wasm module (its code section, id 10). */
function largestFunction(wasm: Uint8Array): number {
  let at = 8; // magic and version
  const leb = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = wasm[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
      shift += 7;
    }
  };
  while (at < wasm.length) {
    const id = wasm[at++];
    const length = leb();
    const end = at + length;
    if (id === 10) {
      let largest = 0;
      for (let n = leb(); n > 0; n--) {
        const body = leb();
        if (body > largest) largest = body;
        at += body;
      }
      return largest;
    }
    at = end;
  }
  return 0;
}
