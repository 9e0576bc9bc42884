/**
 * The graph part of a file's blob: its references, imports and package, packed so that
 * a large project's references stay small in the store and cheap to load. References
 * become rows of seven integers over a table of the file's distinct names.
 *
 * @module
 */

import type {
  ImportRecord,
  ParsedFile,
  ReceiverKind,
  ReferenceKind,
  ReferenceRecord,
} from "../types.ts";

/** The blob part kind under which the graph part is stored. */
export const GRAPH_PART = "graph";

/** What is stored per file content under {@link GRAPH_PART}. */
export interface GraphPart {
  /** Distinct names and receivers of the file. */
  names: string[];
  /** Seven integers per reference, see {@link REF_FIELDS}. */
  refs: number[];
  imports: ImportRecord[];
  package?: string;
  /** Declared types of fields, variables and return types (`ParsedFile.types`). */
  types?: [string, string][];
}

/** Layout of one packed reference row. */
export const REF_FIELDS = 7;
const F_NAME = 0;
const F_LINE = 1;
const F_COLUMN = 2;
const F_KIND = 3;
const F_SCOPE = 4;
const F_RECEIVER_KIND = 5;
const F_RECEIVER = 6;

/** Reference kinds by code (the code is the index). */
export const KIND_CODES: readonly ReferenceKind[] = [
  "definition",
  "call",
  "import",
  "type",
  "inherit",
  "read",
  "write",
  "export_list",
];
const KIND_INDEX = new Map(KIND_CODES.map((k, i) => [k, i]));

/** Receiver kinds by code; 0 is "no receiver". */
export const RECEIVER_CODES: readonly (ReceiverKind | null)[] = [
  null,
  "self",
  "typed",
  "local",
  "name",
  "expr",
];
const RECEIVER_INDEX = new Map(RECEIVER_CODES.map((k, i) => [k, i]));

/** An empty part, for files without references (text formats, parse failures). */
export const EMPTY_PART: GraphPart = { names: [], refs: [], imports: [] };

/**
 * Packs a parsed file's references, imports and package.
 *
 * @example
 * ```ts
 * const part = packGraph(await parseSource("a.py", "import os\nos.getcwd()\n"));
 * part.imports[0].module; // "os"
 * ```
 */
export function packGraph(parsed: ParsedFile): GraphPart {
  const refs = parsed.references ?? [];
  const names: string[] = [];
  const index = new Map<string, number>();
  const id = (s: string) => {
    let i = index.get(s);
    if (i === undefined) {
      i = names.length;
      names.push(s);
      index.set(s, i);
    }
    return i;
  };
  const rows = new Array<number>(refs.length * REF_FIELDS);
  let o = 0;
  for (const r of refs) {
    rows[o + F_NAME] = id(r.name);
    rows[o + F_LINE] = r.line;
    rows[o + F_COLUMN] = r.column;
    rows[o + F_KIND] = KIND_INDEX.get(r.kind) ?? KIND_INDEX.get("read")!;
    rows[o + F_SCOPE] = r.scope;
    rows[o + F_RECEIVER_KIND] = RECEIVER_INDEX.get(r.receiverKind ?? null) ?? 0;
    rows[o + F_RECEIVER] = r.receiver === undefined ? -1 : id(r.receiver);
    o += REF_FIELDS;
  }
  const part: GraphPart = { names, refs: rows, imports: parsed.imports ?? [] };
  if (parsed.package) part.package = parsed.package;
  if (parsed.types?.length) part.types = parsed.types;
  return part;
}

/** The number of references in a part. */
export function refCount(part: GraphPart): number {
  return part.refs.length / REF_FIELDS;
}

/** Reference `i` of a part, unpacked. */
export function refAt(part: GraphPart, i: number): ReferenceRecord {
  const o = i * REF_FIELDS;
  const r = part.refs;
  const rec: ReferenceRecord = {
    name: part.names[r[o + F_NAME]],
    line: r[o + F_LINE],
    column: r[o + F_COLUMN],
    kind: KIND_CODES[r[o + F_KIND]],
    scope: r[o + F_SCOPE],
  };
  const rk = RECEIVER_CODES[r[o + F_RECEIVER_KIND]];
  if (rk) {
    rec.receiverKind = rk;
    if (r[o + F_RECEIVER] >= 0) rec.receiver = part.names[r[o + F_RECEIVER]];
  }
  return rec;
}

/** The name-table index of reference `i`'s name (for building name indexes cheaply). */
export function refNameId(part: GraphPart, i: number): number {
  return part.refs[i * REF_FIELDS + F_NAME];
}

/** A parsed file without its graph share (what the other blob parts are built from). */
export function withoutGraph(parsed: ParsedFile): ParsedFile {
  const { references: _r, imports: _i, package: _p, types: _t, ...rest } = parsed;
  return rest;
}
