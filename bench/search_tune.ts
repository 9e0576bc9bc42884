/**
 * Tunes search parameters on the tuning set of `search_vs_bm25.ts` (all six languages at
 * once; the held-out set is never opened here): prints the mean and per-language MRR@10
 * of lexical and hybrid search for each candidate setting.
 *
 *   deno run -A bench/search_tune.ts [--queries 150] [--from 0] [--grid all|default,kinds,…]
 *     [--rerank FILE]
 *
 * `--grid default` prints the shipped setting alone, lexical, dense and hybrid (with `--from 750
 * --queries 300`: the check on each language's unused queries). `--rerank FILE`: every setting with
 * the second stage in FILE (a model `bench/search_rerank.ts` printed, as JSON) instead of the
 * shipped one.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { DEFAULT_FUSION, type FusionParams } from "../src/search/hybrid.ts";
import { DEFAULT_BM25 } from "../src/search/lexical.ts";
import type { RerankModel } from "../src/search/rerank.ts";
import { LANGUAGES, mrrPerCorpus, openTuningSet } from "./search_vs_bm25.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    queries: { type: "string", default: "150" },
    grid: { type: "string", default: "all" },
    from: { type: "string", default: "0" },
    rerank: { type: "string" },
  },
});

/** The second stage every setting uses: the shipped one, or `--rerank FILE`'s. */
const SECOND: RerankModel | null = values.rerank
  ? JSON.parse(await Deno.readTextFile(values.rerank))
  : null;
const SHIPPED: FusionParams = SECOND ? { ...DEFAULT_FUSION, rerank: SECOND } : DEFAULT_FUSION;

const opened = await openTuningSet(Number(values.queries), "codectx-code", Number(values.from));

/** Mean MRR@10 over languages, and per language, of one mode and setting. */
async function score(
  mode: "lexical" | "dense" | "hybrid",
  f: FusionParams,
): Promise<[number, number[]]> {
  const per = await mrrPerCorpus(opened, mode, f);
  return [per.reduce((a, x) => a + x, 0) / per.length, per];
}

const show = async (name: string, mode: "lexical" | "dense" | "hybrid", f: FusionParams) => {
  const [m, per] = await score(mode, f);
  console.log(
    `${mode.padEnd(7)} ${name.padEnd(48)} mean ${m.toFixed(3)}  ${
      per.map((x) => x.toFixed(3)).join(" ")
    }`,
  );
  return m;
};

console.log(`languages: ${LANGUAGES.join(" ")}`);
const grids: Record<string, Array<[string, FusionParams]>> = {
  default: [["shipped", SHIPPED]],
  kinds: [[0.5, 1], [0.5, 0.8], [0.5, 0.6], [0.5, 0.4]].map(([l, t]): [string, FusionParams] => [
    `loose ${l} type/interface ${t}`,
    { ...SHIPPED, kindWeights: { "": l, type: t, interface: t } },
  ]),
  boost: [0, 0.1, 0.2, 0.3, 0.5].map((b): [string, FusionParams] => [
    `name boost ${b} (lexical) / ${b + 0.1} (hybrid)`,
    { ...SHIPPED, lexicalNameBoost: b, nameBoost: b + 0.1 },
  ]),
  bm25: [
    ["default", SHIPPED],
    ...[[1.2, 0.75], [1.2, 0.5], [2, 0.5], [2, 0.75], [1.2, 0.9]].map((
      [k1, b],
    ): [string, FusionParams] => [
      `k1 ${k1} b ${b}`,
      {
        ...SHIPPED,
        bm25: { ...DEFAULT_BM25, k1, b: DEFAULT_BM25.b.map((x, i) => i === 4 ? x : b) },
      },
    ]),
  ],
  weights: [[1.5, 3, 1, 1, 1.5], [1, 1, 1, 1, 1], [2, 1, 1, 1, 1], [1.5, 1.5, 1, 1, 1.5], [
    3,
    3,
    1,
    1,
    1.5,
  ]].map((w): [string, FusionParams] => [
    `weights ${w}`,
    { ...SHIPPED, bm25: { ...DEFAULT_BM25, weights: w } },
  ]),
  fusion: [0.5, 0.6, 0.7, 0.8, 0.9].flatMap((w) =>
    [0, 0.1, 0.2].map((
      nb,
    ): [string, FusionParams] => [`w ${w} nameBoost ${nb}`, {
      ...SHIPPED,
      lexicalWeight: w,
      nameBoost: nb,
    }])
  ),
};
for (const [g, list] of Object.entries(grids)) {
  if (values.grid !== "all" && !values.grid.split(",").includes(g)) continue;
  console.log(`\n# ${g}`);
  for (const [name, f] of list) {
    if (g !== "fusion") await show(name, "lexical", f);
    if (g === "default") await show(name, "dense", f);
    if (["fusion", "kinds", "boost", "default"].includes(g)) await show(name, "hybrid", f);
  }
}
for (const { p } of opened) p.close();
