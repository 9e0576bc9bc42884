/**
 * `get_impact`'s tests to run: every test that reaches a changed definition, however many
 * calls down (`depth` bounds the impacted list, not the tests), in every test file the one
 * rule names (`index/test_files.ts`). Each case a test `bench/impact.ts --tests` saw fail
 * that get_impact did not name.
 */

import assert from "node:assert/strict";
import { createExecutor } from "../executor.ts";
import type { GetImpactPayload } from "./schema.ts";

const FILES: Record<string, string> = {
  // click: test_open_file_ignore_errors_stdin → open_file → … → _make_text_stream, six hops.
  "lib.py": [
    "def base():",
    "    return 1",
    "",
    "",
    "def one():",
    "    return base()",
    "",
    "",
    "def two():",
    "    return one()",
    "",
    "",
    "def three():",
    "    return two()",
    "",
  ].join("\n"),
  "tests/test_lib.py": [
    "from lib import three",
    "",
    "",
    "def test_three():",
    "    assert three() == 1",
    "",
  ].join("\n"),
  // click: `for param in …: param.handle_parse_result(…)` — an untyped receiver, matched by
  // name; the walk stopped there and the tests above it were not named.
  "runner.py": [
    "class Runner:",
    "    def process_items(self):",
    "        return 1",
    "",
    "",
    "def drive(runners):",
    "    for r in runners:",
    "        r.process_items()",
    "",
  ].join("\n"),
  "tests/test_runner.py": [
    "from runner import drive",
    "",
    "",
    "def test_drive():",
    "    drive([])",
    "",
  ].join("\n"),
  // click: `def test_x(runner): runner.invoke(cli, …)`, `runner` a pytest fixture of
  // tests/conftest.py (`return CliRunner()`): the walk stopped at `invoke`, a name defined
  // more than once, and the tests that run every command were not named.
  "cli/core.py": [
    "class Command:",
    "    def main(self, args):",
    "        return parse_args(args)",
    "",
    "    def invoke(self, ctx):",
    "        return ctx",
    "",
    "",
    "def parse_args(args):",
    "    return list(args)",
    "",
  ].join("\n"),
  "cli/testing.py": [
    "from cli.core import Command",
    "",
    "",
    "class CliRunner:",
    "    def invoke(self, cli: Command, args):",
    "        return cli.main(args)",
    "",
  ].join("\n"),
  "tests/conftest.py": [
    "import pytest",
    "",
    "from cli.testing import CliRunner",
    "",
    "",
    "@pytest.fixture",
    "def runner():",
    "    return CliRunner()",
    "",
    "",
    "@pytest.fixture",
    "def yielded():",
    "    yield CliRunner()",
    "",
  ].join("\n"),
  "tests/test_cli.py": [
    "from cli.core import Command",
    "",
    "",
    "def test_runs(runner):",
    '    runner.invoke(Command(), ["a"])',
    "",
    "",
    "def test_yielded(yielded):",
    "    yielded.invoke(Command(), [])",
    "",
    "",
    "def test_unknown(tmp_path):",
    "    tmp_path.invoke(None, [])",
    "",
  ].join("\n"),
  // click: `self.type(value)` calls a ParamType instance (`__call__`), whose
  // `self.convert(value)` runs the override of a generic base's subclass
  // (`class File(ParamType[str])`): the walk stopped at File.convert.
  "cli/types.py": [
    "class ParamType:",
    "    def __call__(self, value):",
    "        return self.convert(value)",
    "",
    "    def convert(self, value):",
    "        return value",
    "",
    "",
    "class File(ParamType[str]):",
    "    def convert(self, value):",
    "        return close_later(value)",
    "",
    "",
    "def close_later(value):",
    "    return value",
    "",
    "",
    "class Parameter:",
    "    def __init__(self, type: ParamType):",
    "        self.type: ParamType = type",
    "",
    "    def process(self, value):",
    "        return self.type(value)",
    "",
  ].join("\n"),
  "tests/test_types.py": [
    "from cli.types import File, Parameter",
    "",
    "",
    "def test_process():",
    '    Parameter(File()).process("x")',
    "",
  ].join("\n"),
  // click's test_context_pushing: a function declared inside a test, decorated with the
  // change (`@ctx.call_on_close`); pytest runs the test, which was not named.
  "cli/ctx.py": [
    "class Context:",
    "    def call_on_close(self, f):",
    "        return f",
    "",
  ].join("\n"),
  "tests/test_ctx.py": [
    "from cli.ctx import Context",
    "",
    "",
    "def test_pushing():",
    "    ctx = Context()",
    "",
    "    @ctx.call_on_close",
    "    def callback():",
    "        return 42",
    "",
  ].join("\n"),
  // remeda: type tests live in `*.test-d.ts` (vitest's typecheck).
  "src/greet.ts": "export function greet(name: string): string {\n  return name;\n}\n",
  "src/greet.test-d.ts": [
    'import { greet } from "./greet";',
    "",
    "export function typeTest(): void {",
    '  greet("x");',
    "}",
    "",
  ].join("\n"),
};

Deno.test("get_impact tests to run: past the listed hops, and type-test files", async (t) => {
  const base = await Deno.makeTempDir({ prefix: "codectx-tests-to-run-" });
  for (const [path, text] of Object.entries(FILES)) {
    await Deno.mkdir(`${base}/p/${path}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${base}/p/${path}`, text);
  }
  const ex = await createExecutor(`${base}/p`, { indexDir: `${base}/index`, embedder: "none" });
  const impact = async (args: Record<string, unknown>) => {
    const r = await ex.execute({ tool_name: "get_impact", arguments: args });
    assert.ok(r.success, r.error ?? "");
    return r.result_payload as GetImpactPayload;
  };
  try {
    assert.ok((await ex.execute({ tool_name: "index_project", arguments: {} })).success);
    await t.step("a test four hops down is to run; the listed hops stay three", async () => {
      const p = await impact({ symbols: ["base"] });
      assert.deepEqual(p.impacted.map((x) => `${x.hop} ${x.qualified_name}`), [
        "1 one",
        "2 two",
        "3 three",
      ]);
      assert.deepEqual(p.tests_to_run.files, ["tests/test_lib.py"]);
      assert.deepEqual(
        p.tests_to_run.functions.map((f) => `${f.hop} ${f.qualified_name}`),
        ["4 test_three"],
      );
    });
    await t.step("on through a name matched alone when the project defines it once", async () => {
      const p = await impact({ symbols: ["Runner.process_items"] });
      const drive = p.impacted.find((x) => x.qualified_name === "drive");
      assert.deepEqual([drive?.hop, drive?.resolution], [1, "name"]);
      assert.deepEqual(p.tests_to_run.functions.map((f) => f.qualified_name), ["test_drive"]);
    });
    await t.step("a pytest fixture's parameter is what the fixture returns or yields", async () => {
      const p = await impact({ symbols: ["parse_args"] });
      const at = (name: string) => p.impacted.find((x) => x.qualified_name === name);
      assert.deepEqual(at("CliRunner.invoke")?.path, [
        "parse_args",
        "Command.main",
        "CliRunner.invoke",
      ]);
      assert.deepEqual(
        p.tests_to_run.functions.map((f) => `${f.qualified_name} ${f.resolution}`),
        ["test_runs inferred", "test_yielded inferred"],
      );
    });
    await t.step(
      "an override runs where its base method is called; an instance called runs __call__",
      async () => {
        const p = await impact({ symbols: ["close_later"] });
        assert.deepEqual(p.tests_to_run.functions.map((f) => [f.qualified_name, f.resolution]), [
          ["test_process", "inferred"],
        ]);
        const test = p.impacted.find((x) => x.qualified_name === "Parameter.process");
        assert.deepEqual(test?.path, [
          "close_later",
          "File.convert",
          "ParamType.__call__",
          "Parameter.process",
        ]);
      },
    );
    await t.step("a definition inside a test is run by that test", async () => {
      const p = await impact({ symbols: ["Context.call_on_close"] });
      assert.deepEqual(p.tests_to_run.functions.map((f) => `${f.hop} ${f.qualified_name}`), [
        "1 test_pushing",
        "1 test_pushing.callback",
      ]);
    });
    await t.step("a *.test-d.ts file is a test file", async () => {
      const p = await impact({ symbols: ["greet"] });
      assert.deepEqual(p.tests_to_run.files, ["src/greet.test-d.ts"]);
    });
  } finally {
    await ex.close();
    await Deno.remove(base, { recursive: true });
  }
});
