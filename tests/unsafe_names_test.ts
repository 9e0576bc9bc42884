/**
 * Files whose name cannot be a path of the index (a line break or another control character
 * in it, bytes that are not UTF-8) are left out, and every report of skipped files names
 * them with a reason the user can act on: `index_project`, `codectx index`, `analyze_quality`.
 */

import assert from "node:assert/strict";
import { callTool, type Payload, runCli, tempIndexDir, withExecutor } from "./helpers.ts";

type Skipped = { file: string; reason: string; detail?: string };

/** The summary line `codectx index` prints for `root`. */
async function cliSummary(root: string): Promise<string> {
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["index", "--path", root, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  } finally {
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
}

Deno.test("a name with a line break or a tab is left out whole and listed as skipped, not indexed under its first line", async () => {
  await withExecutor({
    "ok.py": "def ok_fn():\n    return 0\n",
    "new\nline.py": "def cut_name_fn():\n    return 1\n",
    "odd\tdir/inner.py": "def inner_fn():\n    return 2\n",
    "notes\n.png": "not a file codectx reads\n",
  }, async (ex, root) => {
    const report = await callTool(ex, "index_project", {});
    const skipped = report.skipped_files as Skipped[];
    const byFile = new Map(skipped.map((s) => [s.file, s]));
    assert.equal(byFile.get("new\nline.py")?.reason, "control_character_in_name");
    assert.match(byFile.get("new\nline.py")?.detail ?? "", /line break \(\\n\).*rename the file/);
    assert.equal(byFile.get("odd\tdir")?.reason, "control_character_in_name");
    assert.match(byFile.get("odd\tdir")?.detail ?? "", /tab \(\\t\).*rename the folder/);
    // Only files codectx would have read are listed.
    assert.equal(byFile.has("notes\n.png"), false, JSON.stringify(skipped));
    assert.equal(report.skipped, 2);
    assert.equal(report.files, 1);

    // Before: `cut_name_fn` was found in a file named `new`.
    const found = await callTool(ex, "search_symbols", { query: "cut_name_fn" });
    assert.deepEqual((found.symbols as Payload[]).map((s) => s.file), []);
    const inner = await callTool(ex, "search_symbols", { query: "inner_fn" });
    assert.deepEqual((inner.symbols as Payload[]).map((s) => s.file), []);
    const ok = await callTool(ex, "search_symbols", { query: "ok_fn" });
    assert.deepEqual((ok.symbols as Payload[]).map((s) => s.file), ["ok.py"]);

    const quality = await callTool(ex, "analyze_quality", {});
    const qualitySkips = (quality.skipped as Skipped[]).map((s) => `${s.reason} ${s.file}`);
    assert.ok(qualitySkips.includes("control_character_in_name new\nline.py"), `${qualitySkips}`);

    assert.match(await cliSummary(root), /2 skipped \(control_character_in_name 2\)/);
  });
});

/** Runs a shell line in `dir` (names with bytes that are not UTF-8 cannot be written from JS). */
async function sh(dir: string, line: string): Promise<void> {
  const out = await new Deno.Command("sh", { args: ["-c", line], cwd: dir }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

Deno.test("a name that is not UTF-8 is listed as skipped with what to do, not counted as unreadable", async () => {
  await withExecutor({
    "ok.py": "def ok_fn():\n    return 0\n",
    // U+FFFD written as UTF-8 is a valid name: indexed.
    "real\uFFFDname.py": "def replacement_char_fn():\n    return 3\n",
  }, async (ex, root) => {
    // café.py in Latin-1, and a folder whose name has a byte 0xFF.
    await sh(
      root,
      `printf 'def latin_fn():\\n    return 1\\n' > "$(printf 'caf\\351.py')" && ` +
        `mkdir "$(printf 'd\\377ir')" && printf 'def in_dir_fn():\\n    return 2\\n' > "$(printf 'd\\377ir')/x.py"`,
    );
    const report = await callTool(ex, "index_project", {});
    const skipped = report.skipped_files as Skipped[];
    const byFile = new Map(skipped.map((s) => [s.file, s]));
    assert.equal(byFile.get("caf\uFFFD.py")?.reason, "name_not_utf8", JSON.stringify(skipped));
    assert.match(byFile.get("caf\uFFFD.py")?.detail ?? "", /not valid UTF-8.*rename the file/);
    assert.equal(byFile.get("d\uFFFDir")?.reason, "name_not_utf8");
    assert.match(byFile.get("d\uFFFDir")?.detail ?? "", /rename the folder/);
    assert.equal(report.skipped, 2);
    assert.equal((report.walk_skips as Record<string, number>).unreadable, undefined);

    const real = await callTool(ex, "search_symbols", { query: "replacement_char_fn" });
    assert.deepEqual((real.symbols as Payload[]).map((s) => s.file), ["real\uFFFDname.py"]);

    assert.match(await cliSummary(root), /2 skipped \(name_not_utf8 2\)/);
  });
});
