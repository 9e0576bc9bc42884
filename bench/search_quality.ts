/**
 * Search quality: MRR@10 and Recall@5 of lexical, dense (per embedder) and hybrid search
 * (weighted max-normalised sum and reciprocal-rank fusion) on docstring → function
 * retrieval over code from outside the training sources (see `search_corpus.ts`).
 *
 * Fusion weights are tuned on the `dev` half of the queries; figures are printed for the
 * `test` half (and dev, for reference).
 *
 *   deno run -A bench/search_quality.ts [--corpus python,typescript] [--embedders use-lite]
 *     [--max-queries 400] [--tune] [--tune-bm25]
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { Project } from "../src/project/project.ts";
import { ProjectService } from "../src/service/service.ts";
import {
  DEFAULT_FUSION,
  fuse,
  type FusionParams,
  retrieve,
  type Retrieved,
} from "../src/search/hybrid.ts";
import { present } from "../src/search/present.ts";
import { type Bm25Params, DEFAULT_BM25 } from "../src/search/lexical.ts";
import { BENCH_DIR, CORPORA, type Corpus, type EvalQuery } from "./search_corpus.ts";
import { int8Recall } from "./search_latency.ts";

/** Rank (1-based) of the first result that holds the answer, 0 when not in the list. */
function rankOf(q: EvalQuery, items: Array<{ file: string; line: number; end_line: number }>) {
  const i = items.findIndex((it) =>
    it.file === q.file && it.line <= q.line && q.line <= it.end_line
  );
  return i + 1;
}

/** MRR@10 and Recall@5 of ranks. */
function metrics(ranks: number[]): { mrr: number; r5: number; n: number } {
  const n = ranks.length || 1;
  const mrr = ranks.reduce((a, r) => a + (r > 0 && r <= 10 ? 1 / r : 0), 0) / n;
  const r5 = ranks.filter((r) => r > 0 && r <= 5).length / n;
  return { mrr, r5, n: ranks.length };
}

const fmt = (x: number) => x.toFixed(3);

/** Opens (indexing if needed) the corpus with an embedder; waits for complete vectors. */
export async function openCorpus(
  corpus: Corpus,
  embedder: string,
): Promise<{ project: Project; vectorSeconds: number; chunks: number }> {
  const service = await ProjectService.open(corpus.root, {
    indexDir: `${BENCH_DIR}/idx-${corpus.name}-${embedder.replace(/[^\w.-]/g, "_")}`,
    embedder,
  });
  const project = service.project;
  const r = await project.reindex();
  const t0 = performance.now();
  let last = 0;
  const stop = service.subscribe((e) => {
    if (e.type === "progress" && e.progress.phase === "embed" && performance.now() - last > 15000) {
      last = performance.now();
      console.error(`  [${embedder}] vectors ${e.progress.filesDone}/${e.progress.filesTotal}`);
    }
  });
  const p = await service.vectors.settle();
  stop();
  if (p.state === "error") throw new Error(`embedding failed: ${p.error}`);
  return { project, vectorSeconds: (performance.now() - t0) / 1000, chunks: r.chunks };
}

type Row = { name: string; dev: ReturnType<typeof metrics>; test: ReturnType<typeof metrics> };

function evaluate(
  queries: EvalQuery[],
  retrieved: Retrieved[],
  fusion: FusionParams,
): Row["dev"] extends infer M ? { dev: M; test: M } : never {
  const dev: number[] = [];
  const test: number[] = [];
  queries.forEach((q, i) => {
    const items = present(retrieved[i], fuse(retrieved[i], fusion), 10);
    (q.split === "dev" ? dev : test).push(rankOf(q, items));
  });
  return { dev: metrics(dev), test: metrics(test) };
}

async function retrieveAll(
  project: Project,
  queries: EvalQuery[],
  mode: "lexical" | "dense" | "hybrid",
  bm25: Bm25Params = DEFAULT_BM25,
): Promise<Retrieved[]> {
  const out: Retrieved[] = [];
  for (const q of queries) {
    out.push(await retrieve(project, q.query, { top_k: 10, mode }, { ...DEFAULT_FUSION, bm25 }));
  }
  return out;
}

/** Coordinate search over BM25F field weights on the dev half (lexical mode). */
async function tuneBm25(project: Project, queries: EvalQuery[]): Promise<Bm25Params> {
  const dev = queries.filter((q) => q.split === "dev");
  const score = async (p: Bm25Params) => {
    const r = await retrieveAll(project, dev, "lexical", p);
    return evaluate(dev, r, { ...DEFAULT_FUSION, bm25: p }).dev.mrr;
  };
  let best: Bm25Params = DEFAULT_BM25;
  let bestScore = await score(best);
  console.log(`  bm25 start ${JSON.stringify(best)} dev MRR ${fmt(bestScore)}`);
  for (let round = 0; round < 2; round++) {
    for (let f = 0; f < 5; f++) {
      for (const factor of [0.5, 2]) {
        const weights = [...best.weights];
        weights[f] = Math.round(weights[f] * factor * 100) / 100;
        const cand = { ...best, weights };
        const s = await score(cand);
        if (s > bestScore + 1e-4) {
          best = cand;
          bestScore = s;
          console.log(`  bm25 weights ${JSON.stringify(weights)} dev MRR ${fmt(s)}`);
        }
      }
      for (const b of [0, 0.3, 0.6, 0.9]) {
        const bs = [...best.b];
        if (bs[f] === b) continue;
        bs[f] = b;
        const cand = { ...best, b: bs };
        const s = await score(cand);
        if (s > bestScore + 1e-4) {
          best = cand;
          bestScore = s;
          console.log(`  bm25 b ${JSON.stringify(bs)} dev MRR ${fmt(s)}`);
        }
      }
    }
    for (const k1 of [0.6, 0.9, 1.2, 1.6, 2.0]) {
      if (k1 === best.k1) continue;
      const cand = { ...best, k1 };
      const s = await score(cand);
      if (s > bestScore + 1e-4) {
        best = cand;
        bestScore = s;
        console.log(`  bm25 k1 ${k1} dev MRR ${fmt(s)}`);
      }
    }
  }
  console.log(`  bm25 best ${JSON.stringify(best)} dev MRR ${fmt(bestScore)}`);
  return best;
}

function printRows(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  console.log(
    `  ${"method".padEnd(44)} ${"MRR@10".padStart(7)} ${"R@5".padStart(6)}   (dev MRR@10, n)`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.name.padEnd(44)} ${fmt(r.test.mrr).padStart(7)} ${fmt(r.test.r5).padStart(6)}   (${
        fmt(r.dev.mrr)
      }, ${r.test.n}+${r.dev.n})`,
    );
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      corpus: { type: "string", default: "python,typescript" },
      embedders: { type: "string", default: "use-lite" },
      "max-queries": { type: "string", default: "400" },
      tune: { type: "boolean", default: false },
      "tune-bm25": { type: "boolean", default: false },
    },
  });
  const max = Number(values["max-queries"]);
  for (const name of values.corpus.split(",")) {
    const corpus = await CORPORA[name]();
    const queries = corpus.queries.slice(0, max);
    console.log(
      `\n== ${corpus.name} (${corpus.language}): ${queries.length} queries of ${corpus.queries.length} ` +
        `(test ${queries.filter((q) => q.split === "test").length}, dev ${
          queries.filter((q) => q.split === "dev").length
        })`,
    );
    const rows: Row[] = [];
    // Lexical alone needs no vectors.
    const lexProject = await openCorpus(corpus, "none");
    let bm25 = DEFAULT_BM25;
    if (values["tune-bm25"]) bm25 = await tuneBm25(lexProject.project, queries);
    const lexR = await retrieveAll(lexProject.project, queries, "lexical", bm25);
    rows.push({ name: "lexical (BM25F)", ...evaluate(queries, lexR, { ...DEFAULT_FUSION, bm25 }) });
    const t0 = performance.now();
    for (const q of queries.slice(0, 50)) {
      await retrieve(lexProject.project, q.query, { mode: "lexical" }, { ...DEFAULT_FUSION, bm25 });
    }
    console.log(
      `  lexical: ${lexProject.chunks} chunks; ${
        ((performance.now() - t0) / 50).toFixed(1)
      } ms/query`,
    );
    lexProject.project.close();

    for (const embedder of values.embedders.split(",").filter(Boolean)) {
      const { project, vectorSeconds, chunks } = await openCorpus(corpus, embedder);
      console.log(
        `  ${embedder}: vectors complete for ${chunks} chunks ${
          vectorSeconds.toFixed(1)
        } s after the index`,
      );
      console.log(`  ${await int8Recall(project, queries.slice(0, 200).map((q) => q.query))}`);
      const denseR = await retrieveAll(project, queries, "dense", bm25);
      rows.push({ name: `dense (${embedder})`, ...evaluate(queries, denseR, DEFAULT_FUSION) });
      const hybR = await retrieveAll(project, queries, "hybrid", bm25);
      const base = { ...DEFAULT_FUSION, bm25 };
      rows.push({
        name: `hybrid weighted (${embedder}, default)`,
        ...evaluate(queries, hybR, base),
      });
      rows.push({
        name: `hybrid RRF k=60 (${embedder})`,
        ...evaluate(queries, hybR, { ...base, method: "rrf", rrfK: 60, nameBoost: 0 }),
      });
      if (values.tune) {
        let best: { f: FusionParams; dev: number } | null = null;
        let bestRrf: { f: FusionParams; dev: number } | null = null;
        for (const nameBoost of [0, 0.05, 0.1, 0.2, 0.4]) {
          for (let w = 0.2; w <= 1.0001; w += 0.1) {
            const f = { ...base, lexicalWeight: Math.round(w * 10) / 10, nameBoost };
            const dev = evaluate(queries, hybR, f).dev.mrr;
            if (!best || dev > best.dev) best = { f, dev };
          }
          for (const rrfK of [5, 10, 20, 60]) {
            const f = { ...base, method: "rrf" as const, rrfK, nameBoost };
            const dev = evaluate(queries, hybR, f).dev.mrr;
            if (!bestRrf || dev > bestRrf.dev) bestRrf = { f, dev };
          }
        }
        rows.push({
          name: `hybrid weighted tuned w=${best!.f.lexicalWeight} boost=${best!.f.nameBoost}`,
          ...evaluate(queries, hybR, best!.f),
        });
        rows.push({
          name: `hybrid RRF tuned k=${bestRrf!.f.rrfK} boost=${bestRrf!.f.nameBoost}`,
          ...evaluate(queries, hybR, bestRrf!.f),
        });
      }
      project.close();
    }
    printRows(`${corpus.name}: test half (MRR@10, Recall@5)`, rows);
  }
}

if (import.meta.main) await main();
