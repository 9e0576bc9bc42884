#!/usr/bin/env -S deno run -A
/**
 * codectx command line: `codectx <command> [options]`.
 *
 * Each command parses its own options with `node:util` `parseArgs`; an unknown command or
 * option is a one-line error and exit code 2.
 */

import { cmdQuality, cmdValidate } from "./src/cli/analysis.ts";
import { UsageError } from "./src/cli/args.ts";
import { cmdAsk, cmdContext, cmdExplain, cmdSummary } from "./src/cli/context.ts";
import { cmdDoctor } from "./src/cli/doctor.ts";
import { cmdCalls, cmdDeps, cmdRefs } from "./src/cli/graph.ts";
import { cmdIndex } from "./src/cli/index.ts";
import { cmdMcp } from "./src/cli/mcp.ts";
import { cmdModels, cmdSearch } from "./src/cli/search.ts";
import { cmdServe } from "./src/cli/serve.ts";
import { cmdSetup } from "./src/cli/setup.ts";
import { cmdTool } from "./src/cli/tool.ts";
import { cmdWeb } from "./src/cli/web.ts";
import { errorMessage } from "./src/errors.ts";
import { TOOL_NAMES } from "./src/tools/registry.ts";
import { VERSION } from "./src/version.ts";

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
  setup    CLIENT [--write] [--config-file F]   MCP entry for claude-desktop, claude-code,
                                          cursor, vscode or codex (--write merges it)
  doctor   [--json]                     check Deno, grammars, model, index folder, free space

Options for every command:
  --path DIR        project root (default: current directory)
  --index-dir DIR   where the index lives (default: $CODECTX_HOME, $XDG_CACHE_HOME/codectx or ~/.cache/codectx)
  --help            this help; 'codectx COMMAND --help' (or 'codectx help COMMAND') for one command
  --version         the version
`;

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
  setup: cmdSetup,
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
  doctor: cmdDoctor,
};

/** Runs the CLI on `argv`, returning the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === "--help") return help();
  if (cmd === "help") return rest[0] ? await main([rest[0], "--help"]) : help();
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

/** The command names `codectx` knows (each answers `--help`). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

if (import.meta.main) Deno.exit(await main(Deno.args));
