/**
 * Paths a user gives: resolved where the system would open them, kept when they land inside
 * the root (also after leaving it: `./../proj/a.py`), refused as outside otherwise.
 */

import assert from "node:assert/strict";
import { resolveInRoot } from "../src/index/paths.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { cleanup, tempIndexDir } from "./helpers.ts";

/** `base/proj` (the root, holding `a.py` and `src/b.py`), `base/proj-evil/a.py` beside it, and
 * `base/link` → the root. */
async function layout() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "codectx-paths-" }));
  const root = `${base}/proj`;
  await Deno.mkdir(`${root}/src`, { recursive: true });
  await Deno.writeTextFile(`${root}/a.py`, "def alpha():\n    return 1\n");
  await Deno.writeTextFile(`${root}/src/b.py`, "def beta():\n    return 2\n");
  await Deno.mkdir(`${base}/proj-evil`);
  await Deno.writeTextFile(`${base}/proj-evil/a.py`, "def evil():\n    return 3\n");
  await Deno.symlink(root, `${base}/link`);
  return { base, root };
}

Deno.test("a path that leaves the root and comes back inside is resolved, not refused", async () => {
  const { base, root } = await layout();
  try {
    assert.equal(resolveInRoot(root, "./../proj/a.py"), "a.py");
    assert.equal(resolveInRoot(root, "../proj/src/../src/b.py"), "src/b.py");
    assert.equal(resolveInRoot(root, "src/../../proj"), "");
    assert.equal(resolveInRoot(root, `${root}/../proj/a.py`), "a.py");
    // Through a link to the root from outside, as the system opens it.
    assert.equal(resolveInRoot(root, "../link/a.py"), "a.py");
    assert.equal(resolveInRoot(root, `${base}/link/src/b.py`), "src/b.py");
    // A file that does not exist yet inside the root: the caller says not found.
    assert.equal(resolveInRoot(root, "../proj/missing.py"), "missing.py");
    // Still outside: a neighbour whose name starts like the root's, the parent, elsewhere.
    for (const outside of ["../proj-evil/a.py", "..", "../../etc/passwd", "/etc/passwd"]) {
      assert.throws(() => resolveInRoot(root, outside), /outside the project root/, outside);
    }
    assert.equal(resolveInRoot(root, "src/../a.py"), "a.py");
  } finally {
    await cleanup(base);
  }
});

Deno.test("tools take ./../proj/a.py as a.py; ../proj-evil/a.py stays outside_root", async () => {
  const { base, root } = await layout();
  const indexDir = await tempIndexDir();
  const ex = await createExecutor(root, { indexDir, workers: 0, embedder: "none" });
  try {
    const r = await ex.execute({
      tool_name: "explain_file",
      arguments: { file_path: "./../proj/a.py" },
    });
    assert.equal(r.success, true, r.error ?? "");
    assert.equal(r.result_payload.file, "a.py");
    const refs = await ex.execute({
      tool_name: "find_references",
      arguments: { symbol_name: "beta", file_path: "../proj/src/b.py" },
    });
    assert.equal(refs.success, true, refs.error ?? "");
    const evil = await ex.execute({
      tool_name: "explain_file",
      arguments: { file_path: "./../proj-evil/a.py" },
    });
    assert.equal(evil.error_code, "outside_root", JSON.stringify(evil));
  } finally {
    await ex.close();
    await cleanup(base, indexDir);
  }
});
