/**
 * Fuzz of every endpoint of the three surfaces: the bridge (`codectx serve`), the REST API
 * (`codectx web`) and MCP (Streamable HTTP and stdio), each a real server process on a copy
 * of the fixture project. Generated requests (inputs from `fuzz_gen.ts`: wrong types, deep
 * nesting, huge and pathological code, invalid UTF-8, garbage, slow bodies, bad Host /
 * Origin / Sec-Fetch-Site) go out from `--concurrency` clients while `/health` of each
 * HTTP server is probed every 50 ms. Prints: answers by status, every 5xx (and JSON-RPC
 * -32603) with the request that caused it, process exits, `/health` latency p50/p99/max,
 * and each server's resident memory at start, peak and after the run.
 *
 *   deno run -A bench/fuzz.ts [--requests 10000] [--concurrency 8] [--seed 1] [--slow 0.01] [--settle 20] [--v8-flags F] [--heap-dir DIR]
 *   deno run -A bench/fuzz.ts --family regex [--timeout 5] [--concurrency 8]
 *
 * `--family regex` sends, instead of random requests, each of the ≥ 200 patterns of
 * `regexPatterns()` (nested quantifiers, overlapping alternations, backreferences, everyday
 * ones) as a `semantic_search` in mode `regex` once on every surface — bridge `/tools/invoke`
 * and `/request`, REST `/api/search`, MCP over HTTP and over stdio — over a fixture that
 * holds lines built to make them backtrack, with the servers' tool limit at `--timeout` s.
 * It prints, per surface, the calls answered, those stopped at the limit and those that
 * answered later than the limit + 1 s (the figure: 0), beside `/health` p50/p99.
 *
 * `--heap-dir DIR` starts the HTTP servers with `--inspect=127.0.0.1:0` and, at the start and
 * end measurements, writes a summary of each one's live heap (`bench/heap_snapshot.ts`) to DIR
 * and prints what grew most — what a server keeps from the run.
 *
 * @module
 */

import { parseArgs } from "node:util";
import {
  argsFor,
  BACKTRACKING_BAIT,
  BODY_LIMIT,
  deepJson,
  PATHOLOGICAL,
  pathological,
  rawGarbage,
  regexPatterns,
  repeatFor,
  Rng,
  type Schema,
  someCode,
  someValue,
} from "./fuzz_gen.ts";
import {
  heapDiff,
  type HeapSummary,
  inspectorUrl,
  retainers,
  summarize,
  takeSnapshot,
} from "./heap_snapshot.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    requests: { type: "string", default: "10000" },
    concurrency: { type: "string", default: "8" },
    seed: { type: "string", default: "1" },
    slow: { type: "string", default: "0.01" },
    stdio: { type: "string", default: "0.1" },
    settle: { type: "string", default: "20" },
    family: { type: "string", default: "mixed" },
    timeout: { type: "string" },
    "heap-dir": { type: "string" },
    "v8-flags": {
      type: "string",
      default: "--expose-gc,--no-memory-pool-share-memory-on-teardown",
    },
  },
});
const TOTAL = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const SLOW_SHARE = Number(values.slow);
const STDIO_SHARE = Number(values.stdio);
const rng = new Rng(Number(values.seed));
/**
 * V8 flags of the servers. By default V8 (Deno 2.9) hands a terminated worker's pages to the
 * main isolate's pool on teardown and never gives them back: a replaced analysis worker
 * stayed resident (570 → 388 MiB after terminate; 570 → 67 MiB without that sharing).
 * `--expose-gc` lets a quiet server collect and give pages back (`src/http/idle_gc.ts`).
 * `""` runs them with V8's defaults.
 */
const V8_FLAGS = values["v8-flags"] ? [`--v8-flags=${values["v8-flags"]}`] : [];
/** Seconds between the last request and the end measurement of memory. */
const SETTLE_S = Number(values.settle);
const HEAP_DIR = values["heap-dir"];
/** `mixed` (random requests of every kind) or `regex` (the regex family, see the module note). */
const FAMILY = values.family;
if (FAMILY !== "mixed" && FAMILY !== "regex") throw new Error("--family is mixed or regex");
/** The servers' tool time limit in seconds (`--timeout`); the regex family's default is 5. */
const TIMEOUT_S = values.timeout ?? (FAMILY === "regex" ? "5" : undefined);
const TIMEOUT_ARGS = TIMEOUT_S ? ["--timeout", TIMEOUT_S] : [];
if (HEAP_DIR) await Deno.mkdir(HEAP_DIR, { recursive: true });

const repo = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
const CLI = `${repo}/cli.ts`;

/** One server process. */
interface Server {
  name: string;
  proc: Deno.ChildProcess;
  url: string;
  exited: number | null;
  stderr: string;
  /** The inspector's URL (with `--heap-dir`). */
  inspector: string | null;
}

async function copyFixture(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "codectx-fuzz-" });
  await new Deno.Command("cp", { args: ["-r", `${repo}/tests/fixtures/project/.`, dir] }).output();
  if (FAMILY === "regex") await Deno.writeTextFile(`${dir}/app/bait.py`, BACKTRACKING_BAIT);
  return dir;
}

async function startServer(name: string, args: string[], root: string): Promise<Server> {
  const indexDir = await Deno.makeTempDir({ prefix: `codectx-fuzz-${name}-` });
  const proc = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...V8_FLAGS,
      ...(HEAP_DIR ? ["--inspect=127.0.0.1:0"] : []),
      CLI,
      ...args,
      ...TIMEOUT_ARGS,
      "--port",
      "0",
      "--path",
      root,
      "--index-dir",
      indexDir,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const s: Server = { name, proc, url: "", exited: null, stderr: "", inspector: null };
  proc.status.then((st) => (s.exited = st.code));
  s.url = await new Promise<string>((resolve, reject) => {
    (async () => {
      const dec = new TextDecoder();
      for await (const chunk of proc.stderr) {
        s.stderr = (s.stderr + dec.decode(chunk, { stream: true })).slice(-20_000);
        s.inspector ??= inspectorUrl(s.stderr);
        const m = /listening on (http:\/\/[^\s/]+)/.exec(s.stderr);
        if (m) resolve(m[1]);
      }
      reject(new Error(`${name} did not start:\n${s.stderr}`));
    })();
  });
  return s;
}

/**
 * Each HTTP server's memory as its `/health` gives it (the server thread's heap and external
 * memory) with the process's thread count (the workers alive) from /proc.
 */
async function memorySplits(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const s of servers) {
    const h = await fetch(`${s.url}/health`).then((r) => r.json()).catch(() => null);
    const m = h?.memory;
    let threads = "?";
    try {
      threads = /Threads:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${s.proc.pid}/status`))?.[1] ??
        "?";
    } catch {
      // gone
    }
    if (m) {
      out.set(
        s.name,
        `rss ${m.rss_mib} MiB = main heap ${m.heap_used_mib} + external ${m.external_mib} + the rest (workers, native); ${threads} threads`,
      );
    }
  }
  return out;
}

/**
 * A process's resident memory by kind of mapping (Linux smaps): the program and libraries
 * (file-backed), the main malloc heap (`[heap]`), V8's 256 KiB pages, glibc's thread arenas
 * (64 MiB-aligned reservations), and other anonymous mappings.
 */
function residentSplit(pid: number): string {
  let text = "";
  try {
    text = Deno.readTextFileSync(`/proc/${pid}/smaps`);
  } catch {
    return "gone";
  }
  const groups = new Map<string, number>();
  let kind = "";
  for (const line of text.split("\n")) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) {
      const start = parseInt(m[1], 16);
      const kib = (parseInt(m[2], 16) - start) / 1024;
      // A glibc thread arena is a 64 MiB-aligned reservation, its used part read-write.
      kind = m[3].startsWith("/")
        ? "files"
        : m[3]
        ? "malloc [heap]"
        : kib === 256
        ? "V8 pages"
        : start % (64 * 1024 * 1024) === 0 && kib <= 64 * 1024
        ? "thread arenas"
        : "other anon";
      continue;
    }
    const r = /^Rss:\s+(\d+) kB/.exec(line);
    if (r) groups.set(kind, (groups.get(kind) ?? 0) + Number(r[1]) / 1024);
  }
  return [...groups].sort((a, b) => b[1] - a[1]).map(([k, mib]) => `${k} ${mib.toFixed(0)}`)
    .join(", ") + " MiB";
}

function rssMiB(pid: number): number {
  try {
    const st = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/VmRSS:\s+(\d+)/.exec(st)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** What one generated request was, for the report. */
interface Sent {
  surface: string;
  what: string;
}

const statusCounts = new Map<string, number>();
/** Every request's server and time span (epoch ms; `t1` 0 while open), to tell what a slow
 * `/health` probe waited behind. */
const flights: Array<{ server: string; what: string; t0: number; t1: number }> = [];
/** The five slowest answers (time limit of a tool call: 30 s). */
const slowest: Array<{ ms: number; status: number; what: string }> = [];
const failures: Array<{ sent: Sent; status: string; body: string }> = [];
let sentCount = 0;
let transportErrors = 0;

function count(key: string) {
  statusCounts.set(key, (statusCounts.get(key) ?? 0) + 1);
}

function badHeaders(port: string): Record<string, string> {
  return rng.pick<Record<string, string>>([
    { Host: "evil.example" },
    { Host: `127.0.0.1:99999999` },
    { Host: "[::1" },
    { Host: `localhost:${port}`, Origin: "https://evil.example" },
    { Host: `localhost:${port}`, Origin: "null" },
    { Host: `localhost:${port}`, "Sec-Fetch-Site": "cross-site" },
    { Host: `localhost:${port}`, "Sec-Fetch-Site": "cross-site", Origin: "http://localhost:1" },
    { Host: `localhost:${port}`, "Content-Length": "99999999999" },
    { Host: `localhost:${port}`, "Content-Type": "text/plain" },
  ]);
}

/** A body that arrives slowly (a few chunks over up to ~3 s). */
function slowBody(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const parts = 5;
  let i = 0;
  return new ReadableStream({
    async pull(ctrl) {
      if (i >= parts) return ctrl.close();
      await new Promise((r) => setTimeout(r, rng.int(50, 600)));
      const size = Math.ceil(bytes.length / parts);
      ctrl.enqueue(bytes.subarray(i * size, (i + 1) * size));
      i++;
    },
  });
}

type Body = string | Uint8Array<ArrayBuffer>;

/**
 * The fuzz's connections: idle ones are dropped after 4 s. The servers close an idle
 * kept-alive connection after 5 s (and say so); fetch's own pool keeps them 90 s, so one
 * reused as the server closes it failed as "fetch failed" — the client's race, not the
 * server's answer.
 */
const HTTP_CLIENT = Deno.createHttpClient({ poolIdleTimeout: 4_000 });

async function send(
  server: Server,
  method: string,
  path: string,
  body: string | Uint8Array | null,
  sent: Sent,
  extra: Record<string, string> = {},
): Promise<void> {
  const port = new URL(server.url).port;
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    ...extra,
  };
  if (rng.chance(0.05)) Object.assign(headers, badHeaders(port));
  const slow = body !== null && rng.chance(SLOW_SHARE);
  const init: RequestInit & { duplex?: string } = { method, headers };
  if (body !== null) {
    init.body = slow && typeof body === "string" ? slowBody(body) : (body as BodyInit);
    if (slow) init.duplex = "half";
  }
  sentCount++;
  const flight = { server: server.name, what: sent.what.slice(0, 200), t0: Date.now(), t1: 0 };
  flights.push(flight);
  try {
    const res = await fetch(`${server.url}${path}`, {
      ...init,
      client: HTTP_CLIENT,
      signal: AbortSignal.timeout(120_000),
    });
    const text = await res.text();
    count(`${sent.surface} ${res.status}`);
    const ms = Date.now() - flight.t0;
    slowest.push({ ms, status: res.status, what: `${sent.surface} ${sent.what.slice(0, 120)}` });
    slowest.sort((a, b) => b.ms - a.ms).splice(5);
    let rpcInternal = false;
    let internalCode = false;
    try {
      const j = JSON.parse(text);
      rpcInternal = j?.error?.code === -32603;
      internalCode = j?.error_code === "internal" || j?.error?.code === "internal";
    } catch {
      // not JSON
    }
    if (res.status >= 500 || rpcInternal || internalCode) {
      failures.push({ sent, status: String(res.status), body: text.slice(0, 300) });
    }
  } catch (err) {
    transportErrors++;
    count(`${sent.surface} transport-error`);
    failures.push({ sent, status: "transport", body: String(err).slice(0, 300) });
  } finally {
    flight.t1 = Date.now();
  }
}

let tools: Array<{ name: string; input_schema: Schema }> = [];

function toolCall(): { name: string; args: unknown; what: string } {
  const t = rng.pick(tools);
  const name = rng.chance(0.03) ? rng.pick(["", "nope", "x".repeat(300), "../x"]) : t.name;
  const args = argsFor(rng, t.input_schema);
  return { name, args, what: `${name} ${describe(args)}` };
}

function describe(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 160 ? `${s.slice(0, 160)}… (${s.length} chars)` : s;
}

/** Some JSON body: usually the generated object, sometimes garbage or deep nesting. */
function bodyOf(obj: unknown): string | Uint8Array {
  const r = rng.next();
  if (r < 0.08) return rawGarbage(rng);
  if (r < 0.1) return deepJson(rng, rng.int(1000, 100_000));
  return JSON.stringify(obj);
}

function bridgeRequest(s: Server): Promise<void> {
  const kinds = [
    "semantic_search",
    "explain_symbol",
    "explain_file",
    "get_context",
    "get_dependencies",
    "get_call_graph",
    "summarize_repo",
    "find_references",
    "validate_code",
    "list_capabilities",
    "invoke_tool",
    "list_tools",
  ];
  const r = rng.next();
  if (r < 0.05) {
    const path = rng.pick(["/", "/health", "/tools/list", "/nope", "/request", "/%ff"]);
    return send(s, "GET", path, null, { surface: "bridge", what: `GET ${path}` });
  }
  if (r < 0.5) {
    const c = toolCall();
    const body = rng.chance(0.1) ? someValue(rng) : { tool_name: c.name, arguments: c.args };
    return send(s, "POST", "/tools/invoke", bodyOf(body), {
      surface: "bridge",
      what: `/tools/invoke ${describe(body)}`,
    });
  }
  const c = toolCall();
  const kind = rng.chance(0.9) ? rng.pick(kinds) : someValue(rng);
  const req: Record<string, unknown> = { kind, params: rng.chance(0.9) ? c.args : someValue(rng) };
  if (kind === "invoke_tool") req.params = { tool_name: c.name, arguments: c.args };
  if (rng.chance(0.1)) req.request_id = rng.chance(0.5) ? "x".repeat(rng.int(200, 5000)) : 5;
  if (rng.chance(0.1)) req.source = someValue(rng);
  return send(s, "POST", "/request", bodyOf(req), {
    surface: "bridge",
    what: `/request ${describe(req)}`,
  });
}

function webRequest(s: Server): Promise<void> {
  const gets: Array<[string, string[]]> = [
    ["/api/search", ["q", "top_k", "mode", "language", "path_prefix", "threshold"]],
    ["/api/symbols", ["q", "kind", "language", "limit"]],
    ["/api/symbol", ["name", "file"]],
    ["/api/references", ["name", "file", "limit"]],
    ["/api/file", ["path"]],
    ["/api/quality", ["path"]],
    ["/api/deps", ["file"]],
    ["/api/callgraph", ["name", "depth", "file"]],
    ["/api/summary", []],
    ["/health", []],
    ["/", []],
    ["/api/nope", ["x"]],
    ["/assets/../../etc/passwd", []],
  ];
  if (rng.chance(0.65)) {
    const [path, params] = rng.pick(gets);
    const q = new URLSearchParams();
    for (const p of params) {
      if (rng.chance(0.6)) {
        const v = someValue(rng);
        q.set(p, typeof v === "string" ? v : JSON.stringify(v) ?? "");
      }
    }
    const url = `${path}?${q}`;
    return send(s, "GET", url, null, { surface: "web", what: `GET ${describe(url)}` });
  }
  if (rng.chance(0.3)) {
    const body = { question: someValue(rng), top_k: someValue(rng) };
    return send(s, "POST", "/api/ask", bodyOf(body), {
      surface: "web",
      what: `/api/ask ${describe(body)}`,
    });
  }
  const body = {
    code: rng.chance(0.9) ? someCode(rng) : someValue(rng),
    language: rng.chance(0.5)
      ? rng.pick(["python", "javascript", "go", "typescript", ".py"])
      : someValue(rng),
    mode: rng.chance(0.7) ? rng.pick(["validate", "explain"]) : someValue(rng),
    ...(rng.chance(0.3) ? { file_path: someValue(rng) } : {}),
  };
  return send(s, "POST", "/api/analyze", bodyOf(body), {
    surface: "web",
    what: `/api/analyze ${describe(body)}`,
  });
}

let rpcId = 1;

function mcpMessage(): { msg: unknown; what: string } {
  const r = rng.next();
  if (r < 0.1) {
    return {
      msg: {
        jsonrpc: "2.0",
        id: rpcId++,
        method: "initialize",
        params: rng.chance(0.7)
          ? {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "fuzz", version: "1" },
          }
          : someValue(rng),
      },
      what: "initialize",
    };
  }
  if (r < 0.15) {
    return { msg: { jsonrpc: "2.0", id: rpcId++, method: "tools/list" }, what: "tools/list" };
  }
  if (r < 0.2) {
    const m = {
      jsonrpc: rng.pick(["1.0", 2, "2.0"]),
      id: someValue(rng),
      method: someValue(rng),
      params: someValue(rng),
    };
    return { msg: m, what: `odd ${describe(m)}` };
  }
  const c = toolCall();
  const params = rng.chance(0.9) ? { name: c.name, arguments: c.args } : someValue(rng);
  return {
    msg: { jsonrpc: "2.0", id: rpcId++, method: "tools/call", params },
    what: `tools/call ${describe(params)}`,
  };
}

function mcpHttpRequest(s: Server): Promise<void> {
  const { msg, what } = mcpMessage();
  const body = rng.chance(0.05) ? [msg, mcpMessage().msg] : msg;
  const method = rng.chance(0.03) ? rng.pick(["GET", "DELETE", "PUT"]) : "POST";
  return send(
    s,
    method,
    rng.chance(0.97) ? "/mcp" : "/nope",
    method === "POST" ? bodyOf(body) : null,
    {
      surface: "mcp-http",
      what: `${method} ${what}`,
    },
    { "Mcp-Protocol-Version": "2025-06-18" },
  );
}

/** The MCP stdio server: lines out, answers matched by id. */
interface Stdio {
  proc: Deno.ChildProcess;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  waiting: Map<number, (line: unknown) => void>;
  exited: number | null;
  answered: number;
}

async function startStdio(root: string): Promise<Stdio> {
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-fuzz-stdio-" });
  const proc = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...V8_FLAGS,
      CLI,
      "mcp",
      ...TIMEOUT_ARGS,
      "--path",
      root,
      "--index-dir",
      indexDir,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const io: Stdio = {
    proc,
    writer: proc.stdin.getWriter(),
    waiting: new Map(),
    exited: null,
    answered: 0,
  };
  proc.status.then((st) => (io.exited = st.code));
  (async () => {
    const dec = new TextDecoder();
    let buf = "";
    for await (const c of proc.stdout) {
      buf += dec.decode(c, { stream: true });
      for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        io.answered++;
        try {
          const j = JSON.parse(line);
          io.waiting.get(j.id)?.(j);
          io.waiting.delete(j.id);
        } catch {
          count("mcp-stdio unparsable-line");
        }
      }
    }
  })();
  return io;
}

async function stdioRequest(io: Stdio): Promise<void> {
  const id = rpcId++;
  const r = rng.next();
  let line: string;
  let what: string;
  if (r < 0.1) {
    const g = rawGarbage(rng);
    line = (typeof g === "string" ? g : new TextDecoder().decode(g)).replace(/\n/g, " ");
    what = `garbage ${describe(line)}`;
  } else {
    const { msg } = mcpMessage();
    const m = { ...(msg as Record<string, unknown>), id, jsonrpc: "2.0" };
    line = JSON.stringify(m);
    what = describe(m);
  }
  sentCount++;
  const expectsAnswer = line.includes(`"id":${id}`);
  const answer = expectsAnswer
    ? new Promise<unknown>((resolve) => {
      io.waiting.set(id, resolve);
      setTimeout(() => resolve("no answer"), 120_000);
    })
    : Promise.resolve(null);
  await io.writer.write(new TextEncoder().encode(line + "\n"));
  const a = await answer as { error?: { code: number; message: string } } | string | null;
  if (a === "no answer") {
    failures.push({ sent: { surface: "mcp-stdio", what }, status: "no answer", body: "" });
    count("mcp-stdio no-answer");
  } else if (a && typeof a === "object" && a.error) {
    count(`mcp-stdio ${a.error.code}`);
    if (a.error.code === -32603) {
      failures.push({
        sent: { surface: "mcp-stdio", what },
        status: "-32603",
        body: a.error.message.slice(0, 300),
      });
    }
  } else count("mcp-stdio ok");
}

// --- run ---------------------------------------------------------------------------------

const root = await copyFixture();
console.log(`servers: deno run -A ${V8_FLAGS.join(" ")}`);
console.log(`fixture ${root}; load ${Deno.readTextFileSync("/proc/loadavg").trim()}`);
const bridge = await startServer("bridge", ["serve"], root);
const web = await startServer("web", ["web"], root);
const mcpHttp = await startServer("mcp-http", ["mcp", "--http"], root);
const stdio = await startStdio(root);
const servers = [bridge, web, mcpHttp];

// Ready: the index is built on each surface before the run.
for (const s of servers) {
  for (let i = 0; i < 600; i++) {
    const h = await fetch(`${s.url}/health`).then((r) => r.json()).catch(() => null);
    const state = h?.index?.state ?? h?.state;
    if (state === "ready") break;
    await new Promise((r) => setTimeout(r, 200));
  }
}
tools = (await fetch(`${bridge.url}/tools/list`).then((r) => r.json())).tools;
await stdio.writer.write(new TextEncoder().encode(
  JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "fuzz", version: "1" },
    },
  }) + "\n",
));
await new Promise((r) => setTimeout(r, 3000));

// Warm-up: every surface answers ordinary calls of every tool once (grammars, workers,
// caches and the token counter loaded), so the memory baseline is the server in use, not the
// server idle. Each tool gets only the arguments its schema has (an unknown one is refused,
// and a refused call loads nothing): with the same arguments for all, get_context, ask and
// summarize_repo never ran before the start measurement, and the fuzz's first ones loaded
// the BPE tokenizer (~36 MiB) into the "growth".
const GOOD_ARGS: Record<string, unknown> = {
  query: "main",
  symbol_name: "main",
  name: "main",
  question: "what is main?",
  file_path: "app/main.py",
  path: "app/main.py",
  code: "import os\nos.system(x)\n",
  language: "python",
};
/** Ordinary arguments of a tool: those of {@link GOOD_ARGS} its schema names. */
function warmArgs(t: { name: string; input_schema: Schema }): Record<string, unknown> {
  const props = Object.keys((t.input_schema as { properties?: object }).properties ?? {});
  const args = Object.fromEntries(
    props.filter((p) => p in GOOD_ARGS).map((p) => [p, GOOD_ARGS[p]]),
  );
  if (t.name === "validate_code") args.mode = "explain";
  return args;
}
const warmFailures: string[] = [];
for (const t of tools) {
  const args = warmArgs(t);
  const res = await fetch(`${bridge.url}/tools/invoke`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tool_name: t.name, arguments: args }),
  }).then((r) => r.json()).catch((e) => ({ success: false, error: String(e) }));
  if (!res.success) warmFailures.push(`bridge ${t.name}: ${String(res.error).slice(0, 160)}`);
}
await fetch(`${web.url}/api/analyze`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ code: "def f():\n    return g()\n", language: "python", mode: "explain" }),
}).then((r) => r.body?.cancel());
// The other two HTTP servers are processes of their own: each builds its caches on its first
// calls, so each is warmed too (MCP: every tool; web: every API route).
for (const t of tools) {
  const res = await fetch(`${mcpHttp.url}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: t.name, arguments: warmArgs(t) },
    }),
  }).then((r) => r.text()).catch((e) => String(e));
  if (/"isError":true|"error":\{/.test(res)) {
    warmFailures.push(`mcp-http ${t.name}: ${res.slice(0, 160)}`);
  }
}
for (
  const path of [
    "/api/search?q=main",
    "/api/symbols?q=main",
    "/api/symbol?name=main",
    "/api/references?name=main",
    "/api/file?path=app/main.py",
    "/api/quality",
    "/api/deps",
    "/api/callgraph?name=main",
    "/api/summary",
  ]
) {
  await fetch(`${web.url}${path}`).then((r) => r.body?.cancel());
}
await fetch(`${web.url}/api/ask`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ question: "what is main?" }),
}).then((r) => r.body?.cancel());
// The stdio server is warmed the same way, one call of each tool.
for (const t of tools) {
  const id = rpcId++;
  const answer = new Promise<unknown>((resolve) => {
    stdio.waiting.set(id, resolve);
    setTimeout(() => resolve("no answer"), 120_000);
  });
  await stdio.writer.write(new TextEncoder().encode(
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: t.name, arguments: warmArgs(t) },
    }) + "\n",
  ));
  const a = JSON.stringify(await answer);
  if (/"isError":true|"error":\{|no answer/.test(a)) {
    warmFailures.push(`mcp-stdio ${t.name}: ${a.slice(0, 160)}`);
  }
}
for (const f of warmFailures) {
  console.log(`warm-up call failed (its caches are not in the start figure): ${f}`);
}
// "Start" is measured as "end" is: SETTLE_S after the last request (here the warm-up's), so
// the figure is growth from the fuzz, not the one-time loading of grammars, caches and the
// index build's workers.
await new Promise((r) => setTimeout(r, SETTLE_S * 1000));

const pids = [
  ...servers.map((s) => [s.name, s.proc.pid] as const),
  ["mcp-stdio", stdio.proc.pid] as const,
];
const rssStart = new Map(pids.map(([n, p]) => [n, rssMiB(p)]));
/** With `--heap-dir`, each process's mappings (smaps) at start and end, to compare by address. */
async function saveMappings(when: string): Promise<void> {
  if (!HEAP_DIR) return;
  for (const [n, p] of pids) {
    const text = await Deno.readTextFile(`/proc/${p}/smaps`).catch(() => "");
    await Deno.writeTextFile(`${HEAP_DIR}/${n}-smaps-${when}.txt`, text);
  }
}
await saveMappings("start");
const residentStart = new Map(pids.map(([n, p]) => [n, residentSplit(p)]));
const splitStart = await memorySplits();
/** Each HTTP server's live heap now (with `--heap-dir`; after the RSS is read: a snapshot
 * costs memory of its own, so RSS figures of a `--heap-dir` run are not the ones of record). */
async function heapSummaries(
  when: string,
  before?: Map<string, HeapSummary>,
): Promise<Map<string, HeapSummary>> {
  const out = new Map<string, HeapSummary>();
  if (!HEAP_DIR) return out;
  for (const s of servers) {
    if (!s.inspector) continue;
    const snap = await takeSnapshot(s.inspector);
    const h = summarize(snap);
    out.set(s.name, h);
    await Deno.writeTextFile(`${HEAP_DIR}/${s.name}-${when}.json`, JSON.stringify(h));
    // Who holds the objects that grew most (by constructor name), written beside.
    const a = before?.get(s.name);
    if (!a) continue;
    const grown = Object.keys(h).filter((k) => k.startsWith("object:"))
      .sort((x, y) => (h[y][1] - (a[y]?.[1] ?? 0)) - (h[x][1] - (a[x]?.[1] ?? 0))).slice(0, 3);
    const lines = grown.flatMap((k) => [`## ${k}`, ...retainers(snap, k.slice(7), 2)]);
    await Deno.writeTextFile(`${HEAP_DIR}/${s.name}-retainers.txt`, lines.join("\n\n"));
  }
  return out;
}
const heapStart = await heapSummaries("start");
const rssPeak = new Map(rssStart);

// /health probes, concurrently with the fuzz, from a process of their own: a probe is not
// delayed by this process building and sending large bodies.
const PROBE = `
const targets = JSON.parse(Deno.env.get("PROBE_URLS"));
let on = true;
(async () => { for await (const _ of Deno.stdin.readable) {} on = false; })();
const out = {};
await Promise.all(targets.map(async ([name, url]) => {
  out[name] = [];
  while (on) {
    const at = Date.now();
    const p0 = performance.now();
    let ms = 30000;
    try {
      const r = await fetch(url + "/health", { signal: AbortSignal.timeout(30000) });
      await r.body?.cancel();
      ms = performance.now() - p0;
    } catch { /* counted as 30 s */ }
    out[name].push([at, ms]);
    await new Promise((r) => setTimeout(r, 50));
  }
}));
console.log(JSON.stringify(out));
`;
const prober = new Deno.Command(Deno.execPath(), {
  args: ["eval", PROBE],
  env: { PROBE_URLS: JSON.stringify(servers.map((s) => [s.name, s.url])) },
  stdin: "piped",
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const sampler = setInterval(() => {
  for (const [n, p] of pids) rssPeak.set(n, Math.max(rssPeak.get(n)!, rssMiB(p)));
}, 500);

const t0 = performance.now();
let issued = 0;
const surfacesOrder = ["bridge", "web", "mcp-http"];
async function client(): Promise<void> {
  while (issued < TOTAL) {
    issued++;
    if (issued % 1000 === 0) {
      console.log(
        `${issued} sent, ${failures.length} failures, ${
          ((performance.now() - t0) / 1000).toFixed(0)
        } s; RSS MiB ${pids.map(([n, p]) => `${n} ${rssMiB(p).toFixed(0)}`).join(", ")}`,
      );
    }
    if (rng.chance(STDIO_SHARE)) {
      await stdioRequest(stdio);
      continue;
    }
    const surface = rng.pick(surfacesOrder);
    if (surface === "bridge") await bridgeRequest(bridge);
    else if (surface === "web") await webRequest(web);
    else await mcpHttpRequest(mcpHttp);
  }
}
/** The regex family's answers: per surface, each call's time and how it ended. */
const regexCalls = new Map<string, Array<{ ms: number; outcome: string; pattern: string }>>();

/** One regex search on one surface, timed from send to answer. */
async function regexCall(surface: string, pattern: string): Promise<void> {
  const args = { query: pattern, mode: "regex" };
  const t = performance.now();
  let outcome = "transport";
  sentCount++;
  try {
    if (surface === "mcp-stdio") {
      const id = rpcId++;
      const answer = new Promise<unknown>((resolve) => {
        stdio.waiting.set(id, resolve);
        setTimeout(() => resolve("no answer"), 180_000);
      });
      await stdio.writer.write(new TextEncoder().encode(
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "semantic_search", arguments: args },
        }) + "\n",
      ));
      const a = JSON.stringify(await answer);
      outcome = a === '"no answer"'
        ? "no answer"
        : /server is busy/.test(a)
        ? "busy"
        : /stopped after|timeout|took longer/.test(a)
        ? "timeout"
        : /"isError":true|"error":\{/.test(a)
        ? "error"
        : "ok";
    } else {
      const [server, path, init] = surface === "bridge-invoke"
        ? [bridge, "/tools/invoke", {
          method: "POST",
          body: JSON.stringify({ tool_name: "semantic_search", arguments: args }),
        }]
        : surface === "bridge-request"
        ? [bridge, "/request", {
          method: "POST",
          body: JSON.stringify({ kind: "semantic_search", params: args }),
        }]
        : surface === "web"
        ? [web, `/api/search?${new URLSearchParams({ q: pattern, mode: "regex" })}`, {
          method: "GET",
        }]
        : [mcpHttp, "/mcp", {
          method: "POST",
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: rpcId++,
            method: "tools/call",
            params: { name: "semantic_search", arguments: args },
          }),
        }];
      const flight = { server: server.name, what: `${surface} ${pattern}`, t0: Date.now(), t1: 0 };
      flights.push(flight);
      const res = await fetch(`${server.url}${path}`, {
        ...init,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "Mcp-Protocol-Version": "2025-06-18",
        },
        client: HTTP_CLIENT,
        signal: AbortSignal.timeout(180_000),
      });
      const text = await res.text();
      flight.t1 = Date.now();
      count(`${surface} ${res.status}`);
      // Answered busy by admission: it waited its whole limit behind the heavy calls before it.
      const busy = res.status === 503 && /busy/.test(text);
      outcome = busy
        ? "busy"
        : /stopped after|"timeout"|took longer/.test(text)
        ? "timeout"
        : res.status >= 500 && res.status !== 504
        ? `status ${res.status}`
        : /"success":false|"isError":true|"error":\{/.test(text)
        ? "error"
        : "ok";
      if (res.status >= 500 && res.status !== 504 && !busy) {
        failures.push({ sent: { surface, what: pattern }, status: String(res.status), body: text });
      }
    }
  } catch (err) {
    failures.push({ sent: { surface, what: pattern }, status: "transport", body: String(err) });
  }
  const list = regexCalls.get(surface) ?? [];
  list.push({ ms: performance.now() - t, outcome, pattern });
  regexCalls.set(surface, list);
}

if (FAMILY === "regex") {
  const patterns = regexPatterns();
  const work = ["bridge-invoke", "bridge-request", "web", "mcp-http", "mcp-stdio"].flatMap((
    surface,
  ) => patterns.map((p) => [surface, p] as const));
  // Surfaces interleaved: every server is busy at once, as when clients of each call.
  work.sort((a, b) => patterns.indexOf(a[1]) - patterns.indexOf(b[1]));
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < work.length) {
        const [surface, p] = work[next++];
        await regexCall(surface, p);
      }
    }),
  );
}
// Every family of pathological code at about the body limit, once each, first.
for (const fam of FAMILY === "mixed" ? Object.keys(PATHOLOGICAL) : []) {
  const n = Math.floor((BODY_LIMIT - 4096) / (PATHOLOGICAL[fam](1).length || 1));
  void repeatFor;
  await send(
    bridge,
    "POST",
    "/tools/invoke",
    JSON.stringify({
      tool_name: "validate_code",
      arguments: {
        code: pathological(fam, n),
        language: fam.includes("js") ? "javascript" : fam.includes("go") ? "go" : "python",
      },
    }),
    { surface: "bridge", what: `validate_code ${fam} x${n} (max size)` },
  );
}
if (FAMILY === "mixed") await Promise.all(Array.from({ length: CONCURRENCY }, client));
const elapsed = (performance.now() - t0) / 1000;
await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
await prober.stdin.close();
const probed: Record<string, Array<[number, number]>> = JSON.parse(
  new TextDecoder().decode((await prober.output()).stdout),
);
const latencies = new Map<string, number[]>(
  Object.entries(probed).map(([n, xs]) => [n, xs.map(([, ms]) => ms)]),
);
/** Probes over 1 s: the server, how long, and the oldest requests in flight at the start. */
const slowProbes = Object.entries(probed).flatMap(([server, xs]) =>
  xs.filter(([, ms]) => ms > 1000).map(([at, ms]) => ({
    server,
    ms,
    behind: flights.filter((f) => f.server === server && f.t0 <= at && (f.t1 === 0 || f.t1 > at))
      .sort((x, y) => x.t0 - y.t0).slice(0, 4).map((f) => `${at - f.t0} ms: ${f.what}`),
  }))
);
clearInterval(sampler);
const rssEnd = new Map(pids.map(([n, p]) => [n, rssMiB(p)]));
await saveMappings("end");
const residentEnd = new Map(pids.map(([n, p]) => [n, residentSplit(p)]));
const splitEnd = await memorySplits();
const heapEnd = await heapSummaries("end", heapStart);

// --- report ------------------------------------------------------------------------------

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p / 100 * s.length))] : 0;
};
console.log(
  `\n${sentCount} requests in ${
    elapsed.toFixed(0)
  } s (concurrency ${CONCURRENCY}, seed ${values.seed}); load ${
    Deno.readTextFileSync("/proc/loadavg").trim()
  }`,
);
for (const [k, v] of [...statusCounts].sort()) console.log(`  ${k}: ${v}`);
const fives = failures.filter((f) => /^5/.test(f.status)).length;
console.log(
  `5xx: ${fives}; JSON-RPC -32603 / internal codes / transport errors / no answer: ${
    failures.length - fives
  }`,
);
const shown = new Set<string>();
for (const f of failures) {
  const key = `${f.sent.surface} ${f.status} ${f.body.slice(0, 80)}`;
  if (shown.has(key)) continue;
  shown.add(key);
  console.log(`  FAIL ${f.sent.surface} ${f.status}: ${f.sent.what}\n       → ${f.body}`);
  if (shown.size > 40) break;
}
for (const x of slowest) {
  console.log(`slowest answer: ${(x.ms / 1000).toFixed(1)} s (${x.status}) ${x.what}`);
}
const exits = [
  ...servers.map((s) => [s.name, s.exited] as const),
  ["mcp-stdio", stdio.exited] as const,
]
  .filter(([, c]) => c !== null);
console.log(`process exits: ${exits.length}${exits.map(([n, c]) => ` ${n}=${c}`).join("")}`);
if (FAMILY === "regex") {
  const limitMs = Number(TIMEOUT_S) * 1000;
  console.log(`regex family: ${regexPatterns().length} patterns per surface, limit ${TIMEOUT_S} s`);
  for (const [surface, calls] of regexCalls) {
    const by = (o: string) => calls.filter((c) => c.outcome === o).length;
    const late = calls.filter((c) => c.ms > limitMs + 1000);
    const ms = calls.map((c) => c.ms);
    console.log(
      `  ${surface}: ${calls.length} calls, ${by("ok")} answered, ${
        by("timeout")
      } stopped at the limit, ${by("busy")} busy (waited their limit for a place), ${
        by("error")
      } refused, other ${
        calls.length - by("ok") - by("timeout") - by("busy") - by("error")
      }; past limit + 1 s: ${late.length}; p50 ${pct(ms, 50).toFixed(0)} ms, max ${
        Math.max(...ms).toFixed(0)
      } ms`,
    );
    for (const c of late.slice(0, 5)) {
      console.log(`    late ${c.ms.toFixed(0)} ms (${c.outcome}): ${c.pattern}`);
    }
  }
}
for (const [n, xs] of latencies) {
  console.log(
    `/health ${n}: n=${xs.length} p50=${pct(xs, 50).toFixed(1)} ms p99=${
      pct(xs, 99).toFixed(1)
    } ms max=${Math.max(...xs).toFixed(1)} ms`,
  );
}
for (const p of slowProbes.sort((a, b) => b.ms - a.ms).slice(0, 8)) {
  console.log(`slow /health ${p.server} ${p.ms.toFixed(0)} ms, oldest in flight:`);
  for (const b of p.behind) console.log(`    ${b}`);
}
for (const [n] of pids) {
  const a = rssStart.get(n)!, b = rssEnd.get(n)!;
  console.log(
    `RSS ${n}: start ${a.toFixed(0)} MiB, peak ${rssPeak.get(n)!.toFixed(0)} MiB, end ${
      b.toFixed(0)
    } MiB (${((b / a - 1) * 100).toFixed(1)} %)`,
  );
  for (const [when, split] of [["start", splitStart], ["end", splitEnd]] as const) {
    if (split.has(n)) console.log(`    ${when}: ${split.get(n)}`);
  }
  console.log(`    resident at start: ${residentStart.get(n)}`);
  console.log(`    resident at end:   ${residentEnd.get(n)}`);
}
for (const [n, a] of heapStart) {
  const b = heapEnd.get(n);
  if (!b) continue;
  console.log(
    `live heap ${n}: ${(a.TOTAL[1] / 2 ** 20).toFixed(1)} → ${
      (b.TOTAL[1] / 2 ** 20).toFixed(1)
    } MiB after two full collections; grew most:`,
  );
  for (const line of heapDiff(a, b, 12)) console.log(`    ${line}`);
}
for (const s of servers) {
  if (s.exited === null) s.proc.kill("SIGTERM");
}
await stdio.writer.close().catch(() => {});
await Promise.all([...servers.map((s) => s.proc.status), stdio.proc.status]);
await Deno.remove(root, { recursive: true });
