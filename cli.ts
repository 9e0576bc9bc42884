#!/usr/bin/env -S deno run -A
/**
 * codectx command line: `codectx <command> [options]`.
 *
 * Each command parses its own options with `node:util` `parseArgs`; an unknown command or
 * option is a one-line error and exit code 2.
 */

import { UsageError } from "./src/cli/args.ts";
import { errorMessage } from "./src/errors.ts";
import { TOOL_ENTRIES, TOOL_NAMES } from "./src/tools/tool_index.ts";
import { VERSION } from "./src/version.ts";

/** The tools that have a command of their own (`codectx refs` runs find_references). */
const TOOL_COMMANDS = TOOL_ENTRIES.filter((e) => e.command !== undefined);

/** The help: the tool commands' lines come from their tools (loaded for it), in the registry's order. */
async function helpText(): Promise<string> {
  const tools = await Promise.all(TOOL_COMMANDS.map((e) => e.load()));
  const lines = tools.map((t) => `  ${t.cli!.command.padEnd(8)} ${t.cli!.synopsis}`)
    .join("\n");
  return `codectx ${VERSION} — local code intelligence

Usage: codectx <command> [options]

Commands:
  index    [--force] [--json] [--max-memory MIB]   index the project (incremental), print a summary
  tool     NAME [--args JSON]             run one tool, print its JSON result
                                          tools: ${TOOL_NAMES.join(", ")}
  search   "QUERY" [--top-k N] [--mode hybrid|lexical|dense|exact|regex] [--threshold X]
           [--scope code|docs|tests|all] [--include-tests] [--path-prefix DIR]
           [--language L] [--embedder E] [--no-wait] [--json]
${lines}
  quality  [PATH] [--json] [--max-issues N] [--min-severity S] [--top N] [--fail-on S]
  validate FILE|- [--language L] [--file-path P] [--json]
  models   pull ID                                      the one command that downloads
  serve    [--host|-h H] [--port|-p N] [--max-memory MIB]   JSON/HTTP bridge (127.0.0.1:24842)
  web      [--host H] [--port N]              REST API and web page (default port 24843)
  mcp      [--http --port N]                  MCP server over stdio (or Streamable HTTP)
           serve, web and mcp --http also take: --token T (required for a non-loopback
           --host; or CODECTX_TOKEN), --allow-origin O (repeatable; '*' = any, needs --token),
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
}

async function help(): Promise<number> {
  console.log(await helpText());
  return 0;
}

type Command = (args: string[]) => Promise<number>;

/**
 * Commands by name, each loaded when it runs: `index` does not load the MCP SDK or the HTTP
 * server, and no command loads an embedder it does not use.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  index: async () => (await import("./src/cli/index.ts")).cmdIndex,
  tool: async () => (await import("./src/cli/tool.ts")).cmdTool,
  serve: async () => (await import("./src/cli/serve.ts")).cmdServe,
  web: async () => (await import("./src/cli/web.ts")).cmdWeb,
  mcp: async () => (await import("./src/cli/mcp.ts")).cmdMcp,
  setup: async () => (await import("./src/cli/setup.ts")).cmdSetup,
  quality: async () => (await import("./src/cli/analysis.ts")).cmdQuality,
  validate: async () => (await import("./src/cli/analysis.ts")).cmdValidate,
  search: async () => (await import("./src/cli/search.ts")).cmdSearch,
  models: async () => (await import("./src/cli/search.ts")).cmdModels,
  doctor: async () => (await import("./src/cli/doctor.ts")).cmdDoctor,
  ...Object.fromEntries(TOOL_COMMANDS.map((e) => [
    e.command!,
    async () => (await import("./src/cli/tool_command.ts")).toolCommand(await e.load()),
  ])),
};

/** Runs the CLI on `argv`, returning the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === "--help") return await help();
  if (cmd === "help") return rest[0] ? await main([rest[0], "--help"]) : await help();
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
    return await (await run())(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      // Every usage error ends with where to look next.
      const hint = err.message.includes("--help") ? "" : `; see codectx ${cmd} --help`;
      console.error(`codectx: ${err.message}${hint}`);
      return 2;
    }
    console.error(`codectx: ${errorMessage(err)}`);
    return 1;
  }
}

/** The command names `codectx` knows (each answers `--help`). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

if (import.meta.main) Deno.exit(await main(Deno.args));
