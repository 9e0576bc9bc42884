/**
 * `codectx index`: brings the index up to date through the `index_project` tool (no time
 * limit: the user waits on purpose), with a progress bar on a terminal and a plain line per
 * phase otherwise; `--json` prints the tool's payload.
 *
 * @module
 */

import type { IndexProgress } from "../service/service.ts";
import { defined } from "../tools/executor.ts";
import { print } from "../tools/index_project/cli.ts";
import type { IndexPayload } from "../tools/index_project/schema.ts";
import { intOption, openExecutor, parse, runTool } from "./args.ts";
import { emit } from "./tool_command.ts";

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
    else emit(print(report));
    return 0;
  } finally {
    stop();
    await executor.close();
  }
}
