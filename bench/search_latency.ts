/**
 * Search latency on the Python standard library index: p50 and p95 of 200 queries (top_k
 * 10) per mode, through the whole pipeline (`searchProject`: retrieval, fusion, snippets),
 * and `rg -i` for each query's rarest word over the same tree for comparison.
 *
 *   deno run -A bench/search_latency.ts [--embedder use-lite] [--queries 200]
 *     [--vector-seconds N]   (embed for N s only, instead of until complete)
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { Project } from "../src/project/project.ts";
import { ProjectService } from "../src/service/service.ts";
import { clearQueryVectorCache, type SearchMode, searchProject } from "../src/search/hybrid.ts";
import { inProcessEmbedder } from "../src/search/providers.ts";
import { FlatVectorIndex } from "../src/search/vectors.ts";
import { lexicalIndexFor } from "../src/search/lexical_cache.ts";
import { chunkTable } from "../src/search/table.ts";
import { projectVectors } from "../src/search/vector_sync.ts";
import { queryTokens } from "../src/util/tokens.ts";
import { BENCH_DIR, pythonCorpus, pythonStdlib } from "./search_corpus.ts";

/** The index of the real standard library with `embedder` (shared with embed_throughput). */
export async function openStdlib(embedder: string): Promise<ProjectService> {
  const std = await pythonStdlib();
  return await ProjectService.open(std, {
    indexDir: `${BENCH_DIR}/idx-stdlib-${embedder.replace(/[^\w.-]/g, "_")}`,
    exclude: ["site-packages/"],
    embedder,
  });
}

/** The p-th percentile of `xs`. */
export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/**
 * int8 quantisation measured: recall@10 of an int8 copy of the project's vectors against
 * float32, on the same query vectors, with scan times and memory.
 */
export async function int8Recall(project: Project, queries: string[]): Promise<string> {
  const gv = projectVectors(project).vectorsFor(await chunkTable(project));
  if (!gv) return "int8 vectors: no vectors";
  const i8 = new FlatVectorIndex(gv.index.rows, gv.index.dimensions, "int8");
  for (let r = 0; r < gv.index.rows; r++) {
    const vec = gv.index.get(r);
    if (vec) i8.set(r, vec);
  }
  const model = await inProcessEmbedder(gv.choice);
  let agree = 0;
  let total = 0;
  const t8: number[] = [];
  const t32: number[] = [];
  for (const q of queries) {
    const [qv] = await model.embed([q]);
    let t = performance.now();
    const exact = gv.index.search(qv, 10).map((h) => h.row);
    t32.push(performance.now() - t);
    t = performance.now();
    const approx = new Set(i8.search(qv, 10).map((h) => h.row));
    t8.push(performance.now() - t);
    agree += exact.filter((r) => approx.has(r)).length;
    total += exact.length;
  }
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  return `int8 vectors (${gv.index.count}/${gv.index.rows} rows): recall@10 against float32 ${
    (agree / total).toFixed(4)
  }; scan p50 ${pct(t8, 50).toFixed(1)} ms (float32 ${gv.index.accelerated ? "SIMD" : "plain"} ${
    pct(t32, 50).toFixed(1)
  } ms); memory ${mib(gv.index.rows * gv.index.dimensions)} MiB instead of ${
    mib(gv.index.rows * gv.index.dimensions * 4)
  } MiB`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      embedder: { type: "string", default: "use-lite" },
      queries: { type: "string", default: "200" },
      "vector-seconds": { type: "string" },
    },
  });
  const n = Number(values.queries);
  const std = await pythonStdlib();
  const service = await openStdlib(values.embedder);
  const project = service.project;
  const report = await project.reindex();
  console.log(`stdlib index: ${report.files} files, ${report.chunks} chunks (${std})`);
  const t0 = performance.now();
  const sync = service.vectors;
  const limit = values["vector-seconds"];
  let v;
  if (limit === undefined) v = await sync.settle();
  else {
    // Embed for a while only (USE-lite takes ~20 ms a chunk), then stop: the scan still
    // covers every row, so latency is that of complete vectors.
    sync.start();
    await new Promise((r) => setTimeout(r, Number(limit) * 1000));
    sync.close();
    v = sync.progress();
  }
  console.log(
    `vectors: ${v.state} ${v.done}/${v.total} (${v.embedder}, ${v.dimensions}-d) after ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s; ${v.embedded} embedded in this run`,
  );
  // Plain-words questions: first sentences of the standard library's docstrings.
  const queries = (await pythonCorpus()).queries.slice(0, n).map((q) => q.query);
  const modes: SearchMode[] = v.state === "off" || v.done === 0
    ? ["lexical"]
    : ["lexical", "dense", "hybrid"];
  const lat: Record<string, number> = {};
  const rebuildsBefore = sync.rebuilds;
  for (const mode of modes) {
    for (const q of queries.slice(0, 10)) await searchProject(project, q, { top_k: 10, mode });
    // Each mode embeds its queries itself (no cached query vectors).
    clearQueryVectorCache();
    const times: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      await searchProject(project, q, { top_k: 10, mode });
      times.push(performance.now() - t);
    }
    lat[mode] = pct(times, 50);
    console.log(
      `${mode.padEnd(8)} p50 ${pct(times, 50).toFixed(1)} ms  p95 ${
        pct(times, 95).toFixed(1)
      } ms  ` +
        `max ${Math.max(...times).toFixed(1)} ms  (${queries.length} queries, top_k 10)`,
    );
  }

  console.log(
    `vector syncs per query: ${
      ((sync.rebuilds - rebuildsBefore) / (modes.length * (queries.length + 10))).toFixed(4)
    } (${sync.rebuilds - rebuildsBefore} rebuilds over ${
      modes.length * (queries.length + 10)
    } queries)`,
  );
  const table = await chunkTable(project);
  console.log(await int8Recall(project, queries));

  // rg -i for each query's rarest word (fewest chunks in the index), over the same tree.
  const lex = await lexicalIndexFor(project, table);
  const rgTimes: number[] = [];
  const rarest: string[] = [];
  for (const q of queries) {
    const words = q.toLowerCase().match(/[a-z_][a-z0-9_]{2,}/g) ?? [];
    let best = "";
    let bestDf = Infinity;
    for (const w of words) {
      const toks = queryTokens(w);
      if (toks.length === 0) continue;
      const df = Math.min(...toks.map((t) => lex.df(t) || Infinity));
      if (df < bestDf) {
        bestDf = df;
        best = w;
      }
    }
    if (!best) continue;
    rarest.push(best);
    const t = performance.now();
    await new Deno.Command("rg", {
      args: ["-i", "--glob", "!site-packages/**", "--", best, std],
      stdout: "null",
      stderr: "null",
    }).output();
    rgTimes.push(performance.now() - t);
  }
  const rg50 = pct(rgTimes, 50);
  console.log(
    `rg -i    p50 ${rg50.toFixed(1)} ms  p95 ${
      pct(rgTimes, 95).toFixed(1)
    } ms  (${rgTimes.length} rarest words, process start included)`,
  );
  // The same words through mode exact (smart case: lower case = rg -i) and as a regex
  // (`\bword\w*`); in memory, from the index's text; at most 100 matches.
  for (const mode of ["exact", "regex"] as const) {
    const pattern = (w: string) => mode === "exact" ? w : String.raw`\b${w}\w*`;
    await searchProject(project, pattern(rarest[0] ?? "def"), { top_k: 100, mode });
    const times: number[] = [];
    for (const w of rarest) {
      const t = performance.now();
      await searchProject(project, pattern(w), { top_k: 100, mode });
      times.push(performance.now() - t);
    }
    lat[mode] = pct(times, 50);
    console.log(
      `${mode.padEnd(8)} p50 ${pct(times, 50).toFixed(1)} ms  p95 ${
        pct(times, 95).toFixed(1)
      } ms  (the same ${times.length} words, top_k 100)`,
    );
  }
  for (const mode of [...modes, "exact", "regex"]) {
    console.log(`ratio ${mode} p50 / rg p50: ${(lat[mode] / rg50).toFixed(2)}`);
  }
  const mem = Deno.memoryUsage();
  console.log(
    `memory after the queries: RSS ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap ${
      (mem.heapUsed / 2 ** 20).toFixed(0)
    } MiB`,
  );
  await service.close();
}

if (import.meta.main) await main();
