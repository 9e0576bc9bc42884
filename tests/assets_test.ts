/**
 * Assets under the compiled layout, without building a binary (`deno compile` needs the
 * `denort` runtime, which cannot be downloaded here). The test lays out a folder exactly as
 * `deno task compile` fills a binary's embedded file system — the modules of `cli.ts` plus
 * every `--include` of the compile task, at `<tmp>/deno-compile-codectx/` — and runs codectx
 * from it with no configuration (no import map, no `node_modules` links): every grammar and
 * its query file, every analysis query, the model, every web page file and every worker must
 * be found there. A file the compile task forgot to include fails this test.
 */

import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { assetUrl, compiledLayout, currentLayout, packageFileUrl } from "../src/util/assets.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";
import { REPO } from "./surfaces_helpers.ts";

/** The `--include` paths of `deno task compile`, read from deno.json. */
async function compileIncludes(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  const task = String(config.tasks.compile);
  return [...task.matchAll(/--include (\S+)/g)].map((m) => m[1]);
}

/** Copies `rel` (file or folder) of the repository to the same place under `to`. */
async function copyInto(rel: string, to: string): Promise<void> {
  const from = join(REPO, rel);
  const info = await Deno.stat(from);
  if (info.isDirectory) {
    for await (const entry of Deno.readDir(from)) await copyInto(join(rel, entry.name), to);
    return;
  }
  await Deno.mkdir(dirname(join(to, rel)), { recursive: true });
  await Deno.copyFile(from, join(to, rel));
}

/** The modules `deno compile` embeds on its own: every local module (and JSON module). */
async function moduleFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(REPO, dir))) {
    const rel = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await moduleFiles(rel));
    else if (/\.(ts|js|json)$/.test(entry.name) && !entry.name.endsWith(".scm")) out.push(rel);
  }
  return out;
}

/** What the probe (run inside the compiled layout) checks: each kind of asset, for real. */
const PROBE = `
import { ASSET_PATHS, serveAsset } from "./src/web/assets.ts";
import { loadGrammar } from "./src/parse/parser.ts";
import { LANGUAGES } from "./src/parse/languages.ts";
import { analysisGrammar } from "./src/analysis/grammar.ts";
import { ANALYSIS_LANGUAGES } from "./src/analysis/spec.ts";
import { checkCodectxCode, loadCodectxCode } from "./src/search/codectx_code.ts";
import { tokenCounter } from "./src/context/tokens.ts";
const web = {};
for (const path of ASSET_PATHS) {
  const res = await serveAsset(path);
  web[path] = res ? (await res.text()).length : -1;
}
const grammars = {};
for (const { id } of LANGUAGES.filter((l) => l.grammar)) {
  const loaded = await loadGrammar(id);
  grammars[id] = loaded.query.captureNames.length;
}
const analysis = {};
for (const id of Object.keys(ANALYSIS_LANGUAGES)) {
  analysis[id] = (await analysisGrammar(id))?.hasFacts ?? null;
}
const model = await checkCodectxCode();
const vector = (await loadCodectxCode()).embedOne("parse the config file");
const tokens = (await tokenCounter()).count("def parse_config(path):");
console.log(JSON.stringify({ web, grammars, analysis, model, dims: vector.length, tokens }));
`;

Deno.test("assets: the compiled layout is named after the binary, in the temp folder", () => {
  assert.equal(
    compiledLayout("/usr/local/bin/codectx", "/tmp").root.href,
    "file:///tmp/deno-compile-codectx/",
  );
  assert.equal(
    compiledLayout("/opt/x/codectx", "/var/tmp/").root.pathname,
    "/var/tmp/deno-compile-codectx/",
  );
  const here = currentLayout();
  assert.equal(here.kind, "clone");
  assert.equal(fileURLToPath(here.root).replace(/\/$/, ""), REPO);
  assert.equal(fileURLToPath(assetUrl("cli.ts")), join(REPO, "cli.ts"));
  assert.throws(() => assetUrl("../etc/passwd"), /relative to the codectx folder/);
  assert.throws(() => packageFileUrl("tree-sitter-wasms"), /names no file/);
});

Deno.test("assets: package files come from the layout's node_modules store; a missing one names the fix", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "codectx-layout-" });
  try {
    const layout = compiledLayout("/somewhere/codectx", tmp);
    const root = fileURLToPath(layout.root);
    assert.throws(
      () => packageFileUrl("tree-sitter-wasms/out/tree-sitter-python.wasm", layout),
      /deno task compile/,
    );
    const rel =
      "node_modules/.deno/tree-sitter-wasms@0.1.13/node_modules/tree-sitter-wasms/out/tree-sitter-python.wasm";
    await Deno.mkdir(dirname(join(root, rel)), { recursive: true });
    await Deno.writeTextFile(join(root, rel), "wasm");
    assert.equal(
      fileURLToPath(packageFileUrl("tree-sitter-wasms/out/tree-sitter-python.wasm", layout)),
      join(root, rel),
    );
  } finally {
    await cleanup(tmp);
  }
});

Deno.test("assets: codectx runs from a folder laid out as `deno task compile` embeds it", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "codectx-compiled-" });
  const project = await makeProject({
    "app/config.py":
      'import json\n\n\ndef load_config(path):\n    """Read the config file."""\n    with open(path) as f:\n        return json.load(f)\n',
    "web/util.ts": "export function slug(s: string): string {\n  return s.toLowerCase();\n}\n",
  });
  const indexDir = await tempIndexDir();
  try {
    const root = fileURLToPath(compiledLayout("/usr/local/bin/codectx", tmp).root);
    for (const rel of ["cli.ts", "mod.ts", "deno.json", ...await moduleFiles("src")]) {
      await copyInto(rel, root);
    }
    for (const rel of await compileIncludes()) await copyInto(rel, root);
    await Deno.writeTextFile(join(root, "probe.ts"), PROBE);
    // No config: nothing resolves through deno.json's import map or node_modules links.
    const run = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-config", "--unstable-kv", "--no-lock", ...args],
        cwd: root,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const dec = new TextDecoder();

    const probe = await run([join(root, "probe.ts")]);
    assert.equal(probe.code, 0, dec.decode(probe.stderr));
    const seen = JSON.parse(dec.decode(probe.stdout));
    for (const [path, size] of Object.entries(seen.web)) {
      assert.ok((size as number) > 0, `web asset ${path} missing in the compiled layout`);
    }
    for (const [id, captures] of Object.entries(seen.grammars)) {
      assert.ok((captures as number) > 0, `grammar ${id} has no query captures`);
    }
    assert.ok(Object.keys(seen.grammars).length >= 10);
    assert.ok(Object.values(seen.analysis).every((v) => v !== null));
    assert.equal(seen.model, null, `model check: ${seen.model}`);
    assert.equal(seen.dims, 256);
    assert.equal(seen.tokens, 5, "the token vocabulary is in the compiled layout");

    // The workers (parse, analysis) run from the same layout.
    const cli = join(root, "cli.ts");
    const index = await run([cli, "index", "--path", project, "--index-dir", indexDir, "--json"]);
    assert.equal(index.code, 0, dec.decode(index.stderr));
    const summary = JSON.parse(dec.decode(index.stdout));
    assert.equal(summary.files, 2);
    assert.ok(summary.symbols >= 2);
    const quality = await run([
      cli,
      "quality",
      "--path",
      project,
      "--index-dir",
      indexDir,
      "--json",
    ]);
    assert.equal(quality.code, 0, dec.decode(quality.stderr));
    assert.ok(JSON.parse(dec.decode(quality.stdout)).files.length >= 1);
    // Nothing outside the layout was needed: no file of the clone is named in the output.
    assert.doesNotMatch(dec.decode(index.stderr), new RegExp(relative("/", REPO)));
  } finally {
    await cleanup(tmp, project, indexDir);
  }
});
