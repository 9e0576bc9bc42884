/**
 * Facts for security rules: what a file calls, imports, assigns and spells as literals,
 * read from the captures of its `rules/<lang>.scm` query. Rules (`rules/table.ts`) test
 * facts; they never see the tree.
 *
 * The shapes are shared by every language; the few places where a language's tree must
 * be read (a Python keyword argument, a Go composite literal) live in `facts_<family>.ts`.
 *
 * @module
 */

import type { Node, Query, QueryMatch, QueryPredicate } from "npm:web-tree-sitter@0.25.10";
import { ParentFinder } from "./tree_walk.ts";

/** A literal or expression as rules see it. */
export type Value =
  | { kind: "str"; value: string; bytes: boolean; line: number }
  /** A string built with interpolation (f-string, template literal with `${}`). */
  | { kind: "fstr"; value: string; line: number }
  | { kind: "num"; value: number; line: number }
  /** `True`/`False`/`None` (JS `true`/`false`/`null`/`undefined` spelled the Python way). */
  | { kind: "const"; value: "True" | "False" | "None"; line: number }
  | { kind: "name"; value: string; line: number }
  /** `a.b.c`: `value` is the last name, `qualname` the dotted path. */
  | { kind: "attr"; value: string; qualname: string; line: number }
  | { kind: "list"; items: Value[]; line: number }
  | { kind: "dict"; entries: Array<{ key: Value; value: Value }>; line: number }
  | { kind: "call"; qualname: string; line: number }
  /** String concatenation or formatting (`"a" + b`, `"%s" % x`, `fmt.Sprintf`). */
  | { kind: "concat"; parts: Value[]; line: number }
  | { kind: "other"; line: number };

/** A number literal's value (`_` separators dropped); text `Number` cannot read is `other`. */
export function numberValue(text: string, line: number): Value {
  const v = Number(text.replace(/_/g, ""));
  return Number.isNaN(v) ? { kind: "other", line } : { kind: "num", value: v, line };
}

/** A keyword argument (Python) or an options property (`{rejectUnauthorized: false}`). */
export interface Keyword {
  name: string | null;
  value: Value;
}

/** A call (or `new`). */
export interface CallFact {
  kind: "call";
  line: number;
  /** Dotted callee with import aliases resolved (`subprocess.Popen`); "" when not dotted. */
  qualname: string;
  /** Last part of the callee. */
  name: string;
  args: Value[];
  keywords: Keyword[];
  /** `new X()`. */
  isNew: boolean;
  /** Keyword arguments of this call and of every call inside it (jinja2's check walks). */
  readonly nestedKeywords: Keyword[];
  /** Names the result feeds (the variable or property assigned, the enclosing function). */
  context: string;
  node: Node;
}

/** An import statement (one fact per imported name). */
export interface ImportFact {
  kind: "import";
  line: number;
  /** `import a.b` → module `a.b`; `from a import b` → module `a`, name `b`. */
  module: string;
  names: Array<{ name: string; alias: string | null }>;
  from: boolean;
}

/** A string literal that is not a docstring, with what surrounds it. */
export interface StringFact {
  kind: "string";
  line: number;
  value: string;
  /** Names the string is assigned to (`password = "…"`, `self.token = "…"`). */
  assignedTo: string[];
  /** The string is a subscript key in an assignment of a string: `d["password"] = "…"`. */
  keyOfStringAssignment: string | null;
  /** Left name of a comparison whose first comparator is the string. */
  comparedWith: string | null;
  /** When the string is part of a query being built: the text and the call it feeds. */
  built: { text: string; callee: string } | null;
}

/** `assert`. */
export interface AssertFact {
  kind: "assert";
  line: number;
}

/** An exception handler. */
export interface ExceptFact {
  kind: "except";
  line: number;
  /** The caught type when it is a plain name; "" for a bare handler; null otherwise. */
  caught: string | null;
  /** The single statement of the body (`pass`, `continue`), or null when there are more. */
  only: string | null;
}

/** A function definition. */
export interface FunctionFact {
  kind: "function";
  line: number;
  name: string;
  /** Positional parameters with a default. */
  defaults: Array<{ param: string; value: Value; qualname: string }>;
}

/** An assignment to a property or a keyed value: `el.innerHTML = x`, `{k: v}`, JSX attrs. */
export interface AssignFact {
  kind: "assign";
  line: number;
  /** The property or key name. */
  name: string;
  /** The object's dotted name, "" when unknown (object literals). */
  target: string;
  value: Value;
}

/** Any fact. */
export type Fact =
  | CallFact
  | ImportFact
  | StringFact
  | AssertFact
  | ExceptFact
  | FunctionFact
  | AssignFact;

/** Everything rules may ask about one file. */
export interface FileFacts {
  facts: Fact[];
  /** Every module imported (`import a.b` → `a.b`; `from a import b` → `a.b`). */
  imports: Set<string>;
  /** Lines carrying `# nosec` (Python) or an equivalent marker. */
  nosec: Set<number>;
}

/** 1-based line of a node. */
export function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

/**
 * Bandit's view of a literal: strings and numbers as themselves, names as their id,
 * attributes as their last name, constants as `"True"`/`"False"`/`"None"`, lists as
 * arrays; null for anything else.
 */
export type Literal = string | number | Literal[] | null;

/** The literal of a value (bandit's `_get_literal_value`, attributes by name). */
export function literal(v: Value): Literal {
  switch (v.kind) {
    case "str":
    case "num":
    case "const":
    case "name":
    case "attr":
      return v.value;
    case "list":
      return v.items.map(literal);
    default:
      return null;
  }
}

/**
 * The `fact.*` captures of an analysis query's matches, in source order, keeping only
 * matches that pass the custom predicates a rules query may use:
 * `(#not-parent? @capture type …)`. Captures named `_…` are helpers and left out.
 */
export function factCaptures(
  g: { analysis: Query },
  matches: readonly QueryMatch[],
): Array<{ name: string; node: Node }> {
  const kept = matches.filter((m) => m.captures.some((c) => c.name.startsWith("fact.")));
  const byPattern = new Map<number, NotParent[]>();
  const rulesOf = (m: QueryMatch) => {
    let r = byPattern.get(m.patternIndex);
    if (!r) {
      byPattern.set(m.patternIndex, r = notParent(g.analysis.predicatesForPattern(m.patternIndex)));
    }
    return r;
  };
  const parents = parentTypes(kept, rulesOf);
  const out: Array<{ name: string; node: Node }> = [];
  for (const m of kept) {
    if (!passesPredicates(rulesOf(m), m.captures, parents)) continue;
    for (const c of m.captures) if (c.name.startsWith("fact.")) out.push(c);
  }
  out.sort((a, b) => a.node.startIndex - b.node.startIndex);
  return out;
}

/** A `not-parent?` predicate: the capture it tests and the parent types it refuses. */
type NotParent = [string, Set<string>];

/** The `not-parent?` predicates of a pattern. */
function notParent(predicates: ReadonlyArray<QueryPredicate>): NotParent[] {
  const out: NotParent[] = [];
  for (const p of predicates) {
    if (p.operator !== "not-parent?") continue;
    const first = p.operands[0];
    const capName = first && "name" in first ? first.name : undefined;
    if (capName === undefined) continue;
    out.push([
      capName,
      new Set(p.operands.slice(1).map((o) => ("value" in o ? String(o.value) : ""))),
    ]);
  }
  return out;
}

/**
 * The parent type of every node a `not-parent?` predicate tests, by node id: asked in
 * source order of one cursor, as a per-node `parent` costs the node's depth.
 */
function parentTypes(
  matches: readonly QueryMatch[],
  rulesOf: (m: QueryMatch) => NotParent[],
): Map<number, string> {
  const tested: Node[] = [];
  for (const m of matches) {
    const names = new Set(rulesOf(m).map(([n]) => n));
    for (const c of m.captures) if (names.has(c.name)) tested.push(c.node);
  }
  const types = new Map<number, string>();
  if (!tested.length) return types;
  tested.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const finder = new ParentFinder(tested[0].tree.rootNode);
  try {
    for (const n of tested) types.set(n.id, finder.parentOf(n)?.type ?? "");
  } finally {
    finder.close();
  }
  return types;
}

function passesPredicates(
  rules: readonly NotParent[],
  captures: ReadonlyArray<{ name: string; node: Node }>,
  parents: ReadonlyMap<number, string>,
): boolean {
  for (const [capName, types] of rules) {
    for (const c of captures) {
      if (c.name !== capName) continue;
      if (types.has(parents.get(c.node.id) ?? "")) return false;
    }
  }
  return true;
}
