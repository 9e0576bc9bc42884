/**
 * `codectx mcp`: the MCP server over stdio (default) or Streamable HTTP (`--http`).
 * Over stdio nothing but protocol goes to stdout: logs go to stderr, and `console.log` is
 * sent there too so that no stray line can corrupt the stream.
 *
 * @module
 */

import process from "node:process";
import type { Transport } from "npm:/@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from "npm:/@modelcontextprotocol/sdk@1.32.2/types.js";
import { idleCollector } from "../http/idle_gc.ts";
import { serveSurface } from "../http/serve.ts";
import { untilSignal } from "../http/surface.ts";
import { createMcpHttpApp, MCP_PATH } from "../mcp/http.ts";
import { createMcpServer } from "../mcp/server.ts";
import { openExecutor, parse } from "./args.ts";
import { SERVER_HELP, SERVER_OPTIONS, serverConfig } from "./server_options.ts";

const HELP = `codectx mcp — MCP server with the codectx tools

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
  const executor = await openExecutor(values);
  executor.service.start({ watch: values["no-watch"] !== true });
  const server = createMcpServer(executor, "mcp");
  const transport = new LineTransport();
  const clientGone = new Promise<string>((resolve) => {
    process.stdin.once("end", () => resolve("end"));
    process.stdin.once("close", () => resolve("close"));
    transport.onclose = () => resolve("transport");
  });
  await server.connect(transport);
  console.error("codectx mcp: serving over stdio");
  await Promise.race([clientGone, untilSignal()]);
  await server.close().catch(() => {});
  await executor.close();
  return 0;
}

async function serveHttp(values: Record<string, unknown>): Promise<number> {
  const config = serverConfig(values, MCP_HTTP_PORT);
  return await serveSurface({
    executor: await openExecutor(values),
    config,
    label: "mcp",
    announcePath: MCP_PATH,
    build: (executor, safety) => createMcpHttpApp({ executor, safety }).fetch,
  });
}

/** Largest stdio message (one line); a longer one is answered with an error and skipped. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The MCP stdio transport: one JSON-RPC message per line. Unlike the SDK's, it answers what
 * it cannot take instead of ending the session: a line that is not JSON gets -32700, a
 * JSON value that is not a JSON-RPC message -32600, and a line over
 * {@link MAX_MESSAGE_BYTES} -32600 naming the limit (the line is skipped; the server goes
 * on).
 */
class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private parts: Uint8Array[] = [];
  private size = 0;
  /** Inside a line that went over the limit: its bytes are dropped up to its end. */
  private skipping: { head: string } | null = null;
  private readonly decoder = new TextDecoder();
  /** Gives a burst's memory back once the client is quiet (see `http/idle_gc.ts`). */
  private readonly idle = idleCollector();

  private readonly onData = (chunk: Uint8Array) => {
    this.idle.touch();
    this.take(chunk);
  };
  private readonly onError = (err: Error) => this.onerror?.(err);

  start(): Promise<void> {
    process.stdin.on("data", this.onData);
    process.stdin.on("error", this.onError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.idle.touch();
    return new Promise((resolve) => {
      if (process.stdout.write(JSON.stringify(message) + "\n")) resolve();
      else process.stdout.once("drain", () => resolve());
    });
  }

  close(): Promise<void> {
    this.idle.stop();
    process.stdin.off("data", this.onData);
    process.stdin.off("error", this.onError);
    this.parts = [];
    this.onclose?.();
    return Promise.resolve();
  }

  private take(chunk: Uint8Array): void {
    let from = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
      this.append(chunk.subarray(from, nl));
      this.endLine();
      from = nl + 1;
    }
    this.append(chunk.subarray(from));
  }

  private append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.skipping) return;
    if (this.size + bytes.length > MAX_MESSAGE_BYTES) {
      // Keep the start: it usually names the request id the error answers.
      const head = this.decoder.decode(this.parts[0] ?? bytes).slice(0, 200);
      this.parts = [];
      this.size = 0;
      this.skipping = { head };
      return;
    }
    this.parts.push(bytes.slice());
    this.size += bytes.length;
  }

  private endLine(): void {
    if (this.skipping) {
      const id = /"id"\s*:\s*("(?:[^"\\]|\\.){0,100}"|-?\d{1,15})/.exec(this.skipping.head)?.[1];
      this.skipping = null;
      this.reply(
        id === undefined ? null : JSON.parse(id),
        -32600,
        `the message is larger than ${MAX_MESSAGE_BYTES} bytes, the most codectx reads; send smaller arguments`,
      );
      return;
    }
    const bytes = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      bytes.set(p, at);
      at += p.length;
    }
    this.parts = [];
    this.size = 0;
    const line = this.decoder.decode(bytes).replace(/\r$/, "");
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.reply(
        null,
        -32700,
        `parse error: the line is not JSON (${errorText(err)}); send one JSON-RPC message per line`,
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = typeof value === "object" && value !== null && "id" in value &&
          (typeof value.id === "string" || typeof value.id === "number")
        ? value.id
        : null;
      this.reply(id, -32600, "invalid request: not a JSON-RPC 2.0 message (jsonrpc, method, id)");
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: string | number | null, code: number, message: string): void {
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n");
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
