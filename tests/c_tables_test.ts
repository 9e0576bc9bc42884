/**
 * C and C++ file-scope tables and instances are symbols: tmux registers every command in
 * `const struct cmd_entry *cmd_table[] = {…}` (cmd.c) and every format in `static const struct
 * format_table_entry format_table[] = {…}` (format.c); `search_symbols cmd_table` found
 * nothing, so "where is the command table" took a grep. A plain `int n = 0;`, a declaration
 * without an initializer and a function's own tables stay out.
 */

import assert from "node:assert/strict";
import { parseSource } from "../src/parse/parser.ts";
import { callTool, withExecutor } from "./helpers.ts";

const CMD_C = `#include "tmux.h"

extern const struct cmd_entry cmd_pipe_pane_entry;

const struct cmd_entry *cmd_table[] = {
\t&cmd_pipe_pane_entry,
\tNULL
};

const struct cmd_entry cmd_pipe_pane_entry = {
\t.name = "pipe-pane",
\t.alias = "pipep",
};

static const struct format_table_entry format_table[] = {
\t{ "active_window_index", FORMAT_TABLE_STRING, format_cb_active_window_index },
};

#ifdef HAVE_UTF8PROC
static const char *utf8_names[][2] = { { "a", "b" } };
#endif

static struct style style_default = { 8, 8 };
struct session_groups session_groups = RB_INITIALIZER(&session_groups);
static int server_fd = -1;
int counter;

const struct cmd_entry *
cmd_find(const char *name)
{
\tstatic const char spaces[] = "    ";
\tstruct style local = { 0 };
\treturn cmd_table[0];
}
`;

const TABLE_CPP = `namespace cfg {
constexpr int kMax = 4;
const char *const kNames[] = {"a", "b"};
struct Entry { const char *name; int v; };
Entry entries[] = {{"x", 1}};
int counter = 0;
}
auto make = [] { int inner[] = {1}; return inner[0]; };
`;

const outline = (symbols: { kind: string; qualifiedName: string; line: number }[]) =>
  symbols.filter((s) => s.kind === "constant" || s.kind === "variable")
    .map((s) => `${s.kind} ${s.qualifiedName} ${s.line}`);

Deno.test("C: file-scope tables and instances are constants or variables", async () => {
  const parsed = await parseSource("cmd.c", CMD_C);
  assert.deepEqual(outline(parsed.symbols), [
    "constant cmd_table 5",
    "constant cmd_pipe_pane_entry 10",
    "constant format_table 15",
    "constant utf8_names 20",
    "variable style_default 23",
    "variable session_groups 24",
  ]);
  const table = parsed.symbols.find((s) => s.name === "cmd_table")!;
  assert.equal(table.signature, "const struct cmd_entry *cmd_table[] = {");
  assert.deepEqual([table.startLine, table.endLine], [5, 8]);
});

Deno.test("C++: tables in a namespace are its members; a lambda's are locals", async () => {
  const parsed = await parseSource("cfg.cpp", TABLE_CPP);
  assert.deepEqual(outline(parsed.symbols), [
    "constant cfg.kMax 2",
    "constant cfg.kNames 3",
    "variable cfg.entries 5",
  ]);
});

Deno.test("search_symbols finds the command table by name", async () => {
  await withExecutor({ "cmd.c": CMD_C }, async (ex) => {
    const p = await callTool(ex, "search_symbols", { query: "cmd_table", path_prefix: "cmd.c" });
    const found = (p.symbols as { name: string; kind: string; file: string; line: number }[])
      .map((s) => `${s.kind} ${s.name} ${s.file}:${s.line}`);
    assert.equal(found[0], "constant cmd_table cmd.c:5");
  });
});
