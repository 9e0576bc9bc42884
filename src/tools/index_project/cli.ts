/**
 * How `codectx index` prints `index_project`'s payload: one summary line. (The command,
 * with its progress bar, is `cli/index.ts`.)
 *
 * @module
 */

import type { CliOutput } from "../tool.ts";
import type { IndexPayload } from "./schema.ts";

/** `indexed 1812 files (python 1790, markdown 22), 25410 chunks, 41022 symbols in 8.1 s`. */
function summaryLine(r: IndexPayload): string {
  const langs = Object.entries(r.languages).sort((a, b) => b[1] - a[1]).map(([l, n]) => `${l} ${n}`)
    .join(", ");
  const parts = [
    `indexed ${r.files} files${
      langs ? ` (${langs})` : ""
    }, ${r.chunks} chunks, ${r.symbols} symbols in ${(r.elapsed_ms / 1000).toFixed(2)} s`,
    `${r.changed} changed (${r.added} added, ${r.modified} modified, ${r.deleted} deleted), ${r.parsed} parsed`,
  ];
  if (r.skipped) {
    const reasons = new Map<string, number>();
    for (const f of r.skipped_files) reasons.set(f.reason, (reasons.get(f.reason) ?? 0) + 1);
    const why = [...reasons].map(([reason, n]) => `${reason} ${n}`).join(", ");
    parts.push(`${r.skipped} skipped${why ? ` (${why})` : ""}`);
  }
  const byDefault = r.skipped_files.filter((f) => f.reason === "default_skip").map((f) => f.file);
  if (byDefault.length) {
    const shown = byDefault.slice(0, 8).join(", ") + (byDefault.length > 8 ? ", …" : "");
    parts.push(
      `folders skipped by default: ${shown} (a \`!dir/\` line in .codectxignore indexes one)`,
    );
  }
  if (r.errors.length) {
    parts.push(
      `${r.errors.length} with parse errors (first: ${r.errors[0].file}: ${r.errors[0].error})`,
    );
  }
  return parts.join("; ");
}

/** The payload as `codectx index` prints it. */
export function print(r: IndexPayload): CliOutput {
  return { out: [summaryLine(r)] };
}
