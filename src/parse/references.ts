/**
 * A file's references, the last step of reading them (the steps are in `parser.ts`): what
 * `gather.ts` collected from the query's captures, in file order, with the names that
 * resolve to a local binding dropped (`scopes.ts`), member receivers classified (`infer/`)
 * and each reference's enclosing symbol. Like the definition engine it knows no language:
 * query files say where names are called, typed, inherited, written, read and imported.
 *
 * @module
 */

import type { ReferenceRecord } from "../facts/records.ts";
import type { SymbolRecord } from "../types.ts";
import type { Gathered } from "./gather.ts";
import { classifyReceiver } from "./infer/mod.ts";
import { type Locals, lookup, popEnded, type Scope } from "./scopes.ts";
import type { FileMatches } from "./matches.ts";

/**
 * The references in file order, walking the (sorted) scopes alongside: names bound
 * locally are dropped, receivers classified, and each reference gets its enclosing symbol.
 */
export function emitReferences(
  matches: FileMatches,
  { refs, scopes, selfWords }: Gathered,
  locals: Locals,
  symbols: readonly SymbolRecord[],
  scopeAt: (line: number) => number,
): ReferenceRecord[] {
  const data = matches.data;
  const ordered = [...refs.values()].sort((a, b) => a.start - b.start);
  const nested = nestedDefinitions(symbols);
  // Symbols with no parent: a function declared in an anonymous scope is one (a member of an
  // object literal, `{ read: () => read() }`, has its parent and does not bind `read` there).
  const lines = new Map<string, number[]>();
  for (const s of symbols) {
    if (s.parent === null) lines.set(s.name, [...(lines.get(s.name) ?? []), s.line]);
  }
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
        if (!nested(name, scopeAt(row + 1)) && !definedIn(stack, name, lines)) continue;
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
 * Whether the innermost scope of `stack` that binds `name` holds a symbol of that name
 * (`lines`: the lines each name is defined at): a
 * function declared in an anonymous one (`module.exports = function () { function f() {} }`,
 * `create((subscriber) => { function attempt() {} … })`) is a symbol with no parent, and its
 * name a local of the anonymous scope.
 */
function definedIn(stack: readonly Scope[], name: string, lines: Map<string, number[]>) {
  const at = lines.get(name);
  if (!at) return false;
  for (let i = stack.length - 1; i >= 0; i--) {
    if (!stack[i].bindings.has(name)) continue;
    const from = stack[i].node.startPosition.row + 1;
    const to = stack[i].node.endPosition.row + 1;
    return at.some((l) => l >= from && l <= to);
  }
  return false;
}
