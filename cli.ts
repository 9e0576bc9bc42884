#!/usr/bin/env -S deno run -A
/**
 * codectx command line: `codectx <command> [options]`.
 *
 * Each command parses its own options with `node:util` `parseArgs`; an unknown command or
 * option is a one-line error and exit code 2.
 */

import { UsageError } from "./src/cli/args.ts";
import { errorMessage } from "./src/errors.ts";
import { TOOL_ENTRIES } from "./src/tools/tool_index.ts";
import { VERSION } from "./src/version.ts";

/** The tools that have a command of their own (`codectx refs` runs find_references). */
const TOOL_COMMANDS = TOOL_ENTRIES.filter((e) => e.command !== undefined);

/** A command's line in the help: its arguments, then what it answers, in one column. */
function helpLine(command: string, args: string, answer: string): string {
  return `  ${`${command} ${args}`.trimEnd().padEnd(17)} ${answer}`;
}

/** The tool commands on the help's first screen: those an assistant answers with (issue 35). */
const FIRST_SCREEN = new Set(["explain", "refs", "deps"]);

/**
 * The help: what each command an assistant answers with does, a line each; the others named on
 * one line (an assistant reads it once a session, so it is short; each command's options are in
 * `codectx COMMAND --help`). The tool commands' lines come from their tools (`synopsis`:
 * arguments, two spaces, what it answers), loaded for it.
 */
async function helpText(): Promise<string> {
  const first = TOOL_COMMANDS.filter((e) => FIRST_SCREEN.has(e.command!));
  const tools = await Promise.all(first.map((e) => e.load()));
  const lines = tools.map((t) => {
    const [args, answer] = t.cli!.synopsis.split(/ {2,}/);
    return helpLine(t.cli!.command, args, answer);
  }).join("\n");
  const also = TOOL_COMMANDS.filter((e) => !FIRST_SCREEN.has(e.command!)).map((e) => e.command);
  return `codectx ${VERSION} — answers about code from a local index
Usage: codectx <command> [ARGS] [--path DIR] [--json]
${helpLine("search", '"QUERY"', "code by meaning: where X is handled, where to add Y")}
  search "TEXT" --mode exact|regex  where a text is: path:line a hit
${lines}
Also: ${
    [...also, "index"].join(", ")
  }, tool, quality, validate, serve, web, mcp, setup, doctor, models;
options: codectx COMMAND --help.
Read lines: codectx show FILE:A-B, or FILE:N (N under its if/loop lines)
`;
}

async function help(): Promise<number> {
  console.log(await helpText());
  return 0;
}

type Command = (args: string[]) => Promise<number>;

/**
 * The `mcp` command's module, named by a URL Deno's module graph does not follow: a literal
 * `import()` puts the MCP SDK (~90 npm packages) in the graph of every `deno run cli.ts`, and
 * Deno fetches a graph's packages before it runs. The quick start (`deno task --config
 * light.json serve`) fetches only `light.lock`'s packages; `deno.lock` (`deno install`, `deno
 * task mcp`, `install:cli`, the tests) holds the SDK too, and `deno task compile` includes this
 * module.
 */
const MCP_COMMAND = new URL("./src/cli/mcp.ts", import.meta.url).href;

/**
 * Commands by name, each loaded when it runs: `index` does not load the MCP SDK or the HTTP
 * server, and no command loads an embedder it does not use.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  index: async () => (await import("./src/cli/index.ts")).cmdIndex,
  tool: async () => (await import("./src/cli/tool.ts")).cmdTool,
  serve: async () => (await import("./src/cli/serve.ts")).cmdServe,
  web: async () => (await import("./src/cli/web.ts")).cmdWeb,
  mcp: async () => ((await import(MCP_COMMAND)) as { cmdMcp: Command }).cmdMcp,
  setup: async () => (await import("./src/cli/setup.ts")).cmdSetup,
  quality: async () => (await import("./src/cli/analysis.ts")).cmdQuality,
  validate: async () => (await import("./src/cli/analysis.ts")).cmdValidate,
  search: async () => (await import("./src/cli/search.ts")).cmdSearch,
  models: async () => (await import("./src/cli/search.ts")).cmdModels,
  doctor: async () => (await import("./src/cli/doctor.ts")).cmdDoctor,
  show: async () => (await import("./src/cli/show.ts")).cmdShow,
  ...Object.fromEntries(TOOL_COMMANDS.map((e) => [
    e.command!,
    async () => (await import("./src/cli/tool_command.ts")).toolCommand(await e.load()),
  ])),
  // `summary FILE`: the file's outline (summarize_repo takes no arguments).
  summary: async () => (await import("./src/cli/summary.ts")).cmdSummary,
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
