/**
 * `queryMatches` (src/parse/query_matches.ts) reads a query's matches from the runtime's
 * memory: it must give what web-tree-sitter's own `Query.matches` gives — same patterns,
 * captures, nodes (position, type, text) — with text predicates applied, and leave out only
 * the captures the engine does not read.
 */

import assert from "node:assert/strict";
import type { QueryMatch } from "npm:web-tree-sitter@0.25.10";
import { loadGrammar } from "../src/parse/grammars.ts";
import { queryMatches } from "../src/parse/query_matches.ts";

const SOURCES: Record<string, string> = {
  python: `import os.path as p
from collections import OrderedDict, defaultdict as dd

class Cache(OrderedDict):
    """Least recently used."""
    limit: int = 10

    def __init__(self, limit=10, *args, **kw):
        super().__init__(*args, **kw)
        self.limit = limit

    def get(self, key):
        value = self[key]
        self.move_to_end(key)
        return [x * 2 for x in value if x] or dd(list)

def main():
    c = Cache(limit=3)
    print(c.get("k"), p.join("a", "b"))
`,
  typescript: `import { readFile } from "node:fs/promises";
export interface Shape { area(): number }
export class Box<T> implements Shape {
  constructor(private readonly items: T[]) {}
  area(): number { return this.items.length; }
  async load(path: string): Promise<string> { return (await readFile(path)).toString(); }
}
const b = new Box<number>([1, 2]);
console.log(b.area());
`,
  go: `package main

import "fmt"

type T struct{ n int }

func (t *T) Inc() { t.n++ }

func main() {
	t := &T{}
	t.Inc()
	fmt.Println(t.n)
}
`,
};

function shape(matches: QueryMatch[]) {
  return matches.map((m) => ({
    pattern: m.patternIndex,
    captures: m.captures.map((c) => ({
      name: c.name,
      id: c.node.id,
      start: c.node.startIndex,
      end: c.node.endIndex,
      row: c.node.startPosition.row,
      column: c.node.startPosition.column,
      type: c.node.type,
      text: c.node.text,
      parent: c.node.parent?.id ?? null,
    })),
  }));
}

for (const [language, source] of Object.entries(SOURCES)) {
  Deno.test(`queryMatches gives Query.matches' matches (${language})`, async () => {
    const g = await loadGrammar(language);
    const tree = g.parser.parse(source)!;
    try {
      const ours = queryMatches(g.query, tree.rootNode);
      const theirs = g.query.matches(tree.rootNode);
      assert.ok(theirs.length > 10, `the ${language} fixture has matches`);
      assert.deepEqual(shape(ours), shape(theirs));
    } finally {
      tree.delete();
    }
  });

  Deno.test(`queryMatches leaves out only the captures not read (${language})`, async () => {
    const g = await loadGrammar(language);
    const tree = g.parser.parse(source)!;
    try {
      const kept = shape(queryMatches(g.query, tree.rootNode, g.read));
      const all = shape(g.query.matches(tree.rootNode)).map((m) => ({
        ...m,
        captures: m.captures.filter((c) => g.read.has(c.name)),
      }));
      assert.deepEqual(kept, all);
    } finally {
      tree.delete();
    }
  });
}
