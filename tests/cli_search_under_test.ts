/**
 * `codectx search --mode exact` (and regex) that finds a few lines in code says the branch heads
 * that hold each, read from the file: issue 35's answerers asked "where is this error raised and
 * what has to be true for it", found the line with an exact search and then read the lines above
 * it with `sed` (curl's `Empty reply from server`, 17 lines for the `if` above it; nats'
 * `Connection throttling is active`, 19 lines for two `if`s). A search of more lines is a list
 * to scan and stays one line a hit.
 */

import assert from "node:assert/strict";
import { cleanup, makeProject, runCli, tempIndexDir } from "./helpers.ts";

const FILES = {
  "server/server.go": [
    "package server", // 1
    "", // 2
    "func (s *Server) createClient(c *client, tlsRequired bool) *client {", // 3
    "\tisClosed := c.closed()", // 4
    "\tif !isClosed && tlsRequired {", // 5
    "\t\tif s.rate != nil &&", // 6
    "\t\t\t!s.rate.allow() {", // 7
    '\t\t\tc.sendErr("Connection throttling is active")', // 8
    "\t\t\treturn nil", // 9
    "\t\t}", // 10
    "\t}", // 11
    "\treturn c", // 12
    "}", // 13
    "",
  ].join("\n"),
  "lib/http.c": [
    "int http_done(struct conn *conn, int premature)", // 1
    "{", // 2
    "  if(!premature && /* pointless when done early */", // 3
    "     conn->bytecount <= 0) {", // 4
    '    failf(conn, "Empty reply from server");', // 5
    '    streamclose(conn, "Empty reply from server");', // 6
    "    return 52;", // 7
    "  } else", // 8
    '    failf(conn, "Sent after a reply");', // 9
    "  return 0;", // 10
    "}", // 11
    "",
  ].join("\n"),
  "ssl/record.c": [
    "int get_record(SSL *s, int v) {", // 1
    "  if (v == 1)", // 2
    "    SSLfatal(s, SSL_AD_PROTOCOL,", // 3
    "             SSL_R_WRONG_VERSION);", // 4
    "  if (v == 2)", // 5
    "    SSLfatal(s, SSL_AD_PROTOCOL,", // 6
    "             SSL_R_WRONG_VERSION);", // 7
    "  if (v == 3)", // 8
    "    SSLfatal(s, SSL_AD_PROTOCOL,", // 9
    "             SSL_R_WRONG_VERSION);", // 10
    "  if (v == 4)", // 11
    "    SSLfatal(s, SSL_AD_PROTOCOL,", // 12
    "             SSL_R_WRONG_VERSION);", // 13
    "  return 0;", // 14
    "}", // 15
    "",
  ].join("\n"),
  "pkg/request.py": [
    "class Request:", // 1
    "    def set_url(self, url):", // 2
    "        self.url = url", // 3
    '        if "://" not in url:', // 4
    '            raise ValueError("Missing scheme in request url")', // 5
    "", // 6
    'ALL = ["one", "two"]', // 7
    'NAMES = ["one", "two", "three", "four"]', // 8
    "def pick(i):", // 9
    "    if i:", // 10
    '        return "one" + NAMES[0]', // 11
    '    return "two" + "three" + "four"', // 12
    "def check(sql, autogen):", // 13
    "    if autogen:", // 14
    "        if sql:", // 15
    "            raise CommandError(", // 16
    '                "Using --sql with --autogenerate does not make any sense"', // 17
    "            )", // 18
    "",
  ].join("\n"),
};

Deno.test("codectx search --mode exact: a few hits in code come with the heads that hold them", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  try {
    const base = ["--mode", "exact", "--path", root, "--index-dir", indexDir];
    const go = await runCli(["search", "Connection throttling is active", ...base]);
    assert.equal(go.code, 0, go.stderr);
    assert.match(
      go.stdout,
      /^server\/server\.go:8 in .*createClient: .*\n {2}under 5 if !isClosed && tlsRequired; 6 if s\.rate != nil && !s\.rate\.allow\(\)$/m,
      go.stdout,
    );
    const c = await runCli(["search", "Empty reply from server", ...base]);
    // One condition over two lines, its comment left out, said once for the two hits it holds.
    assert.match(
      c.stdout,
      /^ {2}5 in http_done: failf\(conn, "Empty reply from server"\);\n {4}under 3 if\(!premature && conn->bytecount <= 0\)\n {2}6: streamclose/m,
      c.stdout,
    );
    assert.equal(c.stdout.match(/under/g)?.length, 1, c.stdout);
    // An `else` comes with the `if` it is the other branch of.
    const other = await runCli(["search", "Sent after a reply", ...base]);
    assert.match(
      other.stdout,
      /\n {2}under 3 if\(!premature && conn->bytecount <= 0\); 8 else$/m,
      other.stdout,
    );
    const py = await runCli(["search", "Missing scheme", ...base]);
    assert.match(py.stdout, /\n {2}under 4 if ":\/\/" not in url:$/m, py.stdout);
    // A message on a line of its own: the statement it is an argument of, then its heads.
    const raised = await runCli(["search", "does not make any sense", ...base]);
    assert.match(
      raised.stdout,
      /^pkg\/request\.py:17 in check: "Using --sql .*\n {2}statement 16: raise CommandError\(; under 14 if autogen:; 15 if sql:$/m,
      raised.stdout,
    );
    // Four hits: no heads, but a hit on a call's second line names the call's first.
    const four = await runCli(["search", "WRONG_VERSION", ...base]);
    assert.doesNotMatch(four.stdout, /under/, four.stdout);
    assert.match(
      four.stdout,
      /^ {2}4 in get_record: SSL_R_WRONG_VERSION\);\n {4}statement 3: SSLfatal\(s, SSL_AD_PROTOCOL,$/m,
      four.stdout,
    );
    assert.equal(four.stdout.match(/statement/g)?.length, 4, four.stdout);
    // A line at a file's top level has nothing above it; four hits are a list, not read.
    const top = await runCli(["search", "NAMES = [", ...base]);
    assert.doesNotMatch(top.stdout, /under/, top.stdout);
    const many = await runCli([
      "search",
      '"one"|"two"|"three"',
      "--mode",
      "regex",
      ...base.slice(2),
    ]);
    assert.match(many.stdout, /^\d+ results/, many.stdout);
    assert.doesNotMatch(many.stdout, /under/, many.stdout);
  } finally {
    await cleanup(root, indexDir);
  }
});
