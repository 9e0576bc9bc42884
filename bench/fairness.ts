/**
 * Fair admission under heavy calls (issue 31): a real server on a copy of this repository's
 * `src/` gets `--heavy` heavy calls at once — `analyze_quality` of the whole project,
 * `validate_code` of 100 KB, `get_context` at `max_tokens` 32000, in turn — while another
 * client polls `GET /health` every 50 ms and calls `search_symbols` one after another. Prints
 * the latencies of both (unloaded, then under the load), how the heavy calls ended, and the
 * server's resident memory (VmRSS, sampled every 100 ms; workers included). Before the load,
 * one small call of each tool builds what a first call builds once (code graph, tokenizer,
 * workers); the whole tree's analysis stays cold.
 *
 * On the bridge the heavy calls are `--heavy` concurrent `POST /tools/invoke`; on MCP over HTTP
 * they are one JSON-RPC batch of `--heavy` `tools/call`s in one POST (the SDK takes up to 100;
 * that server runs with `--max-body 16m`, as the batch is 3.4 MB).
 *
 * `sse` (the third "surface"): `--sse` subscribers of the bridge's `/tools/stream` that never
 * read, then a real subscriber: its status, and the time from a `search_symbols` call to that
 * call's `tool.completed` event on its stream.
 *
 *   deno run -A bench/fairness.ts [--surface bridge,mcp,sse] [--heavy 100] [--sse 256]
 *     [--path DIR] [--cli /tmp/wt-before/cli.ts] [--deno-flags="--cpu-prof --cpu-prof-dir=DIR"]
 *
 * `--cli` runs another checkout's server (the "before" figures); `--deno-flags` passes flags
 * to the server's `deno run` (a CPU profile is written when the bench stops the server with
 * SIGTERM; `bench/cpu_top.ts DIR` sums it by function).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { startServe } from "./serve.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    surface: { type: "string", default: "bridge,mcp,sse" },
    sse: { type: "string", default: "256" },
    heavy: { type: "string", default: "100" },
    path: { type: "string" },
    cli: { type: "string" },
    "deno-flags": { type: "string" },
    baseline: { type: "string", default: "3" },
  },
});
const HEAVY = Number(values.heavy);
const BASELINE_MS = Number(values.baseline) * 1000;
const repo = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

/** A copy of this repository's tracked `src/` files (a real project of ~300 files). */
async function copyProject(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "codectx-fair-" });
  const out = await new Deno.Command("git", { args: ["-C", repo, "ls-files", "src"] }).output();
  for (const rel of new TextDecoder().decode(out.stdout).split("\n").filter(Boolean)) {
    const to = `${dir}/${rel}`;
    await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(`${repo}/${rel}`, to);
  }
  return dir;
}

/** About `bytes` of real TypeScript: this repository's own files, whole, one after another. */
async function snippet(root: string, bytes: number): Promise<string> {
  const parts: string[] = [];
  let size = 0;
  for (const f of ["src/project/project.ts", "src/search/hybrid.ts", "src/tools/executor.ts"]) {
    const text = await Deno.readTextFile(`${root}/${f}`).catch(() => "");
    parts.push(text);
    size += text.length;
    if (size >= bytes) break;
  }
  let code = parts.join("\n");
  while (code.length < bytes) code += "\n" + code;
  return code.slice(0, code.lastIndexOf("\n", bytes));
}

/** The i-th heavy call, by turns: quality of the whole project, validate 100 KB, context 32k. */
function heavyCall(i: number, code: string): { name: string; arguments: Record<string, unknown> } {
  switch (i % 3) {
    case 0:
      return { name: "analyze_quality", arguments: {} };
    case 1:
      return { name: "validate_code", arguments: { code, language: "typescript" } };
    default:
      return { name: "get_context", arguments: { symbol_name: "Project", max_tokens: 32000 } };
  }
}

/** One light call of each tool the load uses. */
const WARM: Array<[string, Record<string, unknown>]> = [
  ["search_symbols", { query: "warm" }],
  ["get_context", { symbol_name: "Project", max_tokens: 500 }],
  ["validate_code", { code: "export const a = 1;\n", language: "typescript" }],
];

function rssMiB(pid: number): { rss: number; threads: number } {
  try {
    const st = Deno.readTextFileSync(`/proc/${pid}/status`);
    return {
      rss: Number(/VmRSS:\s+(\d+)/.exec(st)?.[1] ?? 0) / 1024,
      threads: Number(/Threads:\s+(\d+)/.exec(st)?.[1] ?? 0),
    };
  } catch {
    return { rss: 0, threads: 0 };
  }
}

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

const ms = (x: number) =>
  Number.isNaN(x) ? "–" : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`;

/** How one surface is spoken to. */
interface Surface {
  name: string;
  command: string[];
  /** One tool call as that surface's client makes it; resolves with how it ended. */
  call(origin: string, name: string, args: Record<string, unknown>): Promise<string>;
  /** The heavy load: resolves with how each call ended. */
  heavy(
    origin: string,
    calls: Array<{ name: string; arguments: Record<string, unknown> }>,
  ): Promise<
    string[]
  >;
}

/** A short name for how a tool call ended: ok, or its error code (busy, timeout, …). */
function outcome(success: boolean, code: unknown, message: unknown): string {
  if (success) return "ok";
  if (typeof code === "string" && code) return code;
  const m = String(message ?? "");
  if (/retry/i.test(m) && /busy|wait|queue/i.test(m)) return "busy";
  if (/took longer|timed? ?out/i.test(m)) return "timeout";
  return "error";
}

const bridge: Surface = {
  name: "bridge",
  command: ["serve"],
  async call(origin, name, args) {
    const r = await fetch(`${origin}/tools/invoke`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ tool_name: name, arguments: args }),
      signal: AbortSignal.timeout(120_000),
    });
    const body = await r.json();
    return outcome(body.success === true, body.error_code, body.error);
  },
  heavy(origin, calls) {
    return Promise.all(
      calls.map((c) => this.call(origin, c.name, c.arguments).catch((e) => `failed: ${e}`)),
    );
  },
};

const MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

interface RpcAnswer {
  id?: number;
  result?: { isError?: boolean; content?: Array<{ text?: string }> };
  error?: { code: number; message: string };
}

function rpcOutcome(a: RpcAnswer | undefined): string {
  if (!a) return "no answer";
  if (a.error) return outcome(false, /retry/i.test(a.error.message) ? "busy" : "", a.error.message);
  return outcome(!a.result?.isError, "", a.result?.content?.[0]?.text);
}

const mcp: Surface = {
  name: "mcp-http",
  // A batch of 100 calls of which a third carry 100 KB of code is 3.4 MB.
  command: ["mcp", "--http", "--max-body", "16m"],
  async call(origin, name, args) {
    const r = await fetch(`${origin}/mcp`, {
      method: "POST",
      headers: MCP_HEADERS,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name, arguments: args },
      }),
      signal: AbortSignal.timeout(120_000),
    });
    return rpcOutcome(await r.json());
  },
  async heavy(origin, calls) {
    const r = await fetch(`${origin}/mcp`, {
      method: "POST",
      headers: MCP_HEADERS,
      body: JSON.stringify(calls.map((c, i) => ({
        jsonrpc: "2.0",
        id: i + 1,
        method: "tools/call",
        params: { name: c.name, arguments: c.arguments },
      }))),
      signal: AbortSignal.timeout(300_000),
    }).catch((e) => e as Error);
    if (r instanceof Error) return calls.map(() => `failed: ${r.message}`);
    const text = await r.text();
    if (!r.ok) return calls.map(() => `HTTP ${r.status}: ${text.slice(0, 120)}`);
    const body = (() => {
      try {
        return JSON.parse(text);
      } catch {
        return null;
      }
    })();
    const answers = new Map<number, RpcAnswer>();
    for (const a of Array.isArray(body) ? body as RpcAnswer[] : []) {
      if (typeof a.id === "number") answers.set(a.id, a);
    }
    return calls.map((_, i) => rpcOutcome(answers.get(i + 1)));
  },
};

/** Latencies of `/health` (every 50 ms) and of `search_symbols` (back to back) until `stop`. */
async function probe(
  origin: string,
  surface: Surface,
  stop: Promise<unknown>,
): Promise<{ health: number[]; simple: number[]; simpleFailed: string[] }> {
  let done = false;
  stop.then(() => (done = true));
  const health: number[] = [];
  const simple: number[] = [];
  const simpleFailed: string[] = [];
  const queries = ["parse", "Project", "search", "admit", "walk", "render", "token", "graph"];
  await Promise.all([
    (async () => {
      while (!done) {
        const t0 = performance.now();
        await fetch(`${origin}/health`, { signal: AbortSignal.timeout(120_000) })
          .then((r) => r.arrayBuffer()).catch(() => {});
        health.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })(),
    (async () => {
      for (let i = 0; !done; i++) {
        const t0 = performance.now();
        const how = await surface.call(origin, "search_symbols", {
          query: queries[i % queries.length],
          limit: 10,
        }).catch((e) => `failed: ${e}`);
        simple.push(performance.now() - t0);
        if (how !== "ok") simpleFailed.push(how);
        await new Promise((r) => setTimeout(r, 20));
      }
    })(),
  ]);
  return { health, simple, simpleFailed };
}

function counts(xs: string[]): string {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ");
}

async function runSurface(surface: Surface, root: string, code: string): Promise<void> {
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-fair-index-" });
  const server = await startServe({
    root,
    indexDir,
    command: surface.command,
    cli: values.cli,
    denoFlags: values["deno-flags"]?.split(" ").filter(Boolean),
  });
  const origin = new URL(server.url).origin;
  try {
    // Indexed, its vectors made, and answering before anything is measured.
    for (let i = 0; i < 1500; i++) {
      const h = await fetch(`${origin}/health`).then((r) => r.json()).catch(() => null);
      const vectors = h?.index?.vectors_state;
      if (h?.index?.state === "ready" && ["complete", "off", "error"].includes(vectors)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // What every first call builds once (the code graph, the tokenizer, the analysis
    // workers) is built before: the load measures heavy calls, not a server's first minute.
    // The whole tree's analysis stays cold (it is the heaviest call's real work).
    for (const [name, args] of WARM) await surface.call(origin, name, args);
    const sleep = new Promise((r) => setTimeout(r, BASELINE_MS));
    const base = await probe(origin, surface, sleep);
    const rss0 = rssMiB(server.proc.pid);
    console.log(
      `${surface.name} unloaded (${(BASELINE_MS / 1000).toFixed(0)} s): /health p50 ${
        ms(pct(base.health, 50))
      } p99 ${ms(pct(base.health, 99))}; search_symbols p50 ${ms(pct(base.simple, 50))} p95 ${
        ms(pct(base.simple, 95))
      }; RSS ${rss0.rss.toFixed(0)} MiB, ${rss0.threads} threads; load ${load()}`,
    );

    let peak = rss0;
    const sampler = setInterval(() => {
      const now = rssMiB(server.proc.pid);
      if (now.rss > peak.rss) peak = { ...peak, rss: now.rss };
      if (now.threads > peak.threads) peak = { ...peak, threads: now.threads };
    }, 100);
    const calls = Array.from({ length: HEAVY }, (_, i) => heavyCall(i, code));
    const t0 = performance.now();
    const heavy = surface.heavy(origin, calls);
    const loaded = await probe(origin, surface, heavy);
    const ends = await heavy;
    const wall = performance.now() - t0;
    clearInterval(sampler);
    const byTool = new Map<string, string[]>();
    calls.forEach((c, i) => byTool.set(c.name, [...(byTool.get(c.name) ?? []), ends[i]]));
    console.log(
      `${surface.name} ${HEAVY} heavy (${surface === mcp ? "one batch" : "concurrent"}), ${
        (wall / 1000).toFixed(1)
      } s until the last answered: /health p50 ${ms(pct(loaded.health, 50))} p99 ${
        ms(pct(loaded.health, 99))
      } max ${
        ms(Math.max(...loaded.health))
      } (${loaded.health.length} probes); search_symbols p50 ${ms(pct(loaded.simple, 50))} p95 ${
        ms(pct(loaded.simple, 95))
      } max ${ms(Math.max(...loaded.simple))} (${loaded.simple.length} calls${
        loaded.simpleFailed.length ? `, not ok: ${counts(loaded.simpleFailed)}` : ""
      }); RSS peak ${peak.rss.toFixed(0)} MiB (from ${
        rss0.rss.toFixed(0)
      }), ${peak.threads} threads`,
    );
    console.log(
      `  heavy calls: ${
        [...byTool].map(([name, xs]) => `${name}: ${counts(xs)}`).join("; ")
      }; load ${load()}`,
    );
  } finally {
    server.proc.kill("SIGTERM");
    const killer = setTimeout(() => server.proc.kill("SIGKILL"), 20_000);
    await server.proc.status;
    clearTimeout(killer);
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
}

/** `count` subscribers of the bridge's event stream that never read, then a real one. */
async function runStreams(root: string, count: number): Promise<void> {
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-fair-index-" });
  const server = await startServe({ root, indexDir, cli: values.cli });
  const origin = new URL(server.url).origin;
  const port = Number(new URL(origin).port);
  const idle: Deno.TcpConn[] = [];
  try {
    await bridge.call(origin, "search_symbols", { query: "warm" });
    const enc = new TextEncoder();
    for (let i = 0; i < count; i++) {
      const c = await Deno.connect({ hostname: "127.0.0.1", port });
      await c.write(enc.encode(
        `GET /tools/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`,
      ));
      idle.push(c);
    }
    // The last one has its stream (its first bytes came): every place asked for is taken.
    await idle[idle.length - 1].read(new Uint8Array(64));
    const t0 = performance.now();
    const res = await fetch(`${origin}/tools/stream`);
    let got = `${res.status}`;
    if (res.ok) {
      const r = await fetch(`${origin}/tools/invoke`, {
        method: "POST",
        body: JSON.stringify({ tool_name: "search_symbols", arguments: { query: "parse" } }),
      }).then((r) => r.json());
      const dec = new TextDecoder();
      let text = "";
      for await (const chunk of res.body!) {
        text += dec.decode(chunk, { stream: true });
        if (text.includes(r.request_id) && /event: tool\.completed/.test(text)) break;
      }
      got = `200, its search_symbols event ${ms(performance.now() - t0)} after it asked`;
    } else await res.body?.cancel();
    console.log(
      `sse: ${count} subscribers that never read, then a real one: ${got}; RSS ${
        rssMiB(server.proc.pid).rss.toFixed(0)
      } MiB; load ${load()}`,
    );
  } finally {
    for (const c of idle) c.close();
    server.proc.kill("SIGTERM");
    await server.proc.status;
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
}

const root = values.path ?? await copyProject();
const code = await snippet(root, 100_000);
console.log(
  `project ${root}; ${HEAVY} heavy calls; validate_code of ${code.length} bytes; server ${
    values.cli ?? "this checkout"
  }; load ${load()}`,
);
try {
  for (const name of values.surface.split(",")) {
    if (name === "sse") {
      await runStreams(root, Number(values.sse));
      continue;
    }
    const surface = name === "bridge" ? bridge : name === "mcp" ? mcp : null;
    if (!surface) throw new Error(`--surface takes bridge, mcp and/or sse, not '${name}'`);
    await runSurface(surface, root, code);
  }
} finally {
  if (!values.path) await Deno.remove(root, { recursive: true }).catch(() => {});
}
