/**
 * Open, don't rebuild (issue 34): an indexing run leaves everything a query reads beside the
 * store — symbol columns, the lexical index, the vectors as the sealed int8 index search
 * scans — so a fresh process's first hybrid search has every vector at once and builds
 * nothing, and a process that finds the vectors file missing makes it once for the next.
 */

import assert from "node:assert/strict";
import { callTool, cleanup, indexedProject } from "./helpers.ts";
import { VECTORS_FILE } from "../src/search/vector_file.ts";
import { upToDate } from "../src/cli/args.ts";
import { projectVectors } from "../src/search/vector_sync.ts";
import type { ProjectService } from "../src/service/service.ts";
import { GRAPH_PARTS_FILE, partsFileBlobs, readPartsFile } from "../src/graph/parts_file.ts";
import { loadGraph } from "../src/graph/graph.ts";

const FILES = {
  "net/url.py":
    "def urlparse(url):\n    '''Split a URL into scheme, host and path.'''\n    return url.split('/')\n",
  "net/mail.py":
    "class Message:\n    '''An email message with headers.'''\n    def send(self, host):\n        return host\n",
  "util/cache.py": "def lru(size):\n    '''Keep the most recent results.'''\n    return {}\n",
};

/** The names of the files in the index folder. */
function folder(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

/** `lib.py`'s `greet`, called from `n` files of `pkg/` (graph.bin is written past 64 parts). */
function greetFiles(n: number): Record<string, string> {
  const files: Record<string, string> = { "lib.py": "def greet(name):\n    return name\n" };
  for (let i = 0; i < n; i++) files[`pkg/m${i}.py`] = `from lib import greet\ngreet(${i})\n`;
  return files;
}

Deno.test("first answer: index_project leaves the files a fresh process's first hybrid search reads", async () => {
  const { root, indexDir, open } = await indexedProject(FILES);
  try {
    for (const f of ["symbols.bin", "chunks.bin", "lexical.bin", VECTORS_FILE]) {
      assert.ok(folder(indexDir).includes(f), `${f} after index_project: ${folder(indexDir)}`);
    }
    const written = Deno.statSync(`${indexDir}/${VECTORS_FILE}`).mtime?.getTime();
    // A fresh process, as an assistant's MCP server: its first search does not wait.
    const fresh = await open();
    let first;
    try {
      first = await callTool(fresh, "semantic_search", { query: "split a url", top_k: 3 });
    } finally {
      await fresh.close();
    }
    const vectors = first.vectors as {
      state: string;
      done: number;
      total: number;
      embedded: number;
    };
    assert.equal(vectors.state, "complete", JSON.stringify(vectors));
    assert.equal(vectors.done, vectors.total);
    assert.equal(vectors.embedded, 0, "nothing embedded by the query's process");
    assert.equal((first.snippets as Array<{ file: string }>)[0].file, "net/url.py");
    // Read, not written again.
    assert.equal(Deno.statSync(`${indexDir}/${VECTORS_FILE}`).mtime?.getTime(), written);

    // Without the file, a process reads the store's blocks, gives the same answer, and
    // writes the file for the next.
    Deno.removeSync(`${indexDir}/${VECTORS_FILE}`);
    const again = await open();
    try {
      await again.service.vectorsReady();
      const r = await callTool(again, "semantic_search", { query: "split a url", top_k: 3 });
      assert.deepEqual(r.snippets, first.snippets);
    } finally {
      await again.close();
    }
    assert.ok(folder(indexDir).includes(VECTORS_FILE));

    // Without the chunk columns, a process reads the chunk blobs, gives the same answer, and
    // writes the file for the next.
    Deno.removeSync(`${indexDir}/chunks.bin`);
    const third = await open();
    try {
      const r = await callTool(third, "semantic_search", { query: "split a url", top_k: 3 });
      assert.deepEqual(r.snippets, first.snippets);
    } finally {
      await third.close();
    }
    assert.ok(folder(indexDir).includes("chunks.bin"), `${folder(indexDir)}`);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("first answer: a --no-update command that does not search leaves the vectors alone", async () => {
  // `codectx explain X --no-update` asked the service's health whether an index was there,
  // and asking health starts the embedding: the process read the chunk table (40% of a
  // fresh explain on the stdlib) for vectors it never used. Here the vectors file is gone,
  // so a started pass would read the store's blocks and write the file again.
  const { root, indexDir, open } = await indexedProject(FILES);
  try {
    Deno.removeSync(`${indexDir}/${VECTORS_FILE}`);
    const fresh = await open();
    try {
      await upToDate(fresh, { "no-update": true });
      const r = await callTool(fresh, "explain_symbol", { symbol_name: "urlparse" });
      assert.equal((r.symbol as { file: string }).file, "net/url.py");
      const project = (fresh.service as ProjectService).project;
      // What an embedding pass reads first, and what explain does not read.
      const held = project.loadedIndex?.memo.held() ?? [];
      assert.ok(!held.includes("chunk table"), held.join(", "));
      const vectors = projectVectors(project).progress();
      assert.equal(vectors.state, "idle", JSON.stringify(vectors));
    } finally {
      await fresh.close();
    }
    assert.ok(!folder(indexDir).includes(VECTORS_FILE), `${folder(indexDir)}`);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("first answer: index_project leaves graph.bin, read unchanged by a fresh process's refs", async () => {
  // The first `explain` or `refs` after `codectx index` parsed every file's graph part from
  // the store's JSON and wrote graph.bin for the next process; the run leaves it now.
  const { root, indexDir, open } = await indexedProject(greetFiles(80));
  try {
    assert.equal(partsFileBlobs(indexDir)?.size, 81, `${folder(indexDir)}`);
    const written = Deno.statSync(`${indexDir}/${GRAPH_PARTS_FILE}`).mtime?.getTime();
    const fresh = await open();
    try {
      await upToDate(fresh, { "no-update": true });
      const r = await callTool(fresh, "find_references", { symbol_name: "greet" });
      assert.equal((r.references as unknown[]).length, 1 + 160);
    } finally {
      await fresh.close();
    }
    assert.equal(Deno.statSync(`${indexDir}/${GRAPH_PARTS_FILE}`).mtime?.getTime(), written);

    // A run that changed nothing reads the file's head only (its key): a file cut off after
    // the head is left as it is by that run; the next graph reads the rest from the store
    // and writes the file whole again.
    const path = `${indexDir}/${GRAPH_PARTS_FILE}`;
    const head = Deno.readFileSync(path).subarray(0, 128);
    Deno.writeFileSync(path, head);
    const again = await open();
    try {
      await callTool(again, "index_project", {});
    } finally {
      await again.close();
    }
    assert.equal(Deno.statSync(path).size, head.length, "the run read the head only");
    const third = await open();
    try {
      await upToDate(third, { "no-update": true });
      const r = await callTool(third, "find_references", { symbol_name: "greet" });
      assert.equal((r.references as unknown[]).length, 1 + 160);
    } finally {
      await third.close();
    }
    assert.equal(partsFileBlobs(indexDir)?.size, 81);
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("first answer: explain and refs resolve the imports of the files that name the symbol, not every file's", async () => {
  // A fresh `codectx explain` or `refs` resolved every file's imports (the whole graph) to
  // answer for one name: on the stdlib, most of its time. Here 10 files import `greet`, 60
  // import something else; the answers are the same, the 60 are left alone.
  const files: Record<string, string> = {
    ...greetFiles(10),
    "other.py": "def thing():\n    return 1\n",
  };
  for (let i = 0; i < 60; i++) files[`use/t${i}.py`] = `from other import thing\nthing()\n`;
  const { root, indexDir, open } = await indexedProject(files);
  try {
    for (
      const [tool, check] of [
        ["find_references", (r: Record<string, unknown>) => (r.references as unknown[]).length],
        ["explain_symbol", (r: Record<string, unknown>) => (r.callers as unknown[]).length],
      ] as const
    ) {
      const fresh = await open();
      try {
        await upToDate(fresh, { "no-update": true });
        const r = await callTool(fresh, tool, { symbol_name: "greet" });
        assert.equal(check(r), tool === "find_references" ? 1 + 20 : 10, JSON.stringify(r));
        const graph = await loadGraph((fresh.service as ProjectService).project);
        assert.equal(graph.files.length, 72);
        assert.ok(graph.linked >= 10 && graph.linked < 20, `${tool}: ${graph.linked} files linked`);
        // What asks every file still has them all.
        assert.equal(graph.importedBy.get("other.py")?.size, 60);
        assert.equal(graph.linked, 72);
      } finally {
        await fresh.close();
      }
    }
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("first answer: graph.bin's reference rows are read when a part's references are asked", async () => {
  // A fresh `explain` or `refs` read the whole of graph.bin (25 MiB on the stdlib, four
  // fifths of it reference rows) to use the rows of the few files that name the symbol. The
  // rows lie apart now, each part's read when asked: here they are overwritten in place after
  // the table was read, and the part's rows are what the file holds then.
  const { root, indexDir } = await indexedProject(greetFiles(80));
  try {
    const file = readPartsFile(indexDir);
    assert.ok(file, `${folder(indexDir)}`);
    assert.equal(file.blobs.size, 81);
    const blob = [...file.blobs].find((b) => file.part(b)!.names.includes("greet"))!;
    const part = file.part(blob)!;
    assert.deepEqual(part.imports.map((i) => i.module), ["lib"]);
    const rows = [...file.packed(blob)!.rows];
    assert.ok(rows.some((b) => b !== 0));
    // Every row of the file zeroed in place (same file): between the key and the table.
    const path = `${indexDir}/${GRAPH_PARTS_FILE}`;
    const bytes = Deno.readFileSync(path);
    const start = ((bytes.indexOf(10) + 1 + 3) & ~3) + 64;
    const tableAt = new DataView(bytes.buffer).getFloat64(bytes.length - 16, true);
    const f = Deno.openSync(path, { write: true });
    try {
      f.seekSync(start, Deno.SeekMode.Start);
      f.writeSync(new Uint8Array(tableAt - start));
    } finally {
      f.close();
    }
    assert.equal(part.refs.length * 4, rows.length);
    assert.ok(part.refs.every((v) => v === 0), "the rows were read before they were asked");
  } finally {
    await cleanup(root, indexDir);
  }
});
