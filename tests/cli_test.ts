import assert from "node:assert/strict";
import { cleanup, makeProject, runCli, tempIndexDir } from "./helpers.ts";

Deno.test("cli: --help, --version, unknown command and option exit 2", async () => {
  const help = await runCli(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: codectx <command>/);
  // It says which command answers each kind of question an assistant is asked (issue 35).
  assert.match(help.stdout, /^ {2}refs NAME +who calls it, what breaks if it changes/m);
  assert.match(help.stdout, /^ {2}search "TEXT" --mode exact\|regex +where a text is/m);
  assert.match(help.stdout, /^ {2}search "QUERY" +[^\n]*where X is handled/m);
  assert.match(help.stdout, /--package P: who imports P/);
  // Lines read with `sed -n A,Bp` came unnumbered: answerers counted, one answer a line off.
  assert.match(
    help.stdout,
    /^Read lines: codectx show FILE:A-B, or FILE:N \(N under its if\/loop lines\)$/m,
  );
  // Its first screen is the commands an assistant answers with; the others are named on one
  // line (every answerer read it once a project: 987 characters, issue 35).
  assert.match(help.stdout, /^ {2}explain NAME +what it does/m);
  assert.doesNotMatch(help.stdout, /^ {2}(summary|calls|context|ask|impact|index)\b/m);
  assert.match(help.stdout, /^Also: [^\n]*\bsummary, calls, context, ask, impact, index\b/m);
  assert.ok(help.stdout.length <= 700, `${help.stdout.length} characters`);
  const version = await runCli(["--version"]);
  assert.match(version.stdout, /^codectx \d+\.\d+\.\d+\n$/);
  const cmd = await runCli(["frobnicate"]);
  assert.equal(cmd.code, 2);
  assert.equal(cmd.stderr, "codectx: unknown command 'frobnicate'; see codectx --help\n");
  const opt = await runCli(["index", "--bogus"]);
  assert.equal(opt.code, 2);
  assert.match(opt.stderr, /^codectx: .*'--bogus'; see codectx index --help\n$/);
  const nopath = await runCli(["index", "--path", "/definitely/not/here"]);
  assert.equal(nopath.code, 2);
  assert.equal(nopath.stderr.trim().split("\n").length, 1);
  assert.match(nopath.stderr, /'\/definitely\/not\/here' does not exist or is not a directory/);
});

Deno.test("cli: index prints a summary; tool prints JSON", async () => {
  const root = await makeProject({
    "a.py": "def alpha():\n    pass\n\n\nclass Beta:\n    def gamma(self):\n        pass\n",
    "b.ts": "export function delta(): void {}\n",
    "notes.md": "# Notes\n\ntext\n",
  });
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["index", "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^indexed 3 files \((markdown 1, python 1, typescript 1|python 1, markdown 1, typescript 1|[a-z ,0-9]+)\), \d+ chunks, \d+ symbols in \d+\.\d+ s; 3 changed \(3 added, 0 modified, 0 deleted\), 3 parsed\n$/,
    );
    assert.match(r.stderr, /parse: 0\/3/); // plain progress lines when not a terminal

    const json = await runCli(["index", "--path", root, "--index-dir", indexDir, "--json"]);
    const report = JSON.parse(json.stdout);
    assert.equal(report.changed, 0);
    assert.equal(report.files, 3);

    const tool = await runCli([
      "tool",
      "search_symbols",
      "--args",
      '{"query":"gam"}',
      "--path",
      root,
      "--index-dir",
      indexDir,
    ]);
    assert.equal(tool.code, 0, tool.stderr);
    const out = JSON.parse(tool.stdout);
    assert.equal(out.success, true);
    assert.equal(out.result_payload.symbols[0].qualified_name, "Beta.gamma");

    const bad = await runCli(["tool", "search_symbols", "--args", "{nope", "--path", root]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--args is not valid JSON/);

    const failed = await runCli([
      "tool",
      "explain_file",
      "--args",
      '{"file_path":"../x"}',
      "--path",
      root,
      "--index-dir",
      indexDir,
    ]);
    assert.equal(failed.code, 1);
    assert.equal(JSON.parse(failed.stdout).success, false);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("cli: every command answers --help with its own usage, and `help COMMAND` too", async () => {
  const { COMMAND_NAMES, main } = await import("../cli.ts");
  assert.ok(COMMAND_NAMES.length >= 18);
  const printed: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => printed.push(parts.join(" "));
  try {
    for (const name of COMMAND_NAMES) {
      for (const argv of [[name, "--help"], ["help", name]]) {
        printed.length = 0;
        assert.equal(await main(argv), 0, argv.join(" "));
        const text = printed.join("\n");
        assert.match(text, new RegExp(`Usage: codectx ${name}\\b`), `${argv.join(" ")}:\n${text}`);
        assert.doesNotMatch(text, /Usage: codectx <command>/, argv.join(" "));
      }
    }
  } finally {
    console.log = log;
  }
});
