/**
 * The first step of reading references: each match of a file's query read by role
 * (`captures.ts`) and gathered into candidate references (the best-ranked per name node),
 * import records, local scopes and bindings, declared and contextual types.
 *
 * @module
 */

import type { Node, QueryMatch } from "npm:web-tree-sitter@0.25.10";
import type { ImportRecord, ReferenceKind } from "../types.ts";
import { type MatchCaptures, readMatch, type RefRole } from "./captures.ts";
import {
  BASE_KEY,
  callbackOwner,
  callbackType,
  Contexts,
  type Declared,
  elementType,
  localType,
  memberType,
  parameterSlot,
  slotOf,
} from "./declared.ts";
import { type Binding, type Scope, typeName, valueType } from "./local_scopes.ts";

export interface RawRef {
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
export interface Gathered {
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

export const RANK_DEFINITION = -2;
const RANK_IMPORT = -1;

/** Collects every match's reference, import, scope and binding. */
export function gather(
  matches: readonly QueryMatch[],
  roles: ReadonlyMap<string, RefRole>,
): Gathered {
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

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2) {
    const q = t[0];
    if ((q === '"' || q === "'" || q === "`") && t[t.length - 1] === q) return t.slice(1, -1);
  }
  return t;
}
