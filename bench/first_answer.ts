/**
 * The first answer of a fresh process (issue 34): what a person running `codectx search` from
 * a shell, or an assistant starting `codectx mcp`, waits for on an index `codectx index` just
 * wrote.
 *
 *   deno run -A bench/first_answer.ts [--path DIR] [--runs 5] [--cli PATH]
 *     [--only index,cli,serve,mcp,install] [--index-dir DIR]
 *
 * - `index`: one `codectx index` of the tree into a fresh folder (wall, peak RSS), kept as the
 *   index every other section starts from (each on its own copy, so each one's first run is the
 *   first after `index`);
 * - `cli`: `codectx search` (hybrid, waiting for vectors as the command does), `explain`,
 *   `refs` and `tool search_symbols`, each `--no-update`, `--runs` fresh processes in a row on
 *   its own copy of the new index: every wall time, CPU time (user + system) and the medians
 *   (Deno's start included); with `--before PATH` that checkout's runs alternate with these
 *   (on a copy of `--before-index-dir DIR` when given: an index that checkout wrote, whose
 *   files a first run of the other would write again);
 * - `serve`: `codectx serve --no-watch` on a copy: time to the first `/health` answer, to
 *   `state: ready`, and to `vectors_state: complete` (polled every 25 ms; with the server's CPU
 *   time then, every thread's), twice (the first start after `index`, then a restart);
 * - `mcp`: `codectx mcp` over stdio with the SDK client: `initialize`, the first
 *   `semantic_search` answer, and the first one whose vectors were complete (hybrid), with the
 *   server's CPU time at `initialize` and at that answer;
 * - `install`: the README's quick start (`deno task --config light.json serve`) in a fresh copy
 *   of this checkout (`git archive HEAD`)
 *   with an empty `DENO_DIR`: time until `/health` answers, then the size of `node_modules`
 *   and of the npm cache; then `deno task install:cli` into a temporary root, and what it
 *   added. Needs the npm registry.
 *
 * - `cold` (with `--before PATH`: another checkout's `cli.ts`): `codectx index` into a fresh
 *   folder with this checkout and that one alternated, `--runs` times each (3 for the figure
 *   of record): wall times, medians, and this/that pair by pair (vectors included here: the
 *   run leaves them).
 *
 * Every line carries the load average. With `--cli` another checkout's `cli.ts` runs (the
 * "before" figures); `--index-dir DIR` uses DIR as the indexed tree instead of indexing.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { Client } from "npm:/@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { StdioClientTransport } from "npm:/@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
import { startServe } from "./serve.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    path: { type: "string" },
    runs: { type: "string" },
    cli: { type: "string" },
    only: { type: "string" },
    "index-dir": { type: "string" },
    query: { type: "string" },
    symbol: { type: "string" },
    before: { type: "string" },
    "before-index-dir": { type: "string" },
  },
});

const REPO = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
const ROOT = values.path ?? "/work/bench_data/pystd";
const RUNS = Number(values.runs ?? 5);
const CLI = values.cli ?? `${REPO}/cli.ts`;
const ONLY = new Set((values.only ?? "index,cli,serve,mcp").split(",").map((s) => s.trim()));
const QUERY = values.query ?? "parse a url into its parts";
const SYMBOL = values.symbol ?? "urlparse";
/** The flags the tasks and the installed command run with. */
const V8 = "--v8-flags=--expose-gc,--no-memory-pool-share-memory-on-teardown";

const work = await Deno.makeTempDir({ prefix: "codectx_first_" });

function load(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}

/** CPU time (user + system, every thread) a process has used so far, in ms; 0 when unknown. */
function cpuOf(pid: number | null | undefined): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime (fields 14 and 15) in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

function fmt(ms: number): string {
  return (ms / 1000).toFixed(2);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Runs `deno run -A <V8> cli.ts ...args` and returns its wall time and output. */
async function timed(
  args: string[],
  env?: Record<string, string>,
  cli = CLI,
): Promise<
  { ms: number; code: number; out: string; err: string; rssMiB: number; cpuMs: number }
> {
  const t0 = performance.now();
  const r = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%U %S %M", Deno.execPath(), "run", "-A", V8, cli, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  const err = new TextDecoder().decode(r.stderr);
  const lines = err.trimEnd().split("\n");
  const [user, sys, rss] = (lines.pop() ?? "").split(" ").map(Number);
  return {
    ms,
    code: r.code,
    out: new TextDecoder().decode(r.stdout),
    err: lines.join("\n"),
    rssMiB: rss / 1024,
    cpuMs: (user + sys) * 1000,
  };
}

/** A copy of the indexed folder, so each section's first run is the first after `index`. */
async function copyIndex(from: string, name: string): Promise<string> {
  const to = `${work}/${name}`;
  const r = await new Deno.Command("cp", { args: ["-a", from, to] }).output();
  if (!r.success) throw new Error(`cp ${from} ${to} failed`);
  return to;
}

async function indexSection(): Promise<string> {
  if (values["index-dir"]) return values["index-dir"];
  const dir = `${work}/index`;
  console.log(`[${load()}] codectx index --path ${ROOT}`);
  const r = await timed(["index", "--path", ROOT, "--index-dir", dir]);
  if (r.code !== 0) throw new Error(`index failed:\n${r.err}`);
  console.log(`  ${r.out.trim()}`);
  const files = [...Deno.readDirSync(dir)].map((e) => {
    const size = Deno.statSync(`${dir}/${e.name}`).size;
    return `${e.name} ${(size / 1048576).toFixed(1)} MiB`;
  });
  console.log(
    `  wall ${fmt(r.ms)} s, peak RSS ${r.rssMiB.toFixed(0)} MiB [load ${load()}]; left: ${
      files.join(", ")
    }`,
  );
  return dir;
}

async function cliSection(indexed: string): Promise<void> {
  const commands: Array<[string, string[]]> = [
    ["search (hybrid)", ["search", QUERY, "--top-k", "10"]],
    ["explain", ["explain", SYMBOL]],
    ["refs", ["refs", SYMBOL]],
    ["search_symbols", ["tool", "search_symbols", "--args", JSON.stringify({ query: SYMBOL })]],
  ];
  // With --before, that checkout runs each command too, alternated run by run, on a copy of
  // its own (the index made here: a checkout of another store format would rebuild it).
  const clis: Array<[string, string]> = [[CLI, "this"]];
  if (values.before) clis.push([values.before, "before"]);
  for (const [name, args] of commands) {
    const runs = await Promise.all(clis.map(async ([cli, label]) => ({
      cli,
      label,
      dir: await copyIndex(
        label === "before" ? values["before-index-dir"] ?? indexed : indexed,
        `cli_${name.split(" ")[0]}_${label}`,
      ),
      times: [] as number[],
      cpu: [] as number[],
      rss: [] as number[],
    })));
    for (let i = 0; i < RUNS; i++) {
      for (const run of runs) {
        const r = await timed(
          [...args, "--no-update", "--path", ROOT, "--index-dir", run.dir],
          undefined,
          run.cli,
        );
        if (r.code !== 0 || r.out.trim() === "") {
          throw new Error(`${name} (${run.label}) failed (exit ${r.code}):\n${r.err}`);
        }
        run.times.push(r.ms);
        run.cpu.push(r.cpuMs);
        run.rss.push(r.rssMiB);
      }
    }
    for (const run of runs) {
      const left = [...Deno.readDirSync(run.dir)].map((e) => e.name).sort().join(" ");
      console.log(
        `[${load()}] ${name.padEnd(16)}${clis.length > 1 ? ` ${run.label.padEnd(6)}` : ""} ` +
          `median ${fmt(median(run.times))} s (CPU ${fmt(median(run.cpu))} s); runs ${
            run.times.map(fmt).join(" ")
          } s; CPU ${run.cpu.map(fmt).join(" ")} s; peak RSS ${
            run.rss.map((m) => m.toFixed(0)).join(" ")
          } MiB; index folder after: ${left}`,
      );
    }
  }
}

interface Health {
  index?: { state?: string; vectors_state?: string };
}

async function serveOnce(dir: string, label: string): Promise<void> {
  const t0 = performance.now();
  const server = await startServe({ root: ROOT, indexDir: dir, cli: CLI, v8Flags: V8.slice(11) });
  const listening = performance.now() - t0;
  let firstAnswer = 0;
  let ready = 0;
  let complete = 0;
  let readyCpu = 0;
  let completeCpu = 0;
  try {
    while (performance.now() - t0 < 300_000) {
      const h = await fetch(`${server.url}/health`).then((r) => r.json() as Promise<Health>)
        .catch(() => null);
      const now = performance.now() - t0;
      if (h) {
        firstAnswer ||= now;
        if (h.index?.state === "ready" && !ready) {
          ready = now;
          readyCpu = cpuOf(server.proc.pid);
        }
        const vectors = h.index?.vectors_state;
        if (vectors === "complete" || vectors === "off") {
          complete = now;
          completeCpu = cpuOf(server.proc.pid);
          break;
        }
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    server.proc.kill("SIGTERM");
    await server.proc.status;
  }
  console.log(
    `[${load()}] serve, ${label}: listening ${fmt(listening)} s, /health answers ${
      fmt(firstAnswer)
    } s, ready ${fmt(ready)} s (CPU ${fmt(readyCpu)} s), vectors complete ${
      complete ? `${fmt(complete)} s (CPU ${fmt(completeCpu)} s)` : "never"
    }`,
  );
}

async function serveSection(indexed: string): Promise<void> {
  const dir = await copyIndex(indexed, "serve");
  await serveOnce(dir, "first start after index");
  await serveOnce(dir, "restart");
}

interface SearchPayload {
  snippets: unknown[];
  vectors: { state: string; done: number; total: number };
}

async function mcpOnce(dir: string, label: string): Promise<void> {
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", V8, CLI, "mcp", "--path", ROOT, "--index-dir", dir, "--no-watch"],
    stderr: "ignore",
  });
  const client = new Client({ name: "first-answer-bench", version: "1" });
  await client.connect(transport);
  const initialized = performance.now() - t0;
  const initializedCpu = cpuOf(transport.pid);
  let first = 0;
  let hybrid = 0;
  let hybridCpu = 0;
  let state = "";
  try {
    while (performance.now() - t0 < 300_000) {
      const r = await client.callTool({
        name: "semantic_search",
        arguments: { query: QUERY, top_k: 10 },
      });
      const now = performance.now() - t0;
      if (r.isError) throw new Error(`semantic_search failed: ${JSON.stringify(r.content)}`);
      first ||= now;
      const p = r.structuredContent as unknown as SearchPayload;
      state = `${p.vectors.state} ${p.vectors.done}/${p.vectors.total}`;
      if (p.vectors.state === "complete") {
        hybrid = now;
        hybridCpu = cpuOf(transport.pid);
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    await client.close();
  }
  console.log(
    `[${load()}] mcp, ${label}: initialize ${fmt(initialized)} s (CPU ${
      fmt(initializedCpu)
    } s), first semantic_search ${fmt(first)} s, first with every vector (hybrid) ${
      hybrid ? `${fmt(hybrid)} s (CPU ${fmt(hybridCpu)} s)` : `never (${state})`
    }`,
  );
}

async function mcpSection(indexed: string): Promise<void> {
  const dir = await copyIndex(indexed, "mcp");
  await mcpOnce(dir, "first start after index");
  await mcpOnce(dir, "restart");
}

async function du(path: string): Promise<string> {
  const r = await new Deno.Command("du", { args: ["-sm", path], stdout: "piped", stderr: "null" })
    .output();
  return `${new TextDecoder().decode(r.stdout).split("\t")[0] || "0"} MiB`;
}

/** A fresh copy of this checkout's HEAD (`git archive`), as a clone would be. */
async function freshClone(name: string): Promise<string> {
  const clone = `${work}/${name}`;
  await Deno.mkdir(clone);
  const archive = await new Deno.Command("sh", {
    args: ["-c", `git -C '${REPO}' archive HEAD | tar -x -C '${clone}'`],
  }).output();
  if (!archive.success) throw new Error("git archive failed");
  return clone;
}

/**
 * The README's quick start (`deno task --config light.json serve`) in a fresh copy of this
 * checkout with an empty Deno cache; the packages' fetch alone (`deno install` with the same
 * config, another empty cache); `deno task install:cli`.
 */
async function installSection(): Promise<void> {
  const clone = await freshClone("clone");
  const denoDir = `${work}/deno_dir`;
  const env = { DENO_DIR: denoDir, CODECTX_HOME: `${work}/home` };
  const t0 = performance.now();
  const server = new Deno.Command(Deno.execPath(), {
    args: ["task", "--config", "light.json", "serve", "--path", ".", "--port", "0", "--no-watch"],
    cwd: clone,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  let url = "";
  const dec = new TextDecoder();
  const reader = server.stderr.getReader();
  while (!url) {
    const { value, done } = await reader.read();
    if (done) break;
    log += dec.decode(value, { stream: true });
    url = /listening on (http:\/\/\S+)/.exec(log)?.[1] ?? "";
  }
  void (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  let answered = 0;
  while (url && !answered && performance.now() - t0 < 600_000) {
    if (await fetch(`${url}/health`).then((r) => r.body?.cancel()).then(() => true, () => false)) {
      answered = performance.now() - t0;
    } else await new Promise((r) => setTimeout(r, 50));
  }
  server.kill("SIGTERM");
  await server.status;
  if (!url) throw new Error(`the quick start did not listen:\n${log.slice(-4000)}`);
  console.log(
    `[${load()}] quick start (deno task --config light.json serve, empty DENO_DIR): /health ` +
      `answers ${fmt(answered)} s; node_modules ${await du(
        `${clone}/node_modules`,
      )}, npm cache ${await du(
        `${denoDir}/npm`,
      )}`,
  );
  const fetchClone = await freshClone("clone_fetch");
  const t2 = performance.now();
  const fetched = await new Deno.Command(Deno.execPath(), {
    args: ["install", "--config", "light.json"],
    cwd: fetchClone,
    env: { DENO_DIR: `${work}/deno_dir_fetch` },
    stdout: "null",
    stderr: "null",
  }).output();
  console.log(
    `[${load()}] the quick start's packages alone (deno install --config light.json, empty ` +
      `DENO_DIR): exit ${fetched.code} in ${fmt(performance.now() - t2)} s`,
  );
  const installRoot = `${work}/install_root`;
  const denoDir2 = `${work}/deno_dir_install`;
  const clone2 = await freshClone("clone2");
  const t1 = performance.now();
  const inst = await new Deno.Command(Deno.execPath(), {
    args: ["task", "install:cli"],
    cwd: clone2,
    env: { DENO_DIR: denoDir2, DENO_INSTALL_ROOT: installRoot },
    stdout: "null",
    stderr: "piped",
  }).output();
  console.log(
    `[${load()}] deno task install:cli (empty DENO_DIR): exit ${inst.code} in ${
      fmt(performance.now() - t1)
    } s; node_modules ${await du(`${clone2}/node_modules`)}, npm cache ${await du(
      `${denoDir2}/npm`,
    )}`,
  );
}

/** Cold `codectx index`, this checkout and `--before` alternated. */
async function coldSection(): Promise<void> {
  const before = values.before;
  if (!before) throw new Error("cold needs --before PATH/cli.ts (the checkout to compare with)");
  const mine: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const [cli, out, name] of [[CLI, mine, "this"], [before, theirs, "before"]] as const) {
      const dir = `${work}/cold_${name}_${i}`;
      const r = await timed(["index", "--path", ROOT, "--index-dir", dir], undefined, cli);
      if (r.code !== 0) throw new Error(`index (${name}) failed:\n${r.err}`);
      out.push(r.ms);
      console.log(
        `[${load()}] cold index ${name} #${i + 1}: ${fmt(r.ms)} s (CPU ${
          fmt(r.cpuMs)
        } s), peak RSS ${r.rssMiB.toFixed(0)} MiB`,
      );
      await Deno.remove(dir, { recursive: true });
    }
  }
  const ratios = mine.map((m, i) => m / theirs[i]);
  console.log(
    `cold index: this median ${fmt(median(mine))} s, before ${fmt(median(theirs))} s; ` +
      `this/before pair by pair ${ratios.map((r) => r.toFixed(2)).join(" ")}, median ${
        median(ratios).toFixed(2)
      }`,
  );
}

try {
  console.log(
    `first_answer: ${ROOT}, cli ${CLI}, ${RUNS} runs, query '${QUERY}', symbol ${SYMBOL}`,
  );
  const needsIndex = ["cli", "serve", "mcp"].some((s) => ONLY.has(s));
  const indexed = ONLY.has("index") || needsIndex ? await indexSection() : "";
  if (ONLY.has("cli")) await cliSection(indexed);
  if (ONLY.has("serve")) await serveSection(indexed);
  if (ONLY.has("mcp")) await mcpSection(indexed);
  if (ONLY.has("install")) await installSection();
  if (ONLY.has("cold")) await coldSection();
} finally {
  await Deno.remove(work, { recursive: true }).catch(() => {});
}
