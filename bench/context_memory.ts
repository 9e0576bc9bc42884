/**
 * A server's memory and time for `get_context`: starts `codectx serve` of a checkout on an
 * indexed project, waits for its index, then asks `get_context` of one symbol and of nine
 * more, and prints VmHWM / VmRSS (`/proc/PID/status`) before and after each step with each
 * call's wall time and the server's CPU time (`/proc/PID/stat`). `--repo` takes several
 * checkouts (a before and an after), run in turn `--rounds` times.
 *
 *   deno run -A bench/context_memory.ts --path DIR --index-dir DIR --repo A --repo B [--rounds 2]
 *
 * @module
 */

import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    path: { type: "string" },
    "index-dir": { type: "string" },
    repo: { type: "string", multiple: true },
    rounds: { type: "string", default: "1" },
  },
});
if (!values.path || !values["index-dir"] || !values.repo?.length) {
  console.error(
    "usage: deno run -A bench/context_memory.ts --path DIR --index-dir DIR --repo CHECKOUT…",
  );
  Deno.exit(2);
}

const FIRST = "urlparse";
const MORE = [
  "HTTPConnection.request",
  "Popen",
  "json.loads",
  "Path.glob",
  "ArgumentParser.add_argument",
  "Logger.info",
  "deepcopy",
  "TextIOWrapper",
  "SMTP.sendmail",
];

function status(pid: number): { hwm: number; rss: number } {
  const text = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return { hwm: Math.round(kb("VmHWM") / 1024), rss: Math.round(kb("VmRSS") / 1024) };
}

function cpuSeconds(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function load(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ")[0];
}

async function run(repo: string): Promise<string> {
  const child = new Deno.Command("deno", {
    args: [
      "run",
      "-A",
      `${repo}/cli.ts`,
      "serve",
      "--port",
      "0",
      "--no-watch",
      "--timeout",
      "600",
      "--path",
      values.path!,
      "--index-dir",
      values["index-dir"]!,
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let err = "";
  let base = "";
  while (!base) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve ended: ${err}`);
    err += value;
    base = /(http:\/\/127\.0\.0\.1:\d+)/.exec(err)?.[1] ?? "";
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  try {
    for (;;) {
      const h = await (await fetch(`${base}/health`)).json();
      if (h.index?.state === "ready" || h.status === "ready" || h.state === "ready") break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const pid = child.pid;
    const out: string[] = [];
    const s0 = status(pid);
    out.push(`ready ${s0.hwm}/${s0.rss}`);
    const call = async (name: string) => {
      const t = performance.now();
      const c = cpuSeconds(pid);
      const r = await fetch(`${base}/tools/invoke`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          tool_name: "get_context",
          arguments: { symbol_name: name, max_tokens: 1500 },
        }),
      });
      const body = await r.json();
      if (!body.success) throw new Error(`${name}: ${JSON.stringify(body).slice(0, 300)}`);
      return { wall: (performance.now() - t) / 1000, cpu: cpuSeconds(pid) - c };
    };
    const one = await call(FIRST);
    const s1 = status(pid);
    out.push(
      `1 call ${s1.hwm}/${s1.rss} (${one.wall.toFixed(1)} s wall, ${one.cpu.toFixed(1)} s CPU)`,
    );
    let wall = 0;
    let cpu = 0;
    for (const name of MORE) {
      const x = await call(name);
      wall += x.wall;
      cpu += x.cpu;
    }
    const s10 = status(pid);
    out.push(
      `10 calls ${s10.hwm}/${s10.rss} (9 more: ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU)`,
    );
    return out.join(", ");
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

console.log("VmHWM/VmRSS MiB");
for (let round = 0; round < Number(values.rounds); round++) {
  for (const repo of values.repo) {
    const l0 = load();
    const line = await run(repo);
    console.log(`${repo} (load ${l0}→${load()}): ${line}`);
  }
}
