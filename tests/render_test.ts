/**
 * The MCP text of a payload (`src/mcp/render.ts`): what it keeps and what it says once.
 * Payloads are real tool answers on a small project (through the executor), so a change of
 * a payload's shape shows here.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";

const PY = `class Store:
    """Keeps values by key."""

    def put(self, key, value):
        """Store a value under a key.

        Overwrites what was there.
        """
        self.items[key] = value


def fill(store):
    store.put("a", 1)
    store.put("b", 2)


def refill(store):
    fill(store)
    store.put("c", 3)
`;

/**
 * A function whose doc comment sits above its signature (the quoted code opens with the doc),
 * and whose signature spans lines (the index keeps it as one).
 */
const GO = `package clock

// Tick advances the wall clock by one step. It returns the new reading.
func Tick(
	now int,
) int {
	return now + 1
}
`;

Deno.test("render: explain_symbol, get_context and import lists say each thing once, compactly", async () => {
  const project = await makeProject({
    "pkg/store.py": PY,
    "pkg/use.py": "from pkg.store import Store\n\n\ndef make():\n    return Store()\n",
    "pkg/sub/deep.py": "from pkg.store import Store\n\n\ndef other():\n    return Store()\n",
    "main.py": "from pkg.store import Store\n",
    "clock/clock.go": GO,
  });
  const indexDir = await tempIndexDir();
  // No call limit: this test checks answers, not speed (a loaded machine needs longer).
  const executor = await createExecutor(project, { indexDir, timeoutMs: 0 });
  const run = async (tool: string, args: Record<string, unknown>) => {
    const r = await executor.execute({ tool_name: tool, arguments: args });
    assert.ok(r.success, r.error ?? tool);
    return r.result_payload;
  };
  try {
    await run("index_project", {});

    const explained = await run("explain_symbol", { symbol_name: "Store.put" });
    const text = renderText("explain_symbol", explained);
    assert.match(text, /^# Store\.put — method in pkg\/store\.py:4-9/);
    assert.match(text, /^In Store \(class\) pkg\/store\.py:1\.$/m);
    // The docstring is in the source: not repeated above it.
    assert.equal(text.split("Store a value under a key.").length, 2, text);
    // Sites of one caller in one file: one group; callers in one file: the path once, a caller
    // of one site with its call.
    assert.match(
      text,
      /Callers[^\n]*:\n(- [^\n]+\n)*- pkg\/store\.py:\n {2}- fill :13, 14\n {2}- refill :19: store\.put\("c", 3\)$/m,
      text,
    );

    const context = await run("get_context", { symbol_name: "Store.put" });
    const window = String(context.text);
    const rendered = renderText("get_context", context);
    assert.ok(window.includes("## Called from"), window);
    assert.ok(rendered.startsWith(window.split("\n## Called from\n")[0]));
    // One line per calling function: where, in what, and the call itself (`store` has no
    // type: the call is matched by name only, and says so).
    assert.match(
      rendered,
      /\n## Called from\n- pkg\/store\.py:1[34] in fill \(2×\), matched by name only: `store\.put\("a", 1\)`/,
    );
    assert.match(
      rendered,
      /\n- pkg\/store\.py:19 in refill, matched by name only: `store\.put\("c", 3\)`/,
    );
    assert.ok(rendered.length < window.length);

    const refs = renderText(
      "find_references",
      await run("find_references", { symbol_name: "Store.put" }),
    );
    // Two calls inside `fill`: a call is the unmarked line, its enclosing function before it.
    assert.match(refs, /\n {2}13 fill: store\.put\("a", 1\)\n {2}14 fill: store\.put/, refs);

    // The class groups its small method; the answer points at the member that matched.
    const asked = await run("ask", { question: "where is a value stored under a key?" });
    const answer = renderText("ask", asked);
    // The signature opens the quoted code and the code holds the doc: each said once, in the
    // tool's answer itself (bridge, CLI and MCP alike), and every source shown is cited once.
    for (const text of [String(asked.answer), answer]) {
      assert.doesNotMatch(text, /Signature: `def put|Doc: Store a value/, text);
      assert.equal(text.match(/Store a value under a key\./g)?.length, 1, text);
      assert.doesNotMatch(text, /^Sources: /m, text);
    }
    assert.match(
      answer,
      /### 1\. `Store\.put` \(method\)[^]*```python\n {4}def put\(self, key, value\):\n {8}"""Store a value under a key\./,
    );
    // `store` has no type: its callers are matched by name only, and the answer says so.
    assert.match(
      answer,
      /Called from `fill` \(pkg\/store\.py:13, matched by name only\), `refill` \(pkg\/store\.py:19, matched by name only\)/,
    );
    // A doc comment above the signature: the code quotes both, so neither is said again.
    const ticked = String(
      (await run("ask", { question: "advance the wall clock one step" })).answer,
    );
    assert.match(ticked, /`Tick` \(function\) — clock\/clock\.go:4-8/, ticked);
    // The signature spans three lines of code: still said once.
    assert.doesNotMatch(ticked, /Signature:/, ticked);
    assert.equal(ticked.split("func Tick(").length, 2, ticked);
    assert.equal(ticked.split("advances the wall clock by one step").length, 2, ticked);

    // Search hits in the MCP text: a hit that is a comment line is quoted, not cut to the
    // comment's first sentence (which dropped the match); a literal hit is its file's line.
    const literal = renderText(
      "semantic_search",
      await run("semantic_search", { query: "new reading", mode: "exact" }),
    );
    assert.match(
      literal,
      /^1 results \(exact\)\nclock\/clock\.go:3[^:\n]*: \/\/ Tick advances/,
      literal,
    );
    assert.match(literal, /It returns the new reading\./, literal);
    assert.doesNotMatch(literal, /```\w*\n```/, literal);

    const deps = renderText(
      "get_dependencies",
      await run("get_dependencies", { file_path: "pkg/store.py" }),
    );
    assert.match(
      deps,
      // Each importer at its line (the files alone cost another search for file:line).
      /imported by 3 files \(3 imports\); no test files among them\n {2}main\.py:1 \[Store\]\n {2}pkg\/sub\/deep\.py:1 \[Store\]\n {2}pkg\/use\.py:1 \[Store\]/,
      deps,
    );

    // A file's text reaches the model only when asked for, as one code block.
    const outline = renderText(
      "explain_file",
      await run("explain_file", { file_path: "pkg/use.py" }),
    );
    assert.doesNotMatch(outline, /```/);
    const withSource = renderText(
      "explain_file",
      await run("explain_file", { file_path: "pkg/use.py", include_source: true }),
    );
    assert.match(withSource, /Source:\n```python\nfrom pkg\.store import Store\n\n\ndef make\(\):/);
  } finally {
    await executor.close();
    await cleanup(project, indexDir);
  }
});

Deno.test("render: semantic_search's MCP text leaves out the weak tail of a ranked search and says so", () => {
  // Blind MCP run on chi/toml: each search printed ten hits (1,300–1,800 characters) where the
  // CLI printed the three to five that mattered; the structured result keeps them all.
  const hit = (i: number, score: number) => ({
    file: `pkg/m${i}.py`,
    line: 1,
    end_line: 2,
    score,
    snippet: `def f${i}():\n    return ${i}`,
    language: "python",
    symbol: `f${i}`,
    kind: "function",
  });
  const payload = {
    query: "f",
    snippets: [0.8, 0.6, 0.5, 0.4, 0.1, 0.05].map((s, i) => hit(i, s)),
    index_state: "ready",
    mode: "hybrid",
    vectors: { embedder: "none", dimensions: 0, done: 0, total: 0, embedded: 0, state: "off" },
  };
  const text = renderText("semantic_search", payload);
  assert.match(text, /^4 results \(hybrid; scores 0\.80–0\.40\)/);
  assert.match(text, /\n\(2 weaker hits left out; top_k lists them\)$/);
  assert.doesNotMatch(text, /pkg\/m4\.py/);
  // Ten flat hits (no clear answer): five, and how to list the rest.
  const flat = renderText("semantic_search", {
    ...payload,
    snippets: [0.13, 0.12, 0.11, 0.1, 0.09, 0.08, 0.07, 0.06, 0.06, 0.05].map((s, i) => hit(i, s)),
  });
  assert.match(flat, /^5 results \(hybrid; scores 0\.13–0\.09\)/);
  assert.match(flat, /\n\(5 weaker hits left out; top_k lists them\)$/);
  // A literal search lists every match it found.
  const exact = renderText("semantic_search", { ...payload, mode: "exact" });
  assert.match(exact, /pkg\/m5\.py/);
  assert.doesNotMatch(exact, /left out/);
});
