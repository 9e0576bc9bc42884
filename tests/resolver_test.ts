/**
 * One symbol resolver: the same names, through every tool that takes a symbol name
 * (explain_symbol, get_context, find_references, get_call_graph, and search_symbols' top
 * hit; ask for the names a question spells as code) resolve to the same definition, on a
 * small multi-language project written here.
 */

import assert from "node:assert/strict";
import { createExecutor, type Executor } from "../src/tools/executor.ts";
import { callTool, cleanup, makeProject, type Payload, tempIndexDir } from "./helpers.ts";

const FILES: Record<string, string> = {
  "app/__init__.py": "",
  "app/utils.py": `"""Helpers of the app."""


def parse_config(path):
    """Reads the config at path."""
    return load(path)


def load(path):
    return path


class Loader:
    """Loads things."""

    def read(self, path):
        return parse_config(path)

    def close(self):
        pass

    class Options:
        def merge(self, other):
            return other


def outer():
    def inner():
        return 1

    return inner()


def settings():
    return {}


def format_name(name):
    return name.strip()
`,
  "app/models.py": `from app.utils import parse_config


class Settings:
    """The app's settings."""

    def __init__(self):
        self.values = parse_config("app.cfg")


def format_name(first, last):
    full = first + " " + last
    return full.title()
`,
  "tests/test_utils.py": `from app.utils import parse_config


def test_parse_config():
    assert parse_config("x") == "x"
`,
  "svc/server.go": `package svc

type Server struct {
	addr string
}

func (s *Server) Start() error {
	return nil
}

func NewServer(addr string) *Server {
	s := &Server{addr: addr}
	s.Start()
	return s
}
`,
  "web/client.ts": `export class Client {
  fetch(url: string): string {
    return url;
  }
}

export function makeClient(): Client {
  const c = new Client();
  c.fetch("/");
  return c;
}
`,
  "core/src/lib.rs": `pub mod net {
    pub fn connect() -> u32 {
        1
    }
}

pub struct Pool;

impl Pool {
    pub fn get(&self) -> u32 {
        net::connect()
    }
}
`,
};

/** `file:line` of the first line of `file` that holds `text`. */
function at(file: string, text: string): string {
  const i = FILES[file].split("\n").findIndex((l) => l.includes(text));
  assert.ok(i >= 0, `${text} not in ${file}`);
  return `${file}:${i + 1}`;
}

/** A name as a user writes it, the file it is narrowed to, and the definition it means. */
interface Case {
  name: string;
  file?: string;
  want: string;
}

const PARSE_CONFIG = at("app/utils.py", "def parse_config");
const READ = at("app/utils.py", "def read");

/** Twenty names: plain, qualified, module paths, `::`/`#`, case fallback, ambiguous. */
const CASES: Case[] = [
  { name: "parse_config", want: PARSE_CONFIG },
  { name: "app.utils.parse_config", want: PARSE_CONFIG },
  { name: "app/utils.py:parse_config", want: PARSE_CONFIG },
  { name: "app/utils/parse_config", want: PARSE_CONFIG },
  { name: "PARSE_CONFIG", want: PARSE_CONFIG },
  { name: "Loader.read", want: READ },
  { name: "app.utils.Loader.read", want: READ },
  { name: "Loader#read", want: READ },
  { name: "Loader.Options", want: at("app/utils.py", "class Options") },
  { name: "Options.merge", want: at("app/utils.py", "def merge") },
  { name: "settings", want: at("app/utils.py", "def settings") },
  { name: "SETTINGS", want: at("app/models.py", "class Settings") },
  { name: "Settings", want: at("app/models.py", "class Settings") },
  { name: "format_name", file: "app/models.py", want: at("app/models.py", "def format_name") },
  { name: "format_name", file: "app/utils.py", want: at("app/utils.py", "def format_name") },
  { name: "Server.Start", want: at("svc/server.go", "func (s *Server) Start") },
  { name: "svc.server.NewServer", want: at("svc/server.go", "func NewServer") },
  { name: "Client#fetch", want: at("web/client.ts", "fetch(url") },
  { name: "Pool::get", want: at("core/src/lib.rs", "pub fn get") },
  { name: "net::connect", want: at("core/src/lib.rs", "pub fn connect") },
];

function place(p: unknown): string {
  const o = p as { file: string; line: number };
  return `${o.file}:${o.line}`;
}

/** Where each tool says the name is defined, read from each tool's own payload field. */
async function definitionByTool(ex: Executor, c: Case): Promise<Record<string, string>> {
  const args = { symbol_name: c.name, ...(c.file ? { file_path: c.file } : {}) };
  const explain = await callTool(ex, "explain_symbol", args);
  const context = await callTool(ex, "get_context", args);
  const refs = await callTool(ex, "find_references", args);
  const calls = await callTool(ex, "get_call_graph", args);
  const search = await callTool(ex, "search_symbols", {
    query: c.name,
    ...(c.file ? { path_prefix: c.file } : {}),
  });
  return {
    explain_symbol: place(explain.symbol),
    get_context: place(context),
    find_references: place((refs.definitions as unknown[])[0]),
    get_call_graph: place(calls.definition),
    search_symbols: place((search.symbols as unknown[])[0]),
  };
}

Deno.test("resolver: five tools resolve twenty names to the same definition", async (t) => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const ex = await createExecutor(root, { indexDir, workers: 0, embedder: "none" });
  try {
    await t.step("every name, every tool", async () => {
      assert.equal(CASES.length, 20);
      for (const c of CASES) {
        const got = await definitionByTool(ex, c);
        const want = Object.fromEntries(Object.keys(got).map((tool) => [tool, c.want]));
        assert.deepEqual(got, want, `${c.name}${c.file ? ` in ${c.file}` : ""}`);
      }
    });

    await t.step("a module path works for references and calls", async () => {
      const refs = await callTool(ex, "find_references", { symbol_name: "app.utils.parse_config" });
      assert.equal(refs.symbol, "parse_config");
      const lines = (refs.references as Payload[]).map((r) => `${r.file}:${r.line} ${r.kind}`);
      for (
        const want of [
          `${PARSE_CONFIG} definition`,
          `${at("app/utils.py", "return parse_config(path)")} call`,
          `${at("app/models.py", "self.values = parse_config")} call`,
          `${at("tests/test_utils.py", "assert parse_config")} call`,
        ]
      ) {
        assert.ok(lines.includes(want), `${want} not in\n${lines.join("\n")}`);
      }
      const calls = await callTool(ex, "get_call_graph", { symbol_name: "app.utils.parse_config" });
      const callers = (calls.callers as Payload[]).map((c) => c.name);
      assert.ok(callers.includes("Loader.read"), callers.join());
      assert.ok(callers.includes("Settings.__init__"), callers.join());
      const callees = (calls.callees as Payload[]).map((c) => c.name);
      assert.deepEqual(callees, ["load"]);
      // ask resolves the names a question spells as code with the same resolver.
      const ask = await callTool(ex, "ask", {
        question: "What does `app.utils.parse_config` return, and who calls `Loader#read`?",
      });
      const sources = (ask.sources as Payload[]).map(place);
      assert.deepEqual(sources.slice(0, 2), [PARSE_CONFIG, READ]);
    });

    await t.step("an ambiguous name answers the best and lists the others", async () => {
      const e = await callTool(ex, "explain_symbol", { symbol_name: "format_name" });
      const best = place(e.symbol);
      const others = (e.candidates as unknown[]).map(place);
      assert.equal(others.length, 1);
      const g = await callTool(ex, "get_call_graph", { symbol_name: "format_name" });
      assert.equal(place(g.definition), best);
      assert.deepEqual((g.candidates as unknown[]).map(place), others);
      const w = await callTool(ex, "get_context", { symbol_name: "format_name" });
      assert.equal(place(w), best);
      const r = await callTool(ex, "find_references", { symbol_name: "format_name" });
      assert.deepEqual((r.definitions as unknown[]).map(place), [best, ...others]);
    });

    await t.step("a nested function's name gets one answer from every tool", async () => {
      // Locals of a function body may or may not be indexed; either way the tools agree.
      const answers = new Set<string>();
      for (const tool of ["explain_symbol", "get_context", "find_references", "get_call_graph"]) {
        const r = await ex.execute({ tool_name: tool, arguments: { symbol_name: "outer.inner" } });
        answers.add(r.success ? "found" : `${r.error_code}: ${r.error}`);
      }
      assert.equal(answers.size, 1, [...answers].join("\n"));
    });

    await t.step("an unknown name fails the same way in every tool", async () => {
      for (const tool of ["explain_symbol", "get_context", "find_references", "get_call_graph"]) {
        const r = await ex.execute({ tool_name: tool, arguments: { symbol_name: "parse_confg" } });
        assert.equal(r.success, false, tool);
        assert.equal(r.error_code, "not_found", tool);
        assert.match(r.error ?? "", /did you mean parse_config \(app\/utils\.py:4\)/, tool);
        const narrowed = await ex.execute({
          tool_name: tool,
          arguments: { symbol_name: "parse_config", file_path: "svc/server.go" },
        });
        assert.equal(narrowed.error_code, "not_found", tool);
        assert.match(narrowed.error ?? "", /not defined in svc\/server\.go; it is defined in/);
      }
    });
  } finally {
    await ex.close();
    await cleanup(root, indexDir);
  }
});
