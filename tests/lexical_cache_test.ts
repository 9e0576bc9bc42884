/**
 * `lexical.bin` is written by the indexing run (`index_project`), laid out from the manifest
 * alone, and is the file the first lexical query of a fresh process reads: the query does
 * not build or rewrite it, and answers as a process that built the index itself.
 */

import assert from "node:assert/strict";
import { createExecutor } from "../src/tools/executor.ts";
import { callTool, cleanup, makeProject, tempIndexDir } from "./helpers.ts";

Deno.test("index_project writes lexical.bin; a fresh process's first lexical query reads it", async () => {
  const root = await makeProject({
    "net/socket.c":
      "int sock_create(int family) {\n  return family + 1;\n}\n\nvoid sock_release(void) {}\n",
    "empty.c": "",
    "mm/alloc.c": "/* Allocates pages. */\nvoid *alloc_pages(int order) {\n  return 0;\n}\n",
    "docs/README.md": "# Sockets\n\nHow sock_create allocates pages.\n",
    "min.js": "var a=1;".repeat(4000),
  });
  const indexDir = await tempIndexDir();
  const open = () => createExecutor(root, { indexDir, workers: 0, embedder: "none", timeoutMs: 0 });
  const asks = ["sock create", "alloc pages", "release", "allocates pages socket"];
  const search = (ex: Awaited<ReturnType<typeof open>>, query: string) =>
    callTool(ex, "semantic_search", { query, mode: "lexical", top_k: 5 });
  try {
    const first = await open();
    try {
      await callTool(first, "index_project", {});
    } finally {
      await first.close();
    }
    const path = `${indexDir}/lexical.bin`;
    const written = (await Deno.stat(path)).mtime?.getTime();
    assert.ok(written);
    const reading = await open();
    const answers = [];
    try {
      for (const q of asks) answers.push(await search(reading, q));
    } finally {
      await reading.close();
    }
    // Read, not built again: the file is the one the indexing run wrote.
    assert.equal((await Deno.stat(path)).mtime?.getTime(), written);
    assert.ok(JSON.stringify(answers[0]).includes("sock_create"));
    // A process without the file builds the same index from the chunk table.
    await Deno.remove(path);
    const building = await open();
    try {
      for (const [i, q] of asks.entries()) {
        assert.deepEqual(await search(building, q), answers[i], q);
      }
    } finally {
      await building.close();
    }
    // Indexing again with nothing changed leaves the file alone.
    const rebuilt = (await Deno.stat(path)).mtime?.getTime();
    const again = await open();
    try {
      await callTool(again, "index_project", {});
    } finally {
      await again.close();
    }
    assert.equal((await Deno.stat(path)).mtime?.getTime(), rebuilt);
  } finally {
    await cleanup(root, indexDir);
  }
});
