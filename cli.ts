#!/usr/bin/env -S deno run -A
/**
 * codectx command line: `codectx <command> [options]`.
 *
 * Each command parses its own options with `node:util` `parseArgs`; an unknown command or
 * option is a one-line error and exit code 2.
 */

import { cmdQuality, cmdValidate } from "./src/analysis/command.ts";
import { cmdServe } from "./src/bridge/command.ts";
import { openProject, parse, UsageError } from "./src/cli/args.ts";
import { cmdAsk, cmdContext, cmdExplain, cmdSummary } from "./src/context/command.ts";
import { errorMessage } from "./src/errors.ts";
import { cmdCalls, cmdDeps, cmdRefs } from "./src/graph/command.ts";
import type { IndexProgress, IndexReport } from "./src/index/indexer.ts";
import { cmdMcp } from "./src/mcp/command.ts";
import { cmdModels, cmdSearch } from "./src/search/command.ts";
import { createExecutor } from "./src/tools/executor.ts";
import { TOOL_NAMES } from "./src/tools/registry.ts";
import { VERSION } from "./src/version.ts";
import { cmdWeb } from "./src/web/command.ts";

const HELP = `codectx ${VERSION} — local code intelligence

Usage: codectx <command> [options]

Commands:
  index    [--force] [--json]             index the project (incremental) and print a summary
  tool     NAME [--args JSON]             run one tool, print its JSON result
                                          tools: ${TOOL_NAMES.join(", ")}
  search   "QUERY" [--top-k N] [--mode hybrid|lexical|dense] [--threshold X]
           [--path-prefix DIR] [--language L] [--embedder E] [--no-wait] [--json]
  refs     NAME [--file F] [--limit N] [--json]        references to a symbol
  deps     [FILE] [--json]                              imports of a file, or the whole graph
  calls    NAME [--depth 1-5] [--file F] [--mermaid] [--json]   callers and callees
  explain  NAME [--file F] [--json]                     a symbol: source, doc, callers, callees
  context  NAME [--file F] [--max-tokens N] [--json]    a context window packed to a budget
  summary  [--json]                                     the repository in ~1,500 tokens
  ask      "QUESTION" [--top-k N] [--json]              an answer grounded in the code
  quality  [PATH] [--json] [--max-issues N] [--min-severity S] [--top N] [--fail-on S]
  validate FILE|- [--language L] [--file-path P] [--json]
  models   pull ID                                      the one command that downloads
  serve    [--host|-h H] [--port|-p N]        JSON/HTTP bridge (default 127.0.0.1:24842)
  web      [--host H] [--port N]              REST API and web page (default port 24843)
  mcp      [--http --port N]                  MCP server over stdio (or Streamable HTTP)
           serve, web and mcp --http also take: --token T (required for a non-loopback
           --host; or CODECTX_TOKEN), --allow-origin O (repeatable; '*' allows any),
           --max-body BYTES (default 1 MiB), --no-watch (do not re-index on changes)

Options for every command:
  --path DIR        project root (default: current directory)
  --index-dir DIR   where the index lives (default: $CODECTX_HOME, $XDG_CACHE_HOME/codectx or ~/.cache/codectx)
  --help            this help
  --version         the version
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
      if (p.phase !== "done") console.error(`${p.phase}: ${p.filesDone}/${p.filesTotal}`);
      lastPhase = p.phase;
      lastDecile = decile;
    }
  };
}

/** `indexed 1812 files (python 1790, markdown 22), 25410 chunks, 41022 symbols in 8.1 s`. */
function summaryLine(r: IndexReport): string {
  const langs = Object.entries(r.languages).sort((a, b) => b[1] - a[1]).map(([l, n]) => `${l} ${n}`)
    .join(", ");
  const parts = [
    `indexed ${r.files} files${
      langs ? ` (${langs})` : ""
    }, ${r.chunks} chunks, ${r.symbols} symbols in ${(r.elapsedMs / 1000).toFixed(2)} s`,
    `${r.changed} changed (${r.added} added, ${r.modified} modified, ${r.deleted} deleted), ${r.parsed} parsed`,
  ];
  if (r.skipped) parts.push(`${r.skipped} skipped`);
  if (r.errors.length) {
    parts.push(
      `${r.errors.length} with parse errors (first: ${r.errors[0].file}: ${r.errors[0].error})`,
    );
  }
  return parts.join("; ");
}

async function cmdIndex(args: string[]): Promise<number> {
  const { values } = parse(args, { json: { type: "boolean" }, force: { type: "boolean" } });
  if (values.help) return help();
  const project = await openProject(values);
  try {
    const stop = values.json ? () => {} : project.listen((e) => {
      if (e.type === "progress") printer(e.progress);
    });
    const printer = progressPrinter();
    const report = await project.reindex({ force: Boolean(values.force) });
    stop();
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else console.log(summaryLine(report));
    return 0;
  } finally {
    project.close();
  }
}

async function cmdTool(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { args: { type: "string" } }, 1);
  if (values.help) return help();
  const name = positionals[0];
  if (!name) throw new UsageError(`tool needs a NAME; tools: ${TOOL_NAMES.join(", ")}`);
  let parsedArgs: unknown = {};
  if (values.args !== undefined) {
    try {
      parsedArgs = JSON.parse(values.args as string);
    } catch (err) {
      throw new UsageError(`--args is not valid JSON: ${errorMessage(err)}`);
    }
  }
  const project = await openProject(values);
  const executor = await createExecutor(project);
  try {
    const result = await executor.execute({ tool_name: name, arguments: parsedArgs }, {
      source: "cli",
    });
    console.log(JSON.stringify({ tool_name: name, ...result }, null, 2));
    return result.success ? 0 : 1;
  } finally {
    executor.close();
  }
}

function help(): number {
  console.log(HELP);
  return 0;
}

/** Commands by name; surfaces register theirs here. */
const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  index: cmdIndex,
  tool: cmdTool,
  serve: cmdServe,
  web: cmdWeb,
  mcp: cmdMcp,
  explain: cmdExplain,
  context: cmdContext,
  summary: cmdSummary,
  ask: cmdAsk,
  quality: cmdQuality,
  validate: cmdValidate,
  search: cmdSearch,
  models: cmdModels,
  refs: cmdRefs,
  deps: cmdDeps,
  calls: cmdCalls,
};

/** Runs the CLI on `argv`, returning the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === "--help" || cmd === "help") return help();
  if (cmd === "--version" || cmd === "-V") {
    console.log(`codectx ${VERSION}`);
    return 0;
  }
  const run = COMMANDS[cmd];
  try {
    if (!run) {
      throw new UsageError(
        cmd.startsWith("-")
          ? `unknown option '${cmd}'; see codectx --help`
          : `unknown command '${cmd}'; see codectx --help`,
      );
    }
    return await run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`codectx: ${err.message}`);
      return 2;
    }
    console.error(`codectx: ${errorMessage(err)}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
