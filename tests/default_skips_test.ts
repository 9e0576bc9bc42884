/**
 * Folders skipped by default (`build`, `dist`, `target`, `vendor`, `coverage`) never drop
 * a project's own source: in a git work tree a tracked folder is walked; outside git (or
 * untracked) such a folder is skipped only when it holds no source in the project's
 * languages or a manifest beside it declares it output; every folder skipped by default is
 * named in the index report with how to index it (`!dir/` in `.codectxignore`).
 */

import assert from "node:assert/strict";
import { type SkipReason, walk } from "../src/index/walker.ts";
import { callTool, cleanup, makeProject, tempIndexDir, writeFiles } from "./helpers.ts";
import { createExecutor } from "../src/tools/executor.ts";

async function walkAll(root: string) {
  const skipped: Record<string, { reason: SkipReason; detail?: string }> = {};
  const entries = await walk(root, {
    onSkip: (path, reason, detail) => void (skipped[path] = { reason, detail }),
  });
  return { paths: entries.map((e) => e.path), skipped };
}

async function git(root: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@t", "-c", "user.name=t", ...args],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

/** A TypeScript server whose build engine lives in `src/core/build/`. */
const SERVER = {
  "package.json": JSON.stringify({ name: "srv", main: "dist/index.js" }),
  "src/index.ts": "import { writeTypes } from './core/build/types';\nwriteTypes();\n",
  "src/core/build/types.ts": "export function writeTypes() {\n  return 1;\n}\n",
  "dist/index.js": "exports.x = 1;\n",
  "coverage/lcov-report/sorter.js": "var a = 1;\n",
};

Deno.test("a tracked build/ folder is walked in a git work tree; untracked output is not", async () => {
  const root = await makeProject(SERVER);
  try {
    await git(root, "init", "-q");
    await git(root, "add", "src", "package.json");
    const { paths, skipped } = await walkAll(root);
    assert.ok(paths.includes("src/core/build/types.ts"), paths.join("\n"));
    assert.ok(!paths.includes("dist/index.js"));
    assert.equal(skipped["dist"].reason, "default_skip");
    assert.match(skipped["dist"].detail!, /package\.json's main/);
    assert.match(skipped["dist"].detail!, /`!dist\/` to \.codectxignore/);
    assert.equal(skipped["coverage"].reason, "default_skip");
    assert.equal(skipped[".git"].reason, "default_skip");
  } finally {
    await cleanup(root);
  }
});

Deno.test("outside git, an output-named folder is skipped only when it looks like output", async () => {
  const root = await makeProject({
    ...SERVER,
    // Rust: target/ beside Cargo.toml is output even with .rs files in it.
    "crate/Cargo.toml": '[package]\nname = "c"\n',
    "crate/src/lib.rs": "pub fn f() {}\n",
    "crate/target/debug/build/out.rs": "pub fn generated() {}\n",
    // Go: a vendor/ folder of Go code without modules.txt is the project's own.
    "svc/vendor/pkg/pkg.go": "package pkg\nfunc P() {}\n",
    "svc/main.go": "package main\nfunc main() {}\n",
    // Python: a build/ folder of Python only, beside no packaging manifest.
    "tools/build/make.py": "def make():\n    pass\n",
    "tools/run.py": "from build.make import make\n",
  });
  try {
    const { paths, skipped } = await walkAll(root);
    for (const p of ["src/core/build/types.ts", "svc/vendor/pkg/pkg.go", "tools/build/make.py"]) {
      assert.ok(paths.includes(p), `${p} missing from\n${paths.join("\n")}`);
    }
    assert.equal(skipped["dist"].reason, "default_skip");
    assert.equal(skipped["crate/target"].reason, "default_skip");
    assert.match(skipped["crate/target"].detail!, /Cargo\.toml declares it an output folder/);
    assert.equal(skipped["coverage"].reason, "default_skip");
  } finally {
    await cleanup(root);
  }
});

Deno.test("outside git, JavaScript output of a TypeScript project is not the project's source", async () => {
  const root = await makeProject({
    "src/a.ts": "export const a = 1;\n",
    "dist/a.js": "exports.a = 1;\n",
  });
  try {
    const { paths, skipped } = await walkAll(root);
    assert.deepEqual(paths, ["src/a.ts"]);
    assert.match(skipped["dist"].detail!, /no source \(typescript\)/);
  } finally {
    await cleanup(root);
  }
});

Deno.test(".codectxignore re-includes a folder skipped by default", async () => {
  const root = await makeProject({
    "a.js": "require('x');\n",
    "node_modules/x/index.js": "module.exports = 1;\n",
    "dist/out.js": "exports.o = 1;\n",
    "package.json": JSON.stringify({ main: "dist/out.js" }),
    ".codectxignore": "!node_modules/\n!dist/\n",
  });
  try {
    const { paths } = await walkAll(root);
    assert.ok(paths.includes("node_modules/x/index.js"));
    assert.ok(paths.includes("dist/out.js"));
  } finally {
    await cleanup(root);
  }
});

Deno.test("the index report names each folder skipped by default and how to index it", async () => {
  const root = await makeProject(SERVER);
  const indexDir = await tempIndexDir();
  const ex = await createExecutor(root, {
    indexDir,
    workers: 0,
    embedder: "none",
    timeoutMs: 0,
  });
  try {
    const report = await callTool(ex, "index_project", {});
    const listed = report.skipped_files as Array<{ file: string; reason: string; detail?: string }>;
    const dist = listed.find((s) => s.file === "dist");
    assert.equal(dist?.reason, "default_skip");
    assert.match(dist!.detail!, /add `!dist\/` to \.codectxignore/);
    // The build engine is indexed: its function is found and its importer resolved.
    const explained = await callTool(ex, "explain_symbol", { symbol_name: "writeTypes" });
    assert.equal((explained.symbol as { file: string }).file, "src/core/build/types.ts");
    await writeFiles(root, { ".codectxignore": "!dist/\n" });
    await callTool(ex, "index_project", {});
    const again = await callTool(ex, "explain_file", { file_path: "dist/index.js" });
    assert.equal(again.language, "javascript");
  } finally {
    await ex.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("a bundle that ends with a sourceMappingURL comment is left out as generated", async () => {
  const root = await makeProject({
    "src/lib.js":
      "function getAttrGetter(a) {\n  return a;\n}\nexports.getAttrGetter = getAttrGetter;\n",
    "browser/bundle.js": "/*! bundle */\nfunction getAttrGetter(a) {\n  return a;\n}\n" +
      "//# sourceMappingURL=bundle.js.map\n",
  });
  const indexDir = await tempIndexDir();
  const ex = await createExecutor(root, { indexDir, workers: 0, embedder: "none", timeoutMs: 0 });
  try {
    const report = await callTool(ex, "index_project", {});
    const listed = report.skipped_files as Array<{ file: string; reason: string; detail?: string }>;
    assert.match(
      listed.find((s) => s.file === "browser/bundle.js")?.detail ?? "",
      /sourceMappingURL/,
    );
    const explained = await callTool(ex, "explain_symbol", { symbol_name: "getAttrGetter" });
    assert.equal((explained.symbol as { file: string }).file, "src/lib.js");
    assert.deepEqual(explained.candidates, []);
  } finally {
    await ex.close();
    await cleanup(root, indexDir);
  }
});
