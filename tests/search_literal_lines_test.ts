/**
 * A search for an error message in plain (hybrid) mode leads with the line that holds it,
 * `file:line in Function: code` (issue 35): ranked by meaning, the message's chunk came below
 * look-alikes ("send", "Cannot…" classes) or not at all, and the MCP arm read ten hits where
 * `rg` printed the one line. A literal search's text names a file's lone hit on one line.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, withExecutor } from "./helpers.ts";

const FILES = {
  "proc/run.py": [
    "class Process:", // 1
    "    def communicate(self, data=None):", // 2
    "        '''Send data to the process and read its output.'''", // 3
    "        if self.started and data:", // 4
    "            raise ValueError('Cannot send input after starting communication')", // 5
    "        return self.read()", // 6
    "",
    "    def send(self, data):", // 8
    "        '''Send input to the process.'''", // 9
    "        return self.pipe.write(data)", // 10
    "",
  ].join("\n"),
  "proc/errors.py": [
    "class CannotSendInput(Exception):",
    "    '''Input could not be sent after starting.'''",
    "",
  ].join("\n"),
};

Deno.test("semantic_search: a message in plain words leads with the line that holds it", async () => {
  await withExecutor(FILES, async (ex) => {
    const p = await callTool(ex, "semantic_search", {
      query: "Cannot send input after starting communication",
    });
    const first = (p.snippets as Array<{ file: string; line: number; column?: number }>)[0];
    assert.deepEqual([first.file, first.line, first.column !== undefined], [
      "proc/run.py",
      5,
      true,
    ]);
    const text = renderText("semantic_search", p);
    assert.match(
      text,
      /^1 line holds "Cannot send input after starting communication":\nproc\/run\.py:5 in Process\.communicate: raise ValueError\('Cannot send input/,
    );
    // The ranked hit that holds that line is not listed again.
    assert.doesNotMatch(text, /\. proc\/run\.py:2-\d+ Process\.communicate/);

    // Two words are a name, not a message: no literal lines.
    const name = await callTool(ex, "semantic_search", { query: "send input" });
    assert.ok((name.snippets as Array<{ column?: number }>).every((s) => s.column === undefined));
  });
});

Deno.test("semantic_search exact: a file's lone hit is one line, file:line in Symbol", async () => {
  await withExecutor(FILES, async (ex) => {
    const p = await callTool(ex, "semantic_search", {
      query: "after starting",
      mode: "exact",
    });
    assert.equal(
      renderText("semantic_search", p),
      [
        "2 results (exact)",
        "proc/errors.py:2 in CannotSendInput: '''Input could not be sent after starting.'''",
        "proc/run.py:5 in Process.communicate: raise ValueError('Cannot send input after starting communication')",
      ].join("\n"),
    );
  });
});

Deno.test("semantic_search: a hit that is a part of a long function cites its line and the function's whole range", async () => {
  // A chunk of a long method was printed as `file:1208-1230 Popen.communicate (method)`, the
  // method's name over the chunk's lines: an assistant took it for the method (1165-1230).
  const body = Array.from({ length: 70 }, (_, i) => `    total_${i} = compute_${i}(data)\n`);
  const files = {
    "calc/long.py": `def crunch(data):\n${body.join("")}    return rotate_checksum(data, 17)\n`,
  };
  await withExecutor(files, async (ex) => {
    const p = await callTool(ex, "semantic_search", { query: "rotate checksum", top_k: 3 });
    const hit = (p.snippets as Array<Record<string, unknown>>)[0];
    assert.equal(hit.symbol, "crunch");
    assert.ok((hit.line as number) > 1, `a chunk inside the function: ${JSON.stringify(hit)}`);
    assert.deepEqual([hit.symbol_line, hit.symbol_end_line], [1, 72]);
    assert.match(
      renderText("semantic_search", p),
      /^1\. calc\/long\.py:72 crunch \(function 1-72\)\n {3}return rotate_checksum\(data, 17\)$/m,
    );
  });
});

Deno.test("semantic_search: the lines that lead are code's, not a README quoting the question", async () => {
  const files = {
    ...FILES,
    "README.md":
      "# proc\n\nAsk it: `where does it say Cannot send input after starting communication`\n",
  };
  await withExecutor(files, async (ex) => {
    const p = await callTool(ex, "semantic_search", {
      query: "Cannot send input after starting communication",
    });
    const first = (p.snippets as Array<{ file: string; line: number }>)[0];
    assert.deepEqual([first.file, first.line], ["proc/run.py", 5]);
    // With scope docs, the README's line is the one asked for.
    const docs = await callTool(ex, "semantic_search", {
      query: "Cannot send input after starting communication",
      scope: "docs",
    });
    const d = (docs.snippets as Array<{ file: string; column?: number }>)[0];
    assert.deepEqual([d.file, d.column !== undefined], ["README.md", true]);
  });
});

Deno.test("semantic_search: an exact hit in a test file is its place alone, a code hit names its function", async () => {
  const files = {
    ...FILES,
    "tests/test_run.py": [
      "def test_communicate_after_start_raises_the_message():",
      "    assert 'Cannot send input after starting communication' in str(err)",
      "",
    ].join("\n"),
  };
  await withExecutor(files, async (ex) => {
    const p = await callTool(ex, "semantic_search", {
      query: "Cannot send input after starting",
      mode: "exact",
      include_tests: true,
    });
    const text = renderText("semantic_search", p);
    assert.match(text, /^proc\/run\.py:5 in Process\.communicate: raise ValueError/m, text);
    // Test hits come after the code as `file:lines` (a test only repeats the message).
    assert.match(text, /^in tests: tests\/test_run\.py:2$/m, text);
  });
});

Deno.test("semantic_search exact: a list that fills top_k says more may match, in every surface's text", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[`m${i}.py`] = `def f${i}():\n    return 'revoked tasks'\n`;
  await withExecutor(files, async (ex) => {
    // The default cap (10) is filled by 12 matching files: the MCP text says it stopped, and
    // where the other two are.
    const capped = await callTool(ex, "semantic_search", { query: "revoked tasks", mode: "exact" });
    assert.equal((capped.snippets as unknown[]).length, 10);
    assert.match(
      renderText("semantic_search", capped),
      /\(stopped at 10 matches; 2 more at m8\.py:2 m9\.py:2: top_k up to 100\)$/,
    );
    // Every match listed: nothing to add.
    const all = await callTool(ex, "semantic_search", {
      query: "revoked tasks",
      mode: "exact",
      top_k: 50,
    });
    assert.equal((all.snippets as unknown[]).length, 12);
    assert.doesNotMatch(renderText("semantic_search", all), /stopped at/);
  });
});

Deno.test("semantic_search exact: the MCP text counts the test files' matches it left out", async () => {
  await withExecutor({
    "pkg/io.py": "from greenlet import getcurrent\n",
    "pkg/testing/requirements.py":
      "def has_greenlet():\n    try:\n        import greenlet\n    except ImportError:\n        return False\n",
  }, async (ex) => {
    const p = await callTool(ex, "semantic_search", { query: "greenlet", mode: "exact" });
    assert.deepEqual((p.snippets as Array<{ file: string }>).map((s) => s.file), ["pkg/io.py"]);
    assert.match(
      renderText("semantic_search", p),
      /\(2 more in test files, not searched: include_tests\)$/,
    );
    const all = await callTool(ex, "semantic_search", {
      query: "greenlet",
      mode: "exact",
      include_tests: true,
    });
    assert.equal((all.snippets as unknown[]).length, 3);
    assert.doesNotMatch(renderText("semantic_search", all), /more in test files/);
  });
});
