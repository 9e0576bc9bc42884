/**
 * `get_impact` on a real git repository made here (`git init`, a commit, then edits): the
 * working tree against a revision, the same change as a diff (applied or about to be), named
 * symbols, and what it refuses — a revision git does not know, a root without git, a diff
 * that does not apply.
 */

import assert from "node:assert/strict";
import { createExecutor, type Executor } from "../executor.ts";
import type { GetImpactPayload } from "./schema.ts";

const FILES: Record<string, string> = {
  "lib.py": [
    '"""Arithmetic helpers."""',
    "",
    "",
    "def add(a, b):",
    "    return a + b",
    "",
    "",
    "def helper(x):",
    "    return x * 2",
    "",
    "",
    "def unused(x):",
    "    return x - 1",
    "",
  ].join("\n"),
  "app.py": [
    "from lib import add, helper",
    "",
    "",
    "def run(x):",
    "    return add(helper(x), 1)",
    "",
    "",
    "def main():",
    "    print(run(3))",
    "",
  ].join("\n"),
  "tests/test_lib.py": [
    "from lib import add",
    "",
    "",
    "def test_add():",
    "    assert add(1, 2) == 3",
    "",
  ].join("\n"),
  "web/util.ts": [
    "export function greet(name: string): string {",
    "  return `hi ${name}`;",
    "}",
    "",
  ].join("\n"),
  "web/page.ts": [
    'import { greet } from "./util.ts";',
    "",
    "export function page(): string {",
    '  return greet("you");',
    "}",
    "",
  ].join("\n"),
};

/** The edits after the commit: add's signature, helper deleted, unused's body, greet's body. */
const EDITED: Record<string, string> = {
  "lib.py": [
    '"""Arithmetic helpers."""',
    "",
    "",
    "def add(a, b, c=0):",
    "    return a + b + c",
    "",
    "",
    "def unused(x):",
    "    return x - 2",
    "",
  ].join("\n"),
  "web/util.ts": [
    "export function greet(name: string): string {",
    "  return `hello ${name}`;",
    "}",
    "",
  ].join("\n"),
};

async function run(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${path}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
}

/** A repository with `files` committed, then `edited` written over them (not committed). */
async function repository(
  files = FILES,
  edited = EDITED,
): Promise<{ root: string; base: string; cleanup(): Promise<void> }> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "codectx-impact-" }));
  const root = `${base}/repo`;
  await Deno.mkdir(root);
  await write(root, files);
  await run(root, "init", "-q");
  await run(root, "add", ".");
  await run(
    root,
    "-c",
    "user.name=t",
    "-c",
    "user.email=t@example.com",
    "commit",
    "-q",
    "-m",
    "first",
  );
  await write(root, edited);
  return { root, base, cleanup: () => Deno.remove(base, { recursive: true }) };
}

async function impact(ex: Executor, args: Record<string, unknown>) {
  const r = await ex.execute({ tool_name: "get_impact", arguments: args });
  return r;
}

async function payload(ex: Executor, args: Record<string, unknown>): Promise<GetImpactPayload> {
  const r = await impact(ex, args);
  assert.ok(r.success, r.error ?? "");
  return r.result_payload as GetImpactPayload;
}

const changedOf = (p: GetImpactPayload) =>
  p.changed.map((c) => `${c.change} ${c.qualified_name}${c.signature_changed ? " sig" : ""}`)
    .sort();

Deno.test("get_impact: the working tree against HEAD, as a diff, and named", async (t) => {
  const repo = await repository();
  const ex = await createExecutor(repo.root, {
    indexDir: `${repo.base}/index`,
    embedder: "none",
  });
  try {
    assert.ok((await ex.execute({ tool_name: "index_project", arguments: {} })).success);

    await t.step("base HEAD: changed, likely breaks first, hops, tests to run", async () => {
      const p = await payload(ex, {});
      assert.equal(p.source, "base");
      assert.equal(p.base, "HEAD");
      assert.deepEqual(changedOf(p), [
        "deleted helper",
        "modified add sig",
        "modified greet",
        "modified unused",
      ]);
      assert.deepEqual(
        p.risk.likely_breaks.map((b) => [b.qualified_name, b.reason, b.sites[0]]),
        [["helper", "deleted", "app.py:1"], ["add", "signature_changed", "app.py:1"]],
      );
      const at = (name: string) => p.impacted.find((x) => x.qualified_name === name);
      assert.deepEqual([at("run")?.hop, at("run")?.resolution], [1, "exact"]);
      assert.deepEqual(at("main")?.path, ["add", "run", "main"]);
      assert.equal(at("main")?.hop, 2);
      assert.deepEqual([at("page")?.hop, at("page")?.file], [1, "web/page.ts"]);
      assert.equal(at("test_add")?.test, true);
      assert.deepEqual(p.tests_to_run.files, ["tests/test_lib.py"]);
      assert.deepEqual(p.tests_to_run.functions.map((f) => f.qualified_name), ["test_add"]);
      assert.ok(p.risk.public_api.includes("add"));
      assert.deepEqual(
        p.files.map((f) => [f.file, f.status, f.applied]).sort(),
        [["lib.py", "modified", true], ["web/util.ts", "modified", true]],
      );
    });

    await t.step("the base side's definitions are kept by git's blob id", async () => {
      // The first call kept lib.py's definitions at HEAD; the next reads them from there
      // (a definition renamed in the kept copy is what it reports), not from the file.
      const blob = (await run(repo.root, "rev-parse", "HEAD:lib.py")).trim();
      const file = `${repo.base}/index/impact_base.json`;
      const saved = JSON.parse(await Deno.readTextFile(file));
      const rows = saved.entries[`python:${blob}`]?.rows as string[][] | undefined;
      assert.ok(rows, Object.keys(saved.entries).join(", "));
      const helper = rows.find((r) => r[1] === "helper")!;
      helper[0] = helper[1] = "helper_kept";
      await Deno.writeTextFile(file, JSON.stringify(saved));
      assert.ok(changedOf(await payload(ex, {})).includes("deleted helper_kept"));
      await Deno.remove(file);
      assert.ok(changedOf(await payload(ex, {})).includes("deleted helper"));
    });

    await t.step(
      "include_tests false leaves tests out of the impacted, not of the tests",
      async () => {
        const p = await payload(ex, { include_tests: false, depth: 1 });
        assert.ok(!p.impacted.some((x) => x.test), JSON.stringify(p.impacted));
        assert.ok(!p.impacted.some((x) => x.hop > 1));
        assert.deepEqual(p.tests_to_run.files, ["tests/test_lib.py"]);
      },
    );

    await t.step("the same change as a diff: applied, and about to be applied", async () => {
      const diff = await run(repo.root, "diff", "HEAD");
      const applied = await payload(ex, { diff });
      assert.equal(applied.source, "diff");
      assert.deepEqual(changedOf(applied), [
        "deleted helper",
        "modified add sig",
        "modified greet",
        "modified unused",
      ]);
      assert.ok(applied.files.every((f) => f.applied));
      // The reverse diff is a patch the indexed files are the old side of: helper comes back.
      const reverse = await run(repo.root, "diff", "-R", "HEAD");
      const about = await payload(ex, { diff: reverse });
      assert.ok(about.files.every((f) => !f.applied));
      assert.deepEqual(changedOf(about), [
        "added helper",
        "modified add sig",
        "modified greet",
        "modified unused",
      ]);
    });

    await t.step("symbols: named definitions and what reaches them", async () => {
      const p = await payload(ex, { symbols: ["greet"] });
      assert.equal(p.source, "symbols");
      assert.deepEqual(p.impacted.map((x) => x.qualified_name), ["page"]);
    });

    await t.step("a file git does not track yet is added", async () => {
      await Deno.writeTextFile(`${repo.root}/extra.py`, "def extra():\n    return 1\n");
      assert.ok((await ex.execute({ tool_name: "index_project", arguments: {} })).success);
      const p = await payload(ex, {});
      assert.ok(changedOf(p).includes("added extra"), JSON.stringify(changedOf(p)));
      await Deno.remove(`${repo.root}/extra.py`);
    });

    await t.step("bad input says what is wrong", async () => {
      const unknown = await impact(ex, { base: "no-such-branch" });
      assert.equal(unknown.error_code, "invalid_argument");
      assert.match(unknown.error!, /base 'no-such-branch' is not a revision git knows/);
      const option = await impact(ex, { base: "--output=/tmp/x" });
      assert.match(option.error!, /base '--output=\/tmp\/x' is not a revision/);
      const both = await impact(ex, { base: "HEAD", symbols: ["add"] });
      assert.match(both.error!, /pass one of diff, base or symbols/);
      const stale = await impact(ex, {
        diff:
          "--- a/lib.py\n+++ b/lib.py\n@@ -4,2 +4,2 @@\n-def add(x, y):\n+def add(x):\n     return x + y\n",
      });
      assert.equal(stale.error_code, "invalid_argument");
      assert.match(stale.error!, /hunk 1 of 1 \(@@ -4,2 \+4,2 @@\) does not apply to lib\.py/);
      assert.match(
        stale.error!,
        /line 4 reads "def add\(a, b, c=0\):", the diff expects "def add\(x, y\):"/,
      );
      const garbage = await impact(ex, { diff: "not a diff at all" });
      assert.match(garbage.error!, /holds no file with a hunk/);
      const elsewhere = await impact(ex, {
        diff: "--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-a\n+b\n",
      });
      assert.match(elsewhere.error!, /changes nope\.py, which is not in the project/);
    });
  } finally {
    await ex.close();
    await repo.cleanup();
  }
});

Deno.test("get_impact: a root without git works for diff and symbols, not for base", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "codectx-impact-nogit-" }));
  await write(`${base}/p`, FILES);
  const ex = await createExecutor(`${base}/p`, { indexDir: `${base}/index`, embedder: "none" });
  try {
    assert.ok((await ex.execute({ tool_name: "index_project", arguments: {} })).success);
    const r = await impact(ex, {});
    assert.equal(r.error_code, "invalid_argument");
    assert.match(r.error!, /is not inside a git work tree, so base 'HEAD' means nothing here/);
    const named = await payload(ex, { symbols: ["helper"] });
    assert.deepEqual(named.impacted.map((x) => x.qualified_name), ["run", "main"]);
    const diff = await payload(ex, {
      diff:
        "--- a/lib.py\n+++ b/lib.py\n@@ -8,2 +8,2 @@\n-def helper(x):\n+def helper(x, y):\n     return x * 2\n",
    });
    assert.deepEqual(changedOf(diff), ["modified helper sig"]);
    assert.equal(diff.files[0].applied, false);
  } finally {
    await ex.close();
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("get_impact: a file git changed that the index does not read is no indexed file", async () => {
  // `src/README.md` (not indexed) was read as `README.md`, its hunks as that file's.
  const repo = await repository(
    { ...FILES, ".codectxignore": "vendor/\n", "vendor/lib.py": FILES["lib.py"] },
    { "vendor/lib.py": EDITED["lib.py"] },
  );
  const ex = await createExecutor(repo.root, {
    indexDir: `${repo.base}/index`,
    embedder: "none",
  });
  try {
    assert.ok((await ex.execute({ tool_name: "index_project", arguments: {} })).success);
    const p = await payload(ex, {});
    assert.deepEqual(changedOf(p), []);
    assert.deepEqual(p.files.map((f) => f.file), ["vendor/lib.py"]);
  } finally {
    await ex.close();
    await repo.cleanup();
  }
});

Deno.test("get_impact: a file edited since it was indexed has its whole base side parsed", async () => {
  // The index holds lib.py as committed; the tree has a function added above and b's body
  // edited. The index's lines are not the file's: the base side cannot be moved from them.
  const committed = [
    "def a():",
    "    return 1",
    "",
    "",
    "def b():",
    "    return 2",
    "",
    "",
    "def c():",
    "    return 3",
    "",
  ].join("\n");
  const repo = await repository({ "lib.py": committed }, {});
  const ex = await createExecutor(repo.root, {
    indexDir: `${repo.base}/index`,
    embedder: "none",
  });
  try {
    assert.ok((await ex.execute({ tool_name: "index_project", arguments: {} })).success);
    const edited = "def z():\n    return 0\n\n\n" + committed.replace("return 2", "return 22");
    await Deno.writeTextFile(`${repo.root}/lib.py`, edited);
    // Moved from the index's lines, the base side had no `a` where the tree's a is: "added".
    const p = await payload(ex, {});
    assert.deepEqual(changedOf(p), ["modified a", "modified b", "modified c"]);
  } finally {
    await ex.close();
    await repo.cleanup();
  }
});
