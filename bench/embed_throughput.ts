/**
 * Embedding throughput (chunks/s per embedder, one thread, batches of 64, on chunks of the
 * Python standard library) and the time until the standard library's vectors are complete
 * from an empty vector cache (in the background worker, as a server does it).
 *
 *   deno run -A bench/embed_throughput.ts [--embedders use-lite,transformers:<folder>]
 *     [--sample 1000] [--complete use-lite]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { resolveEmbedder } from "../src/search/providers.ts";
import { chunkTable } from "../src/search/table.ts";
import { chunkDocument } from "../src/search/vector_sync.ts";
import { BENCH_DIR } from "./search_corpus.ts";
import { openStdlib } from "./search_latency.ts";

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      embedders: { type: "string", default: "use-lite" },
      sample: { type: "string", default: "1000" },
      complete: { type: "string", default: "use-lite" },
    },
  });
  const sample = Number(values.sample);
  const lexical = await openStdlib("none");
  await lexical.project.reindex();
  const table = await chunkTable(lexical.project);
  const step = Math.max(1, Math.floor(table.chunks.length / sample));
  const rows = Array.from({ length: Math.min(sample, table.chunks.length) }, (_, i) => i * step);
  const docs = rows.map((r) => chunkDocument(table, r));
  await lexical.close();

  for (const spec of values.embedders.split(",").filter(Boolean)) {
    const choice = (await resolveEmbedder(spec))!;
    const t0 = performance.now();
    const model = await choice.provider.load(choice.arg);
    const load = performance.now() - t0;
    const texts = docs.map((d) => choice.provider.documentText(d));
    await model.embed(texts.slice(0, 64)); // warm up
    const t1 = performance.now();
    for (let i = 0; i < texts.length; i += 64) await model.embed(texts.slice(i, i + 64));
    const s = (performance.now() - t1) / 1000;
    const words = texts.reduce((a, t) => a + t.split(/\s+/).length, 0) / texts.length;
    console.log(
      `${choice.id}: ${(texts.length / s).toFixed(0)} chunks/s (${texts.length} chunks, ` +
        `${words.toFixed(0)} words each on average; load ${load.toFixed(0)} ms)`,
    );
    model.close?.();
  }

  for (const spec of values.complete.split(",").filter(Boolean)) {
    const dir = `${BENCH_DIR}/idx-stdlib-${spec.replace(/[^\w.-]/g, "_")}`;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    const service = await openStdlib(spec);
    const t0 = performance.now();
    const r = await service.project.reindex();
    const indexed = performance.now();
    const v = await service.vectors.settle();
    const end = performance.now();
    console.log(
      `${v.embedder}: stdlib ${r.chunks} chunks; index ${((indexed - t0) / 1000).toFixed(1)} s, ` +
        `vectors complete ${((end - indexed) / 1000).toFixed(1)} s later ` +
        `(${
          (v.embedded / ((end - indexed) / 1000)).toFixed(0)
        } chunks/s in the background worker; ${v.state})`,
    );
    await service.close();
  }
}

if (import.meta.main) await main();
