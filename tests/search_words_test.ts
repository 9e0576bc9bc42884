/**
 * Two answers a blind assistant got wrong-footed by (issue 35): an exact search of two words
 * (`"SIGWINCH MSG_RESIZE"`) found nothing and said no more, as it matches the words together as
 * written; and `codectx search … --file F` failed as an unknown option (refs and explain take
 * `--file`; search's is `--path-prefix`).
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, cleanup, makeProject, runCli, tempIndexDir, withExecutor } from "./helpers.ts";

const FILES = {
  "client.c": [
    "#include <signal.h>",
    "void client_signal(int sig) {",
    "\tif (sig == SIGWINCH)",
    "\t\tsend_message(MSG_RESIZE);",
    "}",
    "",
  ].join("\n"),
  "server.py": [
    "MSG_RESIZE = 7",
    "",
    "def on_resize(client):",
    "    client.send(MSG_RESIZE)",
    "",
  ].join("\n"),
};

Deno.test("semantic_search: an exact search of several words that finds nothing names the regex of any", async () => {
  await withExecutor(FILES, async (ex) => {
    const p = await callTool(ex, "semantic_search", {
      query: "SIGWINCH MSG_RESIZE",
      mode: "exact",
    });
    assert.equal((p.snippets as unknown[]).length, 0);
    assert.match(
      renderText("semantic_search", p),
      /^exact matches the whole text as written; any of the words: mode regex "SIGWINCH\|MSG_RESIZE"$/m,
    );
    // A regex between slashes (a fifth-run answerer's `/if-none-match|304/`) matched nothing
    // and said no more: the line names the regex without them.
    const slashed = await callTool(ex, "semantic_search", {
      query: "/SIGWINCH|MSG_RESIZE/",
      mode: "regex",
    });
    assert.equal((slashed.snippets as unknown[]).length, 0);
    assert.match(
      renderText("semantic_search", slashed),
      /^a regex is written without slashes: mode regex "SIGWINCH\|MSG_RESIZE"$/m,
    );
    const one = await callTool(ex, "semantic_search", { query: "NO_SUCH_NAME", mode: "exact" });
    assert.doesNotMatch(renderText("semantic_search", one), /any of the words/);
  });
});

Deno.test("codectx search: --file narrows as --path-prefix does; an empty exact search of words says what to try", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const at = ["--path", root, "--index-dir", indexDir];
    const none = await runCli(["search", "SIGWINCH MSG_RESIZE", "--mode", "exact", ...at]);
    assert.equal(none.code, 0, none.stderr);
    assert.match(
      none.stdout,
      /^no results; exact matches the whole text as written; any of the words: --mode regex "SIGWINCH\|MSG_RESIZE"$/m,
    );
    const file = await runCli([
      "search",
      "MSG_RESIZE",
      "--mode",
      "exact",
      "--file",
      "server.py",
      ...at,
    ]);
    assert.equal(file.code, 0, file.stderr);
    assert.match(file.stdout, /server\.py/);
    assert.doesNotMatch(file.stdout, /client\.c/);
  } finally {
    await cleanup(root, indexDir);
  }
});
