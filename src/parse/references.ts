/**
 * References, imports and local scopes, read from the captures of a file's one query
 * (see the capture table in `parser.ts`). Like the definition engine it knows no
 * language: query files say where names are called, typed, inherited, written, read and
 * imported, which nodes open a local scope and which names a scope binds; this module
 * groups import captures into statements, drops the names that resolve to a local
 * binding (`local_scopes.ts`) and classifies member receivers.
 *
 * The pipeline: read each match's captures and gather references, imports, scopes and
 * bindings (`gather.ts`) → mark definition names → bind locals → emit the references in
 * file order.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { DeclaredType, ReferenceRecord } from "../facts/records.ts";
import { receiverText, SELF_HEAD, stepsText } from "../facts/text.ts";
import type { TypeRef } from "../facts/type_ref.ts";
import type { ImportRecord, SymbolRecord } from "../types.ts";
import type { RefRole } from "./captures.ts";
import { declaredTypes, selfHeaded } from "./declared.ts";
import { gather, type Gathered, RANK_DEFINITION, type RawRef } from "./gather.ts";
import {
  bindLocals,
  CHAIN_HEAD,
  classifyChain,
  classifyReceiver,
  type Locals,
  lookup,
  popEnded,
  type Scope,
  thenSteps,
} from "./local_scopes.ts";
import type { FileMatches } from "./matches.ts";

export { type RefRole, refRoleOf } from "./captures.ts";

/** What {@link collectReferences} reads out of one file. */
export interface FileReferences {
  references: ReferenceRecord[];
  imports: ImportRecord[];
  package?: string;
  /** Declared types (see {@link declaredTypes}); absent when the file declares none. */
  declared?: DeclaredType[];
}

/**
 * Reads references and imports from the matches of a file's query.
 *
 * `definitionNames` holds the name nodes of definitions: those occurrences are of kind
 * `definition` whatever else captures them.
 */
export function collectReferences(
  matches: FileMatches,
  roleAt: readonly (RefRole | undefined)[],
  definitionNames: readonly Node[],
  symbols: readonly SymbolRecord[],
): FileReferences {
  const found = gather(matches, roleAt);
  markDefinitions(found.refs, definitionNames);
  const locals = bindLocals(found.scopes, found.bindings, found.outer);
  literalTypes(found, locals);
  genericTypes(found);
  const scopeAt = enclosingSymbols(symbols);
  const references = emit(matches, found, locals, symbols, scopeAt);
  const imports = [...found.imports.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  const declared = declaredTypes(found.declared, symbols, scopeAt, found.selfWords);
  return {
    references,
    imports,
    ...(found.package ? { package: found.package } : {}),
    ...(declared.length ? { declared } : {}),
  };
}

/**
 * Declared types that are a type parameter of the enclosing class, interface or alias are
 * that parameter (its position): the type argument the member is reached through.
 */
function genericTypes(found: Gathered): void {
  if (found.generics.size === 0) return;
  for (const d of found.declared) {
    if (d.type?.kind === "value" || (d.type === null && !d.args)) continue;
    let names: string[] | undefined;
    for (let n = d.name.parent; n && !names; n = n.parent) names = found.generics.get(n.id);
    if (!names) continue;
    const generic = (t: TypeRef): TypeRef => {
      const i = t.kind === "path" && t.segments.length === 1 ? names!.indexOf(t.segments[0]) : -1;
      return i < 0 ? t : { kind: "generic", index: i };
    };
    if (d.args) d.args = d.args.map(generic);
    else d.type = generic(d.type!);
  }
}

/**
 * The contextual type of each object literal member that has one, as a declared type
 * (`LITERAL_KEY`); a value chain headed by a local is read through the local's type there.
 */
function literalTypes(found: Gathered, locals: Locals): void {
  for (const [name, holder] of found.literals) {
    const type = found.contexts.typeOf(holder);
    const read = type === null ? null : readValue(found, locals, type, holder.startIndex);
    if (read !== null) {
      found.declared.push({ name, type: read, assigned: false, slot: { kind: "literal" } });
    }
  }
  // A value assigned from a local (`self.command = command`) is of the local's type there.
  for (const d of found.declared) {
    if (d.assigned && d.type?.kind === "value") {
      d.type = readValue(found, locals, d.type, d.name.startIndex);
    }
  }
}

/**
 * A type that is a value chain (`source.subscribe`, parameter 0) with its head read where it
 * is used at `pos`: a local of known type gives its type (`Observable`, then the steps), the
 * enclosing instance a chain from it; other chains stay; a local of unknown type gives null.
 */
function readValue(found: Gathered, locals: Locals, type: TypeRef, pos: number): TypeRef | null {
  if (type.kind !== "value") return type;
  const { head, steps } = type.chain;
  const stack = found.scopes.filter((s) => s.start <= pos && pos < s.end);
  const [kind, read] = classifyChain(
    { head, steps: [] },
    stack,
    locals.fileTypes,
    found.selfWords,
    0,
    pos,
  );
  if (read === null || (kind !== "typed" && kind !== "name" && kind !== "self")) return null;
  if (read.kind === "either") {
    // Alternatives the graph does not read in a declared type: kept as they are written.
    const text = receiverText(read);
    const after = stepsText(steps);
    if (kind === "typed") {
      return { kind: "written", text: text + (text.includes(" ") || !after ? "" : " ") + after };
    }
    const first = CHAIN_HEAD.exec(text)?.[0];
    const self = first !== undefined && found.selfWords.has(first);
    return {
      kind: "written",
      text: `=${self ? SELF_HEAD + text.slice(first.length) : text}${after}`,
    };
  }
  if (read.kind === "type") return thenSteps(read.type, steps);
  const chain = { head: read.chain.head, steps: [...read.chain.steps, ...steps] };
  return selfHeaded({ kind: "value", chain }, found.selfWords);
}

/** Definition names are definitions, whatever pattern also saw them. */
function markDefinitions(refs: Map<number, RawRef>, definitionNames: readonly Node[]): void {
  for (const node of definitionNames) {
    refs.set(node.startIndex, {
      start: node.startIndex,
      at: -1,
      node,
      kind: "definition",
      rank: RANK_DEFINITION,
      receiver: -1,
      self: false,
      typed: false,
    });
  }
}

/**
 * The references in file order, walking the (sorted) scopes alongside: names bound
 * locally are dropped, receivers classified, and each reference gets its enclosing symbol.
 */
function emit(
  matches: FileMatches,
  { refs, scopes, selfWords }: Gathered,
  locals: Locals,
  symbols: readonly SymbolRecord[],
  scopeAt: (line: number) => number,
): ReferenceRecord[] {
  const data = matches.data;
  const ordered = [...refs.values()].sort((a, b) => a.start - b.start);
  const nested = nestedDefinitions(symbols);
  const out: ReferenceRecord[] = [];
  const stack: Scope[] = [];
  let next = 0;
  for (const r of ordered) {
    if (r.kind === "ignore") continue;
    while (next < scopes.length && scopes[next].start <= r.start) {
      popEnded(stack, scopes[next].start + 1);
      stack.push(scopes[next++]);
    }
    popEnded(stack, r.start + 1);
    const name = r.node ? r.node.text : matches.text(r.at);
    const row = r.node ? r.node.startPosition.row : data[r.at + 3];
    if (r.kind !== "definition" && r.kind !== "import") {
      if (locals.sites.has(r.start)) continue;
      if (r.receiver < 0 && lookup(stack, name) !== undefined) {
        // A local bound by a nested definition (`def wrap` in a decorator) is a symbol: kept.
        if (!nested(name, scopeAt(row + 1))) continue;
      }
    }
    const line = row + 1;
    const rec: ReferenceRecord = {
      name,
      line,
      column: (r.node ? r.node.startPosition.column : data[r.at + 4]) + 1,
      kind: r.kind,
      scope: scopeAt(line),
    };
    if (r.receiver >= 0) {
      const [receiverKind, receiver] = classifyReceiver(
        { text: r.receiverText ?? matches.text(r.receiver) },
        r,
        stack,
        locals.fileTypes,
        selfWords,
      );
      rec.receiverKind = receiverKind;
      if (receiver !== null) rec.receiver = receiver;
    }
    out.push(rec);
  }
  return out;
}

/**
 * Whether `name` is a definition nested in a function that encloses symbol `scope` (a
 * `def`, `function` or `fn` inside a function body, indexed as `outer.inner`).
 */
function nestedDefinitions(
  symbols: readonly SymbolRecord[],
): (name: string, scope: number) => boolean {
  const callable = new Map<string, boolean>();
  for (const s of symbols) {
    callable.set(s.qualifiedName, s.kind === "function" || s.kind === "method");
  }
  const parents = new Map<string, Set<string>>();
  for (const s of symbols) {
    // An object literal's method inside a function binds no name there.
    if (s.parent === null || !callable.get(s.parent) || s.kind === "method") continue;
    let set = parents.get(s.name);
    if (!set) parents.set(s.name, set = new Set());
    set.add(s.parent);
  }
  return (name, scope) => {
    const set = parents.get(name);
    if (!set || scope < 0) return false;
    for (let q: string | null = symbols[scope].qualifiedName; q;) {
      if (set.has(q)) return true;
      const dot = q.lastIndexOf(".");
      q = dot < 0 ? null : q.slice(0, dot);
    }
    return false;
  };
}

/**
 * A function from a line to the index of the innermost symbol whose lines hold it
 * (-1 when none): inner symbols are painted over outer ones.
 */
function enclosingSymbols(symbols: readonly SymbolRecord[]): (line: number) => number {
  if (symbols.length === 0) return () => -1;
  let last = 0;
  for (const s of symbols) if (s.endLine > last) last = s.endLine;
  const at = new Int32Array(last + 2).fill(-1);
  const order = symbols.map((_, i) => i).sort((a, b) =>
    (symbols[b].endLine - symbols[b].startLine) - (symbols[a].endLine - symbols[a].startLine) ||
    a - b
  );
  for (const i of order) {
    const s = symbols[i];
    for (let l = s.startLine; l <= s.endLine; l++) at[l] = i;
  }
  return (line) => (line < at.length ? at[line] : -1);
}
