/**
 * What an MCP answer costs a model: per tool, the tokens (cl100k) of the text content the
 * server sends next to the tokens of the payload as JSON (pretty, as the text used to be, and
 * compact), through the real MCP server and the SDK client over an in-memory transport. Also
 * the size of `tools/list` as served and as the registry describes it.
 *
 * Projects, fetched at run time and never committed:
 * - `rxjs` (npm `rxjs@7.8.1`, TypeScript): the set the renderers were tuned on;
 * - `email` (the machine's Python standard library `email/` package): held out, never tuned on.
 * Or any folder: `deno run -A bench/mcp_tokens.ts --project DIR`.
 *
 * Tool arguments are chosen from the project, not by hand: the most central function or
 * method of `summarize_repo` names the symbol, its file the file.
 *
 * Usage: `deno run -A bench/mcp_tokens.ts [--set rxjs|email|all] [--project DIR] [--dump DIR]`
 * (`--dump` writes each answer's text and JSON there, to read what the model gets).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { Client } from "npm:/@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { InMemoryTransport } from "npm:/@modelcontextprotocol/sdk@1.32.2/inMemory.js";
import { tokenCounter } from "../src/context/tokens.ts";
import { createMcpServer, mcpTools } from "../src/mcp/server.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { describeTools } from "../src/tools/registry.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    set: { type: "string", default: "all" },
    project: { type: "string" },
    dump: { type: "string" },
  },
});

const counter = await tokenCounter();
const tokens = (s: string) => counter.count(s);
const WORK = "/tmp/codectx-bench-mcp";

async function sh(cmd: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** rxjs 7.8.1 from npm, unpacked (its `src/` holds the TypeScript sources). */
async function rxjs(): Promise<string> {
  const dir = `${WORK}/rxjs`;
  if (!(await exists(`${dir}/package/src`))) {
    await Deno.mkdir(dir, { recursive: true });
    const tgz = await sh("npm", ["pack", "rxjs@7.8.1", "--silent"], dir);
    await sh("tar", ["xzf", tgz], dir);
  }
  return `${dir}/package/src`;
}

/** A copy of the Python standard library's `email` package. */
async function email(): Promise<string> {
  const dir = `${WORK}/email`;
  if (!(await exists(dir))) {
    const stdlib = await sh("python3", [
      "-c",
      "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
    ], "/");
    await Deno.mkdir(WORK, { recursive: true });
    await sh("cp", ["-r", `${stdlib}/email`, dir], "/");
  }
  return dir;
}

type Obj = Record<string, unknown>;
interface CallResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Obj;
  isError?: boolean;
}

/** One row per tool: the JSON and the text of its answer. */
async function measure(root: string): Promise<void> {
  const executor = await createExecutor(root, {
    indexDir: `${WORK}/index-${root.replace(/[^a-z0-9]+/gi, "_")}`,
  });
  const server = createMcpServer(executor, "bench");
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "mcp-tokens", version: "1" });
  await client.connect(clientSide);
  const call = async (name: string, args: Obj) =>
    await client.callTool({ name, arguments: args }) as CallResult;
  try {
    const index = await call("index_project", {});
    const summary = (await call("summarize_repo", {})).structuredContent ?? {};
    // The most central function or method; else the most central symbol of any kind.
    const central = summary.key_symbols as Obj[];
    const key = central.find((s) => s.kind === "function" || s.kind === "method") ?? central[0];
    const name = String(key.qualified_name);
    const file = String(key.file);
    const explained = (await call("explain_symbol", { symbol_name: name, file_path: file }))
      .structuredContent ?? {};
    const words = name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[._]/g, " ").toLowerCase();
    const cases: Array<[string, Obj]> = [
      ["semantic_search", { query: words, top_k: 10 }],
      ["explain_symbol", { symbol_name: name, file_path: file }],
      ["explain_file", { file_path: file }],
      ["summarize_repo", {}],
      ["find_references", { symbol_name: name, file_path: file }],
      ["get_dependencies", { file_path: file }],
      ["get_dependencies", {}],
      ["get_call_graph", { symbol_name: name, file_path: file, depth: 2 }],
      ["get_context", { symbol_name: name, file_path: file }],
      ["validate_code", { code: String(explained.source ?? ""), file_path: file }],
      ["analyze_quality", {}],
      ["search_symbols", { query: String(key.name).slice(0, 4) }],
      ["index_project", {}],
      ["ask", { question: `where is ${words} used?` }],
    ];
    console.log(
      `project ${root}: ${index.structuredContent?.files} files; symbol ${name} (${file})`,
    );
    console.log(
      "tool                 args           json-pretty tok  json tok  text tok  text/json  chars text/json",
    );
    let worst = 0;
    for (const [tool, args] of cases) {
      const r = await call(tool, args);
      if (r.isError) {
        console.log(`${tool.padEnd(20)} error: ${r.content[0]?.text}`);
        continue;
      }
      const payload = r.structuredContent ?? {};
      const text = r.content.map((c) => c.text ?? "").join("\n");
      const pretty = JSON.stringify(payload, null, 2);
      const compact = JSON.stringify(payload);
      const ratio = tokens(text) / tokens(compact);
      if (values.dump) {
        const base = `${values.dump}/${
          root.split("/").filter(Boolean).slice(-2).join("_")
        }.${tool}${Object.keys(args).length ? "" : ".all"}`;
        await Deno.mkdir(values.dump, { recursive: true });
        await Deno.writeTextFile(`${base}.md`, text);
        await Deno.writeTextFile(`${base}.json`, pretty);
      }
      worst = Math.max(worst, ratio);
      const label = Object.keys(args).length ? Object.keys(args).join(",") : "—";
      console.log(
        `${tool.padEnd(20)} ${label.slice(0, 14).padEnd(14)} ${
          String(tokens(pretty)).padStart(15)
        } ${String(tokens(compact)).padStart(9)} ${String(tokens(text)).padStart(9)} ${
          ratio.toFixed(2).padStart(10)
        } ${(text.length / compact.length).toFixed(2).padStart(16)}`,
      );
      if (tool === "summarize_repo") {
        console.log(
          `${"".padEnd(20)} its own summary (payload.text): ${tokens(String(payload.text))} tokens`,
        );
      }
    }
    console.log(`worst text/json (tokens, compact JSON): ${worst.toFixed(2)}`);
  } finally {
    await client.close();
    await server.close();
    await executor.close();
  }
}

function toolsListSize(): void {
  const served = JSON.stringify({ tools: mcpTools() });
  const raw = JSON.stringify({
    tools: describeTools().map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.input_schema,
      outputSchema: t.output_schema,
    })),
  });
  const part = (pick: (t: ReturnType<typeof mcpTools>[number]) => unknown) =>
    mcpTools().reduce((n, t) => n + tokens(JSON.stringify(pick(t))), 0);
  console.log(
    `tools/list: ${tokens(served)} tokens as served (${served.length} chars); ` +
      `registry schemas as they are: ${tokens(raw)} tokens`,
  );
  console.log(
    `  descriptions ${part((t) => t.description)}, input schemas ${
      part((t) => t.inputSchema)
    }, output schemas ${part((t) => t.outputSchema)} tokens`,
  );
}

toolsListSize();
const sets: Array<[string, () => Promise<string>]> = values.project
  ? [["project", () => Promise.resolve(values.project as string)]]
  : [["rxjs (tuned on)", rxjs], ["email (held out)", email]].filter(([label]) =>
    values.set === "all" || String(label).startsWith(String(values.set))
  ) as Array<[string, () => Promise<string>]>;
for (const [label, get] of sets) {
  console.log(`\n== ${label}`);
  await measure(await get());
}
