/**
 * Dense search recall: how much of the exact answer the server's dense side keeps. The
 * exact answer is the float32 scan of every vector (as stored); measured against it are
 * the int8 full scan and the sealed int8 index (`FlatVectorIndex.nearest`: rows ranked by
 * sign codes, the best `shortlist` scored exactly) at several shortlist sizes: recall@10
 * and recall@200 (the candidates hybrid search fuses), rows scored exactly and time per
 * query.
 *
 * Queries are the words of the project's own function and class names ("parse header
 * line"), split by a hash into a development half (used to choose `MIN_SHORTLIST`) and a
 * held-out half, reported on its own and never tuned on.
 *
 *   deno run -A bench/dense_recall.ts [--path DIR] [--index-dir DIR] [--queries 400]
 *
 * Default corpus: this machine's Python standard library (`site-packages` excluded),
 * indexed into a temporary folder unless `--index-dir` names one to reuse.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { ProjectService } from "../src/service/service.ts";
import { chunkTable } from "../src/search/table.ts";
import { readAllBlocks } from "../src/search/vector_store.ts";
import { FlatVectorIndex } from "../src/search/vectors.ts";
import { MIN_SHORTLIST } from "../src/search/vectors.ts";
import { inProcessEmbedder } from "../src/search/providers.ts";
import { textHash } from "../src/search/vector_store.ts";
import { pythonStdlib } from "./search_corpus.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    path: { type: "string" },
    "index-dir": { type: "string" },
    queries: { type: "string" },
  },
});

const loadavg = () => Deno.readTextFileSync("/proc/loadavg").trim();
const root = values.path ?? (await pythonStdlib());
const tempDir = values["index-dir"] ? null : await Deno.makeTempDir({ prefix: "codectx-dense-" });
const indexDir = values["index-dir"] ?? tempDir!;
const perSet = Number(values.queries ?? 400);

/** Query strings from the names defined in the project (two words or more). */
async function nameQueries(dir: string): Promise<string[]> {
  const names = new Set<string>();
  const def = /^\s*(?:async\s+)?(?:def|class|function)\s+([A-Za-z_][A-Za-z0-9_]*)/gm;
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      if (e.name.startsWith(".") || e.name === "site-packages" || e.name === "__pycache__") {
        continue;
      }
      const p = `${d}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (/\.(py|js|ts)$/.test(e.name)) {
        for (const m of (await Deno.readTextFile(p).catch(() => "")).matchAll(def)) names.add(m[1]);
      }
    }
  };
  await walk(dir);
  const out = new Set<string>();
  for (const n of names) {
    const w = n.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[^A-Za-z]+/)
      .map((x) => x.toLowerCase()).filter((x) => x.length > 1);
    if (w.length >= 2) out.add(w.join(" "));
  }
  return [...out].sort((a, b) => (textHash(a) < textHash(b) ? -1 : 1));
}

console.log(`dense recall on ${root}; loadavg ${loadavg()}`);
const service = await ProjectService.open(root, { indexDir, exclude: ["site-packages/"] });
try {
  const project = service.project;
  if ((await project.store.currentGeneration()) === null) await project.reindex();
  const progress = await service.vectorsReady();
  const table = await chunkTable(project);
  const gv = service.vectors.vectorsFor(table);
  if (!gv || progress.state !== "complete") throw new Error(`vectors ${progress.state}`);
  const rows = table.chunks.length;
  const dims = gv.index.dimensions;
  // The exact side: float32 as stored.
  const exact = new FlatVectorIndex(rows, dims, "float32");
  const byBlob = new Map(table.files.map((f) => [f.blob, f]));
  for await (const block of readAllBlocks(project.store, gv.choice.id)) {
    const f = byBlob.get(block.blob);
    if (!f || block.hashes.length !== f.end - f.start) continue;
    for (let r = f.start; r < f.end; r++) {
      exact.set(r, block.vectors.subarray((r - f.start) * dims, (r - f.start + 1) * dims));
    }
  }
  const int8 = gv.index; // the server's own index: int8, sealed when complete
  const t0 = performance.now();
  if (!(await int8.seal())) throw new Error("the index could not be sealed");
  const buildMs = performance.now() - t0;
  console.log(
    `  index         ${rows} rows × ${dims}, ${exact.count} float32 from the store; int8 ${
      (int8.bytes / 2 ** 20).toFixed(1)
    } MiB (float32 ${(exact.bytes / 2 ** 20).toFixed(1)} MiB) + sign codes ${
      (rows * Math.ceil(dims / 64) * 8 / 2 ** 20).toFixed(1)
    } MiB, sealed in ${buildMs.toFixed(0)} ms (loadavg ${loadavg()})`,
  );
  const all = await nameQueries(root);
  const dev = all.filter((_, i) => i % 2 === 0).slice(0, perSet);
  const heldout = all.filter((_, i) => i % 2 === 1).slice(0, perSet);
  const model = await inProcessEmbedder(gv.choice);
  const embed = async (qs: string[]) =>
    await Promise.all(
      qs.map(async (q) => (await model.embed([gv.choice.provider.queryText?.(q) ?? q]))[0]),
    );

  const overlap = (a: number[], b: Set<number>) => a.filter((r) => b.has(r)).length;
  const measure = async (name: string, qs: string[], lists: (number | "flat")[]) => {
    const qvs = await embed(qs);
    const truth10 = qvs.map((q) => exact.search(q, 10).map((h) => h.row));
    const truth200 = qvs.map((q) => exact.search(q, 200).map((h) => h.row));
    console.log(`  ${name}: ${qs.length} queries (e.g. "${qs.slice(0, 2).join('", "')}")`);
    const out: Record<string, number> = {};
    for (const size of lists) {
      let r10 = 0, r200 = 0, scanned = 0;
      const t = performance.now();
      qvs.forEach((q, i) => {
        if (size === "flat") {
          const top = int8.search(q, 200).map((h) => h.row);
          r10 += overlap(truth10[i], new Set(top.slice(0, 10)));
          r200 += overlap(truth200[i], new Set(top));
          scanned += int8.count;
          return;
        }
        // The server asks for 200 (the fusion's candidates); recall@10 is read off the same
        // answer.
        const res = int8.nearest(q, 200, undefined, size);
        const top = res.top.map((h) => h.row);
        r10 += overlap(truth10[i], new Set(top.slice(0, 10)));
        r200 += overlap(truth200[i], new Set(top));
        scanned += res.scanned;
      });
      const ms = (performance.now() - t) / qvs.length;
      const recall10 = r10 / (10 * qvs.length);
      if (size !== "flat") out[size] = recall10;
      console.log(
        `    ${
          size === "flat" ? "int8 full scan    " : `shortlist ${String(size).padStart(6)}`
        }  recall@10 ${recall10.toFixed(4)}  recall@200 ${
          (r200 / (200 * qvs.length)).toFixed(4)
        }  rows scanned ${(scanned / qvs.length).toFixed(0)} (${
          ((scanned / qvs.length / int8.count) * 100).toFixed(1)
        }%)  ${ms.toFixed(2)} ms/query`,
      );
    }
    return out;
  };
  const sizes = [250, 500, 1000, 2000, 4000];
  const devRecall = await measure("development set", dev, ["flat", ...sizes]);
  const chosen = sizes.find((n) => devRecall[n] >= 0.99);
  const server = Math.max(MIN_SHORTLIST, 4 * 200);
  console.log(
    `  default       shortlist max(MIN_SHORTLIST ${MIN_SHORTLIST}, 4k) = ${server} for k 200; smallest with dev recall@10 ≥ .99: ${
      chosen ?? "none"
    }`,
  );
  await measure("held-out set (never tuned on)", heldout, ["flat", server]);
  console.log(`  loadavg       ${loadavg()}`);
} finally {
  await service.close();
  if (tempDir) await Deno.remove(tempDir, { recursive: true }).catch(() => {});
}
