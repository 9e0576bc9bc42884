/**
 * The MCP arm of the assistant bench: calls one codectx tool through the official MCP client
 * over stdio (`codectx mcp`) and prints the result's text — what a model reads from an MCP
 * tool call (structuredContent is left out, as a client that shows the text does).
 *
 * Run: `deno run -A bench/assistant/mcp.ts [--path DIR] [--index-dir DIR] TOOL ['{"json":"args"}']`
 * (`--path`: the current folder by default)
 * (under `bench/assistant/run.ts` so its output is counted); `--list` prints the tools with their
 * input schemas, as an MCP client gives them to a model.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { Client } from "npm:/@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { StdioClientTransport } from "npm:/@modelcontextprotocol/sdk@1.32.2/client/stdio.js";

const CLI = new URL("../../cli.ts", import.meta.url).pathname;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    path: { type: "string" },
    "index-dir": { type: "string" },
    list: { type: "boolean" },
  },
});
const root = values.path ?? Deno.cwd();
if (!values.list && !positionals[0]) {
  console.error(
    `usage: deno run -A bench/assistant/mcp.ts --path DIR [--index-dir DIR] TOOL ['{"arg": 1}']`,
  );
  Deno.exit(2);
}
const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: [
    "run",
    "-A",
    CLI,
    "mcp",
    "--path",
    root,
    ...(values["index-dir"] ? ["--index-dir", values["index-dir"]] : []),
    "--no-watch",
  ],
  stderr: "ignore",
});
const client = new Client({ name: "assistant-bench", version: "1" });
await client.connect(transport);
try {
  if (values.list) {
    const { tools } = await client.listTools();
    // What an MCP client hands the model: each tool's name, description and input schema.
    for (const t of tools) {
      console.log(`${t.name}: ${t.description}\n  input: ${JSON.stringify(t.inputSchema)}`);
    }
  } else {
    const args = positionals[1] ? JSON.parse(positionals[1]) : {};
    const r = await client.callTool({ name: positionals[0], arguments: args });
    const content = (r.content ?? []) as Array<{ type: string; text?: string }>;
    for (const c of content) if (c.type === "text") console.log(c.text);
    if (r.isError) Deno.exitCode = 1;
  }
} finally {
  await client.close();
}
