/**
 * `explain` on a class (issue 35): a blind run's answerers asked `explain ScrapyCommand` for
 * its members and its subclasses, and read every method's branch outline instead (3,572
 * characters; `explain Celery` 12,531 at a 1,000-token budget). Now a type too long to show
 * is its members, one line each (line and signature), with its users and subclasses named
 * while they fit the budget; and a method called only through an attribute of unknown type
 * (`self.df.request_seen(…)`) is a caller by name, as `refs` lists it, not `References: 0`.
 * The CLI and the MCP text are one render.
 *
 * @module
 */

import assert from "node:assert/strict";
import { tokenCounter } from "../src/context/tokens.ts";
import { cleanup, makeProject, runCli, tempIndexDir } from "./helpers.ts";
import { connectMcp } from "./surfaces_helpers.ts";

/** Methods of the large class. */
const METHODS = 30;
/** Classes that inherit from it, one file each. */
const SUBCLASSES = 16;

/** A class of {@link METHODS} methods, each a branch around two calls. */
function command(): string {
  const out = ["class Command:", '    """A command of the tool."""', ""];
  for (let i = 0; i < METHODS; i++) {
    out.push(
      `    def step_${i}(self, request, options=None, verbose=False, retries=${i}):`,
      `        if options and options.get("mode_${i}"):`,
      `            self.prepare_${i}(request, options, verbose)`,
      `        return self.finish(request, retries=${i})`,
      "",
    );
  }
  out.push("    def finish(self, request, retries=0):", "        return request", "");
  for (let i = 0; i < METHODS; i++) {
    out.push(
      `    def prepare_${i}(self, request, options, verbose):`,
      "        return options",
      "",
    );
  }
  return out.join("\n");
}

const FILES: Record<string, string> = {
  "tool/command.py": command(),
  "tool/dupe.py": [
    "class BaseDupeFilter:", // 1
    "    def request_seen(self, request):", // 2
    "        return False", // 3
    "", // 4
    "", // 5
    "class RFPDupeFilter(BaseDupeFilter):", // 6
    "    def request_seen(self, request):", // 7
    "        return request in self.seen", // 8
    "",
  ].join("\n"),
  "tool/scheduler.py": [
    "from tool.factory import make_filter", // 1
    "", // 2
    "", // 3
    "class Scheduler:", // 4
    "    def __init__(self):", // 5
    "        self.df = make_filter()", // 6
    "", // 7
    "    def enqueue(self, request):", // 8
    "        if self.df.request_seen(request):", // 9
    "            return False", // 10
    "        return True", // 11
    "",
  ].join("\n"),
  "tool/factory.py": "def make_filter():\n    return object()\n",
  "tool/engine.py": [
    "class Engine:", // 1
    "    def crawl(self, request):", // 2
    "        return request", // 3
    "", // 4
    "    def run(self, request):", // 5
    "        return self.crawl(request)", // 6
    "", // 7
    "", // 8
    "class Process:", // 9
    "    def crawl(self, spider):", // 10
    "        return spider", // 11
    "", // 12
    "", // 13
    "def start(process, spider):", // 14
    "    return process.crawl(spider)", // 15
    "",
  ].join("\n"),
};
for (let i = 0; i < SUBCLASSES; i++) {
  FILES[`tool/commands/cmd${i}.py`] = [
    "from tool.command import Command",
    "",
    "",
    `class Cmd${i}(Command):`,
    `    def step_${i}(self, request, options=None, verbose=False, retries=0):`,
    "        return request",
    "",
  ].join("\n");
}

Deno.test("explain on a large class: its members one line each, its subclasses named, within the budget", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["explain", "Command", "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    const text = r.stdout;
    const tokens = (await tokenCounter()).count(text);
    // Before: every method's branch outline, over the 1,000-token default budget.
    assert.ok(tokens <= 1000, `${tokens} tokens, ${text.length} characters`);
    assert.match(text, /^# Command — class in tool\/command\.py:1-/);
    assert.match(text, /^Members \(61; `explain Command\.NAME` shows a method's flow\):$/m);
    assert.match(text, /^- 4 step_0\(self, request, options=None, verbose=False, retries=0\)$/m);
    assert.doesNotMatch(text, /self\.prepare_0\(request/, "no method's flow");
    // Every member is named, those without a line of their own compactly.
    for (const name of ["step_29", "finish", "prepare_0", "prepare_29"]) {
      assert.match(text, new RegExp(`\\b${name}\\b`), name);
    }
    // Before: 12 listed, `- 4 more in 4 places`; the subclass an answerer needed unnamed.
    for (let i = 0; i < SUBCLASSES; i++) {
      assert.match(text, new RegExp(`Cmd${i} tool/commands/cmd${i}\\.py:4`), `Cmd${i}`);
    }
    assert.doesNotMatch(text, /more in \d+ places/);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("explain over MCP: a method called through an attribute is called by name, as refs says", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const { client } = await connectMcp(root, indexDir);
  try {
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      assert.notEqual(r.isError, true);
      return {
        text: (r.content as { type: string; text: string }[])[0].text,
        payload: r.structuredContent as Record<string, unknown>,
      };
    };
    const e = await call("explain_symbol", { symbol_name: "RFPDupeFilter.request_seen" });
    // Before: `References: 0` and no caller.
    assert.doesNotMatch(e.text, /References: 0/);
    assert.match(
      e.text,
      /^Callers \(1, by name only\):\n- Scheduler\.enqueue tool\/scheduler\.py:9/m,
    );
    const refs = await call("find_references", { symbol_name: "RFPDupeFilter.request_seen" });
    const uses = (refs.payload.references as { kind: string }[]).filter((u) =>
      u.kind !== "definition" && u.kind !== "import"
    );
    assert.equal(e.payload.references, uses.length);
    assert.equal(e.payload.callers_total, 1);
  } finally {
    await client.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("explain: beside a resolved caller, calls of the name by other types are counted, not listed", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["explain", "Engine.crawl", "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    // Before: `process.crawl(spider)` (a Process) listed as a caller by name beside Engine.run.
    assert.match(r.stdout, /^Callers \(1\):\n- Engine\.run tool\/engine\.py:6/m);
    assert.doesNotMatch(r.stdout, /start tool\/engine\.py:15/);
    assert.match(r.stdout, /^References: 2$/m);
  } finally {
    await cleanup(root, indexDir);
  }
});
