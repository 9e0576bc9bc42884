/**
 * Tests for the project walker: git's ignore semantics, default skips, symlinks, limits
 * (binary files: `walker_binary_test.ts`).
 */

import assert from "node:assert/strict";
import { DEFAULT_SKIP_DIRS, type SkipReason, walk } from "../src/index/walker.ts";

/** Writes `files` (path → content, or a byte count for a filler file) under `root`. */
async function writeTree(root: string, files: Record<string, string | number>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const abs = `${root}/${path}`;
    await Deno.mkdir(abs.slice(0, abs.lastIndexOf("/")), { recursive: true });
    if (typeof content === "number") await Deno.writeFile(abs, new Uint8Array(content).fill(97));
    else await Deno.writeTextFile(abs, content);
  }
}

/** Runs `walk` and collects what it returned and what it skipped, and why. */
async function walkAll(root: string, opts: Parameters<typeof walk>[1] = {}) {
  const skipped: Record<string, SkipReason> = {};
  const entries = await walk(root, {
    ...opts,
    onSkip: (path, reason) => {
      assert.equal(skipped[path], undefined, `${path} reported twice`);
      skipped[path] = reason;
    },
  });
  return { entries, paths: entries.map((e) => e.path), skipped };
}

/** A temp dir holding `root/` (the project) and `outside/` (a neighbour), removed after `fn`. */
async function withTemp(fn: (root: string, outside: string) => Promise<void>): Promise<void> {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "codectx_walker_" }));
  try {
    await Deno.mkdir(`${tmp}/root`);
    await Deno.mkdir(`${tmp}/outside`);
    await fn(`${tmp}/root`, `${tmp}/outside`);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

async function run(cmd: string, args: string[], cwd: string, stdin?: Uint8Array) {
  const child = new Deno.Command(cmd, {
    args,
    cwd,
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin) {
    const writer = child.stdin.getWriter();
    await writer.write(stdin);
    await writer.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

const ROOT_GITIGNORE = [
  "# logs everywhere, but keep one",
  "*.log",
  "!important.log",
  "logs/",
  "/anchored.txt",
  "**/*.gen.ts",
  "secret/",
  "!secret/keep.txt",
  "docs/naïve-*.txt",
  "",
].join("\n");

/** The main fixture: every rule kind, default skips, limits and symlinks. */
async function buildFixture(root: string, outside: string): Promise<void> {
  await writeTree(root, {
    ".gitignore": ROOT_GITIGNORE,
    ".codectxignore": "*.secret\n",
    ".git/info/exclude": "excluded-by-info.txt\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    "a.ts": "export const a = 1;\n",
    "app.log": "log\n",
    "important.log": "keep me\n",
    "anchored.txt": "root only\n",
    "excluded-by-info.txt": "x\n",
    "keys.secret": "hunter2\n",
    "big.txt": 2 * 1024 * 1024,
    "logs/important.log": "inside an excluded dir\n",
    "secret/keep.txt": "negation cannot re-include\n",
    "node_modules/pkg/index.js": "module.exports = 1;\n",
    "dist/bundle.js": "x\n",
    "src/.gitignore": "!*.log\n/local.ts\ngenerated/\n",
    "src/main.ts": "import './x.gen.ts';\n",
    "src/anchored.txt": "not at root, kept\n",
    "src/logs": "a file, not a dir: logs/ does not match\n",
    "src/build": "a file named like a skipped dir\n",
    "src/x.gen.ts": "gen\n",
    "src/deep/y.gen.ts": "gen\n",
    "src/debug.log": "re-included by src/.gitignore\n",
    "src/local.ts": "anchored to src/\n",
    "src/deep/local.ts": "not anchored here\n",
    "src/generated/out.ts": "x\n",
    "src/__pycache__/main.cpython-311.pyc": "x\n",
    "src/node_modules/dep/index.js": "x\n",
    "docs/café.md": "# Café\n",
    "docs/日本語.ts": "export const 名前 = 1;\n",
    "docs/emoji-🎉.txt": "🎉\n",
    "docs/naïve-1.txt": "ignored by a unicode pattern\n",
    "shared/util.ts": "export const u = 1;\n",
  });
  await writeTree(outside, { "x.ts": "outside\n", "lib/y.ts": "outside\n" });
  await Deno.symlink("a.ts", `${root}/link-to-a.ts`);
  await Deno.symlink("shared", `${root}/shared-link`);
  await Deno.symlink(".", `${root}/loop`);
  await Deno.symlink("../..", `${root}/src/deep/up`);
  await Deno.symlink(`${outside}/lib`, `${root}/outside`);
  await Deno.symlink(`${outside}/x.ts`, `${root}/outside-file.ts`);
  await Deno.symlink("missing.ts", `${root}/dangling`);
  await run("mkfifo", [`${root}/fifo`], root);
}

const FIXTURE_PATHS = [
  ".codectxignore",
  ".gitignore",
  "a.ts",
  "docs/café.md",
  "docs/emoji-🎉.txt",
  "docs/日本語.ts",
  "important.log",
  "link-to-a.ts",
  "shared-link/util.ts",
  "shared/util.ts",
  "src/.gitignore",
  "src/anchored.txt",
  "src/build",
  "src/debug.log",
  "src/deep/local.ts",
  "src/logs",
  "src/main.ts",
];

const FIXTURE_SKIPS: Record<string, SkipReason> = {
  ".git": "default_skip",
  "app.log": "ignored",
  "anchored.txt": "ignored",
  "excluded-by-info.txt": "ignored",
  "keys.secret": "ignored",
  "big.txt": "too_large",
  "logs": "ignored",
  "secret": "ignored",
  "node_modules": "default_skip",
  "dist": "default_skip",
  "src/x.gen.ts": "ignored",
  "src/deep/y.gen.ts": "ignored",
  "src/local.ts": "ignored",
  "src/generated": "ignored",
  "src/__pycache__": "default_skip",
  "src/node_modules": "default_skip",
  "src/deep/up": "symlink_loop",
  "docs/naïve-1.txt": "ignored",
  "loop": "symlink_loop",
  "outside": "symlink_outside_root",
  "outside-file.ts": "symlink_outside_root",
  "dangling": "unreadable",
  "fifo": "unreadable",
};

Deno.test("walk returns exactly the files git would keep, and says why it skipped the rest", async () => {
  await withTemp(async (root, outside) => {
    await buildFixture(root, outside);
    const { paths, skipped } = await walkAll(root);
    assert.deepEqual(paths, [...FIXTURE_PATHS].sort());
    assert.deepEqual(skipped, FIXTURE_SKIPS);
  });
});

Deno.test("walk entries carry absolute paths, sizes and mtimes, sorted by path", async () => {
  await withTemp(async (root, outside) => {
    await buildFixture(root, outside);
    const { entries } = await walkAll(root);
    const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : 1));
    assert.deepEqual(entries, sorted);
    for (const entry of entries) {
      assert.equal(entry.absPath, `${root}/${entry.path}`);
      const info = await Deno.stat(entry.absPath);
      assert.equal(entry.size, info.size);
      assert.equal(entry.mtimeMs, info.mtime?.getTime());
    }
    const link = entries.find((e) => e.path === "link-to-a.ts");
    assert.equal(link?.size, "export const a = 1;\n".length);
  });
});

Deno.test("walk resolves the root with realPath", async () => {
  await withTemp(async (root) => {
    await writeTree(root, { "a.ts": "x\n" });
    const alias = `${root}-alias`;
    await Deno.symlink(root, alias);
    try {
      const { entries } = await walkAll(alias);
      assert.deepEqual(entries.map((e) => e.absPath), [`${root}/a.ts`]);
    } finally {
      await Deno.remove(alias);
    }
  });
});

Deno.test("walk throws when the root does not exist", async () => {
  await assert.rejects(walk("/nonexistent/codectx/root"), Deno.errors.NotFound);
});

Deno.test("accept and maxFileSize filter files after ignore rules", async () => {
  await withTemp(async (root) => {
    await writeTree(root, {
      ".gitignore": "*.log\n",
      "small.ts": "1\n",
      "large.ts": 100,
      "notes.md": "x\n",
      "app.log": "x\n",
    });
    const seen: string[] = [];
    const { paths, skipped } = await walkAll(root, {
      maxFileSize: 10,
      accept: (path) => {
        seen.push(path);
        return path.endsWith(".ts");
      },
    });
    assert.deepEqual(paths, ["small.ts"]);
    assert.deepEqual(skipped, {
      ".gitignore": "not_accepted",
      "large.ts": "too_large",
      "notes.md": "not_accepted",
      "app.log": "ignored",
    });
    assert.deepEqual(seen.sort(), [".gitignore", "large.ts", "notes.md", "small.ts"]);
  });
});

Deno.test("a file exactly at maxFileSize is kept, one byte over is not", async () => {
  await withTemp(async (root) => {
    await writeTree(root, { "at.txt": 1_048_576, "over.txt": 1_048_577 });
    const { paths, skipped } = await walkAll(root);
    assert.deepEqual(paths, ["at.txt"]);
    assert.deepEqual(skipped, { "over.txt": "too_large" });
  });
});

Deno.test(".codectxignore and extraIgnores outrank .gitignore, extraIgnores last", async () => {
  await withTemp(async (root) => {
    await writeTree(root, {
      ".gitignore": "*.gen\n",
      ".codectxignore": "!keep.gen\n*.secret\nfixtures/\n",
      "keep.gen": "x\n",
      "drop.gen": "x\n",
      "keys.secret": "x\n",
      "public.secret": "x\n",
      "fixtures/a.ts": "x\n",
      "src/fixtures/b.ts": "x\n",
      "src/main.ts": "x\n",
    });
    const { paths, skipped } = await walkAll(root, {
      extraIgnores: ["!public.secret", "/src/main.ts"],
    });
    assert.deepEqual(paths, [".codectxignore", ".gitignore", "keep.gen", "public.secret"]);
    assert.deepEqual(skipped, {
      "drop.gen": "ignored",
      "keys.secret": "ignored",
      "fixtures": "ignored",
      "src/fixtures": "ignored",
      "src/main.ts": "ignored",
    });
  });
});

Deno.test("info/exclude is found through a .git file (worktree or submodule)", async () => {
  await withTemp(async (root, outside) => {
    await writeTree(outside, {
      "repo.git/worktrees/wt/commondir": "../..\n",
      "repo.git/info/exclude": "local-only.txt\n",
    });
    await writeTree(root, {
      ".git": `gitdir: ${outside}/repo.git/worktrees/wt\n`,
      "local-only.txt": "x\n",
      "a.ts": "x\n",
    });
    const { paths, skipped } = await walkAll(root);
    assert.deepEqual(paths, ["a.ts"]);
    assert.deepEqual(skipped, { ".git": "default_skip", "local-only.txt": "ignored" });
  });
});

Deno.test("a symlinked .gitignore is not read, as in git", async () => {
  await withTemp(async (root, outside) => {
    await writeTree(outside, { "rules": "*.ts\n" });
    await writeTree(root, { "a.ts": "x\n" });
    await Deno.symlink(`${outside}/rules`, `${root}/.gitignore`);
    const { paths, skipped } = await walkAll(root);
    assert.deepEqual(paths, ["a.ts"]);
    assert.deepEqual(skipped, { ".gitignore": "symlink_outside_root" });
  });
});

Deno.test("DEFAULT_SKIP_DIRS covers VCS, dependency, environment and build folders", () => {
  for (const name of [".git", "node_modules", "vendor", ".venv", "__pycache__", "dist", "target"]) {
    assert.ok(DEFAULT_SKIP_DIRS.includes(name), name);
  }
  assert.ok(Object.isFrozen(DEFAULT_SKIP_DIRS));
});

/** A tree of the corner cases of gitignore: the walk must keep exactly what git keeps. */
const TRICKY_TREE: Record<string, string> = {
  ".gitignore": [
    "*.o",
    "!keep.o",
    "/root-only.txt",
    "docs/**/*.md",
    "!docs/**/README.md",
    "out*/",
    "!outlier/",
    "a/**/b",
    "\\#hash.txt",
    "\\!bang.txt",
    "space.txt\\ ",
    "wl/*",
    "!wl/keep/",
    "wl/keep/*",
    "!wl/keep/*.ts",
    "**/gen/",
    "Upper.TXT",
    "!ex-dir/",
    "deep/**",
    "!deep/**/",
    "!deep/**/*.keep",
    "*.log",
    "!important.log",
    "logs/",
    "",
  ].join("\n"),
  "a.o": "",
  "keep.o": "",
  "sub/b.o": "",
  "sub/keep.o": "",
  "root-only.txt": "",
  "sub/root-only.txt": "",
  "docs/guide.md": "",
  "docs/x/y/api.md": "",
  "docs/x/README.md": "",
  "docs/x/notes.txt": "",
  "out/a.txt": "",
  "output/a.txt": "",
  "outlier/a.txt": "",
  "outfile": "",
  "a/b": "",
  "a/x/b": "",
  "a/x/y/b/c.txt": "",
  "a/c": "",
  "#hash.txt": "",
  "!bang.txt": "",
  "space.txt ": "",
  "space.txt": "",
  "wl/drop.ts": "",
  "wl/keep/a.ts": "",
  "wl/keep/b.js": "",
  "wl/other/c.ts": "",
  "src/gen/x.ts": "",
  "gen/y.ts": "",
  "src/general.ts": "",
  "upper.txt": "",
  "Upper.TXT": "",
  "ex-dir/f.txt": "",
  "ex-file.txt": "",
  "deep/a.txt": "",
  "deep/x/b.keep": "",
  "deep/x/c.txt": "",
  "logs/important.log": "",
  "app.log": "",
  "important.log": "",
  "pkg/.gitignore": "*.txt\n!important.txt\n/only-here.js\nsub/\n",
  "pkg/a.txt": "",
  "pkg/important.txt": "",
  "pkg/only-here.js": "",
  "pkg/x/only-here.js": "",
  "pkg/sub/a.js": "",
  "pkg/x/sub/a.js": "",
  "pkg/deeper/.gitignore": "!*.txt\n",
  "pkg/deeper/b.txt": "",
  "pkg/deeper/c.js": "",
  "pkg/deeper/only-here.js": "",
  "uni/.gitignore": "café*\n!café-keep.txt\n",
  "uni/café.txt": "",
  "uni/café-keep.txt": "",
  "uni/日本語.md": "",
  // Rules of the last segment in the shapes of the Linux kernel's .gitignore files (asked
  // about the name alone by the walk) next to rules that look at the whole path.
  "k/.gitignore": [
    ".*",
    "!.gitignore",
    "!.keep-me",
    "*.[oa]",
    "*.c.[012]*.*",
    "*.o.*",
    "*~",
    "x?y.c",
    "[bc]at.c",
    "Module.symvers",
    "/vmlinux*",
    "gen-*/",
    "*/inner.c",
    "!sub/*.o",
    "",
  ].join("\n"),
  "k/.hidden.c": "",
  "k/.keep-me": "",
  "k/a.o": "",
  "k/b.a": "",
  "k/c.oa": "",
  "k/d.c.004t.ssa": "",
  "k/d.c": "",
  "k/e.o.cmd": "",
  "k/f.c~": "",
  "k/xzy.c": "",
  "k/xy.c": "",
  "k/bat.c": "",
  "k/cat.c": "",
  "k/dat.c": "",
  "k/Module.symvers": "",
  "k/vmlinux.lds": "",
  "k/deep/vmlinux.c": "",
  "k/gen-x/a.c": "",
  "k/gen-y": "",
  "k/one/inner.c": "",
  "k/one/two/inner.c": "",
  "k/inner.c": "",
  "k/sub/z.o": "",
  "k/sub/.dot/y.c": "",
};

Deno.test("walk matches git ls-files --others --exclude-standard and git check-ignore", async () => {
  await withTemp(async (root) => {
    const git = (args: string[], stdin?: Uint8Array) =>
      run(
        "git",
        ["-c", "core.quotepath=off", "-c", "core.excludesFile=/dev/null", ...args],
        root,
        stdin,
      );
    assert.equal((await git(["init", "-q"])).code, 0);
    await writeTree(root, {
      ...TRICKY_TREE,
      // Lowest precedence: re-included by `!ex-dir/` in .gitignore, so ex-dir/f.txt stays.
      ".git/info/exclude": "ex-dir/\nex-file.txt\n",
    });

    const listed = (await git(["ls-files", "--others", "--exclude-standard", "-z"])).stdout;
    const gitPaths = listed.split("\0").filter(Boolean).sort();
    const { paths, skipped } = await walkAll(root);
    assert.deepEqual(paths, gitPaths);

    // Both directions through check-ignore: nothing kept is ignored, everything ignored is.
    const ignoredByWalk = Object.keys(skipped).filter((p) => skipped[p] === "ignored").sort();
    const asked = [...paths, ...ignoredByWalk].join("\0") + "\0";
    const checked = await git(
      ["check-ignore", "--no-index", "--stdin", "-z"],
      new TextEncoder().encode(asked),
    );
    const ignoredByGit = checked.stdout.split("\0").filter(Boolean).sort();
    assert.deepEqual(ignoredByGit, ignoredByWalk);
    // The tree must exercise both kinds of outcome.
    assert.ok(paths.length > 20 && ignoredByWalk.length > 20, `${paths.length}/${ignoredByWalk}`);
  });
});
