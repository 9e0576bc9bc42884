/**
 * The one symbol resolver: from a name a user typed to the definition it means. Every tool
 * that takes a symbol name (explain_symbol, get_context, find_references, get_call_graph,
 * ask, and search_symbols' ranking) asks it, so one name means one definition everywhere.
 *
 * Rules, in order:
 * - the name is normalised: `pkg::Cls::m`, `Cls#m`, `Cls->m`, `Cls\m` and `m()` all read
 *   as dotted names (`pkg.Cls.m`, `Cls.m`, `m`);
 * - a name that starts with a file path (`app/utils.py:parse_config`, `app/utils::f`) is
 *   looked up in that file; other `/`s read as dots (`app/utils/parse_config`);
 * - a plain name matches symbols of that name; a dotted one matches, first tier that finds
 *   anything wins: the qualified name (`Class.method`, `outer.inner`), then a module path
 *   plus the qualified name (`pkg.mod.func`, where `pkg.mod` is the file `pkg/mod.py`, or
 *   `pkg/mod/__init__.py`, `index.ts`, `mod.rs`), then a qualified name written with fewer
 *   enclosing parts than indexed (`Inner.m` for `Outer.Inner.m`);
 * - when nothing matches, the same tiers are tried ignoring case;
 * - `Class.member` that matches nothing is looked for in `Class`'s bases (`Client.send`
 *   means `BaseClient.send` when `Client` inherits it), where the table knows them;
 * - `file` (a file or a folder) narrows the pool; a name defined only elsewhere says where;
 * - several matches answer the best ({@link compareSymbols}) and the others as candidates;
 * - an unknown name fails with `not_found` and the nearest names.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import type { SymbolKind, SymbolRecord } from "../types.ts";
import { isTestFile } from "../index/test_files.ts";
import { nearSymbols } from "./near_names.ts";
import type { CodeGraph } from "./graph.ts";
import { CLASS_LIKE, namesOf } from "./names.ts";
import type { Generation, LoadedIndex } from "../project/project.ts";
import { slot } from "../util/memo.ts";

/**
 * The one kind ranking: which kind of definition a name most likely means when it has
 * several (types first, then callables, then the rest). Search ranking uses it too.
 */
export const KIND_RANK: Readonly<Partial<Record<SymbolKind, number>>> = {
  class: 0,
  interface: 0,
  struct: 0,
  trait: 0,
  enum: 1,
  type: 1,
  function: 1,
  method: 2,
  constructor: 2,
  module: 3,
  namespace: 3,
  macro: 3,
  constant: 4,
  field: 5,
  variable: 5,
  section: 6,
};

/** Rank of a kind in {@link KIND_RANK}; unknown kinds come last. */
export function kindRank(kind: SymbolKind): number {
  return KIND_RANK[kind] ?? 7;
}

/**
 * Tests, examples, docs, vendored and benchmark code: it ranks after the main code when a
 * name means several definitions.
 */
export function isAuxiliary(file: string): boolean {
  return isTestFile(file) || AUXILIARY_DIR.test(file);
}

/** Folders of code that is not the project's main code, tests apart. */
const AUXILIARY_DIR = /(^|\/)(examples?|docs?|vendor|third_party|fixtures?|bench\w*)\//i;

/** Whether `file` is a TypeScript declaration file (`.d.ts`, `.d.cts`, `.d.mts`): no bodies. */
export function isDeclarationFile(file: string): boolean {
  return /\.d\.[cm]?ts$/.test(file);
}

/**
 * Orders the definitions one name may mean, best first: main code before tests, code with
 * a body before a declaration file's signature (axios's `getAdapter` in
 * `lib/adapters/adapters.js` before `index.d.ts`), then {@link KIND_RANK}, top level before
 * members, the bigger body, the shallower path, then file and line.
 */
export function compareSymbols(a: SymbolRecord, b: SymbolRecord): number {
  return Number(isAuxiliary(a.file)) - Number(isAuxiliary(b.file)) ||
    Number(isDeclarationFile(a.file)) - Number(isDeclarationFile(b.file)) ||
    kindRank(a.kind) - kindRank(b.kind) ||
    Number(a.parent !== null) - Number(b.parent !== null) ||
    (b.endLine - b.startLine) - (a.endLine - a.startLine) ||
    a.file.split("/").length - b.file.split("/").length ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);
}

/**
 * `Session::request`, `Session#request`, `Session->request()` and Go's `(*Session).request`
 * → `Session.request`.
 */
export function normalizeName(name: string): string {
  return name.trim().replace(/^\(\*?([\w$]+)\)\./, "$1.")
    .replace(/::|#|->|\\/g, ".").replace(/\(\)$/, "").replace(/^\.+|\.+$/g, "");
}

/** The dotted module of a file: `pkg/mod.py` → `pkg.mod`; `pkg/__init__.py` → `pkg`. */
export function moduleOf(file: string): string {
  return file.replace(/\.[^./]+$/, "").replace(/\/(__init__|index|mod)$/, "").replaceAll("/", ".");
}

/** The index as the resolver reads it (a loaded index has this shape). */
export interface SymbolSource {
  /** Every symbol. */
  readonly symbols: readonly SymbolRecord[];
  /** Symbols by file path. */
  readonly symbolsByFile: ReadonlyMap<string, readonly SymbolRecord[]>;
  /** Indexed files by path (with or without symbols). */
  readonly files: { has(path: string): boolean; keys(): Iterable<string> };
  /**
   * The symbols whose field, mapped by `key`, is `value` (a loaded index answers from its
   * columns, without making every record); without it, groups of {@link symbols} are built.
   */
  readonly symbolsBy?: (
    field: "name" | "qualifiedName",
    keyName: string,
    key: (value: string) => string,
    value: string,
  ) => readonly SymbolRecord[];
  /** The package a file declares (Go `package uuid`, Java `package a.b`), when known. */
  readonly packageOf?: (path: string) => string | undefined;
  /** Members named `name` of a class, its bases included, when inheritance is known. */
  readonly membersOf?: (cls: SymbolRecord, name: string) => readonly SymbolRecord[];
}

/** The symbols of one index with the lookups the resolver needs, built once. */
export class SymbolTable {
  private names: Map<string, SymbolRecord[]> | null = null;
  private tails: Map<string, SymbolRecord[]> | null = null;
  private lowerNames: Map<string, SymbolRecord[]> | null = null;
  private lowerTails: Map<string, SymbolRecord[]> | null = null;

  constructor(private readonly source: SymbolSource) {}

  /** Every symbol. */
  get symbols(): readonly SymbolRecord[] {
    return this.source.symbols;
  }

  /** The package `path` declares, when the source knows it. */
  packageOf(path: string): string | undefined {
    return this.source.packageOf?.(path);
  }

  /** Members named `name` of `cls`, inherited ones included (empty when bases are unknown). */
  membersOf(cls: SymbolRecord, name: string): readonly SymbolRecord[] {
    return this.source.membersOf?.(cls, name) ?? [];
  }

  /** Whether `path` is an indexed file. */
  hasFile(path: string): boolean {
    return this.source.files.has(path);
  }

  /** Indexed file paths. */
  filePaths(): Iterable<string> {
    return this.source.files.keys();
  }

  /**
   * The symbols of `path` (a file or a folder); null when it is neither. A folder's are
   * gathered file by file (only its files' records are made, not every symbol's).
   */
  symbolsIn(path: string): readonly SymbolRecord[] | null {
    const own = this.source.symbolsByFile.get(path);
    if (own) return own;
    const under = path + "/";
    const folder: SymbolRecord[] = [];
    for (const file of this.source.files.keys()) {
      if (!file.startsWith(under)) continue;
      for (const s of this.source.symbolsByFile.get(file) ?? []) folder.push(s);
    }
    return folder.length || this.hasFile(path) ? folder : null;
  }

  /** Symbols named `name` (or, `ignoreCase`, named so in any case). */
  byName(name: string, ignoreCase: boolean): readonly SymbolRecord[] {
    const by = this.source.symbolsBy;
    if (by) {
      return ignoreCase
        ? by("name", "lower", lowerCase, name.toLowerCase())
        : by("name", "exact", sameText, name);
    }
    if (ignoreCase) {
      this.lowerNames ??= groupBy(this.symbols, (s) => s.name.toLowerCase());
      return this.lowerNames.get(name.toLowerCase()) ?? [];
    }
    this.names ??= groupBy(this.symbols, (s) => s.name);
    return this.names.get(name) ?? [];
  }

  /** Symbols whose normalised qualified name ends in the part `tail`. */
  byTail(tail: string, ignoreCase: boolean): readonly SymbolRecord[] {
    const by = this.source.symbolsBy;
    if (by) {
      return ignoreCase
        ? by("qualifiedName", "tail lower", lowerTailOf, tail.toLowerCase())
        : by("qualifiedName", "tail", tailOf, tail);
    }
    if (ignoreCase) {
      this.lowerTails ??= groupBy(this.symbols, (s) => lastPart(s).toLowerCase());
      return this.lowerTails.get(tail.toLowerCase()) ?? [];
    }
    this.tails ??= groupBy(this.symbols, lastPart);
    return this.tails.get(tail) ?? [];
  }
}

function lastPart(s: SymbolRecord): string {
  return tailOf(s.qualifiedName);
}

/** The last part of a normalised qualified name. */
function tailOf(qualifiedName: string): string {
  const q = normalizeName(qualifiedName);
  return q.slice(q.lastIndexOf(".") + 1);
}

const lowerTailOf = (q: string) => tailOf(q).toLowerCase();
const lowerCase = (v: string) => v.toLowerCase();
const sameText = (v: string) => v;

function groupBy(
  symbols: readonly SymbolRecord[],
  key: (s: SymbolRecord) => string,
): Map<string, SymbolRecord[]> {
  const out = new Map<string, SymbolRecord[]>();
  for (const s of symbols) {
    const k = key(s);
    const list = out.get(k);
    if (list) list.push(s);
    else out.set(k, [s]);
  }
  return out;
}

const SYMBOL_TABLE = slot<Generation, SymbolTable>(
  "symbol table",
  ({ index }) => new SymbolTable(index),
);

/**
 * The symbol table of a loaded index, built once per loaded generation.
 *
 * @example
 * ```ts
 * const { symbol } = resolveSymbol(symbolTable(await project.index()), "Session.request");
 * ```
 */
export function symbolTable(index: LoadedIndex): SymbolTable {
  return index.memo.get(SYMBOL_TABLE);
}

/** A symbol table over a bare list of symbols (every file that holds one is known). */
export function tableOfSymbols(symbols: readonly SymbolRecord[]): SymbolTable {
  const byFile = groupBy(symbols, (s) => s.file);
  return new SymbolTable({ symbols, symbolsByFile: byFile, files: byFile });
}

const GRAPH_SYMBOL_TABLE = slot("symbol table", (graph: CodeGraph) => {
  // Every record is made only for a caller that walks them all: names are looked up in the
  // index's columns (the same records, in the same order).
  let symbols: SymbolRecord[] | null = null;
  return new SymbolTable({
    get symbols() {
      return symbols ??= graph.files.flatMap((f) => f.symbols);
    },
    symbolsBy: graph.symbolsBy,
    symbolsByFile: graph.symbolsByFile,
    files: graph.byPath,
    packageOf: (p) => graph.byPath.get(p)?.part.package,
    membersOf: (cls, name) => namesOf(graph).members(cls, name),
  });
});

/**
 * The symbol table of a code graph: the same symbol records as the index it was built
 * from, so the definitions resolved here are the ones its references resolve to.
 */
export function graphSymbolTable(graph: CodeGraph): SymbolTable {
  return graph.memo.get(GRAPH_SYMBOL_TABLE);
}

/** What a name resolves to. */
export interface Resolution {
  /** The best match. */
  symbol: SymbolRecord;
  /** The other matches, best first, at most {@link MAX_CANDIDATES}. */
  candidates: SymbolRecord[];
  /** Every match, best first (the best included). */
  matches: SymbolRecord[];
}

/** Most candidates listed beside the best match. */
export const MAX_CANDIDATES = 20;

/** Options of {@link resolveSymbol}. */
export interface ResolveOptions {
  /** Only definitions in this file or folder (project-relative). */
  file?: string;
}

/**
 * Resolves `name` in `table` by the rules of this module. Throws `invalid_argument` for
 * an empty name and `not_found` (with where it is defined, or the nearest names) when
 * nothing matches.
 *
 * @example
 * ```ts
 * const table = symbolTable(await project.index());
 * resolveSymbol(table, "app.utils.parse_config").symbol.file; // "app/utils.py"
 * resolveSymbol(table, "request", { file: "net/session.py" }).symbol.qualifiedName;
 * ```
 */
export function resolveSymbol(
  table: SymbolTable,
  name: string,
  opts: ResolveOptions = {},
): Resolution {
  const { matches, wanted, pool, file } = lookup(table, name, opts);
  if (matches.length === 0) throw notFound(table, name, wanted, pool, file);
  return {
    symbol: matches[0],
    candidates: matches.slice(1, 1 + MAX_CANDIDATES),
    matches,
  };
}

/**
 * The definitions `name` resolves to, best first, by the rules of {@link resolveSymbol}; an
 * empty list when nothing matches (no near names are looked for: for callers that rank
 * names themselves, like `search_symbols`). Throws as it does for an empty name or an
 * unknown `file`.
 */
export function resolveMatches(
  table: SymbolTable,
  name: string,
  opts: ResolveOptions = {},
): SymbolRecord[] {
  return lookup(table, name, opts).matches;
}

/** What a name was read as, and the definitions it matches (sorted). */
interface Lookup {
  matches: SymbolRecord[];
  wanted: string;
  pool: readonly SymbolRecord[] | null;
  file: string | undefined;
}

function lookup(table: SymbolTable, name: string, opts: ResolveOptions): Lookup {
  let file = opts.file || undefined;
  let wanted = normalizeName(name);
  if (name.includes("/")) {
    const split = splitFilePrefix(table, name.trim());
    if (split && !file) [file, wanted] = [split.file, normalizeName(split.rest)];
    else wanted = normalizeName(name.replaceAll("/", "."));
  }
  if (wanted === "") {
    throw new CodectxError("invalid_argument", "symbol_name is empty; pass a symbol's name");
  }
  let pool: readonly SymbolRecord[] | null = null;
  if (file !== undefined) {
    pool = table.symbolsIn(file);
    if (pool === null) {
      throw new CodectxError(
        "not_found",
        `file '${file}' is not in the index; check the path, or run index_project if it is new`,
      );
    }
  }
  return { matches: findMatches(table, wanted, pool).sort(compareSymbols), wanted, pool, file };
}

/**
 * Every definition `name` means in a code graph, best first (narrowed by `file`): those
 * whose qualified name is `name` when there are such; throws like {@link resolveSymbol}.
 *
 * @example
 * ```ts
 * findSymbols(graph, "Session.request", "app/session.py")[0].qualifiedName; // "Session.request"
 * ```
 */
export function findSymbols(graph: CodeGraph, name: string, file?: string): SymbolRecord[] {
  const { matches } = resolveSymbol(graphSymbolTable(graph), name, { file });
  // A name that is some definition's whole qualified name means that one (the function
  // `MarkFlagFilename`, not also the method `Command.MarkFlagFilename`).
  const whole = normalizeName(name);
  // Constructors named as their class (`Widget::Widget`) stay with it.
  const exact = matches.filter((s) =>
    s.qualifiedName === whole || (s.parent === whole && s.name === whole)
  );
  return exact.length && exact.length < matches.length ? exact : matches;
}

/**
 * `app/utils.py:parse_config`, `app/utils.py::Cls.m`, `app/utils#f` → the file and the
 * name after it; null when no indexed file (or module) starts the name.
 */
function splitFilePrefix(
  table: SymbolTable,
  name: string,
): { file: string; rest: string } | null {
  let best: { file: string; rest: string; length: number } | null = null;
  for (const path of table.filePaths()) {
    for (const head of [path, path.replace(/\.[^./]+$/, "")]) {
      if (!name.startsWith(head) || (best && best.length >= head.length)) continue;
      const sep = /^(::|:|#|\.|\/)/.exec(name.slice(head.length));
      if (!sep) continue;
      const rest = name.slice(head.length + sep[0].length);
      if (rest && !rest.includes("/")) best = { file: path, rest, length: head.length };
    }
  }
  return best;
}

/**
 * The matches of the first tier that finds any: as written, then ignoring case, then a
 * member its class inherits ({@link inheritedMatches}).
 */
function findMatches(
  table: SymbolTable,
  wanted: string,
  pool: readonly SymbolRecord[] | null,
): SymbolRecord[] {
  const inPool = pool ? new Set(pool) : null;
  for (const ignoreCase of [false, true]) {
    const found = matchTiers(table, wanted, ignoreCase, inPool);
    if (found.length) return found;
  }
  return inheritedMatches(table, wanted, pool);
}

/**
 * `Client.build_request` when `Client` declares no `build_request` but inherits one: the
 * classes `Client` names (in `pool`, when given), each asked for the member through its
 * bases; the definitions found are the base's.
 */
function inheritedMatches(
  table: SymbolTable,
  wanted: string,
  pool: readonly SymbolRecord[] | null,
): SymbolRecord[] {
  const dot = wanted.lastIndexOf(".");
  if (dot <= 0) return [];
  const member = wanted.slice(dot + 1);
  const classes = findMatches(table, wanted.slice(0, dot), pool)
    .filter((s) => CLASS_LIKE.has(s.kind));
  const out = new Set<SymbolRecord>();
  for (const cls of classes) for (const m of table.membersOf(cls, member)) out.add(m);
  return [...out];
}

/** Plain name; or qualified name, then module path + qualified name, then a shorter suffix. */
function matchTiers(
  table: SymbolTable,
  wanted: string,
  ignoreCase: boolean,
  inPool: Set<SymbolRecord> | null,
): SymbolRecord[] {
  const fold = (s: string) => ignoreCase ? s.toLowerCase() : s;
  const want = fold(wanted);
  const dot = want.lastIndexOf(".");
  if (dot < 0) {
    return table.byName(wanted, ignoreCase).filter((s) => !inPool || inPool.has(s));
  }
  const near = table.byTail(wanted.slice(dot + 1), ignoreCase)
    .filter((s) => !inPool || inPool.has(s))
    .map((s) => ({ s, q: fold(normalizeName(s.qualifiedName)) }));
  const exact = near.filter(({ q }) => q === want);
  if (exact.length) return exact.map(({ s }) => s);
  const byModule = near.filter(({ s, q }) => {
    if (!want.endsWith("." + q)) return false;
    const head = want.slice(0, want.length - q.length - 1);
    const mod = fold(moduleOf(s.file));
    // Or by the package its file declares (Go's `uuid.NewRandom`, from any file of package uuid).
    return mod === head || mod.endsWith("." + head) || fold(table.packageOf(s.file) ?? "") === head;
  });
  if (byModule.length) return byModule.map(({ s }) => s);
  return near.filter(({ q }) => q.endsWith("." + want)).map(({ s }) => s);
}

/**
 * The `not_found` error: where the name is defined when `file` left it out, else
 * `symbol 'parseConfig' not found; did you mean parse_config (src/config.py:12)?`.
 */
function notFound(
  table: SymbolTable,
  raw: string,
  wanted: string,
  pool: readonly SymbolRecord[] | null,
  file: string | undefined,
): CodectxError {
  if (pool !== null && file !== undefined) {
    const elsewhere = findMatches(table, wanted, null).sort(compareSymbols);
    if (elsewhere.length) {
      const places = elsewhere.slice(0, 3).map((s) => `${s.file}:${s.line}`);
      return new CodectxError(
        "not_found",
        `symbol '${raw}' is not defined in ${file}; it is defined in ${places.join(", ")}`,
      );
    }
  }
  const near = nearSymbols(pool ?? table.symbols, wanted, compareSymbols);
  const fallback = near.length || pool === null
    ? near
    : nearSymbols(table.symbols, wanted, compareSymbols);
  return new CodectxError(
    "not_found",
    `symbol '${raw}' not found${file !== undefined ? ` in '${file}'` : ""}` +
      (fallback.length
        ? `; did you mean ${fallback.join(", ")}?`
        : "; check the spelling, try search_symbols, or run index_project if it is new"),
  );
}
