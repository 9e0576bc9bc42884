/**
 * How `codectx search` prints `semantic_search`'s payload: a ranked line per hit and its
 * first six lines; on standard error, how far the vectors were when the results are partly
 * lexical. (The command itself, which waits for the vectors, is `cli/search.ts`.)
 *
 * @module
 */

import type { CliOutput } from "../tool.ts";
import type { SemanticSearchPayload } from "./schema.ts";

/** The results as `codectx search` prints them. */
export function print(p: SemanticSearchPayload): CliOutput {
  const out: string[] = [];
  const err: string[] = [];
  if (p.snippets.length === 0) out.push("no results");
  p.snippets.forEach((s, i) => {
    const what = s.symbol ? `${s.kind ?? "symbol"} ${s.symbol}` : "";
    out.push(
      `${String(i + 1).padStart(2)}. ${
        s.score.toFixed(3)
      }  ${s.file}:${s.line}-${s.end_line}  ${what}`,
    );
    for (const line of s.snippet.split("\n").slice(0, 6)) out.push(`      ${line}`);
  });
  const v = p.vectors;
  if (v.state !== "complete" && v.state !== "off" && (p.mode === "hybrid" || p.mode === "dense")) {
    err.push(
      `codectx: vectors ${v.done}/${v.total} (${v.embedder}, ${v.state}${
        v.error ? `: ${v.error}` : ""
      }); results are partly lexical`,
    );
  }
  return { out, err };
}
