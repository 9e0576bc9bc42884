/**
 * `codectx index`: brings the index up to date through the `index_project` tool (no time
 * limit: the user waits on purpose), with a progress bar on a terminal and a plain line per
 * phase otherwise; `--json` prints the tool's payload.
 *
 * @module
 */

import type { IndexProgress } from "../service/service.ts";
import { defined } from "../tools/executor.ts";
import type { IndexPayload } from "../tools/index_project.ts";
import { intOption, openExecutor, parse, runTool } from "./args.ts";

const HELP =
  `Usage: codectx index [--force] [--json] [--max-memory MIB] [--path DIR] [--index-dir DIR]

Indexes the project: only files changed since the last run are parsed again.
  --force           parse every file again
  --json            print the index_project payload
  --max-memory MIB  memory indexing may use (default 1024); past it the run stops and
                    the last complete index stays
  --path DIR        project root (default: current directory)
  --index-dir DIR   where the index lives
`;

/** A progress bar on a terminal, a line per phase otherwise. */
function progressPrinter(): (p: IndexProgress) => void {
  const tty = Deno.stderr.isTerminal();
  const enc = new TextEncoder();
  let lastPhase = "";
  let lastDecile = -1;
  return (p) => {
    if (tty) {
      const frac = p.filesTotal ? p.filesDone / p.filesTotal : p.phase === "done" ? 1 : 0;
      const width = 30;
      const fill = Math.round(frac * width);
      const bar = "█".repeat(fill) + "░".repeat(width - fill);
      const end = p.phase === "done" ? "\r\x1b[K" : "";
      Deno.stderr.writeSync(
        enc.encode(
          `\r\x1b[K${bar} ${
            String(Math.round(frac * 100)).padStart(3)
          }% ${p.phase} ${p.filesDone}/${p.filesTotal}${end}`,
        ),
      );
      return;
    }
    const decile = p.filesTotal ? Math.floor((p.filesDone / p.filesTotal) * 10) : 0;
    if (p.phase !== lastPhase || (p.phase === "parse" && decile !== lastDecile)) {
      // The walk counts nothing yet; another phase with nothing to count says nothing.
      if (p.phase === "walk") console.error("walking the tree");
      else if (p.phase !== "done" && p.filesTotal > 0) {
        console.error(`${p.phase}: ${p.filesDone}/${p.filesTotal}`);
      }
      lastPhase = p.phase;
      lastDecile = decile;
    }
  };
}

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

/** `codectx index [--force] [--json]`: the `index_project` tool, with progress on stderr. */
export async function cmdIndex(args: string[]): Promise<number> {
  const { values } = parse(args, {
    json: { type: "boolean" },
    force: { type: "boolean" },
    "max-memory": { type: "string" },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const maxMemoryMiB = intOption(values["max-memory"], "--max-memory");
  const executor = await openExecutor(values, { maxMemoryMiB });
  const printer = progressPrinter();
  const stop = values.json ? () => {} : executor.service.subscribe((e) => {
    if (e.type === "progress" && e.progress.phase !== "embed") printer(e.progress);
  });
  try {
    const { payload, code } = await runTool(
      values,
      "index_project",
      defined({
        force: values.force ? true : undefined,
      }),
      { executor, timeoutMs: 0 },
    );
    if (code !== 0) return code;
    const report = payload as unknown as IndexPayload;
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else console.log(summaryLine(report));
    return 0;
  } finally {
    stop();
    await executor.close();
  }
}
