/**
 * What a fresh process's `get_impact` reads of the code graph: the imports of the files that
 * name what changed (and, hop by hop, what reached it), not every file's — the first
 * `codectx impact` after `codectx index` resolved the imports of all of them to find who
 * imports the changed file.
 */

import assert from "node:assert/strict";
import { createExecutor } from "../executor.ts";
import { loadGraph } from "../../graph/graph.ts";
import type { ProjectService } from "../../service/service.ts";
import type { GetImpactPayload } from "./schema.ts";

Deno.test("get_impact resolves the imports of the files that name the change, not every file's", async () => {
  // 10 files call `greet` (through an import, and one by a name no import binds), 60 import
  // something else; the answer is the same, the 60 are left alone.
  const files: Record<string, string> = {
    "lib.py": "def greet(name):\n    return name\n",
    "other.py": "def thing():\n    return 1\n",
    "loose/call.py": "def loose():\n    return greet(0)\n",
  };
  for (let i = 0; i < 9; i++) {
    files[`pkg/m${i}.py`] = `from lib import greet\n\n\ndef use${i}():\n    return greet(${i})\n`;
  }
  for (let i = 0; i < 60; i++) files[`use/t${i}.py`] = `from other import thing\nthing()\n`;
  const base = await Deno.makeTempDir({ prefix: "codectx-impact-read-" });
  try {
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(`${base}/p/${path}`.replace(/\/[^/]+$/, ""), { recursive: true });
      await Deno.writeTextFile(`${base}/p/${path}`, text);
    }
    const open = () =>
      createExecutor(`${base}/p`, { indexDir: `${base}/index`, embedder: "none", workers: 0 });
    const indexing = await open();
    try {
      assert.ok((await indexing.execute({ tool_name: "index_project", arguments: {} })).success);
    } finally {
      await indexing.close();
    }
    const fresh = await open();
    try {
      const r = await fresh.execute({
        tool_name: "get_impact",
        arguments: { symbols: ["greet"] },
      });
      assert.ok(r.success, r.error ?? "");
      const p = r.result_payload as GetImpactPayload;
      assert.deepEqual(
        p.impacted.map((x) => `${x.qualified_name} ${x.resolution}`).sort(),
        [...Array.from({ length: 9 }, (_, i) => `use${i} exact`)],
      );
      // The call no import binds resolves to nothing, in a file that does not see lib.py.
      assert.equal(p.changed[0].references, 18); // 9 imports, 9 calls
      const graph = await loadGraph((fresh.service as ProjectService).project);
      assert.equal(graph.files.length, 72);
      assert.ok(graph.linked >= 10 && graph.linked < 20, `${graph.linked} files linked`);
    } finally {
      await fresh.close();
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
