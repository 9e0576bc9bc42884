/**
 * A fresh process that first brings the index up to date (every CLI command; an MCP server
 * at start) and then searches at once must search with the stored vectors: the update's
 * "completed" event starts a vector pass that only loads `vectors.bin`, and a search that met
 * that pass in flight ran lexical alone — other hits and flat scores, so the text kept ten weak
 * hits (the MCP arm of the assistant bench read ~2× the CLI's characters per search).
 */

import assert from "node:assert/strict";
import { createExecutor } from "../src/tools/executor.ts";
import { projectVectors } from "../src/search/vector_sync.ts";
import { chunkTable } from "../src/search/table.ts";
import type { ProjectService } from "../src/service/service.ts";
import { callTool, cleanup, makeProject, tempIndexDir } from "./helpers.ts";

const FILES = {
  "store/memo.py": "def remember(key):\n    '''Keep the most recent results.'''\n    return key\n",
  "text/wrap.py": "def wrap(text, width):\n    '''Break text into lines.'''\n    return [text]\n",
};

Deno.test("a search that meets a vector pass loading the stored vectors waits for them", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const open = () => createExecutor(root, { indexDir, workers: 0, timeoutMs: 0 });
  try {
    const indexing = await open();
    try {
      await callTool(indexing, "index_project", {});
    } finally {
      await indexing.close();
    }
    const fresh = await open();
    try {
      const project = (fresh.service as ProjectService).project;
      const table = await chunkTable(project);
      const sync = projectVectors(project);
      // The pass an update run's end starts: it loads vectors.bin.
      sync.start();
      await sync.openStored(table);
      assert.ok(sync.vectorsFor(table), "the stored vectors, not a lexical search");
      assert.equal(sync.progress().state, "complete");
    } finally {
      await fresh.close();
    }
  } finally {
    await cleanup(root, indexDir);
  }
});
