/**
 * Build files are indexed as text: tmux registers each source file in `Makefile.am`
 * (`dist_tmux_SOURCES = … cmd-pipe-pane.c`), and an exact search for `dist_tmux_SOURCES` with
 * scope all found nothing, nor anything in CMakeLists.txt, meson.build, configure.ac or a
 * project's `.rst` docs. Generated files stay out (`Makefile.in`, and a `Makefile` beside it or
 * beside `Makefile.am`: configure's output), and build files are docs to search's `scope`, so a
 * plain-words search meets the code first.
 */

import assert from "node:assert/strict";
import { walk } from "../src/index/walker.ts";
import { languageForPath } from "../src/parse/languages.ts";
import { callTool, cleanup, makeProject, withExecutor } from "./helpers.ts";

const MAKEFILE_AM = `# Obvious program stuff.
bin_PROGRAMS = tmux

# List of sources.
dist_tmux_SOURCES = \\
\tcmd-kill-pane.c \\
\tcmd-pipe-pane.c \\
\ttmux.c

if HAVE_UTF8PROC
nodist_tmux_SOURCES += compat/utf8proc.c
endif

.PHONY: check-docs
check-docs: tmux.1
\tmandoc -Tlint tmux.1
`;

const FILES: Record<string, string> = {
  "Makefile.am": MAKEFILE_AM,
  // automake's and configure's output: the same names, generated.
  "Makefile.in": "dist_tmux_SOURCES = cmd-kill-pane.c cmd-pipe-pane.c tmux.c\n",
  "Makefile": "dist_tmux_SOURCES = cmd-kill-pane.c cmd-pipe-pane.c tmux.c\n",
  "configure.ac": "AC_INIT([tmux], 3.3a)\nAC_CONFIG_SRCDIR([tmux.c])\n",
  "CMakeLists.txt": "project(tmux C)\nadd_executable(tmux cmd-pipe-pane.c tmux.c)\n",
  "meson.build": "project('tmux', 'c')\ntmux_sources = files('cmd-pipe-pane.c', 'tmux.c')\n",
  "docs/install.rst": "Installing\n==========\n\nRun ``./configure && make install``.\n",
  // git's AsciiDoc manual pages and its command list are .txt files.
  "Documentation/git-merge.txt":
    "git-merge(1)\n============\n\n--allow-unrelated-histories::\n\tBy default...\n",
  "command-list.txt": "git-fsck                                ancillaryinterrogators\n",
  "docs/guide.adoc": "= Guide\n\nRun `tmux new-session` first.\n",
  "tools/Makefile": "lint:\n\tcppcheck ../cmd-pipe-pane.c\n",
  // An in-source CMake build's output.
  "out/Makefile": "tmux: cmd-pipe-pane.c\n",
  "out/CMakeFiles/Makefile2": "all: tmux\n",
  "cmd-pipe-pane.c": [
    "/* Open a pipe from the pane to a shell command. */",
    "static int",
    "cmd_pipe_pane_exec(struct cmd *self, struct pipe *pipe)",
    "{",
    "\treturn pipe_open(self, pipe);",
    "}",
    "",
  ].join("\n"),
};

type Snippet = { file: string; line: number };

Deno.test("exact search finds the lines of build files and docs, not generated ones", async () => {
  await withExecutor(FILES, async (ex) => {
    const exact = async (query: string) => {
      const p = await callTool(ex, "semantic_search", { query, mode: "exact", scope: "all" });
      return (p.snippets as Snippet[]).map((s) => `${s.file}:${s.line}`);
    };
    assert.deepEqual(await exact("dist_tmux_SOURCES"), ["Makefile.am:5", "Makefile.am:11"]);
    assert.deepEqual((await exact("cmd-pipe-pane.c")).sort(), [
      "CMakeLists.txt:2",
      "Makefile.am:7",
      "meson.build:2",
      "tools/Makefile:2",
    ]);
    assert.deepEqual(await exact("AC_CONFIG_SRCDIR"), ["configure.ac:2"]);
    assert.deepEqual(await exact("make install"), ["docs/install.rst:4"]);
    // Before: .txt and .adoc files were not indexed; an exact search found none of their lines.
    assert.deepEqual(await exact("allow-unrelated-histories"), ["Documentation/git-merge.txt:4"]);
    assert.deepEqual(await exact("ancillaryinterrogators"), ["command-list.txt:1"]);
    assert.deepEqual(await exact("new-session"), ["docs/guide.adoc:3"]);

    const symbols = await callTool(ex, "search_symbols", { query: "dist_tmux_SOURCES" });
    const found = (symbols.symbols as { name: string; kind: string; file: string; line: number }[])
      .map((s) => `${s.kind} ${s.name} ${s.file}:${s.line}`);
    assert.equal(found[0], "field dist_tmux_SOURCES Makefile.am:5");

    // Plain words meet the code before the build file that lists it; scope code leaves it out.
    const plain = await callTool(ex, "semantic_search", { query: "pipe pane" });
    assert.equal((plain.snippets as Snippet[])[0].file, "cmd-pipe-pane.c");
    const code = await callTool(ex, "semantic_search", { query: "pipe pane", scope: "code" });
    assert.deepEqual([...new Set((code.snippets as Snippet[]).map((s) => s.file))], [
      "cmd-pipe-pane.c",
    ]);
  });
});

Deno.test("walk: a Makefile beside Makefile.in, Makefile.am or CMakeFiles is generated", async () => {
  const root = await makeProject(FILES);
  try {
    const skipped: string[] = [];
    const files = await walk(root, {
      onSkip: (path, reason, detail) => skipped.push(`${path} ${reason} ${detail ?? ""}`.trim()),
    });
    const paths = files.map((f) => f.path);
    assert.ok(paths.includes("Makefile.am") && paths.includes("tools/Makefile"));
    assert.ok(!paths.includes("Makefile") && !paths.includes("out/Makefile"));
    assert.equal(languageForPath("CMakeLists.txt")?.id, "cmake", "a build file's name wins");
    assert.equal(languageForPath("Documentation/git-merge.txt")?.id, "text");
    assert.deepEqual(skipped.filter((s) => s.startsWith("Makefile ")), [
      "Makefile default_skip generated from Makefile.in beside it, which is indexed",
    ]);
  } finally {
    await cleanup(root);
  }
});
