/**
 * The README's install line, run as a user would: `deno task install:cli` from the clone into
 * a temporary `DENO_INSTALL_ROOT`, then the installed `codectx` command, called from another
 * folder through PATH, prints its version and indexes a small project.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";
import { denoInfo, REPO } from "./surfaces_helpers.ts";

/** Runs `cmd args` with `env` added to this process's environment; never throws. */
async function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(cmd, {
    args,
    cwd: opts.cwd,
    env: opts.env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("install: `deno task install:cli` gives a codectx command that works from anywhere", async () => {
  const root = await Deno.makeTempDir({ prefix: "codectx-install-" });
  const project = await makeProject({
    "app/main.py":
      "def greet(name):\n    return f'hello {name}'\n\n\ndef main():\n    greet('x')\n",
    "web/util.ts": "export function slug(s: string): string {\n  return s.toLowerCase();\n}\n",
  });
  const indexDir = await tempIndexDir();
  // The shim calls `deno` from PATH, as it will on the user's machine.
  const env = {
    DENO_INSTALL_ROOT: root,
    PATH: `${join(root, "bin")}:${dirname(Deno.execPath())}:/usr/bin:/bin`,
    NO_COLOR: "1",
  };
  try {
    const install = await run(Deno.execPath(), ["task", "install:cli"], { cwd: REPO, env });
    assert.equal(install.code, 0, install.stderr);
    // The first install used to print a box about npm build scripts it had not run.
    assert.doesNotMatch(install.stderr + install.stdout, /Ignored build scripts|approve-scripts/);
    const shim = await Deno.readTextFile(join(root, "bin", "codectx"));
    assert.match(shim, /cli\.ts/);

    const version = await run("codectx", ["--version"], { cwd: project, env });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^codectx \d+\.\d+\.\d+/);

    const index = await run(
      "codectx",
      ["index", "--path", project, "--index-dir", indexDir, "--json"],
      { cwd: project, env },
    );
    assert.equal(index.code, 0, index.stderr);
    const report = JSON.parse(index.stdout);
    assert.equal(report.files, 2);
    assert.ok(report.symbols >= 3, index.stdout);
    assert.doesNotMatch(index.stderr, /Ignored build scripts|unstable/i);
  } finally {
    await cleanup(root, project, indexDir);
  }
});

/** A program that imports codectx, indexes `project` and looks a symbol up. */
function importer(specifier: string, project: string, indexDir: string): string {
  return `import { createExecutor, indexProject } from ${JSON.stringify(specifier)};
const opts = { indexDir: ${JSON.stringify(indexDir)} };
const report = await indexProject(${JSON.stringify(project)}, opts);
const ex = await createExecutor(${JSON.stringify(project)}, opts);
const r = await ex.execute({ tool_name: "search_symbols", arguments: { query: "greet" } });
await ex.close();
console.log(JSON.stringify({ files: report.files, symbols: r.result_payload.symbols }));
`;
}

Deno.test("mod.ts imported from another folder and from another Deno project, no --config", async () => {
  const project = await makeProject({
    "app/main.py": "def greet(name):\n    return f'hello {name}'\n",
  });
  const byPath = await Deno.makeTempDir({ prefix: "codectx-importer-" });
  const otherProject = await Deno.makeTempDir({ prefix: "codectx-importer-" });
  const indexDir = await tempIndexDir();
  try {
    const mod = new URL("../mod.ts", import.meta.url).href;
    await Deno.writeTextFile(join(byPath, "main.ts"), importer(mod, project, indexDir));
    // Another project: its own import map, which knows codectx but none of its dependencies.
    await Deno.writeTextFile(
      join(otherProject, "deno.json"),
      JSON.stringify({ imports: { "@codectx/codectx": mod }, unstable: ["kv"] }),
    );
    await Deno.writeTextFile(
      join(otherProject, "main.ts"),
      importer("@codectx/codectx", project, indexDir),
    );
    for (const [dir, flags] of [[byPath, ["--unstable-kv"]], [otherProject, []]] as const) {
      const out = await run(Deno.execPath(), ["run", "-A", ...flags, "main.ts"], {
        cwd: dir,
        env: { NO_COLOR: "1" },
      });
      assert.equal(out.code, 0, `${dir}: ${out.stderr}`);
      const answer = JSON.parse(out.stdout);
      assert.equal(answer.files, 1);
      assert.equal(answer.symbols[0].name, "greet", out.stdout);
      assert.equal(answer.symbols[0].file, "app/main.py");
    }
  } finally {
    await cleanup(project, byPath, otherProject, indexDir);
  }
});

/**
 * The modules a file loads before any dynamic `import()` runs: its static import graph
 * (`deno info --json`), as specifiers (npm packages as `npm:/name@version…`).
 */
async function staticGraph(file: string): Promise<Set<string>> {
  const info = await denoInfo(file);
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const todo = [...info.roots];
  while (todo.length) {
    const spec = todo.pop()!;
    const real = info.redirects[spec] ?? spec;
    if (seen.has(real)) continue;
    seen.add(real);
    for (const dep of bySpecifier.get(real)?.dependencies ?? []) {
      if (!dep.isDynamic && dep.code) todo.push(dep.code.specifier);
    }
  }
  return seen;
}

Deno.test("first run: index and its workers load no embedder library, MCP SDK or HTTP server", async () => {
  // `cli.ts` loads a command's module when it runs; `index` runs these three.
  const heavy =
    /^npm:\/?(@huggingface|@energetic-ai|onnxruntime|sharp|@modelcontextprotocol|hono)\b/;
  for (const file of ["src/cli/index.ts", "src/index/worker.ts", "src/analysis/worker.ts"]) {
    const graph = await staticGraph(file);
    assert.ok(graph.size > 20, `${file}: ${graph.size} modules`);
    const loaded = [...graph].filter((s) => heavy.test(s));
    assert.deepEqual(loaded, [], `${file} loads ${loaded.join(", ")} at start`);
  }
  // The check sees a static import of one: the MCP server loads the SDK at start.
  const mcp = await staticGraph("src/mcp/server.ts");
  assert.ok([...mcp].some((s) => heavy.test(s)), "the MCP server's graph names the SDK");
  const cli = await staticGraph("cli.ts");
  assert.ok(![...cli].some((s) => heavy.test(s)), "cli.ts itself loads no command");
});

Deno.test("first answer: a tool's command loads its own tool's folder, not every tool's", async () => {
  // `codectx explain` loaded all fourteen tools' folders and their domain code (analysis,
  // search, context) through the registry before running the one it names (issue 34).
  const graph = new Set([
    ...await staticGraph("cli.ts"),
    ...await staticGraph("src/cli/tool_command.ts"),
    ...await staticGraph("src/tools/find_references/mod.ts"),
  ]);
  const tools = [...graph].filter((s) => /\/src\/tools\/\w+\/mod\.ts$/.test(s))
    .map((s) => s.replace(/^.*\/src\/tools\//, ""));
  assert.deepEqual(tools, ["find_references/mod.ts"]);
  // The surfaces that list every tool still have them all, in the same order.
  const { TOOLS } = await import("../src/tools/registry.ts");
  const { TOOL_ENTRIES } = await import("../src/tools/tool_index.ts");
  assert.deepEqual(
    TOOLS.map((t) => [t.name, t.cli?.command]),
    TOOL_ENTRIES.map((e) => [e.name, e.command]),
  );
});

Deno.test("first answer: explain and refs load neither the vectors' code nor the indexer", async () => {
  // The service made the project's vectors when it opened (the embedders, the vector index,
  // the search workers' pool: ~20 modules) and the project imported the indexer and the
  // parser (tree-sitter) for its runs, so `codectx explain --no-update` loaded both and used
  // neither (issue 34). Now a search, a health or an indexing run loads them.
  const graph = new Set([
    ...await staticGraph("cli.ts"),
    ...await staticGraph("src/cli/tool_command.ts"),
    ...await staticGraph("src/tools/explain_symbol/mod.ts"),
    ...await staticGraph("src/tools/find_references/mod.ts"),
  ]);
  const heavy = [...graph].filter((s) =>
    /\/src\/search\/(vector|embedder|providers|worker_embedder|codectx_code|search_pool)/.test(s) ||
    /\/src\/index\/(indexer|ingest|extract)\.ts$|\/src\/parse\/parser\.ts$|web-tree-sitter/.test(s)
  ).map((s) => s.replace(/^.*\/src\//, "src/"));
  assert.deepEqual(heavy, []);
  // Nor what only a scan, a traced request or a watching server runs: node:vm (the regex
  // bound), node:async_hooks (request traces), the watcher with the `ignore` package.
  const unused = [...graph].filter((s) =>
    /^node:(vm|async_hooks)$|^npm:\/?ignore@|\/src\/service\/watch\.ts$/.test(s)
  ).map((s) => s.replace(/^.*\/src\//, "src/"));
  assert.deepEqual(unused, []);
  // They are a dynamic import away: the service and the project still reach them.
  for (
    const [file, dynamic] of [
      ["src/service/service.ts", "/src/search/vector_sync.ts"],
      ["src/project/project.ts", "/src/index/indexer.ts"],
      ["src/service/service.ts", "/src/service/watch.ts"],
      ["src/search/grep_pool.ts", "/src/util/bounded.ts"],
    ]
  ) {
    const info = await denoInfo(file);
    const deps = info.modules.find((m) => m.specifier.endsWith(file))?.dependencies ?? [];
    assert.ok(
      deps.some((d) => d.isDynamic && d.code?.specifier.endsWith(dynamic)),
      `${file} → ${dynamic}`,
    );
  }
});

Deno.test("first answer: a tool's command loads the analysis code only when it analyzes", async () => {
  // The service held the analysis pool from its start, and the pool imported the analysis
  // itself (rules, metrics, resolution: ~40 modules) for its inline fallback, so `codectx refs`
  // loaded all of it and never used it (issue 34). Workers load it on their own.
  const graph = new Set([
    ...await staticGraph("src/cli/tool_command.ts"),
    ...await staticGraph("src/tools/find_references/mod.ts"),
  ]);
  assert.ok(
    [...graph].some((s) => s.endsWith("/src/analysis/pool.ts")),
    "the service holds the pool",
  );
  const analysis = [...graph].filter((s) => /\/src\/analysis\/(analyze|validate|job)\.ts$/.test(s));
  assert.deepEqual(analysis, []);
  assert.ok((await staticGraph("src/analysis/worker.ts")).has(
    new URL("../src/analysis/analyze.ts", import.meta.url).href,
  ));
});
