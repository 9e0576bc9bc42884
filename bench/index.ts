/**
 * Indexing benchmark: cold index, then a re-index with nothing changed, on a named corpus
 * (default: this machine's Python standard library). Prints throughput and peak memory.
 *
 *   deno run -A bench/index.ts [--corpus DIR] [--workers N] [--exclude PATTERN]…
 */

import { parseArgs } from "node:util";
import { Project } from "../src/index/project.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    corpus: { type: "string" },
    workers: { type: "string" },
    exclude: { type: "string", multiple: true },
  },
});

async function pythonStdlib(): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

function peakRssMiB(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const m = status.match(/VmHWM:\s+(\d+) kB/);
  return m ? Number(m[1]) / 1024 : NaN;
}

const corpus = values.corpus ?? (await pythonStdlib());
// The standard library folder also holds installed packages; they are not the corpus.
const exclude = values.exclude ?? (values.corpus ? [] : ["site-packages/"]);
const workers = values.workers === undefined ? undefined : Number(values.workers);
const indexDir = await Deno.makeTempDir({ prefix: "codectx-bench-" });
try {
  const project = await Project.open(corpus, { indexDir, workers, exclude });
  const cold = await project.reindex();
  const idx = await project.index();
  let bytes = 0;
  let lines = 0;
  for (const f of idx.files.values()) {
    bytes += f.size;
    lines += f.lines;
  }
  const warmTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const warm = await project.reindex();
    if (warm.changed !== 0) throw new Error(`re-index saw ${warm.changed} changes`);
    warmTimes.push(performance.now() - t);
  }
  const t = performance.now();
  const fresh = await Project.open(corpus, { indexDir, exclude });
  const loaded = await fresh.index();
  await loaded.chunks();
  const loadMs = performance.now() - t;
  fresh.close();
  project.close();
  const mb = bytes / 1e6;
  console.log(`corpus: ${corpus}`);
  console.log(
    `files ${cold.files} (${
      Object.entries(cold.languages).map(([l, n]) => `${l} ${n}`).join(", ")
    }), ` +
      `${
        mb.toFixed(1)
      } MB, ${lines} lines; ${cold.symbols} symbols, ${cold.chunks} chunks; ${cold.errors.length} parse errors`,
  );
  console.log(
    `cold index: ${(cold.elapsedMs / 1000).toFixed(2)} s (${
      (mb / (cold.elapsedMs / 1000)).toFixed(1)
    } MB/s, ` +
      `workers ${workers ?? navigator.hardwareConcurrency})`,
  );
  warmTimes.sort((a, b) => a - b);
  console.log(
    `re-index, nothing changed: median ${(warmTimes[1] / 1000).toFixed(3)} s (runs: ${
      warmTimes.map((x) => x.toFixed(0)).join(", ")
    } ms)`,
  );
  console.log(
    `load index in a new process-like open (symbols + chunks): ${(loadMs / 1000).toFixed(2)} s`,
  );
  console.log(`peak RSS: ${peakRssMiB().toFixed(0)} MiB`);
} finally {
  await Deno.remove(indexDir, { recursive: true }).catch(() => {});
}
