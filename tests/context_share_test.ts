/**
 * The context view reads one symbol's share of the code graph (issue 34): a symbol's uses
 * are resolved from the references that name it and its own file's, not from every
 * reference of the project, with the same answers as a scan of every reference.
 */

import assert from "node:assert/strict";
import { graphFor, type Use } from "../src/context/graph.ts";
import { symbolRanks } from "../src/context/rank.ts";
import { refAt, refCount } from "../src/facts/codec.ts";
import { loadGraph } from "../src/graph/graph.ts";
import { namesOf } from "../src/graph/names.ts";
import type { ProjectService } from "../src/service/service.ts";
import type { SymbolRecord } from "../src/types.ts";
import { callTool, cleanup, indexedProject } from "./helpers.ts";

const USES = new Set(["call", "inherit", "type", "read", "write"]);

/** Every use of the project by a scan of every reference: the answer the view must give. */
async function scannedUses(service: ProjectService) {
  const graph = await loadGraph(service.project);
  const names = namesOf(graph);
  const usesOf = new Map<SymbolRecord, string[]>();
  const usedBy = new Map<SymbolRecord, string[]>();
  const add = (m: Map<SymbolRecord, string[]>, k: SymbolRecord, v: string) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  for (const f of graph.files) {
    for (let i = 0; i < refCount(f.part); i++) {
      const r = refAt(f.part, i);
      if (!USES.has(r.kind)) continue;
      const how = names.resolveRefHow(f, i);
      const from = r.scope >= 0 ? f.symbols[r.scope] : null;
      for (const t of how.symbols) {
        if (t === from) continue;
        const line = `${from?.qualifiedName ?? "-"} → ${t.qualifiedName} ${f.path}:${r.line} ${
          r.kind === "call" ? "call" : "use"
        }${how.resolution === "name" ? " (name)" : ""}`;
        add(usesOf, t, line);
        if (from) add(usedBy, from, line);
      }
    }
  }
  return { usesOf, usedBy };
}

const line = (u: Use) =>
  `${u.from?.qualifiedName ?? "-"} → ${u.to.qualifiedName} ${u.file}:${u.line} ${u.kind}${
    u.byNameOnly ? " (name)" : ""
  }`;

Deno.test("context view: a symbol's uses are those a scan of every reference finds", async () => {
  // Callers in other files (one through an alias, one a method, one at top level), callees
  // in other files, a class used as a base and a type, and a method reached through `self`.
  const { root, indexDir, open } = await indexedProject({
    "lib.py": "def greet(name):\n    return helper(name)\n\n" +
      "def helper(x):\n    return x\n\nclass Base:\n    def run(self):\n        return greet('b')\n",
    "app.py": "from lib import greet as hello, Base\n\n" +
      "class App(Base):\n    def start(self):\n        self.run()\n        return hello('a')\n\n" +
      "def wave(b: Base):\n    hello(1)\n    hello(2)\n    return App()\n\nwave(None)\n",
    "cli.py": "import lib\n\nlib.greet('c')\n\ndef main():\n    return lib.helper(3)\n",
  });
  const ex = await open();
  try {
    const service = ex.service as ProjectService;
    const project = service.project;
    const index = await project.index();
    const want = await scannedUses(service);
    const view = await graphFor(project, index);
    let seen = 0;
    for (const s of index.symbols) {
      assert.deepEqual(
        view.usesOf(s).map(line),
        want.usesOf.get(s) ?? [],
        `uses of ${s.qualifiedName}`,
      );
      assert.deepEqual(
        view.usedBy(s).map(line),
        want.usedBy.get(s) ?? [],
        `used by ${s.qualifiedName}`,
      );
      seen += view.usesOf(s).length;
    }
    assert.ok(seen >= 8, `${seen} uses in all`);
    const greet = index.symbols.find((s) => s.qualifiedName === "greet")!;
    assert.deepEqual(view.usesOf(greet).map((u) => `${u.file}:${u.line}`), [
      "app.py:6",
      "app.py:9",
      "app.py:10",
      "cli.py:3",
      "lib.py:9",
    ]);
    // The window shows them: callers in other files, the callee of the body.
    const w = await callTool(ex, "get_context", { symbol_name: "greet", file_path: "lib.py" });
    const sources = (w.sources as { file: string; reason: string }[]).map((s) =>
      `${s.reason} ${s.file}`
    );
    for (const s of ["call site app.py", "call site cli.py", "called by the definition lib.py"]) {
      assert.ok(sources.includes(s), `${s} in ${sources}`);
    }
    // Ranks are by symbol position, whatever way a record was reached.
    const ranks = await symbolRanks(project, index);
    assert.equal(ranks.idOf(greet), index.symbols.indexOf(greet));
    assert.ok(ranks.rank[ranks.idOf(greet)] > 0);
  } finally {
    await ex.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("context view: one symbol's uses resolve the imports of the files that name it, not every file's", async () => {
  // The view resolved every reference of the project (on the stdlib a name index of ~380 MB
  // allocated and a table of every use) before it answered for one symbol. Here 10 files
  // call `greet`, 60 call something else: the 60 are left alone.
  const files: Record<string, string> = {
    "lib.py": "def greet(name):\n    return name\n",
    "other.py": "def thing():\n    return 1\n",
  };
  for (let i = 0; i < 10; i++) files[`pkg/m${i}.py`] = `from lib import greet\ngreet(${i})\n`;
  for (let i = 0; i < 60; i++) files[`use/t${i}.py`] = `from other import thing\nthing()\n`;
  const { root, indexDir, open } = await indexedProject(files);
  const ex = await open();
  try {
    const project = (ex.service as ProjectService).project;
    const index = await project.index();
    const view = await graphFor(project, index);
    const greet = index.symbolsByFile.get("lib.py")!.find((s) => s.name === "greet")!;
    assert.equal(view.usesOf(greet).length, 10);
    assert.deepEqual(view.usedBy(greet), []);
    const graph = await loadGraph(project);
    assert.equal(graph.files.length, 72);
    assert.ok(graph.linked >= 10 && graph.linked < 20, `${graph.linked} files linked`);
    // The ranking reads every reference (the files that have any are linked) but keeps no
    // answer of each: on the stdlib that map was most of the heap a get_context left behind.
    const kept = namesOf(graph).resolvedRefs;
    assert.ok(kept >= 10 && kept < 40, `${kept} answers kept`);
    const ranks = await symbolRanks(project, index);
    assert.ok(ranks.rank[ranks.idOf(greet)] > 0);
    assert.ok(graph.linked >= 70, `${graph.linked} files linked`);
    assert.equal(namesOf(graph).resolvedRefs, kept);
  } finally {
    await ex.close();
    await cleanup(root, indexDir);
  }
});
