/**
 * Server memory (issues 15 and 18): chunk texts live in a process-private file, not the heap,
 * and read back exactly as the store holds them; the token counter counts as the library
 * does without its decoder table.
 */

import assert from "node:assert/strict";
import { Project } from "../src/project/project.ts";
import { TextSpill } from "../src/store/texts.ts";
import type { ChunkRecord } from "../src/types.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";

function chunk(file: string, start: number, text: string, id?: string): ChunkRecord {
  const end = start + text.split("\n").length - 1;
  return {
    id: id ?? `${file}:${start}-${end}`,
    file,
    startLine: start,
    endLine: end,
    symbol: null,
    kind: null,
    language: "python",
    text,
  };
}

Deno.test("text spill: texts read back exactly (non-ASCII, empty), ids and fields kept", () => {
  const spill = TextSpill.create();
  try {
    assert.ok(spill.spilling, "a temporary file can be made here");
    const input = [
      chunk("a.py", 1, "def f():\n    return 'héllo — 世界 🙂'"),
      chunk("a.py", 3, ""),
      chunk("a.py", 4, "x = 1", "custom-id"),
    ];
    const { chunks, region } = spill.take(input);
    assert.ok(region);
    assert.deepEqual(chunks.map((c) => c.text), input.map((c) => c.text));
    assert.deepEqual(chunks.map((c) => c.id), ["a.py:1-2", "a.py:3-3", "custom-id"]);
    assert.deepEqual(
      chunks.map((c) => [c.file, c.startLine, c.endLine, c.symbol, c.kind, c.language]),
      input.map((c) => [c.file, c.startLine, c.endLine, c.symbol, c.kind, c.language]),
    );
    // Not a copy of the text on the object: no own property holds it.
    assert.ok(!Object.values(chunks[0]).includes(input[0].text));
  } finally {
    spill.close();
  }
});

Deno.test("text spill: compaction drops released blobs and the rest still reads", () => {
  const spill = TextSpill.create();
  try {
    const big = "y".repeat(1024 * 1024);
    const live = [spill.take([chunk("keep.py", 1, "kept text ✓")])];
    const gone = Array.from({ length: 40 }, (_, i) => spill.take([chunk(`g${i}.py`, 1, big)]));
    live.push(spill.take([chunk("keep2.py", 5, "second\nkept")]));
    for (const g of gone) spill.release(g);
    spill.compact(live);
    assert.equal(live[0].chunks[0].text, "kept text ✓");
    assert.equal(live[1].chunks[0].text, "second\nkept");
    // New blobs after a compaction append after the live ones.
    const after = spill.take([chunk("new.py", 1, "after")]);
    assert.equal(after.chunks[0].text, "after");
    assert.equal(live[1].chunks[0].text, "second\nkept");
  } finally {
    spill.close();
  }
});

Deno.test("project: loaded chunks' texts are the store's, file by file", async () => {
  const root = await makeProject({
    "app/a.py": "def a():\n    return 'ä'\n\n\nclass B:\n    def m(self):\n        return 1\n",
    "lib/c.ts": "export function c(x: number): number {\n  return x * 2; // ×2\n}\n",
  });
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  try {
    const index = await project.index();
    const chunks = await index.chunks();
    assert.ok(chunks.length >= 3);
    for (const [path, entry] of index.files) {
      const stored = await project.store.readBlob<ChunkRecord[]>("chunks", entry.blob) ?? [];
      const loaded = chunks.filter((c) => c.file === path);
      assert.deepEqual(
        loaded.map((c) => [c.id, c.startLine, c.endLine, c.text]),
        stored.map((c) => [c.id, c.startLine, c.endLine, c.text]),
      );
    }
  } finally {
    project.close();
    await cleanup(root, indexDir);
  }
});

/**
 * In a fresh process: frees a 1 MiB native block (which had a mapping of its own), then
 * allocates 512 KiB and tells whether that block got a mapping of its own too (mallinfo2's
 * count of mapped blocks rose). `tune` runs `tuneNativeHeap` first.
 */
async function largeBlockMapped(tune: boolean): Promise<boolean> {
  const script = `
    import { tuneNativeHeap } from ${
    JSON.stringify(new URL("../src/util/native_heap.ts", import.meta.url).href)
  };
    if (${tune}) tuneNativeHeap();
    const c = Deno.dlopen("libc.so.6", {
      malloc: { parameters: ["usize"], result: "pointer" },
      free: { parameters: ["pointer"], result: "void" },
      mallinfo2: { parameters: [], result: { struct: ["usize", "usize", "usize", "usize", "usize", "usize", "usize", "usize", "usize", "usize"] } },
    }).symbols;
    const mapped = () => new BigUint64Array(c.mallinfo2().buffer)[3];
    c.free(c.malloc(1n << 20n));
    const before = mapped();
    const p = c.malloc(512n << 10n);
    console.log(mapped() > before);
    c.free(p);
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return new TextDecoder().decode(out.stdout).trim() === "true";
}

Deno.test({
  name:
    "native heap: after tuning, a large block freed does not pull later large ones into the arenas",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    // glibc's own behaviour, which the tuning exists for: the threshold followed the 1 MiB block.
    assert.equal(await largeBlockMapped(false), false);
    assert.equal(await largeBlockMapped(true), true);
  },
});
