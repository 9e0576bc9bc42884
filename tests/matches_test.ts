/**
 * `FileMatches` (src/parse/matches.ts) reads a file's query matches as numbers from the
 * runtime's memory: it must hold what web-tree-sitter's own `Query.matches` gives — the same
 * matches in the same order (text predicates applied), the same captures, and for each the
 * same node (id, start, end, position, text, and the node made on demand walks the same tree).
 */

import assert from "node:assert/strict";
import type { Node, QueryMatch } from "npm:web-tree-sitter@0.25.10";
import { loadGrammar } from "../src/parse/grammars.ts";
import { CAPTURE_INTS, FileMatches } from "../src/parse/matches.ts";

const SOURCES: Record<string, string> = {
  // Syntax errors: captured nodes that hold an ERROR or a MISSING node.
  "python, broken": "x = foo.\nclass A(:\n  pass\nfor in y:\n  pass\n",
  "typescript, broken": "const x = ;\nlet y: = 3;\nfoo.(1);\nclass { m() {} }\n",
  "go, broken": "package main\nfunc () {}\nfunc f() { x := ; y. }\n",
  // `self.`/`cls.` patterns carry `#match?`, which rejects `c.get` and `p.join`; the
  // non-ASCII text before names puts UTF-16 columns apart from byte columns.
  python: `import os.path as p
from collections import OrderedDict, defaultdict as dd
__all__ = ["Cache", "main"]

class Cache(OrderedDict):
    """Least recently used — «cache»."""
    limit: int = 10

    def __init__(self, limit=10, *args, **kw):
        super().__init__(*args, **kw)
        self.limit = limit

    def get(self, key):
        value = self[key]; naïve = "é"; self.move_to_end(key)
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
const b = new Box<number>([1, 2]); const ü = "ß"; console.log(b.area(), ü);
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

interface Shape {
  pattern: number;
  captures: {
    name: string;
    id: number;
    start: number;
    end: number;
    row: number;
    column: number;
    text: string;
    type: string;
    parent: number | null;
  }[];
}

function nodeShape(name: string, node: Node) {
  return {
    name,
    id: node.id,
    start: node.startIndex,
    end: node.endIndex,
    row: node.startPosition.row,
    column: node.startPosition.column,
    text: node.text,
    type: node.type,
    parent: node.parent?.id ?? null,
  };
}

function theirShape(matches: QueryMatch[]): Shape[] {
  return matches.map((m) => ({
    pattern: m.patternIndex,
    captures: m.captures.map((c) => nodeShape(c.name, c.node)),
  }));
}

function ourShape(matches: FileMatches): Shape[] {
  const out: Shape[] = [];
  const data = matches.data;
  for (let at = 0; at < data.length; at += 2 + data[at + 1] * CAPTURE_INTS) {
    if (data[at] < 0) continue;
    const captures = [];
    for (let i = 0, c = at + 2; i < data[at + 1]; i++, c += CAPTURE_INTS) {
      const node = matches.node(c);
      // The numbers read without a node agree with the node made on demand.
      assert.equal(data[c + 2], node.startIndex);
      assert.equal(matches.end(c), node.endIndex);
      assert.equal(matches.text(c), node.text);
      captures.push(nodeShape(matches.names[data[c]], node));
    }
    out.push({ pattern: data[at], captures });
  }
  return out;
}

for (const [fixture, source] of Object.entries(SOURCES)) {
  const language = fixture.split(",")[0];
  Deno.test(`FileMatches holds Query.matches' matches (${fixture})`, async () => {
    const g = await loadGrammar(language);
    const tree = g.parser.parse(source)!;
    try {
      const ours = FileMatches.of(g.query, tree, source);
      const theirs = g.query.matches(tree.rootNode);
      assert.ok(theirs.length > (fixture.endsWith("broken") ? 3 : 10), `${fixture} has matches`);
      if (fixture.endsWith("broken")) {
        assert.ok(
          theirs.some((m) => m.captures.some((c) => c.node.hasError || c.node.isMissing)),
          `${fixture} captures a node with a syntax error`,
        );
      }
      assert.deepEqual(ourShape(ours), theirShape(theirs));
      if (fixture === "python") {
        let dropped = 0;
        for (let at = 0; at < ours.data.length; at += 2 + ours.data[at + 1] * CAPTURE_INTS) {
          if (ours.data[at] < 0) dropped++;
        }
        assert.ok(dropped > 0, "a text predicate dropped a match (`c.get` is no `self.`)");
      }
    } finally {
      tree.delete();
    }
  });
}
