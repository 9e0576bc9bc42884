/**
 * `codectx mcp`: the MCP server over stdio (default) or Streamable HTTP (`--http`).
 * Over stdio nothing but protocol goes to stdout: logs go to stderr, and `console.log` is
 * sent there too so that no stray line can corrupt the stream.
 *
 * @module
 */

import process from "node:process";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { parse } from "../cli/args.ts";
import { SERVER_HELP, SERVER_OPTIONS } from "../http/config.ts";
import { serveSurface } from "../http/serve.ts";
import { openSurface, untilSignal } from "../http/surface.ts";
import { createMcpHttpApp, MCP_PATH } from "./http.ts";
import { createMcpServer } from "./server.ts";

const HELP = `codectx mcp — MCP server with the 13 codectx tools

Usage: codectx mcp --path DIR [--index-dir DIR]            (stdio)
       codectx mcp --path DIR --http [--port N] [options]  (Streamable HTTP at /mcp)

Options with --http:
${SERVER_HELP}

Default HTTP address: http://127.0.0.1:24844/mcp.`;

/** Default port of MCP over HTTP. */
export const MCP_HTTP_PORT = 24844;

/** Runs `codectx mcp`; resolves with the exit code when the client goes away or on a signal. */
export async function cmdMcp(args: string[]): Promise<number> {
  const { values } = parse(args, { ...SERVER_OPTIONS, http: { type: "boolean" } });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.http) return await serveHttp(values);
  // stdout belongs to the protocol from here on.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const surface = await openSurface(values, { watch: values["no-watch"] !== true });
  const server = createMcpServer(surface.executor, "mcp");
  const transport = new StdioServerTransport();
  const clientGone = new Promise<string>((resolve) => {
    process.stdin.once("end", () => resolve("end"));
    process.stdin.once("close", () => resolve("close"));
    transport.onclose = () => resolve("transport");
  });
  await server.connect(transport);
  console.error("codectx mcp: serving over stdio");
  await Promise.race([clientGone, untilSignal()]);
  await server.close().catch(() => {});
  await surface.close();
  return 0;
}

function serveHttp(values: Record<string, unknown>): Promise<number> {
  return serveSurface({
    values,
    defaultPort: MCP_HTTP_PORT,
    label: "mcp",
    announcePath: MCP_PATH,
    build: (surface, safety) => createMcpHttpApp({ executor: surface.executor, safety }).fetch,
  });
}
