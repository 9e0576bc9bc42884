/**
 * `lexical.bin` written after an indexing run (`writeLexicalFile`, which `index_project`
 * calls for a large index) is laid out from the manifest alone and is the file the first
 * lexical query of a fresh process reads: the query does not build or rewrite it, and
 * answers as a process that built the index itself.
 */

import assert from "node:assert/strict";
import { Project } from "../src/project/project.ts";
import { DEFAULT_BM25 } from "../src/search/lexical.ts";
import { workerBuilds, writeLexicalFile } from "../src/search/lexical_cache.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { callTool, cleanup, makeProject, tempIndexDir } from "./helpers.ts";

Deno.test("lexical.bin written after indexing is what a fresh process's first lexical query reads", async () => {
  const root = await makeProject({
    "net/socket.c":
      "int sock_create(int family) {\n  return family + 1;\n}\n\nvoid sock_release(void) {}\n",
    "empty.c": "",
    "mm/alloc.c": "/* Allocates pages. */\nvoid *alloc_pages(int order) {\n  return 0;\n}\n",
    "docs/README.md": "# Sockets\n\nHow sock_create allocates pages.\n",
    "min.js": "var a=1;".repeat(4000),
  });
  const indexDir = await tempIndexDir();
  const path = `${indexDir}/lexical.bin`;
  const open = () => createExecutor(root, { indexDir, workers: 0, embedder: "none", timeoutMs: 0 });
  const asks = ["sock create", "alloc pages", "release", "allocates pages socket"];
  const search = (ex: Awaited<ReturnType<typeof open>>, query: string) =>
    callTool(ex, "semantic_search", { query, mode: "lexical", top_k: 5 });
  const exists = () => Deno.stat(path).then(() => true, () => false);
  try {
    // index_project (a process's first run) leaves lexical.bin, however small the index:
    // the next process's first query reads it (issue 34).
    const first = await open();
    try {
      await callTool(first, "index_project", {});
    } finally {
      await first.close();
    }
    assert.equal(await exists(), true);
    await Deno.remove(path);
    const project = await Project.open(root, { indexDir, workers: 0 });
    try {
      assert.equal(await writeLexicalFile(project, DEFAULT_BM25, 0), true);
      assert.equal(await writeLexicalFile(project, DEFAULT_BM25, 0), false, "already there");
      // A worker (what a large index uses) writes the same bytes.
      const here = await Deno.readFile(path);
      await Deno.remove(path);
      const before = workerBuilds.count;
      assert.equal(await writeLexicalFile(project, DEFAULT_BM25, 0, true), true);
      assert.equal(workerBuilds.count, before + 1, "built by the worker");
      assert.deepEqual(await Deno.readFile(path), here);
    } finally {
      project.close();
    }
    const written = (await Deno.stat(path)).mtime?.getTime();
    const reading = await open();
    const answers = [];
    try {
      for (const q of asks) answers.push(await search(reading, q));
    } finally {
      await reading.close();
    }
    // Read, not built again: the file is the one written after indexing.
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
    assert.equal(await exists(), true);
  } finally {
    await cleanup(root, indexDir);
  }
});
