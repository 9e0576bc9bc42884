/**
 * What a hybrid `semantic_search` call and its literal look-up cost in process, and what they
 * answer. The queries are the bridge load's (`load_queries.ts`: words of the project's own
 * names), sent one at a time through the executor; per round it prints the process's CPU
 * (every thread: the scan worker's too) per call, then the CPU of the literal look-up alone
 * (`literalLines` over the ranked answers of the same queries, made beforehand), how many
 * queries it scanned for and how many files those scans read. `--out FILE` writes one line per
 * query with the digest of its payload (timings left out): run it before and after a change on
 * the same index and `diff` the files.
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

/** A payload without what changes from run to run. */
function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (/(_ms|_at|^took|^elapsed|^uptime|^embedded$)/.test(k)) continue;
      out[k] = stable(x);
    }
    return out;
  }
  return v;
}

async function digest(text: string): Promise<string> {
  const h = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...h.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const queries = values.messages
  ? (await messageQueries(values.path, FROM + N)).slice(FROM)
  : await projectQueries(values.path, 200).then((names) =>
    Array.from({ length: N }, (_, i) => loadQuery(names, FROM + i))
  );
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
  console.log(`${N} queries (from ${FROM}), all → ${await digest(lines.join("\n"))}`);
  // The ranked answers the literal look-up starts from.
  const ranked: SemanticSearchPayload[] = [];
  for (const q of queries) {
    ranked.push(await searchProject(project, q, { top_k: 10 }) as SemanticSearchPayload);
  }
  const scanned = ranked.filter((r) =>
    literalText(r.query).split(/\s+/).length >= 3 && (r.snippets[0]?.score ?? 0) < 0.3
  ).length;
  console.log(`literal look-up scans for ${scanned} of ${N} queries`);
  for (let round = 1; round <= ROUNDS; round++) {
    let t0 = cpu();
    for (const q of queries) {
      await call(q);
    }
    let t1 = cpu();
    const perCall = ((t1.process - t0.process) * 1000) / N;
    const perCallMain = ((t1.thread - t0.thread) * 1000) / N;
    t0 = cpu();
    let led = 0;
    for (const r of ranked) {
      if ((await literalLines(project, r, {}, {})).length) {
        led++;
      }
    }
    t1 = cpu();
    console.log(
      `round ${round}: call ${perCall.toFixed(2)} ms CPU (main thread ${
        perCallMain.toFixed(2)
      }); literal look-up ${(((t1.process - t0.process) * 1000) / N).toFixed(2)} ms (main ${
        (((t1.thread - t0.thread) * 1000) / N).toFixed(2)
      }), lines led ${led}; load ${load()}`,
    );
  }
} finally {
  await ex.close();
}
