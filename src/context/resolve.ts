/**
 * Finding the symbol a user means: plain names (`request`), qualified names
 * (`Session.request`, `Session::request`), module paths (`pkg.module.func`), optionally
 * within one file or folder. An ambiguous name answers the best match and the others as
 * candidates; an unknown name fails with near names.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import type { LoadedIndex } from "../index/project.ts";
import { editDistance } from "../tools/suggest.ts";
import type { SymbolRecord } from "../types.ts";
import { isAuxiliary } from "./source.ts";

/** The best match and the other symbols the name could mean. */
export interface Resolved {
  symbol: SymbolRecord;
  candidates: SymbolRecord[];
}

const KIND_RANK: Record<string, number> = {
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

const MAX_CANDIDATES = 20;

/** Orders matches: main code, better kind, top level, bigger body, shorter path. */
function compareMatches(a: SymbolRecord, b: SymbolRecord): number {
  return Number(isAuxiliary(a.file)) - Number(isAuxiliary(b.file)) ||
    (KIND_RANK[a.kind] ?? 7) - (KIND_RANK[b.kind] ?? 7) ||
    Number(a.parent !== null) - Number(b.parent !== null) ||
    (b.endLine - b.startLine) - (a.endLine - a.startLine) ||
    a.file.split("/").length - b.file.split("/").length ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);
}

/** `Session::request`, `Session#request`, `Session->request` → `Session.request`. */
export function normalizeName(name: string): string {
  return name.trim().replace(/::|#|->|\\/g, ".").replace(/\(\)$/, "").replace(/^\.+|\.+$/g, "");
}

/** The file path as dotted module parts: `pkg/mod.py` → `pkg.mod`, `pkg/__init__.py` → `pkg`. */
function moduleName(file: string): string {
  return file.replace(/\.[^./]+$/, "").replace(/\/(__init__|index|mod)$/, "").replaceAll("/", ".");
}

/** Symbols whose name (or qualified name, or module path plus qualified name) is `wanted`. */
function exactMatches(symbols: readonly SymbolRecord[], wanted: string): SymbolRecord[] {
  if (!wanted.includes(".")) return symbols.filter((s) => s.name === wanted);
  const byQualified = symbols.filter((s) => s.qualifiedName === wanted);
  if (byQualified.length) return byQualified;
  const out: SymbolRecord[] = [];
  for (const s of symbols) {
    // `pkg.module.func`: the module path of the file, then the qualified name.
    if (!wanted.endsWith(s.qualifiedName)) continue;
    const head = wanted.slice(0, wanted.length - s.qualifiedName.length);
    if (head === "" || !head.endsWith(".")) continue;
    const mod = moduleName(s.file);
    const want = head.slice(0, -1);
    if (mod === want || mod.endsWith("." + want)) out.push(s);
  }
  if (out.length) return out;
  // A qualified name written with fewer enclosing parts than indexed (`Outer.Inner.m` as `Inner.m`).
  return symbols.filter((s) => s.qualifiedName.endsWith("." + wanted));
}

/**
 * Resolves `name` among `symbols`: exact (qualified) matches first, then case-insensitive
 * ones. Throws `not_found` with near names when nothing matches.
 *
 * @example
 * ```ts
 * const { symbol, candidates } = resolveSymbol(index.symbols, "Session.request");
 * ```
 */
export function resolveSymbol(
  symbols: readonly SymbolRecord[],
  name: string,
  where = "",
): Resolved {
  const wanted = normalizeName(name);
  if (wanted === "") {
    throw new CodectxError("invalid_argument", "symbol_name is empty; pass a symbol's name");
  }
  let matches = exactMatches(symbols, wanted);
  if (matches.length === 0) {
    const lower = wanted.toLowerCase();
    matches = symbols.filter((s) =>
      (wanted.includes(".") ? s.qualifiedName : s.name).toLowerCase() === lower
    );
  }
  if (matches.length === 0) {
    throw new CodectxError("not_found", notFoundMessage(symbols, name, wanted, where));
  }
  const sorted = [...matches].sort(compareMatches);
  return { symbol: sorted[0], candidates: sorted.slice(1, 1 + MAX_CANDIDATES) };
}

/** Resolves against a loaded index, optionally only within `file` (a file or a folder). */
export function resolveInIndex(index: LoadedIndex, name: string, file?: string): Resolved {
  if (!file) return resolveSymbol(index.symbols, name);
  const own = index.symbolsByFile.get(file);
  const pool = own ?? index.symbols.filter((s) => s.file.startsWith(file + "/"));
  if (!own && pool.length === 0 && !index.files.has(file)) {
    throw new CodectxError(
      "not_found",
      `file '${file}' is not in the index; check the path, or run index_project if it is new`,
    );
  }
  return resolveSymbol(pool, name, ` in '${file}'`);
}

/** Compares spellings loosely: case and `_`/`-` do not count (`parseConfig` ~ `parse_config`). */
function loose(s: string): string {
  return s.toLowerCase().replace(/[_\-$]/g, "");
}

/** `symbol 'parseConfig' not found; did you mean parse_config (src/config.py:12)?` */
function notFoundMessage(
  symbols: readonly SymbolRecord[],
  raw: string,
  wanted: string,
  where: string,
): string {
  const base = wanted.split(".").pop()!;
  const key = loose(base);
  const best = new Map<string, { d: number; s: SymbolRecord }>();
  for (const s of symbols) {
    if (s.kind === "section") continue;
    const k = loose(s.name);
    let d: number;
    if (k === key) d = 0;
    else if (k.startsWith(key) || key.startsWith(k) && k.length >= 4) d = 1;
    else d = 1 + editDistance(key, k, 3);
    if (d > 3) continue;
    const prev = best.get(s.qualifiedName);
    if (!prev || d < prev.d || (d === prev.d && compareMatches(s, prev.s) < 0)) {
      best.set(s.qualifiedName, { d, s });
    }
  }
  const near = [...best.values()]
    .sort((a, b) => a.d - b.d || compareMatches(a.s, b.s))
    .slice(0, 5)
    .map(({ s }) => `${s.qualifiedName} (${s.file}:${s.line})`);
  return `symbol '${raw}' not found${where}` +
    (near.length
      ? `; did you mean ${near.join(", ")}?`
      : "; check the spelling, try search_symbols, or run index_project if it is new");
}
