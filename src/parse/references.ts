/**
 * References, imports and local scopes, read from the captures of a file's one query
 * (see the capture table in `parser.ts`). Like the definition engine it knows no
 * language: query files say where names are called, typed, inherited, written, read and
 * imported, which nodes open a local scope and which names a scope binds; this module
 * groups import captures into statements, drops the names that resolve to a local
 * binding (`local_scopes.ts`) and classifies member receivers.
 *
 * The pipeline: read each match's captures → gather references, imports, scopes and
 * bindings → mark definition names → bind locals → emit the references in file order.
 *
 * @module
 */

import type { Node, QueryMatch } from "npm:web-tree-sitter@0.25.10";
import type { ImportRecord, ReferenceKind, ReferenceRecord, SymbolRecord } from "../types.ts";
import { type MatchCaptures, readMatch, type RefRole } from "./captures.ts";
import {
  BASE_KEY,
  callbackOwner,
  callbackType,
  Contexts,
  type Declared,
  declaredTypes,
  elementType,
  LITERAL_KEY,
  localType,
  memberType,
  parameterSlot,
  selfHeaded,
  slotOf,
} from "./declared.ts";
import {
  type Binding,
  bindLocals,
  CHAIN_HEAD,
  classifyReceiver,
  type Locals,
  lookup,
  popEnded,
  type Scope,
  typeName,
  valueType,
} from "./local_scopes.ts";

export { type RefRole, refRoleOf } from "./captures.ts";

/** What {@link collectReferences} reads out of one file. */
export interface FileReferences {
  references: ReferenceRecord[];
  imports: ImportRecord[];
  package?: string;
  /** Declared types (see {@link declaredTypes}); absent when the file declares none. */
  types?: [string, string][];
}

interface RawRef {
  start: number;
  node: Node;
  kind: ReferenceKind | "ignore";
  /** Lower wins; definitions and imported names beat every pattern. */
  rank: number;
  receiver: Node | null;
  /** The receiver's text when it spans several tokens of a macro's token tree (`self . cmd`). */
  receiverText?: string;
  self: boolean;
  /** The receiver is an instance of the type it names (`Foo.new.bar`, `new Foo().bar()`). */
  typed: boolean;
}

/** What a file's matches hold before local names are resolved. */
interface Gathered {
  /** One candidate reference per name node (by start offset): the best-ranked one. */
  refs: Map<number, RawRef>;
  /** One import record per module node (by start offset). */
  imports: Map<number, ImportRecord>;
  scopes: Scope[];
  bindings: Binding[];
  /** Names a scope declares bound outside it (`global x`). */
  outer: Binding[];
  /**
   * Names with a declared type (`@declared.*`): the name node, its type (`typeName`, or
   * `valueType` of an assigned value; null for a value that is no chain) and whether it was
   * declared (a type) or assigned (a value).
   */
  declared: Declared[];
  /** The texts that name the enclosing instance (`this`, `self`, `super`): heads of receiver chains. */
  selfWords: Set<string>;
  /** Types values get from where they stand (contextual typing). */
  contexts: Contexts;
  /** Members of object literals: the member's name and the literal. */
  literals: [Node, Node][];
  /** Type parameters by the node of the class, interface or alias that declares them. */
  generics: Map<number, string[]>;
  package?: string;
}

const RANK_DEFINITION = -2;
const RANK_IMPORT = -1;

/**
 * Reads references and imports from the matches of a file's query.
 *
 * `definitionNames` holds the name nodes of definitions: those occurrences are of kind
 * `definition` whatever else captures them.
 */
export function collectReferences(
  matches: readonly QueryMatch[],
  roles: ReadonlyMap<string, RefRole>,
  definitionNames: readonly Node[],
  symbols: readonly SymbolRecord[],
): FileReferences {
  const found = gather(matches, roles);
  markDefinitions(found.refs, definitionNames);
  const locals = bindLocals(found.scopes, found.bindings, found.outer);
  literalTypes(found, locals);
  genericTypes(found);
  const scopeAt = enclosingSymbols(symbols);
  const references = emit(found.refs, found.scopes, locals, symbols, scopeAt, found.selfWords);
  const imports = [...found.imports.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  const types = declaredTypes(found.declared, symbols, scopeAt, found.selfWords);
  return {
    references,
    imports,
    ...(found.package ? { package: found.package } : {}),
    ...(types.length ? { types } : {}),
  };
}

/** Collects every match's reference, import, scope and binding. */
function gather(matches: readonly QueryMatch[], roles: ReadonlyMap<string, RefRole>): Gathered {
  const found: Gathered = {
    refs: new Map(),
    imports: new Map(),
    scopes: [],
    bindings: [],
    outer: [],
    declared: [],
    selfWords: new Set(),
    contexts: new Contexts(),
    literals: [],
    generics: new Map(),
  };
  const seenScopes = new Set<number>();
  /** Parameters typed where their function stands: resolved once every context is read. */
  const contextual: [Binding, Node, Node][] = [];
  for (const match of matches) {
    const c = readMatch(match, roles);
    if (c.package) found.package ??= c.package.text;
    if (c.self && c.receiver && c.receiver.text.length <= 8) found.selfWords.add(c.receiver.text);
    // A literal assigned (`this.x = null`) says nothing of the type.
    const literal = c.declValue !== null && c.declValue.namedChildCount === 0 &&
      !c.declValue.type.includes("identifier");
    // A callback's parameter (`@declared.parameter`): the function declaring it names it.
    if (c.declParameter && !c.declName) {
      const owner = callbackOwner(c.declParameter);
      if (owner) [c.declName, c.declArgument] = owner;
    }
    if (c.declName && (c.declType || (c.declValue && !literal))) {
      found.declared.push({
        name: c.declName,
        type: c.declType ? typeName(c.declType.text) : valueType(c.declValue!),
        assigned: !c.declType,
        slot: !c.declParameter
          ? ""
          : c.declArgument
          ? slotOf(c.declArgument, c.declParameter)
          : parameterSlot(c.declParameter),
      });
    }
    if (c.declContext) {
      found.contexts.add({
        node: c.declContext,
        type: c.declType,
        holder: c.declHolder,
        member: c.declMember,
        callee: c.declCallee,
      });
    }
    if (c.declLiteral && c.declHolder) found.literals.push([c.declLiteral, c.declHolder]);
    if (c.declGeneric) addGeneric(found.generics, c.declGeneric);
    if (c.declBase && c.declArguments) {
      const args = c.declArguments.namedChildren.map((n) => n ? typeName(n.text) : "");
      found.declared.push({
        name: c.declBase,
        type: args.join(","),
        assigned: false,
        slot: BASE_KEY,
      });
    }
    if (c.ref) {
      offer(found.refs, {
        start: c.ref.startIndex,
        node: c.ref,
        kind: c.refKind,
        rank: match.patternIndex,
        receiver: c.receiver,
        ...(c.receiver && c.receiverTail
          ? { receiverText: tokensText(c.receiver, c.receiverTail) }
          : {}),
        self: c.self,
        typed: c.typed,
      });
    }
    if (c.module) addImport(found, c.module, c);
    if (c.scope && !seenScopes.has(c.scope.id)) {
      seenScopes.add(c.scope.id);
      found.scopes.push({
        start: c.scope.startIndex,
        end: c.scope.endIndex,
        node: c.scope,
        bindings: new Map(),
      });
    }
    if (c.outer) {
      const o = c.outer;
      found.outer.push({ start: o.startIndex, end: o.endIndex, name: o.text, type: null });
    }
    if (c.local) {
      // A match that captures a scope too binds the name in that scope (Go's type switch
      // case: `case T:` makes the switch's `s` a T there).
      const at = c.scope ?? c.local;
      if (c.contextual) {
        const b: Binding = {
          start: at.startIndex,
          end: at.endIndex,
          name: c.local.text,
          type: null,
        };
        contextual.push([b, c.contextual, c.local]);
        continue;
      }
      found.bindings.push({
        start: at.startIndex,
        end: at.endIndex,
        name: c.local.text,
        type: c.type
          ? localType(c.type)
          : c.value
          ? valueType(c.value)
          : c.destructured
          ? memberType(c.destructured, c.local.text)
          : c.callee
          ? callbackType(c.callee, c.local)
          : elementType(c.element),
        // For one name node: a declared type beats an element's or a property's, which
        // beats the value bound (`const o = xs.find(…)` is an element, not find's result).
        rank: c.type ? 3 : c.destructured || c.element ? 2 : c.value || c.callee ? 1 : 0,
        ...(c.value ? { valueEnd: c.value.endIndex } : {}),
      });
    }
  }
  for (const [b, fn, local] of contextual) {
    const type = found.contexts.parameterType(fn, local);
    if (type !== null) found.bindings.push({ ...b, type, rank: 1 });
  }
  return found;
}

/** Records a type parameter (`T` of `Box<T>`) at its position in its declaration's list. */
function addGeneric(generics: Map<number, string[]>, name: Node): void {
  const param = name.parent;
  const decl = param?.parent?.parent;
  if (!param?.parent || !decl) return;
  const i = param.parent.namedChildren.findIndex((n) => n?.id === param.id);
  let names = generics.get(decl.id);
  if (!names) generics.set(decl.id, names = []);
  if (i >= 0) names[i] = name.text;
}

/**
 * Declared types that are a type parameter of the enclosing class, interface or alias are
 * written `%i` (its position): the type argument the member is reached through.
 */
function genericTypes(found: Gathered): void {
  if (found.generics.size === 0) return;
  for (const d of found.declared) {
    if (d.type === null || d.type.startsWith("=")) continue;
    let names: string[] | undefined;
    for (let n = d.name.parent; n && !names; n = n.parent) names = found.generics.get(n.id);
    if (!names) continue;
    d.type = d.type.split(",").map((t) => {
      const i = names!.indexOf(t);
      return i < 0 ? t : `%${i}`;
    }).join(",");
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
      found.declared.push({ name, type: read, assigned: false, slot: LITERAL_KEY });
    }
  }
  // A value assigned from a local (`self.command = command`) is of the local's type there.
  for (const d of found.declared) {
    if (d.assigned && d.type?.startsWith("=")) {
      d.type = readValue(found, locals, d.type, d.name.startIndex);
    }
  }
}

/**
 * A type written as a value chain (`=source.subscribe<=0>`) with its head read where it is
 * used at `pos`: a local of known type gives its type (`Observable .subscribe<=0>`), the
 * enclosing instance `#self`; other chains stay; a local of unknown type gives null.
 */
function readValue(found: Gathered, locals: Locals, type: string, pos: number): string | null {
  if (!type.startsWith("=")) return type;
  const head = CHAIN_HEAD.exec(type.slice(1))?.[0] ?? "";
  const steps = type.slice(1 + head.length);
  const stack = found.scopes.filter((s) => s.start <= pos && pos < s.end);
  const [kind, text] = classifyReceiver(
    { text: head },
    { self: false, typed: false, start: pos },
    stack,
    locals.fileTypes,
    found.selfWords,
  );
  if (text === null || (kind !== "typed" && kind !== "name" && kind !== "self")) return null;
  return kind === "typed"
    ? `${text}${text.includes(" ") || steps === "" ? "" : " "}${steps}`
    : selfHeaded(`=${text}${steps}`, found.selfWords);
}

/** The text of sibling tokens `from` … `to` (a receiver in a macro's token tree: `self . cmd`). */
function tokensText(from: Node, to: Node): string {
  let text = "";
  for (let n: Node | null = from; n && n.startIndex <= to.startIndex; n = n.nextSibling) {
    text += n.text;
  }
  return text;
}

/** Keeps the better-ranked of two candidates for one name node. */
function offer(refs: Map<number, RawRef>, r: RawRef): void {
  const seen = refs.get(r.start);
  if (!seen || r.rank < seen.rank) refs.set(r.start, r);
}

/** An imported name: a reference of kind `import` that beats every pattern. */
function importedName(node: Node): RawRef {
  return {
    start: node.startIndex,
    node,
    kind: "import",
    rank: RANK_IMPORT,
    receiver: null,
    self: false,
    typed: false,
  };
}

/** Adds one match's import captures to the record of its module node. */
function addImport(found: Gathered, moduleNode: Node, c: MatchCaptures): void {
  const key = moduleNode.startIndex;
  let imp = found.imports.get(key);
  if (!imp) {
    imp = {
      module: unquote(moduleNode.text),
      line: moduleNode.startPosition.row + 1,
      kind: "",
      names: [],
      alias: null,
    };
    found.imports.set(key, imp);
  }
  if (c.importKind) imp.kind = c.importKind.text;
  if (c.name) {
    const name = c.name.text;
    const alias = c.alias ? c.alias.text : null;
    if (!imp.names.some((n) => n.name === name && n.alias === alias)) {
      imp.names.push({ name, alias });
    }
    // `default as x`: both name the default export (the alias has its own pattern), as the
    // TypeScript service counts them.
    offer(found.refs, importedName(c.name));
  } else if (c.alias) {
    imp.alias = c.alias.text;
  }
  if (c.default && !imp.names.some((n) => n.name === "default")) {
    imp.names.push({ name: "default", alias: c.default.text });
    offer(found.refs, importedName(c.default));
  }
  if (c.wildcard && !imp.names.some((n) => n.name === "*")) {
    imp.names.push({ name: "*", alias: null });
  }
}

/** Definition names are definitions, whatever pattern also saw them. */
function markDefinitions(refs: Map<number, RawRef>, definitionNames: readonly Node[]): void {
  for (const node of definitionNames) {
    refs.set(node.startIndex, {
      start: node.startIndex,
      node,
      kind: "definition",
      rank: RANK_DEFINITION,
      receiver: null,
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
  refs: ReadonlyMap<number, RawRef>,
  scopes: readonly Scope[],
  locals: Locals,
  symbols: readonly SymbolRecord[],
  scopeAt: (line: number) => number,
  selfWords: ReadonlySet<string>,
): ReferenceRecord[] {
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
    const name = r.node.text;
    if (r.kind !== "definition" && r.kind !== "import") {
      if (locals.sites.has(r.start)) continue;
      if (!r.receiver && lookup(stack, name) !== undefined) {
        // A local bound by a nested definition (`def wrap` in a decorator) is a symbol: kept.
        if (!nested(name, scopeAt(r.node.startPosition.row + 1))) continue;
      }
    }
    const pos = r.node.startPosition;
    const line = pos.row + 1;
    const rec: ReferenceRecord = {
      name,
      line,
      column: pos.column + 1,
      kind: r.kind,
      scope: scopeAt(line),
    };
    if (r.receiver) {
      const [receiverKind, receiverText] = classifyReceiver(
        r.receiverText === undefined ? r.receiver : { text: r.receiverText },
        r,
        stack,
        locals.fileTypes,
        selfWords,
      );
      rec.receiverKind = receiverKind;
      if (receiverText !== null) rec.receiver = receiverText;
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

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2) {
    const q = t[0];
    if ((q === '"' || q === "'" || q === "`") && t[t.length - 1] === q) return t.slice(1, -1);
  }
  return t;
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
