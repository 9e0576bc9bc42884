/**
 * Search latency through the bridge (`codectx serve`, HTTP `POST /tools/invoke`) on the
 * Python standard library with every vector present: the first hybrid query after the
 * server starts, then p50/p95 of 200 queries per mode (top_k 10), timed at the client.
 *
 * The standard library is copied once (without `site-packages`, `__pycache__`) into the
 * bench folder, so that the server indexes what `search_latency.ts` measures in process.
 * A first server builds the index and the vectors and stops; a second one is the one
 * measured (its first query finds a complete index on disk, as after a restart).
 *
 * `--pause N`: the first query is sent N seconds after `/health` says the index is ready and
 * the vectors complete (`vectors_state`: counted and sealed; 0: at once — the server warms
 * its search in the background meanwhile). Counting the vectors alone sent the first query
 * while the last of them were still being sealed (0.3 s on the stdlib): it was then scored
 * on the partial path.
 *
 * `--root DIR` measures that folder instead of the copy (e.g. /work/bench_data/pystd, a frozen
 * copy of the standard library), `--index-dir DIR` keeps its index there. `--before CLI` (another
 * checkout's `cli.ts`) runs a second server from it, with its own index (`DIR-before`), and
 * sends each query to both in turn (which goes first alternates): on a loaded machine the
 * ratio of the two is the figure, not either time.
 *
 *   deno run -A bench/search_bridge_latency.ts [--queries 200] [--modes hybrid,lexical,dense]
 *     [--pause 0] [--root DIR] [--index-dir DIR] [--before ../other/cli.ts]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { BENCH_DIR, pythonCorpus, pythonStdlib } from "./search_corpus.ts";
import { pct } from "./search_latency.ts";
import { startServe } from "./serve.ts";

/** The standard library without `site-packages`, copied once. */
async function stdlibCopy(): Promise<string> {
  const dest = `${BENCH_DIR}/stdlib-copy`;
  try {
    await Deno.stat(`${dest}/.done`);
    return dest;
  } catch {
    // not copied yet
  }
  await Deno.remove(dest, { recursive: true }).catch(() => {});
  await Deno.mkdir(dest, { recursive: true });
  const std = await pythonStdlib();
  const tar = await new Deno.Command("bash", {
    args: [
      "-c",
      `tar -C "${std}" --exclude=site-packages --exclude=__pycache__ -cf - . | tar -C "${dest}" -xf -`,
    ],
  }).output();
  if (!tar.success) throw new Error(`could not copy ${std}`);
  await Deno.writeTextFile(`${dest}/.done`, "");
  return dest;
}

interface Server {
  url: string;
  child: Deno.ChildProcess;
}

/** Starts `codectx serve` (this checkout's, or `cli`'s) on a free port; waits for its address. */
async function startServer(root: string, indexDir: string, cli?: string): Promise<Server> {
  const { proc, url } = await startServe({ root, indexDir, cli });
  return { url, child: proc };
}

/**
 * Waits until the index is ready and its vectors are complete: `vectors_state` "complete"
 * (the vectors counted, then sealed for the fast scan), or, from a server whose `/health`
 * does not show the state, every chunk counted with its vector.
 */
async function waitComplete(url: string): Promise<{ chunks: number; vectors: string }> {
  while (true) {
    const h = await (await fetch(`${url}/health`)).json();
    const ix = h.index ?? {};
    const complete = ix.vectors_state === undefined
      ? ix.vectors === ix.chunks
      : ix.vectors_state === "complete";
    if (ix.state === "ready" && ix.chunks > 0 && complete) {
      return { chunks: ix.chunks, vectors: `${ix.vectors}/${ix.chunks}` };
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** One semantic_search call; its time at the client in ms. */
async function timedSearch(url: string, query: string, mode: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${url}/tools/invoke`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      tool_name: "semantic_search",
      arguments: { query, top_k: 10, mode },
    }),
  });
  const body = await res.json();
  const ms = performance.now() - t;
  if (!res.ok || body.success === false) {
    throw new Error(
      `semantic_search failed (${res.status}): ${JSON.stringify(body).slice(0, 300)}`,
    );
  }
  return ms;
}

async function stop(s: Server): Promise<void> {
  s.child.kill("SIGTERM");
  await s.child.status;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      queries: { type: "string", default: "200" },
      modes: { type: "string", default: "hybrid,lexical,dense" },
      pause: { type: "string", default: "0" },
      root: { type: "string" },
      "index-dir": { type: "string" },
      before: { type: "string" },
    },
  });
  const root = values.root ?? await stdlibCopy();
  const indexDir = values["index-dir"] ?? `${BENCH_DIR}/idx-bridge-stdlib`;
  const queries = (await pythonCorpus()).queries.slice(0, Number(values.queries)).map((q) =>
    q.query
  );
  if (values.before) {
    await alternate(root, indexDir, values.before, queries, values.modes.split(","));
    return;
  }
  let t = performance.now();
  const first = await startServer(root, indexDir);
  const built = await waitComplete(first.url);
  console.log(
    `index and vectors: ${built.chunks} chunks, vectors ${built.vectors} after ${
      ((performance.now() - t) / 1000).toFixed(1)
    } s (first server)`,
  );
  await stop(first);

  t = performance.now();
  const s = await startServer(root, indexDir);
  const ready = await waitComplete(s.url);
  console.log(
    `restarted: ready with vectors ${ready.vectors} after ${
      ((performance.now() - t) / 1000).toFixed(1)
    } s`,
  );
  try {
    await new Promise((r) => setTimeout(r, Number(values.pause) * 1000));
    // A query no cache has seen: the first after start.
    const firstMs = await timedSearch(s.url, "read a configuration file into sections", "hybrid");
    const p50s: Record<string, number> = {};
    for (const mode of values.modes.split(",")) {
      for (const q of queries.slice(0, 10)) await timedSearch(s.url, `${q} warm`, mode);
      const times: number[] = [];
      for (const q of queries) times.push(await timedSearch(s.url, q, mode));
      p50s[mode] = pct(times, 50);
      console.log(
        `${mode.padEnd(8)} p50 ${pct(times, 50).toFixed(1)} ms  p95 ${
          pct(times, 95).toFixed(1)
        } ms  max ${Math.max(...times).toFixed(1)} ms  (${times.length} queries, top_k 10, bridge)`,
      );
    }
    const base = p50s.hybrid ?? Object.values(p50s)[0];
    console.log(
      `first hybrid query after start (${values.pause} s after ready): ${firstMs.toFixed(1)} ms = ${
        (firstMs / base).toFixed(1)
      }× the hybrid p50`,
    );
  } finally {
    await stop(s);
  }
  console.log(
    `load average ${
      Deno.loadavg().map((x) => x.toFixed(1)).join(" ")
    } on ${navigator.hardwareConcurrency} cores`,
  );
}

/**
 * This checkout's server and `beforeCli`'s, each on its own index of `root`, every vector
 * present; each query sent to both, which goes first alternating. Prints per mode each one's
 * p50 and p95 and their ratios (after ÷ before).
 */
async function alternate(
  root: string,
  indexDir: string,
  beforeCli: string,
  queries: string[],
  modes: string[],
): Promise<void> {
  const servers: Record<"after" | "before", Server> = {
    after: await startServer(root, indexDir),
    before: await startServer(root, `${indexDir}-before`, beforeCli),
  };
  try {
    for (const s of Object.values(servers)) await waitComplete(s.url);
    for (const mode of modes) {
      const times = { after: [] as number[], before: [] as number[] };
      for (const q of queries.slice(0, 10)) {
        for (const s of Object.values(servers)) await timedSearch(s.url, `${q} warm`, mode);
      }
      for (const [i, q] of queries.entries()) {
        const order = i % 2 === 0 ? ["after", "before"] as const : ["before", "after"] as const;
        for (const k of order) times[k].push(await timedSearch(servers[k].url, q, mode));
      }
      const line = (k: "after" | "before") =>
        `${k} p50 ${pct(times[k], 50).toFixed(1)} ms p95 ${pct(times[k], 95).toFixed(1)} ms`;
      console.log(
        `${mode.padEnd(8)} ${line("after")} | ${line("before")} | after ÷ before: p50 ${
          (pct(times.after, 50) / pct(times.before, 50)).toFixed(2)
        }, p95 ${
          (pct(times.after, 95) / pct(times.before, 95)).toFixed(2)
        } (${queries.length} queries each, alternated)`,
      );
    }
  } finally {
    for (const s of Object.values(servers)) await stop(s);
  }
  console.log(
    `load average ${
      Deno.loadavg().map((x) => x.toFixed(1)).join(" ")
    } on ${navigator.hardwareConcurrency} cores`,
  );
}

if (import.meta.main) await main();
