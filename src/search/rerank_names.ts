/**
 * The second stage's name features (`rerank.ts`): a candidate's own name and signature
 * against the question. What they read of each row's definition is made once per
 * table into flat arrays ({@link RowTraits}): on the main thread a file's rows at a time,
 * when one of them is first a candidate; a search worker gets the whole table's arrays in
 * its snapshot ({@link rowTraitsInSlices}, {@link attachRowTraits}), so both score alike.
 *
 * @module
 */

import type { LoadedIndex } from "../project/project.ts";
import { slot } from "../util/memo.ts";
import { type ChunkTable, symbolOfChunk } from "./table.ts";
import type { SymbolRecord } from "../types.ts";
import { codeTokens, splitIdentifier, stem } from "../util/tokens.ts";
import { isInternal } from "../parse/languages.ts";

/** Per row of a table, what the name features read of its definition. */
export interface RowTraits {
  /** Hash of the first word of the row's own name, stemmed (0: no name). */
  first: Uint32Array;
  /** Hash of its whole name, lower-cased, leading `_`/`$` dropped. */
  whole: Uint32Array;
  /** Bit 0: internal (see {@link nameFeatures}); bit 1: the row's traits are made. */
  flags: Uint8Array;
  /** The words of its signature's parameter list as a 64-bit set (two words per row). */
  params: Uint32Array;
}

const MADE = 2;

/** The traits a table's features read: the whole table's once made, else filled row by row. */
const ROW_TRAITS = slot("row traits", (_: ChunkTable) => ({ traits: null as RowTraits | null }));

/** FNV-1a of a string (never 0: 0 means no name). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0) || 1;
}

function emptyTraits(n: number, shared: boolean): RowTraits {
  const make = <T>(of: new (b: ArrayBuffer | SharedArrayBuffer) => T, bytes: number): T =>
    new of(shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  return {
    first: make(Uint32Array, 4 * n),
    whole: make(Uint32Array, 4 * n),
    flags: make(Uint8Array, n),
    params: make(Uint32Array, 8 * n),
  };
}

/** Traits for a snapshot no search reads them in (one without sealed vectors). */
export function noRowTraits(): RowTraits {
  return emptyTraits(0, true);
}

/**
 * A file's definitions, read from the symbol columns without keeping the records (the whole
 * table's traits would otherwise keep every symbol of the index made, docs included).
 */
function definitionsOf(table: ChunkTable, path: string): readonly SymbolRecord[] {
  const columns = table.index.columns as LoadedIndex["columns"] | undefined;
  if (!columns) return table.index.symbolsByFile.get(path) ?? [];
  const f = columns.fileIndex(path);
  return f < 0 ? [] : columns.fileRecords(f, false);
}

/** Fills one row's traits from its file's definitions (`list`, read when first needed). */
function fillRow(
  table: ChunkTable,
  row: number,
  t: RowTraits,
  list: () => readonly SymbolRecord[],
): void {
  const c = table.chunks[row];
  const path = table.files[table.fileOfRow[row]].path;
  const base = path.slice(path.lastIndexOf("/") + 1);
  t.flags[row] = MADE;
  if (c.symbol === null) {
    if (base.startsWith("_")) t.flags[row] |= 1;
    return;
  }
  const own = c.symbol.slice(c.symbol.lastIndexOf(".") + 1);
  const sig = symbolOfChunk(list(), c)?.signature ?? "";
  const word = splitIdentifier(own)[0];
  t.first[row] = word ? hash(stem(word)) : 0;
  t.whole[row] = own ? hash(own.toLowerCase().replace(/^[_$]+/, "")) : 0;
  if (base.startsWith("_") || isInternal(c.language, own, sig)) t.flags[row] |= 1;
  const open = sig.indexOf("(");
  const close = sig.lastIndexOf(")");
  if (open < 0 || close <= open) return;
  for (const w of codeTokens(sig.slice(open + 1, close))) {
    const b = hash(w) & 63;
    t.params[2 * row + (b >> 5)] |= 1 << (b & 31);
  }
}

/** Fills the traits of one file's rows from its definitions (main thread). */
function fillFile(table: ChunkTable, fi: number, t: RowTraits): void {
  const f = table.files[fi];
  let list: readonly SymbolRecord[] | undefined;
  const defs = () => list ??= definitionsOf(table, f.path);
  for (let row = f.start; row < f.end; row++) fillRow(table, row, t, defs);
}

type MadeFiles = Map<string, { traits: RowTraits; start: number; end: number }>;

/**
 * A whole table's traits, being made or made, and (once made) its files by path and blob,
 * which the next generation's table reuses.
 */
interface Whole {
  traits: Promise<RowTraits>;
  files: MadeFiles | null;
}

const WHOLE_TRAITS = slot<ChunkTable, Whole>("row traits, whole", (table, previous) => {
  const whole: Whole = { traits: Promise.resolve(noRowTraits()), files: null };
  whole.traits = fillInSlices(table, previous?.files ?? new Map(), whole);
  return whole;
});

/**
 * Fills `t` for every row of `table`, one file per step (a file unchanged since the last
 * whole table — same path and blob, so the same rows — is copied from it, not read again).
 */
function* fillAll(
  table: ChunkTable,
  t: RowTraits,
  lastFiles: MadeFiles,
  whole: Whole,
): Generator<void> {
  const files: MadeFiles = new Map();
  for (let fi = 0; fi < table.files.length; fi++) {
    const f = table.files[fi];
    const key = `${f.path}\0${f.blob}`;
    const was = f.blob === "" ? undefined : lastFiles.get(key);
    if (was && was.end - was.start === f.end - f.start) {
      t.first.set(was.traits.first.subarray(was.start, was.end), f.start);
      t.whole.set(was.traits.whole.subarray(was.start, was.end), f.start);
      t.flags.set(was.traits.flags.subarray(was.start, was.end), f.start);
      t.params.set(was.traits.params.subarray(2 * was.start, 2 * was.end), 2 * f.start);
    } else fillFile(table, fi, t);
    files.set(key, { traits: t, start: f.start, end: f.end });
    yield;
  }
  whole.files = files;
  // The main thread's own features read the same arrays from now on.
  table.memo.get(ROW_TRAITS).traits = t;
  // What the last table held is carried over: it can go.
  table.memo.forgetPrevious();
}

/**
 * The traits of every row of a table, on shared memory: what a search worker is sent. Made
 * once per table, in slices of about 5 ms that yield to the event loop between them (no
 * request waits behind the whole build); after a one-file re-index only that file is read
 * again (~10 ms on the standard library's 61k rows, the first table ~0.5-1 s).
 */
export function rowTraitsInSlices(table: ChunkTable): Promise<RowTraits> {
  return table.memo.get(WHOLE_TRAITS).traits;
}

async function fillInSlices(table: ChunkTable, lastFiles: MadeFiles, whole: Whole) {
  const t = emptyTraits(table.chunks.length, true);
  let slice = performance.now();
  for (const _ of fillAll(table, t, lastFiles, whole)) {
    if (performance.now() - slice < 5) continue;
    await new Promise((resolve) => setTimeout(resolve, 0));
    slice = performance.now();
  }
  return t;
}

/** A search worker's table gets the traits its snapshot carries (its rows hold no names). */
export function attachRowTraits(table: ChunkTable, traits: RowTraits): void {
  table.memo.get(ROW_TRAITS).traits = traits;
}

/** The last files' definitions the rows made one at a time read (a query's candidates). */
const RECENT_DEFINITIONS = slot(
  "recent definitions",
  (_: ChunkTable) => new Map<string, readonly SymbolRecord[]>(),
);

/**
 * The traits a row's features read: the whole table's when made, else this row's, made now
 * (a query's few candidates, before the whole table's are ready).
 */
function traitsAt(table: ChunkTable, row: number): RowTraits {
  const held = table.memo.get(ROW_TRAITS);
  const t = held.traits ??= emptyTraits(table.chunks.length, false);
  if (t.flags[row] & MADE) return t;
  const f = table.files[table.fileOfRow[row]];
  // A file's definitions are those of its content (the blob) in this table's generation.
  const key = `${f.path}\0${f.blob}`;
  const recentDefinitions = table.memo.get(RECENT_DEFINITIONS);
  fillRow(table, row, t, () => {
    let list = recentDefinitions.get(key);
    if (!list) {
      if (recentDefinitions.size >= 64) recentDefinitions.clear();
      recentDefinitions.set(key, list = definitionsOf(table, f.path));
    }
    return list;
  });
  return t;
}

/**
 * A description's first verb, and the first words of names that do what it says (besides
 * the verb itself): "Checks if …" is `isX`, "Converts …" `toX`, "Creates …" `newX`.
 */
const VERB_NAMES: ReadonlyMap<string, readonly number[]> = new Map(
  ([
    ["check", ["is", "has", "can"]],
    ["determine", ["is", "has"]],
    ["test", ["is", "has"]],
    ["convert", ["to"]],
    ["create", ["new", "make", "build"]],
    ["construct", ["new", "create"]],
    ["make", ["new", "create"]],
    ["build", ["new", "create", "make"]],
  ] as const).map(([verb, names]) => [verb, names.map(hash)]),
);

/** What the name features need of a query, made once per query. */
export interface QueryNames {
  /** Hash of its first word (0: none), and of the name prefixes its verb stands for. */
  first: number;
  verbs: readonly number[];
  /** Its words' bits in a parameter set (word, bit). */
  bits: Array<[number, number]>;
}

const queries = new WeakMap<ReadonlySet<string>, QueryNames>();

function queryNames(terms: ReadonlySet<string>): QueryNames {
  let q = queries.get(terms);
  if (q) return q;
  const first: string | undefined = terms.values().next().value;
  const bits: Array<[number, number]> = [];
  for (const t of terms) {
    const b = hash(t) & 63;
    bits.push([b >> 5, 1 << (b & 31)]);
  }
  q = {
    first: first === undefined ? 0 : hash(first),
    verbs: (first !== undefined && VERB_NAMES.get(first)) || [],
    bits,
  };
  queries.set(terms, q);
  return q;
}

/**
 * The candidate's own name against the question's words (`terms`, in order): whether the
 * name starts with the question's first word (or is it, or starts with a name prefix its
 * verb stands for); whether the definition is internal (a leading `_` in its name or its
 * file's, unexported in Go, not `pub` in Rust, `private` in Java); the share of the
 * question's words among its parameters' words.
 */
export function nameFeatures(
  table: ChunkTable,
  terms: ReadonlySet<string>,
  row: number,
): number[] {
  const t = traitsAt(table, row);
  const q = queryNames(terms);
  const first = t.first[row];
  const starts = q.first !== 0 && first !== 0 &&
    (first === q.first || t.whole[row] === q.first || q.verbs.includes(first));
  let inParams = 0;
  for (const [word, bit] of q.bits) if (t.params[2 * row + word] & bit) inParams++;
  return [starts ? 1 : 0, t.flags[row] & 1, inParams / Math.max(1, terms.size)];
}
