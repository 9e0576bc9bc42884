/**
 * The resolver over a large index: narrowing to a folder (`search_symbols` path_prefix, a
 * `file` that is a folder) gathers that folder's files' symbols, and never asks for every
 * symbol of the index (a loaded kernel index makes 3 M records on that first touch).
 */

import assert from "node:assert/strict";
import { resolveMatches, SymbolTable } from "../src/graph/lookup.ts";
import type { SymbolRecord } from "../src/types.ts";

function sym(file: string, name: string, line: number): SymbolRecord {
  return {
    name,
    qualifiedName: name,
    kind: "function",
    file,
    line,
    startLine: line,
    endLine: line + 2,
    signature: `def ${name}()`,
    doc: "",
    parent: null,
    language: "python",
  };
}

const byFile = new Map<string, SymbolRecord[]>([
  ["drivers/net/a.py", [sym("drivers/net/a.py", "send", 1), sym("drivers/net/a.py", "recv", 5)]],
  ["drivers/net/b.py", [sym("drivers/net/b.py", "send", 3)]],
  ["drivers/netfilter/c.py", [sym("drivers/netfilter/c.py", "send", 1)]],
  ["fs/d.py", [sym("fs/d.py", "send", 2)]],
]);
const files = new Set([...byFile.keys(), "drivers/net/empty.py", "docs/readme.md"]);

/** A source whose list of every symbol may not be touched (as a loaded index, it answers by name). */
const table = new SymbolTable({
  get symbols(): readonly SymbolRecord[] {
    throw new Error("every symbol was made");
  },
  symbolsByFile: byFile,
  files,
  symbolsBy: (field, _keyName, key, value) =>
    [...byFile.values()].flat().filter((s) => key(s[field]) === value),
});

Deno.test("a folder's symbols come from its files, not from every symbol", () => {
  assert.deepEqual(
    table.symbolsIn("drivers/net")?.map((s) => `${s.file}:${s.name}`),
    ["drivers/net/a.py:send", "drivers/net/a.py:recv", "drivers/net/b.py:send"],
  );
  assert.deepEqual(table.symbolsIn("fs/d.py")?.map((s) => s.name), ["send"]);
  // A file without symbols is known (an empty list); an unknown path is not.
  assert.deepEqual(table.symbolsIn("drivers/net/empty.py"), []);
  assert.deepEqual(table.symbolsIn("docs/readme.md"), []);
  assert.equal(table.symbolsIn("drivers/ne"), null);
  assert.equal(table.symbolsIn("nowhere"), null);
});

Deno.test("resolving a name inside a folder keeps to that folder", () => {
  const found = resolveMatches(table, "send", { file: "drivers/net" }).map((s) => s.file);
  assert.deepEqual(found.sort(), ["drivers/net/a.py", "drivers/net/b.py"]);
});
