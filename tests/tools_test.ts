import assert from "node:assert/strict";
import { fuzzyMatch, Tier } from "../src/search/fuzzy.ts";
import { splitIdentifier } from "../src/util/tokens.ts";
import { createExecutor, type Executor } from "../src/tools/executor.ts";
import { describeTools, TOOL_NAMES, TOOLS } from "../src/tools/registry.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";

const FILES: Record<string, string> = {
  "src/config.py": `"""Configuration."""


def parse_config(path):
    """Parse the config file at path."""
    return {}


def parseConfig(text):
    return {}


def ParseConfig():
    pass


def parse_config_file_now():
    pass


class ConfigParser:
    """Reads configs."""

    def parse(self):
        return 1
`,
  "src/session.ts": `export class Session {
  /** Sends a request. */
  request(url: string): Promise<Response> {
    return fetch(url);
  }
}

export function getSomeFile(): string {
  return "";
}

export const MAX_RETRIES = 3;
`,
  "src/app.ts":
    'import { Session } from "./session.ts";\nimport { z } from "zod";\n\nnew Session().request(z.string());\n',
  "lib/pcfg.go": "package lib\n\n// PCFG is unrelated.\nfunc PCFG() {}\n",
};

async function withExecutor(fn: (ex: Executor, root: string) => Promise<void>): Promise<void> {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const ex = await createExecutor(root, { indexDir, workers: 0 });
  try {
    await fn(ex, root);
  } finally {
    ex.close();
    await cleanup(root, indexDir);
  }
}

type Sym = { name: string; qualified_name: string; kind: string; file: string; line: number };

Deno.test("fuzzy: tiers", () => {
  assert.deepEqual(splitIdentifier("parseHTTPResponse_v2"), [
    "parse",
    "http",
    "response",
    "v",
    "2",
  ]);
  assert.equal(fuzzyMatch("parse_config", "parse_config")?.tier, Tier.Exact);
  assert.equal(fuzzyMatch("parse_config", "Parse_Config")?.tier, Tier.CaseInsensitive);
  assert.equal(fuzzyMatch("parse_c", "parse_config")?.tier, Tier.Prefix);
  assert.equal(fuzzyMatch("gsf", "getSomeFile")?.tier, Tier.Parts);
  assert.equal(fuzzyMatch("someFile", "getSomeFile")?.tier, Tier.Parts);
  assert.equal(fuzzyMatch("conf_file", "parse_config_file_now")?.tier, Tier.Parts);
  assert.equal(fuzzyMatch("pcfn", "parse_config_file_now")?.tier, Tier.Parts);
  assert.equal(fuzzyMatch("onfg", "parse_config")?.tier, Tier.Subsequence);
  assert.equal(fuzzyMatch("xyz", "parse_config"), null);
});

Deno.test("search_symbols: ranking exact > case-insensitive > prefix > parts > subsequence", async () => {
  await withExecutor(async (ex) => {
    const r = await ex.execute({
      tool_name: "search_symbols",
      arguments: { query: "parse_config" },
    });
    assert.ok(r.success, r.error ?? "");
    const names = (r.result_payload.symbols as Sym[]).map((s) => s.name);
    // exact, then prefix, then camelCase/snake_case parts (ties by position in the file).
    assert.deepEqual(names, [
      "parse_config",
      "parse_config_file_now",
      "parseConfig",
      "ParseConfig",
    ]);

    const ci = await ex.execute({
      tool_name: "search_symbols",
      arguments: { query: "parseconfig" },
    });
    const ciNames = (ci.result_payload.symbols as Sym[]).map((s) => s.name);
    assert.deepEqual(ciNames.slice(0, 2).sort(), ["ParseConfig", "parseConfig"]);

    const hump = await ex.execute({ tool_name: "search_symbols", arguments: { query: "gsf" } });
    assert.equal((hump.result_payload.symbols as Sym[])[0].name, "getSomeFile");

    const q = await ex.execute({
      tool_name: "search_symbols",
      arguments: { query: "Session.request" },
    });
    const top = (q.result_payload.symbols as Sym[])[0];
    assert.equal(top.qualified_name, "Session.request");
    assert.equal(top.kind, "method");
    assert.equal(top.file, "src/session.ts");
    assert.equal(top.line, 3);

    const kind = await ex.execute({
      tool_name: "search_symbols",
      arguments: { query: "config", kind: "class" },
    });
    assert.deepEqual((kind.result_payload.symbols as Sym[]).map((s) => s.name), ["ConfigParser"]);

    const lim = await ex.execute({
      tool_name: "search_symbols",
      arguments: { query: "p", limit: 2 },
    });
    assert.equal((lim.result_payload.symbols as Sym[]).length, 2);
    assert.ok((lim.result_payload.total as number) > 2);

    const all = await ex.execute({
      tool_name: "search_symbols",
      arguments: { offset: 1, limit: 2 },
    });
    const page = all.result_payload.symbols as Sym[];
    assert.deepEqual(page.map((s) => s.name), ["parse_config", "parseConfig"]); // file order, then line
    assert.equal(all.result_payload.total, 11);

    const prefixed = await ex.execute({
      tool_name: "search_symbols",
      arguments: { query: "p", path_prefix: "lib" },
    });
    assert.deepEqual((prefixed.result_payload.symbols as Sym[]).map((s) => s.file), [
      "lib/pcfg.go",
    ]);
  });
});

Deno.test("explain_file: outline, unknown file, paths outside the root", async () => {
  await withExecutor(async (ex, root) => {
    const r = await ex.execute({
      tool_name: "explain_file",
      arguments: { file_path: "src/session.ts" },
    });
    assert.ok(r.success, r.error ?? "");
    const p = r.result_payload as { file: string; language: string; lines: number; symbols: Sym[] };
    assert.equal(p.file, "src/session.ts");
    assert.equal(p.language, "typescript");
    assert.equal(p.lines, 12);
    assert.deepEqual(p.symbols.map((s) => s.qualified_name), [
      "Session",
      "Session.request",
      "getSomeFile",
      "MAX_RETRIES",
    ]);

    assert.deepEqual((r.result_payload as { imported_by: string[] }).imported_by, ["src/app.ts"]);
    const app = await ex.execute({
      tool_name: "explain_file",
      arguments: { file_path: "src/app.ts" },
    });
    const imports = (app.result_payload as {
      imports: Array<{ module: string; resolved: string | null; external: boolean; line: number }>;
    }).imports;
    assert.deepEqual(imports.map((i) => [i.module, i.resolved, i.external, i.line]), [
      ["./session.ts", "src/session.ts", false, 1],
      ["zod", null, true, 2],
    ]);

    // Absolute path inside the root works.
    const abs = await ex.execute({
      tool_name: "explain_file",
      arguments: { file_path: `${root}/src/session.ts` },
    });
    assert.ok(abs.success, abs.error ?? "");

    const unknown = await ex.execute({
      tool_name: "explain_file",
      arguments: { file_path: "src/sesion.ts" },
    });
    assert.equal(unknown.success, false);
    assert.equal(unknown.error_code, "not_found");
    assert.match(unknown.error!, /src\/sesion\.ts.*did you mean src\/session\.ts/);

    const outside = await ex.execute({
      tool_name: "explain_file",
      arguments: { file_path: "../../etc/passwd" },
    });
    assert.equal(outside.error_code, "outside_root");
    assert.match(outside.error!, /outside the project root/);
    const absOutside = await ex.execute({
      tool_name: "explain_file",
      arguments: { file_path: "/etc/passwd" },
    });
    assert.equal(absOutside.error_code, "outside_root");

    const secret = await Deno.makeTempDir();
    await Deno.writeTextFile(`${secret}/secret.py`, "TOKEN = 'do-not-leak'\n");
    await Deno.symlink(`${secret}/secret.py`, `${root}/src/link.py`);
    const viaLink = await ex.execute({
      tool_name: "explain_file",
      arguments: { file_path: "src/link.py" },
    });
    assert.equal(viaLink.error_code, "outside_root");
    assert.ok(!JSON.stringify(viaLink).includes("do-not-leak"));
    await cleanup(secret);
  });
});

Deno.test("executor: validation names the field; unknown tools and arguments are refused", async () => {
  await withExecutor(async (ex) => {
    const bad = await ex.execute({ tool_name: "search_symbols", arguments: { query: 42 } });
    assert.equal(bad.success, false);
    assert.equal(bad.error_code, "invalid_argument");
    assert.match(bad.error!, /query/);

    const missing = await ex.execute({ tool_name: "explain_file", arguments: {} });
    assert.match(missing.error!, /file_path/);

    const extra = await ex.execute({
      tool_name: "search_symbols",
      arguments: { query: "x", topk: 3 },
    });
    assert.match(
      extra.error!,
      /unknown argument 'topk'.*valid: query, kind, limit, offset, path_prefix/,
    );

    const range = await ex.execute({
      tool_name: "search_symbols",
      arguments: { query: "x", limit: 0 },
    });
    assert.match(range.error!, /limit/);

    const notObject = await ex.execute({ tool_name: "search_symbols", arguments: [1] });
    assert.match(notObject.error!, /must be a JSON object/);

    const unknown = await ex.execute({ tool_name: "nope" });
    assert.equal(unknown.error_code, "unknown_tool");
    assert.match(unknown.error!, /unknown tool 'nope'; valid tools: semantic_search/);

    const unknownSymbol = await ex.execute({
      tool_name: "find_references",
      arguments: { symbol_name: "x" },
    });
    assert.equal(unknownSymbol.error_code, "not_found");
    assert.match(unknownSymbol.error!, /symbol 'x' not found/);

    const events: string[] = [];
    const stop = ex.onEvent((e) => events.push(`${e.type}:${e.tool_name}`));
    const idx = await ex.execute({ tool_name: "index_project", arguments: {} });
    stop();
    assert.ok(idx.success, idx.error ?? "");
    assert.equal(idx.result_payload.state, "ready");
    assert.equal(idx.result_payload.files, 4);
    assert.deepEqual(events, ["tool.started:index_project", "tool.completed:index_project"]);
    assert.equal(typeof idx.execution_time_ms, "number");
  });
});

Deno.test("registry: every tool folder, each with JSON Schemas, annotations and a renderer", async () => {
  // The registry lists the folders of src/tools/, each once: a folder not listed is a tool
  // no surface knows.
  const folders: string[] = [];
  for await (const e of Deno.readDir(new URL("../src/tools/", import.meta.url))) {
    if (e.isDirectory) folders.push(e.name);
  }
  assert.deepEqual([...TOOL_NAMES].sort(), folders.sort());
  assert.equal(new Set(TOOL_NAMES).size, TOOL_NAMES.length);
  for (const t of TOOLS) {
    assert.equal(typeof t.render, "function", t.name);
    assert.equal(typeof t.annotations.readOnlyHint, "boolean", t.name);
    if (t.cli) assert.ok(t.cli.help.startsWith(`Usage: codectx ${t.cli.command}`), t.name);
  }
  const tools = describeTools();
  for (const t of tools) {
    assert.equal(t.input_schema.type, "object", t.name);
    assert.equal(t.output_schema.type, "object", t.name);
    assert.ok(t.description.length > 20, t.name);
  }
  const search = tools.find((t) => t.name === "semantic_search")!;
  assert.deepEqual(search.input_schema.required, ["query"]);
});
