/**
 * The first step of reading references: each match of a file's query read by role
 * (`captures.ts`) and gathered into candidate references (the best-ranked per name node),
 * import records and local scopes, and the nodes types are read from — names bound, names
 * declared, values that stand where a type is known (`infer/` reads their types).
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { ImportRecord, ReferenceKind } from "../types.ts";
import { emptyCaptures, readMatch, type RefRole } from "./captures.ts";
import type { Binding, Scope } from "./scopes.ts";
import { CAPTURE_INTS, type FileMatches, lastRow } from "./matches.ts";

export interface RawRef {
  start: number;
  /** The name's capture (its offset in `FileMatches.data`), or -1 with `node` set. */
  at: number;
  /** The name's node when it comes from elsewhere than a capture (a definition's name). */
  node: Node | null;
  kind: ReferenceKind | "ignore";
  /** Lower wins; definitions and imported names beat every pattern. */
  rank: number;
  /** The receiver's capture, or -1. */
  receiver: number;
  /** The receiver's text when it spans several tokens of a macro's token tree (`self . cmd`). */
  receiverText?: string;
  self: boolean;
  /** The receiver is an instance of the type it names (`Foo.new.bar`, `new Foo().bar()`). */
  typed: boolean;
}

/**
 * A name a scope binds (`@local.definition`) and what its type is read from: a type written
 * (`@local.type`), a value bound, a destructured object, the function a callback is passed
 * to, a sequence whose elements it takes, or the function whose type comes from where it
 * stands (`@local.contextual`).
 */
export interface LocalCapture {
  start: number;
  end: number;
  name: string;
  local: Node;
  type: Node | null;
  value: Node | null;
  destructured: Node | null;
  callee: Node | null;
  element: Node | null;
  contextual: Node | null;
  /** Filled by a framework with what the function of its name gives (`@local.injected`). */
  injected: boolean;
}

/**
 * A declaration whose type is written or assigned (`@declared.*`): the name (or the
 * callback parameter and the argument it is), its type or value; or a base named with type
 * arguments.
 */
export interface DeclaredCapture {
  name: Node | null;
  parameter: Node | null;
  argument: Node | null;
  type: Node | null;
  value: Node | null;
  base: Node | null;
  arguments: Node | null;
}

/** A value whose type comes from where it stands (see `MatchCaptures.declContext`). */
export interface ContextCapture {
  node: Node;
  type: Node | null;
  holder: Node | null;
  member: Node | null;
  callee: Node | null;
}

/** What a file's matches hold before local names are resolved. */
export interface Gathered {
  /** One candidate reference per name node (by start offset): the best-ranked one. */
  refs: Map<number, RawRef>;
  /** One import record per module node (by start offset). */
  imports: Map<number, ImportRecord>;
  scopes: Scope[];
  /** Names the scopes bind, in match order. */
  locals: LocalCapture[];
  /** Names a scope declares bound outside it (`global x`). */
  outer: Binding[];
  /** Declarations with a type written or assigned, in match order. */
  declared: DeclaredCapture[];
  /** The texts that name the enclosing instance (`this`, `self`, `super`): heads of receiver chains. */
  selfWords: Set<string>;
  /** Values whose types come from where they stand (contextual typing). */
  contexts: ContextCapture[];
  /** Members of object literals: the member's name and the literal. */
  literals: [Node, Node][];
  /** Type parameters by the node of the class, interface or alias that declares them. */
  generics: Map<number, string[]>;
  package?: string;
  /** The first and last line of each import statement (`@import.statement`), pair by pair. */
  importLines: number[];
}

const RANK_DEFINITION = -2;
const RANK_IMPORT = -1;

/**
 * Collects every match's reference, import, scope and binding; `definitionNames` (the name
 * nodes of definitions) are references of kind `definition` whatever else captures them.
 */
export function gather(
  matches: FileMatches,
  roleAt: readonly (RefRole | undefined)[],
  definitionNames: readonly Node[],
): Gathered {
  const found: Gathered = {
    refs: new Map(),
    imports: new Map(),
    importLines: [],
    scopes: [],
    locals: [],
    outer: [],
    declared: [],
    selfWords: new Set(),
    contexts: [],
    literals: [],
    generics: new Map(),
  };
  const seenScopes = new Set<number>();
  // Read in the loop, recorded after it: type parameters and import statements.
  const generics: Node[] = [];
  const imports: ImportCapture[] = [];
  const data = matches.data;
  const node = (c: number) => c < 0 ? null : matches.node(c);
  const c = emptyCaptures();
  for (let at = 0; at < data.length; at += 2 + data[at + 1] * CAPTURE_INTS) {
    if (data[at] < 0) continue;
    readMatch(data, at, roleAt, c);
    if (c.statement >= 0) {
      found.importLines.push(data[c.statement + 3] + 1, lastRow(matches.node(c.statement)) + 1);
    }
    if (c.package >= 0) found.package ??= matches.text(c.package);
    if (c.self && c.receiver >= 0 && matches.end(c.receiver) - data[c.receiver + 2] <= 8) {
      found.selfWords.add(matches.text(c.receiver));
    }
    if (c.declParameter >= 0 || c.declName >= 0 || c.declBase >= 0) {
      found.declared.push({
        name: node(c.declName),
        parameter: node(c.declParameter),
        argument: node(c.declArgument),
        type: node(c.declType),
        value: node(c.declValue),
        base: node(c.declBase),
        arguments: node(c.declArguments),
      });
    }
    if (c.declContext >= 0) {
      found.contexts.push({
        node: matches.node(c.declContext),
        type: node(c.declType),
        holder: node(c.declHolder),
        member: node(c.declMember),
        callee: node(c.declCallee),
      });
    }
    if (c.declLiteral >= 0 && c.declHolder >= 0) {
      found.literals.push([matches.node(c.declLiteral), matches.node(c.declHolder)]);
    }
    if (c.declGeneric >= 0) generics.push(matches.node(c.declGeneric));
    if (c.ref >= 0) {
      const start = data[c.ref + 2];
      const seen = found.refs.get(start);
      if (!seen || data[at] < seen.rank) {
        found.refs.set(start, {
          start,
          at: c.ref,
          node: null,
          kind: c.refKind,
          rank: data[at],
          receiver: c.receiver,
          ...(c.receiver >= 0 && c.receiverTail >= 0
            ? { receiverText: matches.tokensText(c.receiver, c.receiverTail) }
            : {}),
          self: c.self,
          typed: c.typed,
        });
      }
    }
    if (c.module >= 0) {
      imports.push({
        key: data[c.module + 2],
        module: matches.text(c.module),
        line: data[c.module + 3] + 1,
        kind: c.importKind >= 0 ? matches.text(c.importKind) : null,
        name: c.name >= 0 ? [matches.text(c.name), c.name, data[c.name + 2]] : null,
        alias: c.alias >= 0 ? matches.text(c.alias) : null,
        default: c.default >= 0 ? [matches.text(c.default), c.default, data[c.default + 2]] : null,
        wildcard: c.wildcard,
      });
    }
    if (c.scope >= 0 && !seenScopes.has(data[c.scope + 1])) {
      seenScopes.add(data[c.scope + 1]);
      found.scopes.push({
        start: data[c.scope + 2],
        end: matches.end(c.scope),
        node: matches.node(c.scope),
        bindings: new Map(),
      });
    }
    if (c.outer >= 0) {
      const o = c.outer;
      found.outer.push({
        start: data[o + 2],
        end: matches.end(o),
        name: matches.text(o),
        type: null,
      });
    }
    if (c.local >= 0) {
      // A match that captures a scope too binds the name in that scope (Go's type switch
      // case: `case T:` makes the switch's `s` a T there).
      const where = c.scope >= 0 ? c.scope : c.local;
      found.locals.push({
        start: data[where + 2],
        end: matches.end(where),
        name: matches.text(c.local),
        local: matches.node(c.local),
        type: node(c.type),
        value: node(c.value),
        destructured: node(c.destructured),
        callee: node(c.callee),
        element: node(c.element),
        contextual: node(c.contextual),
        injected: c.injected >= 0,
      });
    }
  }
  for (const name of generics) addGeneric(found.generics, name);
  for (const i of imports) addImport(found, i);
  found.importLines = outermostSpans(found.importLines);
  markDefinitions(found.refs, definitionNames);
  return found;
}

/**
 * Line spans (first, last, pair by pair) in line order, each once, and none inside another: two
 * patterns may capture one statement, or a statement and a part of it.
 */
function outermostSpans(pairs: number[]): number[] {
  const spans: [number, number][] = [];
  for (let i = 0; i < pairs.length; i += 2) spans.push([pairs[i], pairs[i + 1]]);
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: number[] = [];
  for (const [first, last] of spans) {
    if (out.length > 0 && last <= out[out.length - 1]) continue;
    out.push(first, last);
  }
  return out;
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

/** Keeps the better-ranked of two candidates for one name node. */
function offer(refs: Map<number, RawRef>, r: RawRef): void {
  const seen = refs.get(r.start);
  if (!seen || r.rank < seen.rank) refs.set(r.start, r);
}

/** An imported name at `start`: a reference of kind `import` that beats every pattern. */
function importedName(start: number, at: number): RawRef {
  return {
    start,
    at,
    node: null,
    kind: "import",
    rank: RANK_IMPORT,
    receiver: -1,
    self: false,
    typed: false,
  };
}

/** One match's import captures, read: the module's offset and line, the texts, the names' captures. */
interface ImportCapture {
  key: number;
  module: string;
  line: number;
  kind: string | null;
  /** The name imported, its capture and offset. */
  name: [string, number, number] | null;
  alias: string | null;
  /** The local name of a default import, its capture and offset. */
  default: [string, number, number] | null;
  wildcard: boolean;
}

/** Adds one match's import captures to the record of its module node. */
function addImport(found: Gathered, c: ImportCapture): void {
  let imp = found.imports.get(c.key);
  if (!imp) {
    imp = { module: unquote(c.module), line: c.line, kind: "", names: [], alias: null };
    found.imports.set(c.key, imp);
  }
  if (c.kind !== null) imp.kind = c.kind;
  if (c.name) {
    const [name, at, start] = c.name;
    const alias = c.alias;
    if (!imp.names.some((n) => n.name === name && n.alias === alias)) {
      imp.names.push({ name, alias });
    }
    // `default as x`: both name the default export (the alias has its own pattern), as the
    // TypeScript service counts them.
    offer(found.refs, importedName(start, at));
  } else if (c.alias !== null) {
    imp.alias = c.alias;
  }
  if (c.default && !imp.names.some((n) => n.name === "default")) {
    const [alias, at, start] = c.default;
    imp.names.push({ name: "default", alias });
    offer(found.refs, importedName(start, at));
  }
  if (c.wildcard && !imp.names.some((n) => n.name === "*")) {
    imp.names.push({ name: "*", alias: null });
  }
}

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2) {
    const q = t[0];
    if ((q === '"' || q === "'" || q === "`") && t[t.length - 1] === q) return t.slice(1, -1);
  }
  return t;
}
