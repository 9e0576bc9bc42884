/**
 * A part read from `graph.bin` reads its reference rows when first asked, from the file the
 * table was read from: that file stays open while the part is held, even after the
 * `PartsFile` that gave it is gone (a fresh `codectx impact --base REV`, the first call after
 * `codectx index`, failed with "Bad resource ID": the file was closed when the garbage
 * collector took the `PartsFile`, and the reach walk then asked a part's rows).
 */

import assert from "node:assert/strict";
import { callTool, cleanup, makeProject, tempIndexDir } from "./helpers.ts";
import { createExecutor } from "../src/tools/executor.ts";

Deno.test("parts file: a part's rows are read after its PartsFile was collected", async () => {
  // 70 files: graph.bin is written past 64 parts.
  const files: Record<string, string> = {};
  for (let i = 0; i < 70; i++) files[`m${i}.py`] = `def f${i}():\n    return f${i}\n`;
  const root = await makeProject(files);
  const indexDir = await tempIndexDir();
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    const indexing = await createExecutor(root, { indexDir, workers: 0, timeoutMs: 0 });
    try {
      await callTool(indexing, "index_project", {});
    } finally {
      await indexing.close();
    }
    const module = new URL("../src/graph/parts_file.ts", import.meta.url).href;
    // The PartsFile dropped, the collector run and its finalizers given their turn, then the
    // parts' rows asked (a process of its own: `gc` is exposed there).
    await Deno.writeTextFile(
      script,
      `import { readPartsFile } from ${JSON.stringify(module)};
const parts = (() => {
  const file = readPartsFile(${JSON.stringify(indexDir)})!;
  return [...file.blobs].map((b) => file.part(b)!);
})();
for (let i = 0; i < 5; i++) {
  (globalThis as unknown as { gc(): void }).gc();
  await new Promise((ok) => setTimeout(ok, 10));
}
console.log(parts.reduce((n, p) => n + p.refs.length, 0));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-lock", "--v8-flags=--expose-gc", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assert.ok(out.success, err);
    assert.ok(Number(new TextDecoder().decode(out.stdout)) > 0);
  } finally {
    await Deno.remove(script);
    await cleanup(root, indexDir);
  }
});
