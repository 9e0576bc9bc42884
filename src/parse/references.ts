/**
 * References, imports and local scopes, read from the captures of a file's one query
 * (see the capture table in `parser.ts`). Like the definition engine it knows no
 * language: query files say where names are called, typed, inherited, written, read and
 * imported, which nodes open a local scope and which names a scope binds; this module
 * drops the names that resolve to a local binding, classifies member receivers and
 * groups import captures into statements.
 *
 * @module
 */

import type { Node, QueryMatch } from "web-tree-sitter";
import type {
  ImportRecord,
  ReceiverKind,
  ReferenceKind,
  ReferenceRecord,
  SymbolRecord,
} from "../types.ts";

/** What a reference/import/local capture means. */
export type RefRole =
  | { readonly role: "reference"; readonly kind: ReferenceKind | "ignore" }
  | {
    readonly role:
      | "receiver"
      | "receiver.self"
      | "receiver.type"
      | "import.module"
      | "import.name"
      | "import.alias"
      | "import.kind"
      | "import.default"
      | "import.wildcard"
      | "local.scope"
      | "local.definition"
      | "local.type"
      | "package";
  };

const REF_KINDS: ReadonlySet<string> = new Set([
  "call",
  "import",
  "type",
  "inherit",
  "read",
  "write",
  "ignore",
]);

const PLAIN_ROLES: ReadonlySet<string> = new Set([
  "import.module",
  "import.name",
  "import.alias",
  "import.kind",
  "import.default",
  "import.wildcard",
  "local.scope",
  "local.definition",
  "local.type",
  "package",
]);

/**
 * The role of a capture name, or undefined when it is none of this module's
 * (definitions, `@import` and `_`-prefixed helper captures).
 */
export function refRoleOf(name: string): RefRole | undefined {
  if (name === "reference.receiver") return { role: "receiver" };
  if (name === "reference.receiver.self") return { role: "receiver.self" };
  if (name === "reference.receiver.type") return { role: "receiver.type" };
  if (name.startsWith("reference.")) {
    const kind = name.slice("reference.".length);
    if (!REF_KINDS.has(kind)) throw new Error(`unknown reference kind in capture @${name}`);
    return { role: "reference", kind: kind as ReferenceKind | "ignore" };
  }
  if (PLAIN_ROLES.has(name)) return { role: name } as RefRole;
  return undefined;
}

/** What {@link collectReferences} reads out of one file. */
export interface FileReferences {
  references: ReferenceRecord[];
  imports: ImportRecord[];
  package?: string;
}

interface RawRef {
  start: number;
  node: Node;
  kind: ReferenceKind | "ignore";
  /** Lower wins; definitions and imported names beat every pattern. */
  rank: number;
  receiver: Node | null;
  self: boolean;
  /** The receiver is an instance of the type it names (`Foo.new.bar`, `new Foo().bar()`). */
  typed: boolean;
}

interface Scope {
  start: number;
  end: number;
  node: Node;
  /** Start of the scope's own `name` field (a function's name binds outside it). */
  nameStart?: number;
  /** Local names → their type when the scope shows it. */
  bindings: Map<string, string | null>;
}

interface Binding {
  start: number;
  end: number;
  name: string;
  type: string | null;
}

const RANK_DEFINITION = -2;
const RANK_IMPORT = -1;

/** A name, or a path of names (`os.path`, `crate::a`, `App\Models`, `$this->x`). */
const NAME_PATH = /^[$@]*[\p{L}_][\p{L}\p{N}_]*(?:(?:\.|::|->|\\)[$@]*[\p{L}_][\p{L}\p{N}_]*)*$/u;
const PATH_SEPARATOR = /\.|::|->|\\/;

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
  const refs = new Map<number, RawRef>();
  const imports = new Map<number, ImportRecord>();
  const scopes: Scope[] = [];
  const seenScopes = new Set<number>();
  const bindings: Binding[] = [];
  let pkg: string | undefined;

  const offer = (r: RawRef) => {
    const seen = refs.get(r.start);
    if (!seen || r.rank < seen.rank) refs.set(r.start, r);
  };

  for (const match of matches) {
    let refNode: Node | null = null;
    let refKind: ReferenceKind | "ignore" = "read";
    let receiver: Node | null = null;
    let self = false;
    let typed = false;
    let moduleNode: Node | null = null;
    let nameNode: Node | null = null;
    let aliasNode: Node | null = null;
    let kindNode: Node | null = null;
    let defaultNode: Node | null = null;
    let wildcard = false;
    let scopeNode: Node | null = null;
    let localNode: Node | null = null;
    let typeNode: Node | null = null;
    for (const capture of match.captures) {
      const role = roles.get(capture.name);
      if (!role) continue;
      const node = capture.node;
      switch (role.role) {
        case "reference":
          refNode = node;
          refKind = role.kind;
          break;
        case "receiver":
          receiver ??= node;
          break;
        case "receiver.self":
          receiver = node;
          self = true;
          break;
        case "receiver.type":
          receiver = node;
          typed = true;
          break;
        case "import.module":
          moduleNode ??= node;
          break;
        case "import.name":
          nameNode ??= node;
          break;
        case "import.alias":
          aliasNode ??= node;
          break;
        case "import.kind":
          kindNode ??= node;
          break;
        case "import.default":
          defaultNode ??= node;
          break;
        case "import.wildcard":
          wildcard = true;
          break;
        case "local.scope":
          scopeNode ??= node;
          break;
        case "local.definition":
          localNode ??= node;
          break;
        case "local.type":
          typeNode ??= node;
          break;
        case "package":
          pkg ??= node.text;
          break;
      }
    }
    if (refNode) {
      offer({
        start: refNode.startIndex,
        node: refNode,
        kind: refKind,
        rank: match.patternIndex,
        receiver,
        self,
        typed,
      });
    }
    if (moduleNode) {
      const key = moduleNode.startIndex;
      let imp = imports.get(key);
      if (!imp) {
        imp = {
          module: unquote(moduleNode.text),
          line: moduleNode.startPosition.row + 1,
          kind: "",
          names: [],
          alias: null,
        };
        imports.set(key, imp);
      }
      if (kindNode) imp.kind = kindNode.text;
      if (nameNode) {
        const name = nameNode.text;
        const alias = aliasNode ? aliasNode.text : null;
        if (!imp.names.some((n) => n.name === name && n.alias === alias)) {
          imp.names.push({ name, alias });
        }
        offer({
          start: nameNode.startIndex,
          node: nameNode,
          kind: "import",
          rank: RANK_IMPORT,
          receiver: null,
          self: false,
          typed: false,
        });
      } else if (aliasNode) {
        imp.alias = aliasNode.text;
      }
      if (defaultNode && !imp.names.some((n) => n.name === "default")) {
        imp.names.push({ name: "default", alias: defaultNode.text });
        offer({
          start: defaultNode.startIndex,
          node: defaultNode,
          kind: "import",
          rank: RANK_IMPORT,
          receiver: null,
          self: false,
          typed: false,
        });
      }
      if (wildcard && !imp.names.some((n) => n.name === "*")) {
        imp.names.push({ name: "*", alias: null });
      }
    }
    if (scopeNode && !seenScopes.has(scopeNode.id)) {
      seenScopes.add(scopeNode.id);
      scopes.push({
        start: scopeNode.startIndex,
        end: scopeNode.endIndex,
        node: scopeNode,
        bindings: new Map(),
      });
    }
    if (localNode) {
      bindings.push({
        start: localNode.startIndex,
        end: localNode.endIndex,
        name: localNode.text,
        type: typeNode ? typeName(typeNode.text) : null,
      });
    }
  }

  // Definition names are definitions, whatever pattern also saw them.
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

  scopes.sort((a, b) => a.start - b.start || b.end - a.end);
  const localSites = bindScopes(scopes, bindings);
  const fileTypes = new Map<string, string>();
  for (const b of bindings) {
    if (!localSites.has(b.start) && b.type) fileTypes.set(b.name, b.type);
  }

  const ordered = [...refs.values()].sort((a, b) => a.start - b.start);
  const scopeAt = enclosingSymbols(symbols);
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
      if (localSites.has(r.start)) continue;
      if (!r.receiver && lookup(stack, name) !== undefined) continue;
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
      const [receiverKind, receiverText] = classifyReceiver(r, stack, fileTypes);
      rec.receiverKind = receiverKind;
      if (receiverText !== null) rec.receiver = receiverText;
    }
    out.push(rec);
  }
  const importList = [...imports.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  return { references: out, imports: importList, ...(pkg ? { package: pkg } : {}) };
}

/** Pops scopes that end at or before `pos`. */
function popEnded(stack: Scope[], pos: number): void {
  while (stack.length > 0 && stack[stack.length - 1].end < pos) stack.pop();
}

/** The binding of `name` in the innermost scope of `stack` that has one. */
function lookup(stack: readonly Scope[], name: string): string | null | undefined {
  for (let i = stack.length - 1; i >= 0; i--) {
    const b = stack[i].bindings;
    if (b.has(name)) return b.get(name);
  }
  return undefined;
}

/**
 * Puts each binding in the innermost scope that holds it, except that a scope's own name
 * (`def helper` inside a function) binds in the scope around it. Returns the start
 * offsets of the bindings that are local (inside some scope).
 */
function bindScopes(scopes: readonly Scope[], bindings: Binding[]): Set<number> {
  const local = new Set<number>();
  bindings.sort((a, b) => a.start - b.start);
  const stack: Scope[] = [];
  let next = 0;
  for (const b of bindings) {
    while (next < scopes.length && scopes[next].start <= b.start) {
      popEnded(stack, scopes[next].start + 1);
      stack.push(scopes[next++]);
    }
    while (stack.length > 0 && stack[stack.length - 1].end < b.end) stack.pop();
    let i = stack.length - 1;
    if (i >= 0) {
      const top = stack[i];
      top.nameStart ??= top.node.childForFieldName("name")?.startIndex ?? -1;
      if (top.nameStart === b.start) i--;
    }
    if (i < 0) continue;
    const scope = stack[i];
    const had = scope.bindings.get(b.name);
    scope.bindings.set(b.name, b.type ?? had ?? null);
    local.add(b.start);
  }
  return local;
}

function classifyReceiver(
  r: RawRef,
  stack: readonly Scope[],
  fileTypes: ReadonlyMap<string, string>,
): [ReceiverKind, string | null] {
  const text = r.receiver!.text;
  if (r.self) return ["self", text];
  if (r.typed) return ["typed", typeName(text)];
  if (!NAME_PATH.test(text)) return ["expr", null];
  const first = text.split(PATH_SEPARATOR, 1)[0];
  const whole = first === text;
  const bound = lookup(stack, first);
  if (bound !== undefined) {
    if (!whole) return ["expr", null];
    return bound ? ["typed", bound] : ["local", text];
  }
  const fileType = whole ? fileTypes.get(first) : undefined;
  if (fileType) return ["typed", fileType];
  return ["name", text];
}

/** `Foo<Bar>` → `Foo`; `pkg.Foo` stays as is. */
function typeName(text: string): string {
  const cut = text.search(/[<[({\s]/);
  return (cut > 0 ? text.slice(0, cut) : text).replace(/^[*&]+/, "");
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
