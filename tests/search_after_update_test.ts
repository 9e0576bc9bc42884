/**
 * A fresh process that first brings the index up to date (every CLI command; an MCP server
 * at start) and then searches at once must search with the stored vectors: the update's
 * "completed" event starts a vector pass that only loads `vectors.bin`, and a search that met
 * that pass in flight ran lexical alone — other hits and flat scores, so the text kept ten weak
 * hits (the MCP arm of the assistant bench read ~2× the CLI's characters per search).
 */

import assert from "node:assert/strict";
import { createExecutor } from "../src/tools/executor.ts";
import { upToDate } from "../src/cli/args.ts";
import { callTool, cleanup, makeProject, tempIndexDir } from "./helpers.ts";

const FILES = {
  "net/url.py":
    "def urlparse(url):\n    '''Split a URL into scheme, host and path.'''\n    return url.split('/')\n",
  "net/mail.py":
    "class Message:\n    '''An email message with headers.'''\n    def send(self, host):\n        return host\n",
  "util/cache.py": "def lru(size):\n    '''Keep the most recent results.'''\n    return {}\n",
  "util/text.py": "def wrap(text, width):\n    '''Break text into lines.'''\n    return [text]\n",
};

Deno.test("first search after an update run uses the stored vectors, as a waiting search does", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const open = () => createExecutor(root, { indexDir, workers: 0, timeoutMs: 0 });
  const query = { query: "keep recent results around", top_k: 4 };
  try {
    const indexing = await open();
    let waited;
    try {
      await callTool(indexing, "index_project", {});
      await indexing.service.vectorsReady();
      waited = await callTool(indexing, "semantic_search", query);
    } finally {
      await indexing.close();
    }
    const fresh = await open();
    try {
      await upToDate(fresh, {});
      const first = await callTool(fresh, "semantic_search", query);
      assert.deepEqual(first.snippets, waited.snippets);
    } finally {
      await fresh.close();
    }
  } finally {
    await cleanup(root, indexDir);
  }
});
