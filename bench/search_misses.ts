/**
 * Why hybrid search misses, per language of one set of `search_vs_bm25.ts`: of the queries
 * with no hit in the top 10, how many had a result in the right file whose chunk holds the
 * answer (the right chunk, the wrong member: pointing), a result in the right file elsewhere,
 * or nothing in the right file. `--show N` prints N misses of the first two kinds with their
 * chunks. `--pointing`: pointing alone, over every query of each corpus (see `pointing`).
 *
 *   deno run -A bench/search_misses.ts [--sets tune] [--languages javascript,…] [--show 0]
 *     [--pointing]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { buildCorpus, LANGUAGES, openCorpus, rankOf, type SetName } from "./search_vs_bm25.ts";
import { fuse, retrieve } from "../src/search/hybrid.ts";
import { present } from "../src/search/present.ts";
import { chunkSymbol } from "../src/search/table.ts";
import { pointAtMember } from "../src/search/members.ts";

/**
 * Pointing alone: over every query of a corpus whose answer lies in a chunk that holds
 * other definitions too, how often the member the query points at is the answer (the
 * first `show` wrong ones printed).
 */
async function pointing(set: SetName, language: string, show: number): Promise<[number, number]> {
  const c = await buildCorpus(set, language, Number.MAX_SAFE_INTEGER);
  const p = await openCorpus(c, "codectx-code");
  let n = 0, right = 0;
  for (const q of c.queries) {
    const r = await retrieve(p, q.query, { top_k: 10, mode: "hybrid" });
    const f = r.table.files.find((x) => x.path === q.file);
    if (!f) continue;
    const symbols = r.table.index.symbolsByFile.get(q.file) ?? [];
    for (let i = f.start; i < f.end; i++) {
      const ch = r.table.chunks[i];
      if (ch.startLine > q.line || q.line > ch.endLine) continue;
      const inside = symbols.filter((s) =>
        s.startLine >= ch.startLine && s.endLine <= ch.endLine &&
        ["function", "method", "constructor", "class"].includes(s.kind)
      );
      if (inside.length < 2) continue;
      n++;
      const at = pointAtMember(ch, chunkSymbol(r.table, i), symbols, r.termWeight, r.similarity);
      if (at.line >= q.startLine && at.line <= q.endLine) right++;
      else if (n - right <= show) {
        console.log(
          `${q.query} | answer ${q.symbol} ${q.startLine}-${q.endLine} | chunk ${ch.startLine}-${ch.endLine} ${ch.symbol} | got ${at.symbol} ${at.line}-${at.endLine}`,
        );
      }
    }
  }
  p.close();
  return [right, n];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      sets: { type: "string", default: "tune" },
      languages: { type: "string", default: LANGUAGES.join(",") },
      show: { type: "string", default: "0" },
      pointing: { type: "boolean", default: false },
      mode: { type: "string", default: "hybrid" },
    },
  });
  let shown = 0;
  if (values.pointing) {
    for (const set of values.sets.split(",") as SetName[]) {
      for (const language of values.languages.split(",")) {
        const [right, n] = await pointing(set, language, Number(values.show));
        console.log(
          `${set} ${language}: pointing right ${right}/${n} (${
            (right / Math.max(1, n) * 100).toFixed(1)
          } %)`,
        );
      }
    }
    return;
  }
  for (const set of values.sets.split(",") as SetName[]) {
    for (const language of values.languages.split(",")) {
      const c = await buildCorpus(set, language, 150);
      const p = await openCorpus(c, "codectx-code");
      let miss = 0, pointing = 0, sameFile = 0, elsewhere = 0, hits = 0;
      for (const q of c.queries) {
        const mode = values.mode as "hybrid" | "lexical";
        const r = await retrieve(p, q.query, { top_k: 10, mode });
        const scored = fuse(r, undefined, 20);
        const items = present(r, scored, 10);
        if (rankOf(q, items) > 0) {
          hits++;
          continue;
        }
        miss++;
        // Rows of the answer's file whose chunk holds the answer's name line.
        const answerRows = new Set<number>();
        for (const f of r.table.files) {
          if (f.path !== q.file) continue;
          for (let i = f.start; i < f.end; i++) {
            const ch = r.table.chunks[i];
            if (ch.startLine <= q.line && q.line <= ch.endLine) answerRows.add(i);
          }
        }
        const ranked = [...scored].sort((a, b) => b[1] - a[1]).slice(0, 10);
        const hitRow = ranked.find(([row]) => answerRows.has(row));
        if (hitRow) {
          pointing++;
          if (shown < Number(values.show)) {
            shown++;
            const ch = r.table.chunks[hitRow[0]];
            const it = items.find((x) => x.file === q.file);
            console.log(
              `--- ${q.query}\n answer ${q.symbol} ${q.startLine}-${q.endLine}; chunk ${ch.startLine}-${ch.endLine} ${ch.kind} ${ch.symbol}; item ${it?.line}-${it?.end_line} ${it?.symbol} ${it?.kind}`,
            );
          }
        } else if (items.some((it) => it.file === q.file)) {
          sameFile++;
          if (shown < Number(values.show)) {
            shown++;
            const rows = [...answerRows].map((a) => {
              const ch = r.table.chunks[a];
              const rank = [...scored].sort((x, y) => y[1] - x[1]).findIndex(([row]) => row === a);
              return `${ch.startLine}-${ch.endLine} ${ch.kind} ${ch.symbol} fused rank ${rank}`;
            });
            const got = items.filter((it) => it.file === q.file).map((it) =>
              `#${items.indexOf(it) + 1} ${it.line}-${it.end_line} ${it.symbol}`
            );
            console.log(
              `--- ${q.query}\n answer ${q.symbol} ${q.startLine}-${q.endLine} in ${
                rows.join("; ")
              }\n got ${got.join("; ")}`,
            );
          }
        } else elsewhere++;
      }
      console.log(
        `${set} ${language}: ${hits} hits, ${miss} misses: right chunk wrong member ${pointing}, ` +
          `right file other chunk ${sameFile}, file not in top 10 ${elsewhere}`,
      );
      p.close();
    }
  }
}

if (import.meta.main) await main();
