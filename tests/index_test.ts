import assert from "node:assert/strict";
import { Project } from "../src/project/project.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { cleanup, CLI, makeProject, tempIndexDir, writeFiles } from "./helpers.ts";

const FILES: Record<string, string> = {
  "app/models.py": `"""Models."""

MAX_USERS = 100


class User:
    """A user of the system."""

    def __init__(self, name):
        self.name = name

    def greet(self):
        """Say hello."""
        return f"hi {self.name}"


def load_users(path):
    """Load users from a file."""
    return [User(line) for line in open(path)]
`,
  "web/server.ts": `/** Starts the HTTP server. */
export function startServer(port: number): void {
  console.log(port);
}

export class Router {
  /** Adds a route. */
  add(path: string): void {}
}
`,
  "cmd/main.go": `package main

// Run runs the program.
func Run() int { return 0 }

func main() { Run() }
`,
  "README.md": "# Demo\n\nA demo project.\n\n## Usage\n\nRun it.\n",
  ".gitignore": "generated/\n",
  "generated/big.py": "def skipped():\n    pass\n",
  "node_modules/dep/index.js": "function dep() {}\n",
};

Deno.test("index: cold, unchanged, changed, deleted, added", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  try {
    const r1 = await project.reindex();
    assert.equal(r1.files, 4);
    assert.equal(r1.added, 4);
    assert.equal(r1.parsed, 4);
    assert.deepEqual(r1.languages, { go: 1, markdown: 1, python: 1, typescript: 1 });
    assert.deepEqual(r1.errors, []);
    const idx1 = await project.index();
    const names = new Set(idx1.symbols.map((s) => s.qualifiedName));
    for (
      const n of [
        "MAX_USERS",
        "User",
        "User.greet",
        "load_users",
        "startServer",
        "Router.add",
        "Run",
      ]
    ) {
      assert.ok(names.has(n), `missing ${n} in ${[...names].join(", ")}`);
    }
    assert.ok(!idx1.files.has("generated/big.py"), "gitignored file indexed");
    assert.ok(!idx1.files.has("node_modules/dep/index.js"), "node_modules indexed");
    const chunks = await idx1.chunks();
    assert.ok(chunks.some((c) => c.symbol === "load_users" && c.text.includes("def load_users")));

    // Nothing changed: nothing parsed, no new generation.
    const r2 = await project.reindex();
    assert.equal(r2.changed, 0);
    assert.equal(r2.parsed, 0);
    assert.equal(r2.generation, r1.generation);

    // Touch without change: same content hash, not re-parsed.
    const now = new Date(Date.now() + 5000);
    await Deno.utime(`${root}/cmd/main.go`, now, now);
    const r3 = await project.reindex();
    assert.equal(r3.parsed, 0);
    assert.equal(r3.changed, 0);

    // Change one, delete one, add one.
    await writeFiles(root, {
      "cmd/main.go":
        `package main\n\nfunc Run() int { return 1 }\n\nfunc Stop() {}\n\nfunc main() { Run() }\n`,
      "lib/util.rs": "/// Adds.\npub fn add(a: i32, b: i32) -> i32 { a + b }\n",
    });
    await Deno.remove(`${root}/web/server.ts`);
    const r4 = await project.reindex();
    assert.equal(r4.modified, 1);
    assert.equal(r4.added, 1);
    assert.equal(r4.deleted, 1);
    assert.equal(r4.changed, 3);
    assert.equal(r4.parsed, 2);
    assert.equal(r4.files, 4);
    const idx4 = await project.index();
    const names4 = new Set(idx4.symbols.map((s) => s.qualifiedName));
    assert.ok(names4.has("Stop") && names4.has("add"));
    assert.ok(!names4.has("startServer"), "deleted file's symbols remain");
    assert.ok(!(await idx4.chunks()).some((c) => c.file === "web/server.ts"));

    // Force re-parses everything.
    const r5 = await project.reindex({ force: true });
    assert.equal(r5.parsed, 4);
  } finally {
    project.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("index: binary and broken files are recorded, the rest indexed", async () => {
  const root = await makeProject({
    "ok.py": "def fine():\n    return 1\n",
    "broken.py": "def good():\n    return 2\n\ndef bad(:\n    pass\n\nclass Still:\n    pass\n",
    "blob.py": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
  });
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  try {
    const r = await project.reindex();
    assert.equal(r.files, 2);
    assert.equal(r.skipped, 1);
    const idx = await project.index();
    assert.equal(idx.files.get("blob.py")?.skipped, "binary");
    const broken = idx.symbolsByFile.get("broken.py")!.map((s) => s.name);
    assert.ok(broken.includes("good") && broken.includes("Still"), `got ${broken}`);
  } finally {
    project.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("index: a project path that is not a directory is refused", async () => {
  const root = await makeProject({ "a.py": "x = 1\n" });
  try {
    await assert.rejects(
      () => Project.open(`${root}/nope`),
      /does not exist or is not a directory/,
    );
    await assert.rejects(() => Project.open(`${root}/a.py`), /not a directory/);
  } finally {
    await cleanup(root);
  }
});

Deno.test("index: a second store reader sees the committed index", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const writer = await Project.open(root, { indexDir, workers: 0 });
  try {
    await writer.reindex();
  } finally {
    writer.close();
  }
  const reader = await Project.open(root, { indexDir });
  try {
    assert.equal(await reader.state(), "ready");
    const idx = await reader.index();
    assert.equal(idx.files.size, 4);
    assert.ok(idx.symbols.some((s) => s.name === "load_users"));
  } finally {
    reader.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("index: huge, minified and binary-looking files are skipped with their reason", async () => {
  const root = await makeProject({
    "ok.py": "def fine():\n    return 1\n",
    "huge.py": "x = 1\n".repeat(200_000),
    "app.min.js": "var a=function(b){return b+1};".repeat(2_000),
    "blob.py": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
  });
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  try {
    const r = await project.reindex();
    assert.equal(r.files, 1);
    assert.equal(r.skipped, 3);
    const reasons = Object.fromEntries(r.skippedFiles!.map((s) => [s.file, s.reason]));
    assert.deepEqual(reasons, {
      "app.min.js": "minified",
      "blob.py": "binary",
      "huge.py": "too_large",
    });
    assert.match(r.skippedFiles!.find((s) => s.file === "huge.py")!.detail!, /1200000 bytes/);
    assert.equal(r.walkSkips?.too_large, 1);
    const idx = await project.index();
    assert.equal(idx.files.get("app.min.js")?.skipped, "minified");
    assert.deepEqual([...idx.symbolsByFile.keys()], ["ok.py"]);
    // Skipped files are remembered: nothing changed, nothing read again.
    const again = await project.reindex();
    assert.equal(again.changed, 0);
    assert.equal(again.skipped, 3);
    // index_project names them on the wire, with the walk's counts, in snake_case.
    const ex = await createExecutor(project);
    const tool = await ex.execute({ tool_name: "index_project", arguments: { force: true } });
    assert.ok(tool.success, tool.error ?? "");
    const payload = tool.result_payload as Record<string, unknown>;
    assert.deepEqual(
      (payload.skipped_files as Array<{ file: string; reason: string }>)
        .map((s) => `${s.file} ${s.reason}`).sort(),
      ["app.min.js minified", "blob.py binary", "huge.py too_large"],
    );
    assert.equal((payload.walk_skips as Record<string, number>).too_large, 1);
    assert.equal(typeof payload.peak_memory_mib, "number");
    assert.equal("skippedFiles" in payload, false);
  } finally {
    project.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("index: files parsed in workers land in the index as parsed inline", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    files[`pkg/mod_${i}.py`] = `class Thing${i}:\n    def run_${i}(self):\n        return ${i}\n`;
  }
  const root = await makeProject(files);
  const pooled = await tempIndexDir();
  const inline = await tempIndexDir();
  const a = await Project.open(root, { indexDir: pooled, workers: 2 });
  const b = await Project.open(root, { indexDir: inline, workers: 0 });
  try {
    const ra = await a.reindex();
    const rb = await b.reindex();
    assert.equal(ra.parsed, 40);
    assert.equal(ra.symbols, rb.symbols);
    assert.equal(ra.chunks, rb.chunks);
    const [ia, ib] = [await a.index(), await b.index()];
    assert.deepEqual(ia.symbols, ib.symbols);
    assert.deepEqual(await ia.chunks(), await ib.chunks());
    assert.ok(ia.symbols.some((s) => s.qualifiedName === "Thing39.run_39"));
  } finally {
    a.close();
    b.close();
    await cleanup(root, pooled, inline);
  }
});

Deno.test("index: over its memory budget a run fails and the last index stays", async () => {
  const root = await makeProject({ "a.py": "def first():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  try {
    const r1 = await project.reindex();
    await writeFiles(root, { "b.py": "def second():\n    return 2\n" });
    // A new process: loading the parser alone grows it by more than 1 MiB.
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        CLI,
        "index",
        "--max-memory",
        "1",
        "--path",
        root,
        "--index-dir",
        indexDir,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 1);
    assert.match(
      new TextDecoder().decode(out.stderr),
      /over its memory budget of 1 MiB .*--max-memory/,
    );
    const idx = await project.index();
    assert.equal(idx.generation, r1.generation);
    assert.deepEqual([...idx.files.keys()], ["a.py"]);
    const r2 = await project.reindex();
    assert.equal(r2.added, 1);
    assert.ok((await project.index()).symbols.some((s) => s.name === "second"));
  } finally {
    project.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("index: a process already holding more than the budget still re-indexes a change", async () => {
  // A long-lived server holds its search structures; the budget is what a run adds.
  const held = new Uint8Array(160 * 2 ** 20).fill(1);
  const root = await makeProject({ "a.py": "def first():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0, maxMemoryMiB: 100 });
  try {
    assert.ok(Deno.memoryUsage().rss > 100 * 2 ** 20, "the process holds more than the budget");
    await project.reindex();
    await writeFiles(root, { "a.py": "def first():\n    return 1\n\ndef again():\n    pass\n" });
    const r = await project.reindex();
    assert.equal(r.modified, 1);
    assert.ok((await project.index()).symbols.some((s) => s.name === "again"));
    assert.equal(held[held.length - 1], 1);
  } finally {
    project.close();
    await cleanup(root, indexDir);
  }
});
