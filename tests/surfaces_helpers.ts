/**
 * Helpers of the surface tests: a fresh copy of the fixture project (with a symlink out of
 * the root and a secret outside it), one call per tool with what its answer must show, the
 * real CLI started as a child process on an ephemeral port, polling with a deadline, and raw
 * HTTP for headers `fetch` will not send.
 */

import { Client } from "npm:/@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { StdioClientTransport } from "npm:/@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
import { TOOL_NAMES } from "../src/tools/registry.ts";
import { CLI } from "./helpers.ts";
import type { JsonObject, ToolCase } from "./tool_case.ts";

export { CLI, runCli } from "./helpers.ts";

/** The repository root. */
export const REPO: string = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(
  /\/$/,
  "",
);
/** The fixture project of the surface tests. */
export const FIXTURE = `${REPO}/tests/fixtures/project`;
/** Text of the file outside the root; no answer may ever contain it. */
export const SECRET_MARKER = "CODECTX_OUTSIDE_SECRET_7f3a9c";

export { arr, type Json, type JsonObject, obj, type ToolCase } from "./tool_case.ts";

/** A temporary copy of the fixture. */
export interface FixtureCopy {
  /** Temporary folder holding everything below. */
  base: string;
  /** Real path of the project root. */
  root: string;
  /** The secret file outside the root. */
  secretFile: string;
  /** Index folder for this copy. */
  indexDir: string;
  cleanup(): Promise<void>;
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(`${from}/${e.name}`, `${to}/${e.name}`);
    else if (e.isFile) await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

/**
 * Copies the fixture to a temporary folder and adds, outside the root, `outside/secret.py`
 * (holding {@linkcode SECRET_MARKER}) with two symlinks to it from inside the root:
 * `app/escape.py` (a file) and `linked_out` (a folder).
 */
export async function fixtureCopy(): Promise<FixtureCopy> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "codectx-surfaces-" }));
  const root = `${base}/project`;
  await copyDir(FIXTURE, root);
  const outside = `${base}/outside`;
  await Deno.mkdir(outside);
  const secretFile = `${outside}/secret.py`;
  await Deno.writeTextFile(
    secretFile,
    `def leaked_outside_fn():\n    return "${SECRET_MARKER}"\n`,
  );
  await Deno.symlink(secretFile, `${root}/app/escape.py`);
  await Deno.symlink(outside, `${root}/linked_out`);
  return {
    base,
    root,
    secretFile,
    indexDir: `${base}/index`,
    cleanup: () => Deno.remove(base, { recursive: true }).catch(() => {}),
  };
}

/** A CLI child process serving HTTP. */
export interface Child {
  /** Base address from the `listening on` line. */
  url: string;
  port: number;
  pid: number;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Sends SIGTERM (SIGKILL after 10 s) and waits for the exit. */
  stop(): Promise<Deno.CommandStatus>;
}

/** Starts `deno run -A cli.ts <command> <args>` and waits for its `listening on` line. */
export async function startCli(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Child> {
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, command, ...args],
    cwd: REPO,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env,
  }).spawn();
  let log = "";
  let announced: (url: string) => void = () => {};
  const urlPromise = new Promise<string>((resolve) => (announced = resolve));
  const reading = (async () => {
    const dec = new TextDecoder();
    for await (const chunk of proc.stderr) {
      log += dec.decode(chunk, { stream: true });
      const m = /listening on (http:\/\/[^\s/]+)/.exec(log);
      if (m) announced(m[1]);
    }
  })();
  const exited = proc.status;
  let stopped: Promise<Deno.CommandStatus> | null = null;
  const stop = () => {
    stopped ??= (async () => {
      try {
        proc.kill("SIGTERM");
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          proc.kill("SIGKILL");
        } catch {
          // already gone
        }
      }, 10_000);
      const status = await exited;
      clearTimeout(timer);
      await reading;
      return status;
    })();
    return stopped;
  };
  const deadline = new Promise<null>((resolve) => {
    const t = setTimeout(() => resolve(null), 90_000);
    exited.finally(() => clearTimeout(t));
    urlPromise.finally(() => clearTimeout(t));
  });
  const url = await Promise.race([urlPromise, exited.then(() => null), deadline]);
  if (url === null) {
    await stop();
    throw new Error(`codectx ${command} did not start:\n${log}`);
  }
  return { url, port: Number(new URL(url).port), pid: proc.pid, stderr: () => log, stop };
}

/**
 * Starts `codectx <command>` on `root` (no watcher, no vectors, an ephemeral port, `args`
 * after) and waits until its `/health` says the index is ready.
 */
export async function startIndexed(
  command: string[],
  root: string,
  indexDir: string,
  args: string[] = [],
): Promise<Child> {
  const child = await startCli(command[0], [
    ...command.slice(1),
    ...["--path", root, "--index-dir", indexDir, "--port", "0", "--no-watch", ...args],
  ], { CODECTX_EMBEDDER: "none" });
  await poll("the index ready", async () => {
    const h = await http(`${child.url}/health`);
    return (h.json.index as { state?: string } | undefined)?.state === "ready";
  }).catch(async (err) => {
    await child.stop();
    throw err;
  });
  return child;
}

/** Calls `fn` until it returns a value (not undefined/null/false) or the deadline passes. */
export async function poll<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
  intervalMs = 150,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown = undefined;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v !== undefined && v !== null && v !== false) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ""}`);
}

/** An HTTP answer with its body read. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (null when it is not JSON). */
  json: JsonObject;
}

/** `fetch` that always reads the body. */
export async function http(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: JsonObject = {};
  try {
    const v = JSON.parse(text);
    if (typeof v === "object" && v !== null && !Array.isArray(v)) json = v;
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** POSTs a JSON value (or a raw string) and reads the answer. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return http(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Sends a raw HTTP/1.1 request (any Host header) and returns the whole answer text. */
export async function rawHttp(port: number, head: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(head.replaceAll("\n", "\r\n") + "\r\n\r\n"));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(16_384);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
    }
    return new TextDecoder().decode(
      chunks.reduce((a, b) => {
        const c = new Uint8Array(a.length + b.length);
        c.set(a);
        c.set(b, a.length);
        return c;
      }, new Uint8Array()),
    );
  } finally {
    conn.close();
  }
}

/** The status code of a raw HTTP answer. */
export function rawStatus(answer: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);
}

/** Reads server-sent events from a stream until `done` says stop (or the deadline). */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  done: (events: SseEvent[], raw: string) => boolean,
  timeoutMs = 60_000,
): Promise<{ events: SseEvent[]; raw: string }> {
  const reader = body.getReader();
  const dec = new TextDecoder();
  let raw = "";
  const events: SseEvent[] = [];
  const timer = setTimeout(() => reader.cancel().catch(() => {}), timeoutMs);
  try {
    while (!done(events, raw)) {
      const { value, done: end } = await reader.read();
      if (end) break;
      raw += dec.decode(value, { stream: true });
      events.length = 0;
      events.push(...parseEvents(raw));
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
  return { events, raw };
}

/** One parsed server-sent event. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: JsonObject;
}

/** Parses complete SSE frames (comments skipped). */
export function parseEvents(raw: string): SseEvent[] {
  const out: SseEvent[] = [];
  const frames = raw.split("\n\n");
  frames.pop(); // the last one may be incomplete
  for (const frame of frames) {
    let id: string | null = null;
    let event = "message";
    const data: string[] = [];
    for (const line of frame.split("\n")) {
      if (line.startsWith("id: ")) id = line.slice(4);
      else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length) out.push({ id, event, data: JSON.parse(data.join("\n")) });
  }
  return out;
}

/**
 * A case for every tool, by tool name, from the tool's folder (`src/tools/<name>/case_test.ts`);
 * each surface test runs them all through itself.
 */
export const TOOL_CASES: Record<string, ToolCase> = Object.fromEntries(
  await Promise.all(
    TOOL_NAMES.map(async (name) => {
      const { CASE } = await import(`../src/tools/${name}/case_test.ts`) as { CASE: ToolCase };
      return [name, CASE] as const;
    }),
  ),
);

/** The `initialize` request a raw MCP client sends first. */
export const MCP_INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
};

/** A raw session with `codectx mcp` over stdio: lines written as given, answers as lines. */
export interface McpStdio {
  /** Writes `line` and a newline. */
  send(line: string): Promise<void>;
  /** The lines the server wrote so far. */
  lines: string[];
  /** Closes stdin and waits for the server to exit. */
  close(): Promise<void>;
}

/** Starts `codectx mcp --path root --index-dir indexDir --no-watch` on piped stdin/stdout. */
export function startMcpStdio(root: string, indexDir: string): McpStdio {
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "mcp", "--path", root, "--index-dir", indexDir, "--no-watch"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = proc.stdin.getWriter();
  const enc = new TextEncoder();
  const lines: string[] = [];
  const reading = (async () => {
    const dec = new TextDecoder();
    let buf = "";
    for await (const c of proc.stdout) {
      buf += dec.decode(c, { stream: true });
      for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
        lines.push(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
    }
  })();
  return {
    send: (line) => writer.write(enc.encode(line + "\n")),
    lines,
    async close() {
      await writer.close().catch(() => {});
      await proc.status;
      await reading;
    },
  };
}

/** An MCP SDK client of `codectx mcp` over stdio, and what the server wrote to stderr. */
export interface McpClient {
  client: Client;
  log(): string;
}

/**
 * `codectx mcp --path root --index-dir indexDir …args` with the official client over stdio,
 * connected, once `index_project` answers.
 */
export async function connectMcp(
  root: string,
  indexDir: string,
  args: string[] = [],
): Promise<McpClient> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", CLI, "mcp", "--path", root, "--index-dir", indexDir, ...args],
    cwd: REPO,
    env: { ...Deno.env.toObject(), CODECTX_EMBEDDER: "none" },
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (c: Uint8Array) => (log += new TextDecoder().decode(c)));
  const client = new Client({ name: "codectx-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    await poll("the index", async () => {
      const r = await client.callTool({ name: "index_project", arguments: {} });
      return !r.isError;
    });
  } catch (err) {
    await client.close();
    throw err;
  }
  return { client, log: () => log };
}

/** One module of `deno info --json`'s graph. */
export interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier: string }; isDynamic?: boolean }>;
}

/** What `deno info --json FILE` says of a file's module graph (run in the repository). */
export async function denoInfo(file: string): Promise<{
  roots: string[];
  redirects: Record<string, string>;
  modules: InfoModule[];
  npmPackages?: Record<string, unknown>;
}> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", file],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}
