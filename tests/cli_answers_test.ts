/**
 * The text of CLI answers an assistant reads (issue 35): short, and enough that it needs no
 * second read. Each test names what an assistant paid for before.
 */

import assert from "node:assert/strict";
import { runCli } from "./helpers.ts";

Deno.test("codectx --help: what each command answers, a line each, under 1,000 characters", async () => {
  const { COMMAND_NAMES } = await import("../cli.ts");
  const help = await runCli(["--help"]);
  assert.equal(help.code, 0);
  // It was 2,857 characters, read once by every assistant's run.
  assert.ok(help.stdout.length <= 1000, `${help.stdout.length} characters:\n${help.stdout}`);
  for (const name of COMMAND_NAMES) assert.match(help.stdout, new RegExp(`\\b${name}\\b`), name);
  assert.match(help.stdout, /--mode exact\|regex/);
  assert.match(help.stdout, /--package P/);
});
