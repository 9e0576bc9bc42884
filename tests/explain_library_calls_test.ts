/**
 * `explain`'s outline of a long body gives a place once and sends no call of the C library to a
 * macro of its name, nor code to an example's, a doc's or a test's definition (issue 35: curl's
 * `explain post_per_transfer`, 6,651 characters, had `close(per->infd); →
 * docs/examples/externalsocket.c:37`, `strerror → lib/config-dos.h:132`, `fprintf →
 * lib/curlx.h:108` six times, `curl_easy_getinfo → include/curl/curl.h:3208` nine times and five
 * `free(…) → lib/curl_memory.h:132` lines).
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, withExecutor } from "./helpers.ts";

/** A C function long enough to be outlined, calling the C library and the project. */
function cBody(): string {
  const out = ["int transfer_done(struct per *per, int result)", "{", "  int rc = 0;"];
  for (let i = 0; i < 30; i++) out.push(`  rc += per->counts[${i}] * ${i + 3};`);
  out.push(
    "  if(per->infdopen)", // 36
    "    close(per->infd);", // 37
    "  if(result)", // 38
    '    fprintf(per->errors, "failed: %s\\n", strerror(result));', // 39
    "  rc = get_info(per, 1);", // 40
    "  rc = get_info(per, 2);", // 41
    "  if(rc) {", // 42
    "    report(per, rc);", // 43
    "    fflush(per->out);", // 44
    "  }", // 45
    "  free(per->name);", // 46
    "  free(per->url);", // 47
  );
  for (let i = 0; i < 30; i++) out.push(`  rc -= per->counts[${i}] / ${i + 2};`);
  out.push("  return rc;", "}");
  return out.join("\n");
}

const C_FILES = {
  "src/operate.c": [
    '#include "tool.h"', // 1
    "", // 2
    cBody(), // 3-
    "",
  ].join("\n"),
  "src/tool.h": [
    "struct per { int infd; int infdopen; int counts[30]; void *errors; void *out; char *name; char *url; };",
    "int get_info(struct per *per, int what);",
    "void report(struct per *per, int rc);",
    "",
  ].join("\n"),
  "src/info.c": [
    '#include "tool.h"',
    "int get_info(struct per *per, int what)",
    "{",
    "  return per->counts[what];",
    "}",
    "void report(struct per *per, int rc)",
    "{",
    "  per->counts[0] = rc;",
    "}",
    "",
  ].join("\n"),
  "docs/examples/sock.c": [
    "#define close closesocket",
    "int close(int fd) { return 0; }",
    "",
  ].join("\n"),
  "lib/config-dos.h": ["#define strerror(e) strerror_s_((e))", ""].join("\n"),
  "lib/memory.h": ["#define free(ptr) my_free(ptr)", "#define fprintf my_fprintf", ""].join("\n"),
};

Deno.test("explain: a C body's outline sends no C library call to a macro and names a place once", async () => {
  await withExecutor(C_FILES, async (ex) => {
    const p = await callTool(ex, "explain_symbol", {
      symbol_name: "transfer_done",
      max_tokens: 200,
    });
    assert.ok(p.calls, "the outline stands in for the body");
    const text = renderText("explain_symbol", p);
    assert.doesNotMatch(text, /docs\/examples/, text);
    assert.doesNotMatch(text, /config-dos|memory\.h/, text);
    // get_info is named at its first call only.
    assert.equal(text.match(/src\/info\.c:2/g)?.length, 1, text);
    assert.match(text, /^- 40: rc = get_info\(per, 1\); → src\/info\.c:2$/m, text);
    assert.match(text, /^- 41: rc = get_info\(per, 2\);$/m, text);
    // A block's one statement stays (what the `if` does); a bare library call after others goes.
    assert.match(text, /^ {2}- 37: close\(per->infd\);$/m, text);
    assert.doesNotMatch(text, /free\(per->url\)|fflush/, text);
    assert.match(text, /^ {2}- 43: report\(per, rc\); → src\/info\.c:6$/m, text);
  });
});

Deno.test("explain: Python code's calls are not sent to a definition in an examples folder", async () => {
  const body = ["def run(items):", "    total = 0"];
  for (let i = 0; i < 40; i++) body.push(`    total += ${i} * len(items) + ${i} // 3`);
  body.push("    helper(items)", "    show(total)", "    show(total + 1)", "    return total");
  await withExecutor({
    "pkg/run.py": ["from pkg.util import show", "", "", body.join("\n"), ""].join("\n"),
    "pkg/util.py": ["def show(x):", "    print(x)", ""].join("\n"),
    "examples/demo.py": ["def helper(items):", "    return items", ""].join("\n"),
  }, async (ex) => {
    const p = await callTool(ex, "explain_symbol", { symbol_name: "run", max_tokens: 200 });
    const text = renderText("explain_symbol", p);
    assert.doesNotMatch(text, /examples\/demo\.py/, text);
    assert.equal(text.match(/pkg\/util\.py:1/g)?.length, 1, text);
  });
});
