/**
 * Per-project state has one owner (issue 36): no module of `src/` keeps a cache keyed by a
 * project, a generation or one of its tables; each lives in the memo of what it belongs to
 * (`util/memo.ts`) — the loaded generation, the open project, the code graph, the chunk
 * table — where it can be listed and where it goes with its owner.
 */

import assert from "node:assert/strict";
import { ProjectService } from "../src/service/service.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { callTool, cleanup, makeProject, tempIndexDir, writeFiles } from "./helpers.ts";

const SRC = new URL("../src/", import.meta.url).pathname;

/** What a project's state is made of: a module-level map keyed by one of these is a cache of it. */
const STATE_TYPES =
  /\b(Project|LoadedIndex|SymbolSource|SymbolColumns|ChunkTable|CodeGraph|GraphView|ProjectView|LexicalIndex|Generation|Manifest)\b/;

/**
 * The module-level weak maps left, each keyed by something that is not a project's state,
 * and why it is kept where it is.
 */
const ALLOWED_WEAK_MAPS: Record<string, string> = {
  "http/listener.ts answering": "the response being written on a socket (one request)",
  "http/listener.ts connectionIds": "a socket's number, its client for admission (one connection)",
  "http/listener.ts requestClients": "the connection a request came on (one request)",
  "http/respond.ts jsonTexts": "a Response's JSON text (one answer)",
  "http/safety.ts heldBodies": "a Request's body read ahead (one request)",
  "index/ignore_rules.ts quickRules": "a compiled ignore list's fast path (the list's own)",
  "analysis/facts_python_strings.ts surroundings": "one parse's parent finder",
  "search/rerank_names.ts queries": "a query's term set (one query)",
  "search/exact.ts WORD_LENGTHS": "a question's set of words as written (one question)",
  "search/exact.ts FOLDED": "a name's parts, folded once (the row's own array)",
  "search/exact.ts COMPOUND": "a question's forms: which names its words compound (one question)",
  "search/vector_math.ts masks": "a file-weight array's row mask (made with the weights)",
  "search/search_pool.ts weightIds": "a file-weight array's id in the workers (sent once each)",
};

async function moduleMaps(): Promise<Array<{ at: string; name: string; kind: string }>> {
  const out: Array<{ at: string; name: string; kind: string }> = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${SRC}${dir}`)) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory) await walk(rel);
      else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
        const text = await Deno.readTextFile(`${SRC}${rel}`);
        const decl =
          /^(?:export )?(?:const|let) (\w+)(?:: [^=\n]+)? = new (WeakMap|Map|WeakSet|Set)\b(<[^\n]*)?/gm;
        for (const m of text.matchAll(decl)) {
          out.push({ at: `${rel} ${m[1]}`, name: m[1], kind: `${m[2]}${m[3] ?? ""}` });
        }
      }
    }
  };
  await walk("");
  return out;
}

Deno.test("project state: no module-level map keyed by a project, a generation or its tables", async () => {
  const maps = await moduleMaps();
  assert.ok(maps.length > 20, "the scan finds the module-level maps");
  const keyedByState = maps.filter((m) => {
    const key = /^(?:Weak)?(?:Map|Set)<([^,>]+)/.exec(m.kind)?.[1] ?? "";
    return STATE_TYPES.test(key);
  }).map((m) => `${m.at}: ${m.kind}`);
  assert.deepEqual(keyedByState, [], "put it in the owner's memo (src/util/memo.ts)");
  const weak = maps.filter((m) => m.kind.startsWith("WeakMap")).map((m) => m.at).sort();
  assert.deepEqual(
    weak,
    Object.keys(ALLOWED_WEAK_MAPS).sort(),
    "a weak map says what it is keyed by",
  );
});

Deno.test("project state: a generation's memo lists what it holds; the project's goes when it closes", async () => {
  const root = await makeProject({
    "app/main.py": "from app.util import helper\n\ndef main():\n    return helper(2)\n",
    "app/util.py": "def helper(x):\n    return x * 2\n",
  });
  const indexDir = await tempIndexDir();
  const service = await ProjectService.open(root, { indexDir, workers: 0, embedder: "none" });
  const ex = await createExecutor(service, { timeoutMs: 0 });
  const project = service.project;
  try {
    await callTool(ex, "index_project", {});
    await callTool(ex, "semantic_search", { query: "helper", mode: "lexical" });
    await callTool(ex, "get_call_graph", { symbol_name: "helper" });
    await callTool(ex, "summarize_repo", {});
    const first = project.loadedIndex!;
    const held = first.memo.held();
    for (const name of ["chunk table", "lexical index", "code graph", "repository summary"]) {
      assert.ok(held.includes(name), `${name} in ${held.join(", ")}`);
    }
    assert.ok(project.scope.held().includes("vectors"), project.scope.held().join(", "));
    // A new generation starts empty and builds what it is asked for.
    await writeFiles(root, { "app/util.py": "def helper(x):\n    return x * 3\n" });
    await callTool(ex, "index_project", {});
    await callTool(ex, "get_call_graph", { symbol_name: "helper" });
    const second = project.loadedIndex!;
    assert.notEqual(second.generation, first.generation);
    assert.deepEqual(second.memo.held(), ["code graph"]);
  } finally {
    await ex.close();
    await cleanup(root, indexDir);
  }
  assert.deepEqual(project.scope.held(), [], "closing the project lets its vectors go");
});
