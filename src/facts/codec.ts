/**
 * The one codec of a file's facts for the graph: what `parse/` reads of a file (its
 * references, imports, package, declared types) packed into the graph part of its blob, and
 * read back. References are rows of seven integers over a table of the file's distinct names
 * and a table of its distinct receivers, so a large project's references stay small in the
 * store and cheap to load; receivers and declared types are kept as compact JSON arrays whose
 * shape {@link encodeType} and {@link decodeType} alone know.
 *
 * Changing what is stored here changes the store format: bump `STORE_FORMAT`
 * (`src/store/kv.ts`) so that indexes are rebuilt.
 *
 * @module
 */

import {
  type ImportRecord,
  type ParsedFile,
  type ReceiverKind,
  REFERENCE_KINDS,
  type ReferenceKind,
} from "../types.ts";
import type { DeclaredType, ParsedSource, Receiver, ReferenceRecord, Slot } from "./records.ts";
import type { Chain, Separator, Step, TypeRef } from "./type_ref.ts";

/** The blob part kind under which the graph part is stored. */
export const GRAPH_PART = "graph";

/** A receiver, a type or a declared type as stored (see {@link encodeType}). */
type Encoded = string | number | Encoded[];

/** What is stored per file content under {@link GRAPH_PART} (as JSON). */
export interface StoredPart {
  /** Distinct names of the file. */
  names: string[];
  /** Seven integers per reference, see {@link REF_FIELDS}. */
  refs: number[];
  /** Distinct receivers of the file, encoded. */
  receivers?: Encoded[];
  imports: ImportRecord[];
  package?: string;
  /** Declared types, encoded. */
  declared?: Encoded[];
  /** Import statements' first and last lines, pair by pair. */
  importLines?: number[];
}

/**
 * A file's graph part as read back: references packed, receivers and declared types as
 * records. A part read from `graph.bin` ({@link decodePackedPart}) makes its names, imports,
 * receivers and declared types when first asked.
 */
export interface GraphPart {
  readonly names: readonly string[];
  readonly refs: Int32Array;
  readonly receivers: readonly Receiver[];
  readonly imports: readonly ImportRecord[];
  readonly package?: string;
  readonly declared: readonly DeclaredType[];
  /** Import statements' first and last lines, pair by pair (empty when none). */
  readonly importLines: readonly number[];
  /**
   * The import records as stored (JSON): a name an import binds is written in it, so a file
   * whose text lacks a name binds nothing by it (asked without resolving its imports).
   */
  readonly importsText: string;
  /** The index of `name` in {@link names}, or -1 (found without making every name). */
  nameId(name: string): number;
  /**
   * Whether a declared type is an object literal's member's (`const o: T = { m() {} }`):
   * known without reading {@link declared}.
   */
  readonly literalSlots: boolean;
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

/** Reference kinds by code (the code is the index: reordering the list changes the format). */
const KIND_CODES: readonly ReferenceKind[] = REFERENCE_KINDS;
const KIND_INDEX = new Map(KIND_CODES.map((k, i) => [k, i]));

/** Receiver kinds by code; 0 is "no receiver". */
const RECEIVER_CODES: readonly (ReceiverKind | null)[] = [
  null,
  "self",
  "typed",
  "local",
  "name",
  "expr",
];
const RECEIVER_INDEX = new Map(RECEIVER_CODES.map((k, i) => [k, i]));

/** An empty part, for files without references (text formats, parse failures). */
export const EMPTY_PART: GraphPart = {
  names: [],
  refs: new Int32Array(0),
  receivers: [],
  imports: [],
  declared: [],
  importLines: [],
  importsText: "[]",
  nameId: () => -1,
  literalSlots: false,
};

/**
 * A parsed file split in two: the file without its graph share (what the other blob parts
 * are built from) and its graph part as stored.
 *
 * @example
 * ```ts
 * const { graph } = encodeFacts(await parseSource("a.py", "import os\nos.getcwd()\n"));
 * graph.imports[0].module; // "os"
 * ```
 */
export function encodeFacts(parsed: ParsedSource): { file: ParsedFile; graph: StoredPart } {
  const {
    references = [],
    imports = [],
    package: pkg,
    declared = [],
    importLines = [],
    ...file
  } = parsed;
  const names = new Table<string>();
  const receivers = new Table<Encoded>();
  const rows = new Array<number>(references.length * REF_FIELDS);
  let o = 0;
  for (const r of references) {
    rows[o + F_NAME] = names.id(r.name, r.name);
    rows[o + F_LINE] = r.line;
    rows[o + F_COLUMN] = r.column;
    rows[o + F_KIND] = KIND_INDEX.get(r.kind) ?? KIND_INDEX.get("read")!;
    rows[o + F_SCOPE] = r.scope;
    rows[o + F_RECEIVER_KIND] = RECEIVER_INDEX.get(r.receiverKind ?? null) ?? 0;
    if (r.receiver === undefined) rows[o + F_RECEIVER] = -1;
    else {
      const e = encodeReceiver(r.receiver);
      rows[o + F_RECEIVER] = receivers.id(JSON.stringify(e), e);
    }
    o += REF_FIELDS;
  }
  const graph: StoredPart = { names: names.values, refs: rows, imports };
  if (receivers.values.length) graph.receivers = receivers.values;
  if (pkg) graph.package = pkg;
  if (declared.length) graph.declared = declared.map(encodeDeclared);
  if (importLines.length) graph.importLines = importLines;
  return { file, graph };
}

/** A stored graph part read back. */
export function decodeFacts(stored: StoredPart): GraphPart {
  let importsText: string | undefined;
  return {
    names: stored.names,
    refs: Int32Array.from(stored.refs),
    receivers: (stored.receivers ?? []).map(decodeReceiver),
    imports: stored.imports,
    declared: (stored.declared ?? []).map(decodeDeclared),
    importLines: stored.importLines ?? [],
    ...(stored.package ? { package: stored.package } : {}),
    get importsText() {
      return importsText ??= JSON.stringify(stored.imports);
    },
    nameId: (name) => stored.names.indexOf(name),
    get literalSlots() {
      return this.declared.some(isLiteralSlot);
    },
  };
}

// ---------------------------------------------------------------------------------------
// The packed form of a stored part (what `graph.bin` holds, issue 34): read without parsing
// the references. Little-endian 32-bit words: a head of PACKED_HEAD counts, the reference
// rows and the import lines as integers, then UTF-8 sections — the names joined by NUL (JSON
// when a name holds one), the imports, receivers and declared types as JSON, the package —
// padded to a multiple of 4 bytes. The rows are viewed where they lie, not copied (the
// machines Deno runs on are little-endian).

/** Words of the head: rows, import lines, names, the byte length of each section, flags. */
const H = {
  Refs: 0,
  Lines: 1,
  Names: 2,
  NamesBytes: 3,
  Imports: 4,
  Receivers: 5,
  Declared: 6,
  Package: 7,
  Flags: 8,
} as const;
const PACKED_HEAD = 9;
/** Flag: the names section is a JSON array (a name holds a NUL). */
const NAMES_JSON = 1;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** A stored part in the packed form {@link decodePackedPart} reads. */
export function encodePackedPart(stored: StoredPart): Uint8Array {
  const namesJson = stored.names.some((n) => n.includes("\0"));
  const sections = [
    utf8.encode(namesJson ? JSON.stringify(stored.names) : stored.names.join("\0")),
    utf8.encode(JSON.stringify(stored.imports)),
    utf8.encode(stored.receivers?.length ? JSON.stringify(stored.receivers) : ""),
    utf8.encode(stored.declared?.length ? JSON.stringify(stored.declared) : ""),
    utf8.encode(stored.package ?? ""),
  ];
  const lines = stored.importLines ?? [];
  const words = PACKED_HEAD + stored.refs.length + lines.length;
  const bytes = sections.reduce((n, b) => n + b.length, 0);
  const out = new Uint8Array((words * 4 + bytes + 3) & ~3);
  const view = new DataView(out.buffer);
  const head = [
    stored.refs.length,
    lines.length,
    stored.names.length,
    sections[0].length,
    sections[1].length,
    sections[2].length,
    sections[3].length,
    sections[4].length,
    namesJson ? NAMES_JSON : 0,
  ];
  let o = 0;
  for (const v of [...head, ...stored.refs, ...lines]) {
    view.setInt32(o, v, true);
    o += 4;
  }
  for (const b of sections) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}

/**
 * A part from its packed form (`bytes` as {@link encodePackedPart} wrote them; kept, not
 * copied, when 4-byte aligned): the rows are a view, the rest is read when first asked.
 */
export function decodePackedPart(bytes: Uint8Array): GraphPart {
  // A copy of its own when not aligned for the view (the file's entries are).
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  const head = new Int32Array(bytes.buffer, bytes.byteOffset, PACKED_HEAD);
  const refs = new Int32Array(bytes.buffer, bytes.byteOffset + PACKED_HEAD * 4, head[H.Refs]);
  return decodeRest(head, bytes.subarray(PACKED_HEAD * 4 + refs.byteLength), () => refs);
}

/**
 * A packed part split in two: its reference rows (the bulk of it) and the rest — the head,
 * the import lines and the sections — which {@link decodeSplitPart} reads with the rows
 * read apart, when first asked.
 */
export function splitPackedPart(packed: Uint8Array): { rest: Uint8Array; rows: Uint8Array } {
  const refs = new DataView(packed.buffer, packed.byteOffset, 4).getInt32(0, true);
  const rowsAt = PACKED_HEAD * 4;
  const rowsEnd = rowsAt + refs * 4;
  const rest = new Uint8Array(packed.length - refs * 4);
  rest.set(packed.subarray(0, rowsAt));
  rest.set(packed.subarray(rowsEnd), rowsAt);
  return { rest, rows: packed.subarray(rowsAt, rowsEnd) };
}

/** The number of reference rows of a part's rest ({@link splitPackedPart}). */
export function splitRowCount(rest: Uint8Array): number {
  return new DataView(rest.buffer, rest.byteOffset, 4).getInt32(0, true);
}

/**
 * A part from the rest {@link splitPackedPart} left and its rows, read by `rows` when first
 * asked (a command reads the rows of the few files that name what it asks about).
 */
export function decodeSplitPart(rest: Uint8Array, rows: () => Int32Array): GraphPart {
  if (rest.byteOffset % 4 !== 0) rest = rest.slice();
  const head = new Int32Array(rest.buffer, rest.byteOffset, PACKED_HEAD);
  let refs: Int32Array | undefined;
  return decodeRest(head, rest.subarray(PACKED_HEAD * 4), () => refs ??= rows());
}

/**
 * A part from its head, the bytes after its rows (import lines, then sections; 4-byte
 * aligned) and its rows.
 */
function decodeRest(head: Int32Array, bytes: Uint8Array, rows: () => Int32Array): GraphPart {
  const importLines = Array.from(new Int32Array(bytes.buffer, bytes.byteOffset, head[H.Lines]));
  let at = head[H.Lines] * 4;
  const section = (length: number) => bytes.subarray(at, at += length);
  const namesBytes = section(head[H.NamesBytes]);
  const importsBytes = section(head[H.Imports]);
  const receiversBytes = section(head[H.Receivers]);
  const declaredBytes = section(head[H.Declared]);
  const pkg = fromUtf8.decode(section(head[H.Package]));
  const nameCount = head[H.Names];
  const namesJson = (head[H.Flags] & NAMES_JSON) !== 0;
  const json = <T>(b: Uint8Array): T[] => b.length ? JSON.parse(fromUtf8.decode(b)) : [];
  let names: string[] | undefined;
  let namesText: string | undefined;
  let importsText: string | undefined;
  let imports: ImportRecord[] | undefined;
  let receivers: Receiver[] | undefined;
  let declared: DeclaredType[] | undefined;
  return {
    get refs() {
      return rows();
    },
    importLines,
    ...(pkg ? { package: pkg } : {}),
    get names() {
      return names ??= nameCount === 0
        ? []
        : namesJson
        ? json<string>(namesBytes)
        : (namesText ??= fromUtf8.decode(namesBytes)).split("\0");
    },
    get importsText() {
      return importsText ??= importsBytes.length ? fromUtf8.decode(importsBytes) : "[]";
    },
    get imports() {
      return imports ??= importsBytes.length ? JSON.parse(this.importsText) : [];
    },
    get receivers() {
      return receivers ??= json<Encoded>(receiversBytes).map(decodeReceiver);
    },
    get declared() {
      return declared ??= json<Encoded>(declaredBytes).map(decodeDeclared);
    },
    get literalSlots() {
      // A literal's slot is written `["owner",3,…` (see encodeDeclared): a text without
      // `",3,` declares none.
      return declared
        ? declared.some(isLiteralSlot)
        : declaredBytes.length > 0 && fromUtf8.decode(declaredBytes).includes(`",${S.Literal},`) &&
          this.declared.some(isLiteralSlot);
    },
    nameId(name) {
      return names || namesJson || name === "" || name.includes("\0")
        ? this.names.indexOf(name)
        : nulSeparatedIndex(namesText ??= fromUtf8.decode(namesBytes), name);
    },
  };
}

/**
 * The index of a non-empty `name` among the NUL-separated names of `text` (each distinct), or
 * -1: found in the text, not in an array of every name.
 */
function nulSeparatedIndex(text: string, name: string): number {
  const n = name.length;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if (
      (at > 0 && text.charCodeAt(at - 1) !== 0) ||
      (at + n < text.length && text.charCodeAt(at + n) !== 0)
    ) {
      continue;
    }
    let id = 0;
    for (let nul = text.indexOf("\0"); nul >= 0 && nul < at; nul = text.indexOf("\0", nul + 1)) {
      id++;
    }
    return id;
  }
  return -1;
}

/** Distinct values in first-seen order, each with its index. */
class Table<T> {
  readonly values: T[] = [];
  private readonly index = new Map<string, number>();

  id(key: string, value: T): number {
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(key, i);
    }
    return i;
  }
}

/** The number of references in a part. */
export function refCount(part: Pick<GraphPart, "refs">): number {
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
    if (r[o + F_RECEIVER] >= 0) rec.receiver = part.receivers[r[o + F_RECEIVER]];
  }
  return rec;
}

/** The name-table index of reference `i`'s name (for building name indexes cheaply). */
export function refNameId(part: Pick<GraphPart, "refs">, i: number): number {
  return part.refs[i * REF_FIELDS + F_NAME];
}

// ---------------------------------------------------------------------------------------
// Records as compact JSON arrays. A step: a member reached with `.` is its name; `0` a
// call, `1` an element; `[s, name]` a member reached with separator code s (1 `::`, 2 `->`,
// 3 `\`); `[4, arg, param]` a callback's parameter; `[5, index]` a parameter. A chain:
// `[head, ...steps]`, the head a name or `0` for the enclosing instance. A type: `[tag, …]`.

const SEPARATORS: readonly Separator[] = [".", "::", "->", "\\"];
/** Tags of the kinds of type. */
const T = {
  Path: 0,
  SeparatedPath: 1,
  Sequence: 2,
  Shape: 3,
  Function: 4,
  Generic: 5,
  Value: 6,
  Stepped: 7,
  Written: 8,
} as const;

function encodeStep(s: Step): Encoded {
  switch (s.kind) {
    case "member":
      return s.sep === "." ? s.name : [SEPARATORS.indexOf(s.sep), s.name];
    case "call":
      return 0;
    case "element":
      return 1;
    case "callback":
      return [4, s.arg, s.param];
    case "parameter":
      return [5, s.index];
  }
}

function decodeStep(e: Encoded): Step {
  if (typeof e === "string") return { kind: "member", sep: ".", name: e };
  if (typeof e === "number") return e === 0 ? { kind: "call" } : { kind: "element" };
  const [tag, a, b] = e as [number, Encoded, number];
  if (tag === 4) return { kind: "callback", arg: a as number, param: b };
  if (tag === 5) return { kind: "parameter", index: a as number };
  return { kind: "member", sep: SEPARATORS[tag], name: a as string };
}

function encodeChain(c: Chain): Encoded[] {
  return [c.head.kind === "self" ? 0 : c.head.name, ...c.steps.map(encodeStep)];
}

function decodeChain(e: Encoded[]): Chain {
  const [head, ...steps] = e;
  return {
    head: head === 0 ? { kind: "self" } : { kind: "name", name: head as string },
    steps: steps.map(decodeStep),
  };
}

/** A type as stored. */
export function encodeType(t: TypeRef): Encoded[] {
  switch (t.kind) {
    case "path":
      if (t.separators.every((s) => s === ".")) return [T.Path, ...t.segments];
      return [T.SeparatedPath, ...t.segments.flatMap((s, i) => i ? [t.separators[i - 1], s] : [s])];
    case "sequence":
      return [T.Sequence, encodeType(t.of)];
    case "shape":
      return [T.Shape, ...t.fields.map(([n, f]) => [n, encodeType(f)])];
    case "function":
      return [T.Function, encodeType(t.result)];
    case "generic":
      return [T.Generic, t.index];
    case "value":
      return [T.Value, encodeChain(t.chain)];
    case "stepped":
      return [T.Stepped, encodeType(t.from), ...t.steps.map(encodeStep)];
    case "written":
      return [T.Written, t.text];
  }
}

/** A type read back from {@link encodeType}'s form. */
export function decodeType(e: Encoded[]): TypeRef {
  const [tag, ...rest] = e;
  switch (tag) {
    case T.Path:
      return { kind: "path", segments: rest as string[], separators: rest.slice(1).map(() => ".") };
    case T.SeparatedPath:
      return {
        kind: "path",
        segments: rest.filter((_, i) => i % 2 === 0) as string[],
        separators: rest.filter((_, i) => i % 2 === 1) as Separator[],
      };
    case T.Sequence:
      return { kind: "sequence", of: decodeType(rest[0] as Encoded[]) };
    case T.Shape:
      return {
        kind: "shape",
        fields: (rest as [string, Encoded[]][]).map(([n, f]) => [n, decodeType(f)]),
      };
    case T.Function:
      return { kind: "function", result: decodeType(rest[0] as Encoded[]) };
    case T.Generic:
      return { kind: "generic", index: rest[0] as number };
    case T.Value:
      return { kind: "value", chain: decodeChain(rest[0] as Encoded[]) };
    case T.Stepped:
      return {
        kind: "stepped",
        from: decodeType(rest[0] as Encoded[]),
        steps: rest.slice(1).map(decodeStep),
      };
    default:
      return { kind: "written", text: rest[0] as string };
  }
}

function encodeReceiver(r: Receiver): Encoded {
  switch (r.kind) {
    case "chain":
      return [0, encodeChain(r.chain)];
    case "type":
      return [1, encodeType(r.type)];
    case "either":
      return [2, ...r.options.map(encodeReceiver)];
  }
}

function decodeReceiver(e: Encoded): Receiver {
  const [tag, ...rest] = e as Encoded[];
  if (tag === 0) return { kind: "chain", chain: decodeChain(rest[0] as Encoded[]) };
  if (tag === 1) return { kind: "type", type: decodeType(rest[0] as Encoded[]) };
  return { kind: "either", options: rest.map(decodeReceiver) };
}

/** Whether `d` is a type declared in an object literal's slot. */
function isLiteralSlot(d: DeclaredType): boolean {
  return d.kind === "type" && d.slot?.kind === "literal";
}

/** Slot codes of a declared type: none, a callback's parameter, a parameter, a literal's member, a base. */
const S = { Own: 0, Callback: 1, Parameter: 2, Literal: 3, Base: 4 } as const;

function encodeDeclared(d: DeclaredType): Encoded {
  const field = d.field ? 1 : 0;
  if (d.kind === "base") return [d.owner, S.Base, field, d.args.map(encodeType)];
  const slot: Encoded = !d.slot
    ? S.Own
    : d.slot.kind === "callback"
    ? [S.Callback, d.slot.arg, d.slot.param]
    : d.slot.kind === "parameter"
    ? [S.Parameter, d.slot.index]
    : S.Literal;
  return [d.owner, slot, field, encodeType(d.type)];
}

function decodeDeclared(e: Encoded): DeclaredType {
  const [owner, slot, field, type] = e as [string, Encoded, number, Encoded[]];
  const flag = field ? { field: true as const } : {};
  if (slot === S.Base) {
    return { kind: "base", owner, ...flag, args: (type as Encoded[][]).map(decodeType) };
  }
  let s: Slot | undefined;
  if (slot === S.Literal) s = { kind: "literal" };
  else if (Array.isArray(slot)) {
    s = slot[0] === S.Callback
      ? { kind: "callback", arg: slot[1] as number, param: slot[2] as number }
      : { kind: "parameter", index: slot[1] as number };
  }
  return { kind: "type", owner, ...(s ? { slot: s } : {}), ...flag, type: decodeType(type) };
}
