/**
 * What a hybrid `semantic_search` call and its literal look-up cost in process, and what they
 * answer. The queries are the bridge load's (`load_queries.ts`: words of the project's own
 * names), sent one at a time through the executor; per round it prints the process's CPU
 * (every thread: the scan worker's too) per call, then the CPU of the literal look-up alone
 * (`literalLines` over the ranked answers of other queries, made beforehand), and for how many
 * of them it scanned and led with lines. `--out FILE` writes one line per
 * query with the digest of its payload (timings left out): run it before and after a change on
 * the same index and `diff` the files. No query is sent twice in a run (V8 caches compiled
 * regular expressions by their text, and the bridge load's queries never repeat).
 *
 *   deno run -A bench/literal_cost.ts --path DIR --index-dir DIR [--queries 300] [--rounds 3]
 *     [--from 0] [--out FILE] [--messages]
 *
 * `--messages` sends the project's own error messages instead (`messageQueries`): queries the
 * literal look-up finds lines for.
 *
 * On a loaded machine compare CPU, not wall time, and alternate the two checkouts.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { digest, stable } from "./payload_digest.ts";
import { createExecutor } from "../src/tools/executor.ts";
import type { ProjectService } from "../src/service/service.ts";
import { searchProject } from "../src/search/hybrid.ts";
import { literalLines, literalText } from "../src/tools/semantic_search/literal.ts";
import type { SemanticSearchPayload } from "../src/tools/semantic_search/schema.ts";
import { loadQuery, messageQueries, projectQueries } from "./load_queries.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    path: { type: "string" },
    "index-dir": { type: "string" },
    queries: { type: "string", default: "300" },
    rounds: { type: "string", default: "3" },
    from: { type: "string", default: "0" },
    out: { type: "string" },
    messages: { type: "boolean", default: false },
  },
});
if (!values.path) {
  console.error("usage: deno run -A bench/literal_cost.ts --path DIR --index-dir DIR");
  Deno.exit(2);
}
const N = Number(values.queries);
const ROUNDS = Number(values.rounds);
const FROM = Number(values.from);

/** CPU seconds of this process (all threads) and of this thread, from /proc. */
function cpu(): { process: number; thread: number } {
  const ticks = (path: string) => {
    const f = Deno.readTextFileSync(path).split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) / 100;
  };
  return { process: ticks("/proc/self/stat"), thread: ticks("/proc/thread-self/stat") };
}

// Block 0 is answered (the digests); each round times the calls of one more block and the
// look-ups of another: no query is sent twice (V8 keeps the regular expressions it compiled).
const pool = values.messages
  ? (await messageQueries(values.path, FROM + N * (2 * ROUNDS + 1))).slice(FROM)
  : await projectQueries(values.path, 200).then((names) =>
    Array.from({ length: N * (2 * ROUNDS + 1) }, (_, i) => loadQuery(names, FROM + i))
  );
const block = (b: number) => pool.slice(b * N, (b + 1) * N);
const queries = block(0);
const ex = await createExecutor(values.path, { indexDir: values["index-dir"], timeoutMs: 0 });
const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
try {
  await ex.service.vectorsReady();
  const project = (ex.service as ProjectService).project;
  const call = async (query: string) => {
    const r = await ex.execute(
      { tool_name: "semantic_search", arguments: { query, top_k: 10 } },
      { timeoutMs: 0 },
    );
    if (!r.success) throw new Error(`${query}: ${JSON.stringify(r.error)}`);
    return r.result_payload;
  };
  // Warm-up, and the answers.
  const lines: string[] = [];
  for (const q of queries) {
    lines.push(`${q} → ${await digest(JSON.stringify(stable(await call(q))))}`);
  }
  if (values.out) await Deno.writeTextFile(values.out, lines.join("\n") + "\n");
  console.log(`${queries.length} queries (from ${FROM}), all → ${await digest(lines.join("\n"))}`);
  for (let round = 1; round <= ROUNDS; round++) {
    const calls = block(2 * round - 1);
    let t0 = cpu();
    for (const q of calls) await call(q);
    let t1 = cpu();
    const perCall = ((t1.process - t0.process) * 1000) / calls.length;
    const perCallMain = ((t1.thread - t0.thread) * 1000) / calls.length;
    // The ranked answers the literal look-up starts from (not timed).
    const ranked: SemanticSearchPayload[] = [];
    for (const q of block(2 * round)) {
      ranked.push(await searchProject(project, q, { top_k: 10 }) as SemanticSearchPayload);
    }
    const scanned = ranked.filter((r) =>
      literalText(r.query).split(/\s+/).length >= 3 && (r.snippets[0]?.score ?? 0) < 0.3
    ).length;
    t0 = cpu();
    let led = 0;
    for (const r of ranked) {
      if ((await literalLines(project, r, {}, {})).length) {
        led++;
      }
    }
    t1 = cpu();
    const n = Math.max(1, ranked.length);
    console.log(
      `round ${round}: call ${perCall.toFixed(2)} ms CPU (main thread ${
        perCallMain.toFixed(2)
      }); literal look-up ${(((t1.process - t0.process) * 1000) / n).toFixed(2)} ms (main ${
        (((t1.thread - t0.thread) * 1000) / n).toFixed(2)
      }) per query, ${scanned} of ${ranked.length} scanned, lines led ${led}; load ${load()}`,
    );
  }
} finally {
  await ex.close();
}
