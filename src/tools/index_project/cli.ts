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
  // Skipped by default: folders (named with how to index one) and files generated beside
  // their source (curl's `lib/Makefile`, written from `Makefile.in`).
  const byDefault = r.skipped_files.filter((f) => f.reason === "default_skip");
  const generated = byDefault.filter((f) => GENERATED.test(f.detail ?? ""));
  const folders = byDefault.filter((f) => !GENERATED.test(f.detail ?? "")).map((f) => f.file);
  const kinds = [];
  if (folders.length) {
    kinds.push(`folders ${listed(folders)} (a \`!dir/\` line in .codectxignore indexes one)`);
  }
  if (generated.length) {
    const named = generated.map((f) => `${f.file} (from ${GENERATED.exec(f.detail!)![1]})`);
    kinds.push(`generated files ${listed(named)}`);
  }
  if (kinds.length) parts.push(`skipped by default: ${kinds.join("; ")}`);
  if (r.errors.length) {
    parts.push(
      `${r.errors.length} with parse errors (first: ${r.errors[0].file}: ${r.errors[0].error})`,
    );
  }
  return parts.join("; ");
}

/** The walk's detail for a file generated beside its source, with the source's name. */
const GENERATED = /^generated from (\S+) beside it/;

/** The first eight of `names`, comma-separated, `…` for the rest. */
function listed(names: readonly string[]): string {
  return names.slice(0, 8).join(", ") + (names.length > 8 ? ", …" : "");
}

/** The payload as `codectx index` prints it. */
export function print(r: IndexPayload): CliOutput {
  return { out: [summaryLine(r)] };
}
