import assert from "node:assert/strict";
import { expandUse } from "../src/graph/resolve/rust.ts";
import { parseJsonc } from "../src/graph/resolve/js.ts";
import { stronglyConnected } from "../src/graph/deps.ts";
import { toMermaid } from "../src/graph/mermaid.ts";
import { Project } from "../src/project/project.ts";
import { loadGraph } from "../src/graph/graph.ts";
import { GRAPH_PARTS_FILE, partsFileBlobs } from "../src/graph/parts_file.ts";
import { createExecutor, type Executor } from "../src/tools/executor.ts";
import {
  callTool,
  cleanup,
  makeProject,
  type Payload,
  runCli,
  tempIndexDir,
  withExecutor,
  writeFiles,
} from "./helpers.ts";

const FIXTURE = new URL("./fixtures/graph", import.meta.url).pathname;

type Row = Record<string, unknown>;

async function fails(ex: Executor, tool: string, args: Payload, code: string, re?: RegExp) {
  const r = await ex.execute({ tool_name: tool, arguments: args });
  assert.equal(r.success, false, `${tool} ${JSON.stringify(args)} should fail`);
  assert.equal(r.error_code, code, r.error ?? "");
  if (re) assert.match(r.error ?? "", re);
}

function rows(v: unknown): Row[] {
  return v as Row[];
}

/** `file:line kind` of each reference. */
function refs(p: Payload): string[] {
  return rows(p.references).map((r) => `${r.file}:${r.line} ${r.kind}`);
}

/** `module -> resolved | external pkg | unresolved` of each import. */
function imports(p: Payload): string[] {
  return rows(p.imports).map((i) =>
    `${i.line} ${i.module} -> ${
      i.resolved ?? (i.external ? `external ${i.package}` : "unresolved")
    }`
  );
}

Deno.test("graph: imports, references and calls across languages", async (t) => {
  const indexDir = await tempIndexDir();
  const project = await Project.open(FIXTURE, { indexDir, workers: 0 });
  const ex = await createExecutor(project, { timeoutMs: 0 });
  try {
    await t.step("every resolver family resolves its imports", async () => {
      const expect: Record<string, string[]> = {
        "py/main.py": [
          "2 os.path -> external os",
          "3 requests -> external requests",
          "4 app.models -> py/app/models.py",
          "5 app.util -> py/app/util.py",
          "6 app -> py/app/__init__.py",
        ],
        "py/app/models.py": ["1 .util -> py/app/util.py", "2 . -> py/app/util.py"],
        "py/tests/test_core.py": ["1 pkg.core -> py/src/pkg/core.py"],
        "ts/src/app.ts": [
          "1 @lib/math -> ts/src/lib/math.ts",
          "2 ./lib -> ts/src/lib/index.ts",
          "3 ./lib/index.js -> ts/src/lib/index.ts",
          "4 react -> external react",
          "5 node:fs -> external node:fs",
        ],
        "ts/src/use_shared.ts": ["1 @demo/shared -> ts/packages/shared/src/index.ts"],
        "go/cmd/main.go": [
          "4 fmt -> external fmt",
          "6 example.com/demo/util -> go/util",
          "7 example.com/demo/util -> go/util",
        ],
        "rust/src/lib.rs": [
          "1 net -> rust/src/net.rs",
          "2 util -> rust/src/util/mod.rs",
          "4 crate::util::helper -> rust/src/util/mod.rs",
        ],
        "rust/src/net.rs": ["1 std::io -> external std"],
        "rust/src/util/deep.rs": [
          "1 crate::net::connect -> rust/src/net.rs",
          "2 super::helper as h -> rust/src/util/mod.rs",
        ],
        "java/src/main/java/com/demo/app/Main.java": [
          "3 com.demo.util.Strings -> java/src/main/java/com/demo/util/Strings.java",
          "4 java.util.List -> external java.util",
        ],
        "c/src/main.c": [
          "1 <stdio.h> -> external stdio.h",
          "2 mathx.h -> c/include/mathx.h",
          "3 local.h -> c/src/local.h",
        ],
        "ruby/app.rb": ["1 lib/greeter -> ruby/lib/greeter.rb", "2 json -> external json"],
        "php/src/Http/Controller.php": [
          "4 Demo\\Models\\User -> php/src/Models/User.php",
          "5 Symfony\\Component\\HttpFoundation\\Request -> external Symfony\\Component",
        ],
        "csharp/Program.cs": ["1 System -> external System", "2 Shop.Models -> csharp/Models"],
      };
      for (const [file, want] of Object.entries(expect)) {
        const p = await callTool(ex, "get_dependencies", { file_path: file });
        assert.deepEqual(imports(p), want, file);
      }
      const util = await callTool(ex, "get_dependencies", { file_path: "py/app/util.py" });
      assert.deepEqual(util.imported_by, [
        "py/app/__init__.py",
        "py/app/models.py",
        "py/app/shadow.py",
        "py/main.py",
      ]);
      const main = await callTool(ex, "get_dependencies", { file_path: "py/main.py" });
      assert.deepEqual(rows(main.imports)[3].names, ["slugify as sl"]);
      assert.deepEqual(
        (await callTool(ex, "get_dependencies", { file_path: "go/util/more.go" })).imported_by,
        ["go/cmd/main.go"],
      );
    });

    await t.step("the whole graph: nodes, edges, external packages, cycles", async () => {
      const g = await callTool(ex, "get_dependencies", {});
      assert.equal(g.file, null);
      assert.ok(rows(g.nodes).some((n) => n.file === "py/main.py" && n.imports === 5));
      assert.ok(
        rows(g.edges).some((e) => e.from === "ts/src/app.ts" && e.to === "ts/src/lib/math.ts"),
      );
      const ext = new Map(rows(g.external).map((e) => [e.package, e.count]));
      assert.equal(ext.get("requests"), 1);
      assert.equal(ext.get("react"), 1);
      assert.deepEqual(g.cycles, [
        ["rust/src/util/deep.rs", "rust/src/util/mod.rs"],
        ["ts/src/cycle_a.ts", "ts/src/cycle_b.ts"],
      ]);
      assert.equal(g.unresolved, 0);
    });

    await t.step("references follow imports and aliases, skip shadowing locals", async () => {
      const p = await callTool(ex, "find_references", { symbol_name: "slugify" });
      assert.equal(p.symbol, "slugify");
      assert.deepEqual(refs(p), [
        "py/app/__init__.py:2 import",
        "py/app/__init__.py:4 export_list", // __all__ = ["make_slug"]: the export of the alias
        "py/app/models.py:1 import",
        "py/app/models.py:12 call",
        "py/app/shadow.py:1 import",
        "py/app/shadow.py:14 call",
        "py/app/util.py:4 definition",
        "py/app/util.py:11 call",
        "py/main.py:5 import",
        "py/main.py:6 import",
        "py/main.py:12 call",
        "py/main.py:13 call",
      ]);
      assert.equal(p.total, 12);
      assert.equal(p.truncated, false);
      const first = rows(p.references)[3];
      assert.equal(first.column, 16);
      assert.equal(first.context, "return slugify(self.name)");
      assert.equal(first.in, "User.save");

      const add = await callTool(ex, "find_references", { symbol_name: "add" });
      assert.deepEqual(refs(add), [
        "ts/src/app.ts:1 import",
        "ts/src/app.ts:2 import",
        "ts/src/app.ts:9 call",
        "ts/src/app.ts:10 call",
        "ts/src/app.ts:13 call",
        // `export { add as sum }`: the name and its alias (as the TS language service).
        "ts/src/lib/index.ts:2 import",
        "ts/src/lib/index.ts:2 import",
        "ts/src/lib/math.ts:2 definition",
        "ts/src/lib/math.ts:10 call",
      ]);
    });

    await t.step(
      "methods are matched to their class through self, this and typed receivers",
      async () => {
        const save = await callTool(ex, "find_references", {
          symbol_name: "User.save",
          file_path: "py/app/models.py",
        });
        assert.deepEqual(refs(save), [
          "py/app/models.py:9 definition",
          "py/app/models.py:20 call",
          "py/main.py:11 call",
        ]);
        assert.deepEqual(
          refs(await callTool(ex, "find_references", { symbol_name: "Base.save" })),
          [
            "py/app/util.py:15 definition",
          ],
        );
        assert.deepEqual(
          refs(await callTool(ex, "find_references", { symbol_name: "Calc.plus" })),
          [
            "ts/src/app.ts:9 call",
            "ts/src/lib/math.ts:9 definition",
          ],
        );
        assert.deepEqual(
          refs(await callTool(ex, "find_references", { symbol_name: "Stack.Push" })),
          [
            "go/cmd/main.go:13 call",
            "go/util/strings.go:16 definition",
          ],
        );
        assert.deepEqual(
          refs(await callTool(ex, "find_references", { symbol_name: "Greeter.greet" })),
          [
            "ruby/app.rb:4 call",
            "ruby/lib/greeter.rb:2 definition",
          ],
        );
        const php = await callTool(ex, "find_references", {
          symbol_name: "save",
          file_path: "php/src/Models/User.php",
        });
        assert.deepEqual(refs(php), [
          "php/src/Http/Controller.php:12 call",
          "php/src/Models/User.php:6 definition",
        ]);
        assert.deepEqual(
          refs(await callTool(ex, "find_references", { symbol_name: "Order.Total" })),
          [
            "csharp/Models/Order.cs:5 definition",
            "csharp/Program.cs:11 call",
          ],
        );
      },
    );

    await t.step("an ambiguous name answers every definition; file_path narrows it", async () => {
      const both = await callTool(ex, "find_references", { symbol_name: "helper" });
      assert.deepEqual(rows(both.definitions).map((d) => d.file).sort(), [
        "py/app/util.py",
        "rust/src/util/mod.rs",
      ]);
      const rust = await callTool(ex, "find_references", {
        symbol_name: "helper",
        file_path: "rust/src/util/mod.rs",
      });
      assert.deepEqual(refs(rust), [
        "rust/src/lib.rs:4 import",
        "rust/src/lib.rs:8 call",
        "rust/src/net.rs:4 call",
        "rust/src/util/deep.rs:2 import",
        "rust/src/util/deep.rs:6 call",
        "rust/src/util/mod.rs:3 definition",
      ]);
      const limited = await callTool(ex, "find_references", { symbol_name: "slugify", limit: 3 });
      assert.equal(rows(limited.references).length, 3);
      assert.equal(limited.total, 12);
      assert.equal(limited.truncated, true);
    });

    await t.step("calls: callers and callees, depth, unresolved, mermaid, cycles", async () => {
      const g = await callTool(ex, "get_call_graph", {
        symbol_name: "User.save",
        file_path: "py/app/models.py",
      });
      assert.equal(g.symbol, "User.save");
      assert.deepEqual(rows(g.callers).map((c) => `${c.name}:${c.line}:${c.call_line}`), [
        "make_user:18:20",
        "main:9:11",
      ]);
      assert.deepEqual(rows(g.callees).map((c) => `${c.name}:${c.file}:${c.resolved}`), [
        "User.validate:py/app/models.py:true",
        "helper:py/app/util.py:true",
        "slugify:py/app/util.py:true",
      ]);
      const deep = await callTool(ex, "get_call_graph", {
        symbol_name: "User.save",
        file_path: "py/app/models.py",
        depth: 2,
        format: "mermaid",
      });
      assert.ok(rows(deep.callers).some((c) => c.name === "py/main.py" && c.depth === 2));
      // A builtin is a labelled callee, not a project node: it is not drawn.
      const bool = rows(deep.callees).find((c) => c.name === "bool")!;
      assert.deepEqual(
        [bool.resolved, bool.file, bool.depth, bool.kind, bool.external, bool.resolution],
        [false, null, 2, "builtin", true, "exact"],
      );
      assert.ok(
        rows(deep.edges).some((e) =>
          e.from === "User.validate" && e.to === "bool" && e.resolved === false && e.external
        ),
      );
      const mermaid = String(deep.mermaid);
      assert.match(mermaid, /^graph LR\n/);
      assert.match(mermaid, /\["User\.save"\]/);
      assert.doesNotMatch(mermaid, /"bool"/);

      const go = await callTool(ex, "get_call_graph", { symbol_name: "Reverse" });
      assert.deepEqual(rows(go.callers).map((c) => c.name).sort(), ["Double", "main"]);
      const rs = await callTool(ex, "get_call_graph", { symbol_name: "connect" });
      assert.deepEqual(rows(rs.callers).map((c) => c.name).sort(), ["go", "start"]);
      assert.deepEqual(rows(rs.callees).filter((c) => c.resolved).map((c) => c.name), ["helper"]);
      const java = await callTool(ex, "get_call_graph", { symbol_name: "Helper.assist" });
      assert.deepEqual(rows(java.callers).map((c) => c.name), ["Main.main"]);
      assert.deepEqual(rows(java.callees).map((c) => c.name), ["Helper.prepare"]);
      const c = await callTool(ex, "get_call_graph", { symbol_name: "square" });
      assert.deepEqual(rows(c.callers).map((x) => `${x.name}:${x.file}`), ["main:c/src/main.c"]);

      // a ↔ b: five hops terminate, each node once.
      const cyc = await callTool(ex, "get_call_graph", { symbol_name: "a", depth: 5 });
      assert.deepEqual(rows(cyc.callers).map((x) => x.name), ["b"]);
      assert.deepEqual(rows(cyc.callees).map((x) => x.name), ["b"]);
    });

    await t.step("bad input: unknown symbol, depth, files outside the root", async () => {
      await fails(
        ex,
        "find_references",
        { symbol_name: "slugfy" },
        "not_found",
        /did you mean slugify \(py\/app\/util\.py:4\)/,
      );
      await fails(ex, "get_call_graph", { symbol_name: "Usr.save" }, "not_found", /not found/);
      await fails(ex, "get_call_graph", { symbol_name: "main", depth: 0 }, "invalid_argument");
      await fails(ex, "get_call_graph", { symbol_name: "main", depth: 6 }, "invalid_argument");
      await fails(ex, "get_dependencies", { file_path: "../outside.py" }, "outside_root");
      await fails(ex, "get_dependencies", { file_path: "/etc/passwd" }, "outside_root");
      await fails(
        ex,
        "find_references",
        { symbol_name: "x", file_path: "../../x.py" },
        "outside_root",
      );
      await fails(
        ex,
        "get_dependencies",
        { file_path: "py/mian.py" },
        "not_found",
        /did you mean py\/main\.py/,
      );
      await fails(
        ex,
        "find_references",
        { symbol_name: "slugify", file_path: "py/main.py" },
        "not_found",
        /defined in py\/app\/util\.py:4/,
      );
    });
  } finally {
    ex.close();
    await cleanup(indexDir);
  }
});

Deno.test("graph: unchanged files are not re-analysed; the graph follows edits", async () => {
  const root = await makeProject({
    "lib.py": "def greet(name):\n    return name\n",
    "a.py": "from lib import greet\n\ngreet('a')\n",
    "b.py": "import lib\n",
    "broken.py": "from lib import greet\n\ndef f(:\n    greet('x')\n",
  });
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  const ex = await createExecutor(project, { timeoutMs: 0 });
  try {
    const before = await callTool(ex, "find_references", { symbol_name: "greet" });
    assert.deepEqual(refs(before), [
      "a.py:1 import",
      "a.py:3 call",
      "broken.py:1 import",
      "broken.py:4 call",
      "lib.py:1 definition",
    ]);
    await writeFiles(root, { "b.py": "import lib\n\nlib.greet('b')\n" });
    const report = await project.reindex();
    assert.equal(report.parsed, 1);
    const after = await callTool(ex, "find_references", { symbol_name: "greet" });
    assert.ok(refs(after).includes("b.py:3 call"), refs(after).join(", "));
    const deps = await callTool(ex, "get_dependencies", { file_path: "lib.py" });
    assert.deepEqual(deps.imported_by, ["a.py", "b.py", "broken.py"]);
  } finally {
    ex.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("graph: the CLI prints references, dependencies and calls", async () => {
  const indexDir = await tempIndexDir();
  try {
    const r = await runCli(["refs", "slugify", "--path", FIXTURE, "--index-dir", indexDir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^py\/main\.py\n( {2}.*\n)* {2}12 main: sl\("Hello"\)$/m);
    assert.match(
      r.stdout,
      /^slugify \(function py\/app\/util\.py:4-6\): 11 references in 5 files; lines are calls unless marked$/m,
    );
    const c = await runCli([
      "calls",
      "add",
      "--mermaid",
      "--path",
      FIXTURE,
      "--index-dir",
      indexDir,
    ]);
    assert.equal(c.code, 0, c.stderr);
    assert.match(c.stdout, /^graph LR/);
    const bad = await runCli([
      "calls",
      "add",
      "--depth",
      "7",
      "--path",
      FIXTURE,
      "--index-dir",
      indexDir,
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /depth/);
    const d = await runCli(["deps", "py/main.py", "--path", FIXTURE, "--index-dir", indexDir]);
    assert.equal(d.code, 0, d.stderr);
    assert.match(d.stdout, /app\.util -> py\/app\/util\.py {2}\[slugify as sl\]/);
  } finally {
    await cleanup(indexDir);
  }
});

Deno.test("graph: Rust use trees, JSONC, cycles, Mermaid", () => {
  assert.deepEqual(
    expandUse("crate::a::{b, c as d, e::*, self}").map((p) =>
      `${p.segments.join("::")}${p.alias ? ` as ${p.alias}` : ""}${p.glob ? "::*" : ""}`
    ),
    ["crate::a::b", "crate::a::c as d", "crate::a::e::*", "crate::a"],
  );
  assert.deepEqual(parseJsonc('{\n // c\n "a": [1, 2,], /* x */ "b": "//not a comment",\n}'), {
    a: [1, 2],
    b: "//not a comment",
  });
  const adj = new Map([["a", new Set(["b"])], ["b", new Set(["c"])], ["c", new Set(["a"])], [
    "d",
    new Set(["a"]),
  ]]);
  assert.deepEqual(stronglyConnected(adj), [["a", "b", "c"]]);
  assert.equal(
    toMermaid(
      [{ from: "main", to: "run" }, { from: "run", to: 'say "hi"', resolved: false }],
      "main",
    ),
    'graph LR\n  n0["main"]\n  n1["run"]\n  n2["say #quot;hi#quot;"]\n  n0 --> n1\n  n1 --> n2\n  style n0 stroke-width:3px\n  style n2 stroke-dasharray: 4 3',
  );
});

Deno.test("graph: a class deriving from an unknown base resolves without endless recursion", async () => {
  const root = await makeProject({
    "widget.cpp": `class Widget : public Base {
public:
    Widget();
    virtual ~Widget() { --count; }
    static void drop(Base* b) { delete static_cast<Widget*>(b); }
    static int count;
};

int Widget::count = 0;

Widget::Widget() {
    Base* self = this;
    Widget::count++;
}
`,
  });
  const indexDir = await tempIndexDir();
  const ex = await createExecutor(root, { indexDir, workers: 0, timeoutMs: 0 });
  try {
    const refs = await ex.execute({
      tool_name: "find_references",
      arguments: { symbol_name: "Widget" },
    });
    assert.ok(refs.success, refs.error ?? "");
    const lines = (refs.result_payload.references as Array<{ line: number }>).map((r) => r.line);
    assert.ok(lines.includes(5) && lines.includes(11), `references at ${lines}`);
    const calls = await ex.execute({
      tool_name: "get_call_graph",
      arguments: { symbol_name: "Widget.drop" },
    });
    assert.ok(calls.success, calls.error ?? "");
    const summary = await ex.execute({ tool_name: "summarize_repo", arguments: {} });
    assert.ok(summary.success, summary.error ?? "");
  } finally {
    ex.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("graph: JS/TS `f.call(…)` and `f.apply(…)` are calls of f; `f.bind(…)` is a read", async () => {
  await withExecutor({
    "lib/work.js": "export default function work(config) {\n  return config.a;\n}\n",
    "lib/main.js": [
      "import work from './work.js';",
      "export class Runner {",
      "  request(cfg) {",
      "    return work.call(this, cfg);",
      "  }",
      "  all(list) {",
      "    return work.apply(null, list);",
      "  }",
      "  later() {",
      "    return work.bind(this);",
      "  }",
      "}",
      "",
    ].join("\n"),
    "src/task.ts": "export function task(n: number): number {\n  return n + 1;\n}\n",
    "src/use.ts": [
      "import { task } from './task';",
      "export function twice(n: number): number {",
      "  return task.call(undefined, task.apply(undefined, [n]));",
      "}",
      "",
    ].join("\n"),
  }, async (ex) => {
    const g = await callTool(ex, "get_call_graph", { symbol_name: "work" });
    assert.deepEqual(rows(g.callers).map((c) => `${c.name}:${c.call_line}`).sort(), [
      "Runner.all:7",
      "Runner.request:4",
    ]);
    const r = await callTool(ex, "find_references", { symbol_name: "work" });
    assert.ok(refs(r).includes("lib/main.js:10 read"), refs(r).join(", "));
    const ts = await callTool(ex, "get_call_graph", { symbol_name: "task" });
    assert.deepEqual(rows(ts.callers).map((c) => `${c.name}:${c.call_line}`), ["twice:3"]);
  });
});

Deno.test("graph: JS `X.prototype.m` is a reference of X's member m", async () => {
  await withExecutor({
    "lib/axios.js": [
      "class Axios {",
      "  request(config) {",
      "    return config;",
      "  }",
      "}",
      "class Other {",
      "  request(config) {",
      "    return config;",
      "  }",
      "}",
      "export function create(bind, context) {",
      "  return bind(Axios.prototype.request, context);",
      "}",
      "",
    ].join("\n"),
  }, async (ex) => {
    const axios = await callTool(ex, "find_references", { symbol_name: "Axios.request" });
    assert.ok(refs(axios).includes("lib/axios.js:12 read"), refs(axios).join(", "));
    const other = await callTool(ex, "find_references", { symbol_name: "Other.request" });
    assert.ok(!refs(other).includes("lib/axios.js:12 read"), refs(other).join(", "));
  });
});

Deno.test("graph: a name's occurrences are the same scanned (a process's first names) as indexed", async () => {
  // A fresh process scans the files' name tables for its first names instead of indexing
  // every name (an eighth of a fresh `codectx refs` on the stdlib); past those it indexes.
  const files: Record<string, string> = {};
  const names = Array.from({ length: 40 }, (_, i) => `f${i}`);
  for (let k = 0; k < 5; k++) {
    files[`m${k}.py`] = names.map((n) => `def ${n}_${k}():\n    return ${n}(${k})\n`).join("") +
      names.slice(k).map((n) => `${n}()\n`).join("");
  }
  const root = await makeProject(files);
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  try {
    await project.reindex();
    const graph = await loadGraph(project);
    const scanned = names.map((n) => [...graph.occurrences(n)]);
    const indexed = names.map((n) => [...graph.occurrences(n)]);
    assert.deepEqual(indexed, scanned);
    assert.equal(scanned[0].length, 6, "f0: a call in each body, one at the top of m0.py");
    assert.equal(scanned[39].length, 10, "f39: a call in each body and at each top");
    assert.deepEqual(graph.occurrences("nowhere"), []);
  } finally {
    project.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("graph: a fresh process reads the graph parts from graph.bin, written again when stale", async () => {
  const root = await makeProject({
    "lib.py": "def greet(name):\n    return name\n",
    "a.py": "from lib import greet\n\ngreet('a')\n",
    "b.py": "import lib\n",
  });
  const indexDir = await tempIndexDir();
  /** `file:line kind` of greet's references, from a fresh project (a process's first graph). */
  const fresh = async () => {
    const project = await Project.open(root, { indexDir, workers: 0 });
    const ex = await createExecutor(project, { timeoutMs: 0 });
    try {
      return refs(await callTool(ex, "find_references", { symbol_name: "greet" }));
    } finally {
      ex.close();
    }
  };
  try {
    const indexing = await Project.open(root, { indexDir, workers: 0 });
    await indexing.reindex();
    indexing.close();
    // Few files read their parts from the store one by one: the file is for many.
    assert.equal(partsFileBlobs(indexDir), null);
    const want = ["a.py:1 import", "a.py:3 call", "lib.py:1 definition"];
    assert.deepEqual(await fresh(), want);

    // Many files: the first graph writes the file, the next process reads it.
    const many: Record<string, string> = {};
    for (let i = 0; i < 80; i++) many[`pkg/m${i}.py`] = `from lib import greet\ngreet(${i})\n`;
    await writeFiles(root, many);
    const project = await Project.open(root, { indexDir, workers: 0 });
    await project.reindex();
    project.close();
    const first = await fresh();
    assert.equal(first.length, 3 + 160, first.join(", "));
    const blobs = partsFileBlobs(indexDir);
    assert.equal(blobs?.size, 83);
    const written = Deno.statSync(`${indexDir}/${GRAPH_PARTS_FILE}`).mtime?.getTime();
    assert.deepEqual(await fresh(), first);
    assert.equal(Deno.statSync(`${indexDir}/${GRAPH_PARTS_FILE}`).mtime?.getTime(), written);

    // An edit makes a new blob: the file lacks it, the next fresh process reads it from the
    // store, answers with it and writes the file again.
    await writeFiles(root, { "b.py": "import lib\n\nlib.greet('b')\n" });
    const again = await Project.open(root, { indexDir, workers: 0 });
    await again.reindex();
    again.close();
    const edited = await fresh();
    assert.ok(edited.includes("b.py:3 call"), edited.join(", "));
    const after = partsFileBlobs(indexDir)!;
    assert.equal(after.size, 83);
    assert.ok([...after].some((b) => !blobs!.has(b)), "the new blob of b.py is in the file");
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("graph: a fresh refs and explain make the symbol records of the files they read, not of every file", async () => {
  // The graph made every file's records at load (77,985 on the stdlib: a tenth of a fresh
  // refs with the collector), and the symbol table, the name resolver and the members'
  // index walked them all again; records are made per file now, names asked of the columns.
  const files: Record<string, string> = {
    "lib.py":
      "class Greeter:\n    def hello(self):\n        return 1\n\ndef greet(name):\n    return name\n",
    "app.py": "from lib import greet, Greeter\ngreet('a')\nGreeter().hello()\n",
  };
  for (let i = 0; i < 80; i++) files[`pkg/m${i}.py`] = `def f${i}(x):\n    return x + ${i}\n`;
  const root = await makeProject(files);
  const indexDir = await tempIndexDir();
  try {
    const indexing = await Project.open(root, { indexDir, workers: 0 });
    await indexing.reindex();
    indexing.close();
    for (
      const [tool, args] of [
        ["find_references", { symbol_name: "greet" }],
        ["explain_symbol", { symbol_name: "Greeter" }],
      ] as const
    ) {
      const project = await Project.open(root, { indexDir, workers: 0 });
      const ex = await createExecutor(project, { timeoutMs: 0 });
      try {
        const r = await callTool(ex, tool, args);
        assert.ok(JSON.stringify(r).includes("app.py"), JSON.stringify(r));
        const made = project.loadedIndex!.columns.filesMade;
        assert.ok(made <= 4, `${tool}: records of ${made} of 82 files made`);
      } finally {
        await ex.close();
      }
    }
  } finally {
    await cleanup(root, indexDir);
  }
});
