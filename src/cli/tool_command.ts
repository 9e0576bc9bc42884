/**
 * The commands that run one tool, built from the tool's own command declaration
 * (`tools/<name>/cli.ts`): its options parsed with `node:util` `parseArgs`, mapped to the
 * tool's arguments, the tool run through the executor, its payload printed by the tool's
 * printer (or as JSON with `--json`).
 *
 * @module
 */

import { errorMessage } from "../errors.ts";
import type { CliOutput, Tool } from "../tools/tool.ts";
import { intOption, type Options, parse, runTool, TOOL_COMMAND_HELP, UsageError } from "./args.ts";

/** Prints what a command printer made: its lines on standard output, then on standard error. */
export function emit(o: CliOutput): void {
  if (o.out.length) console.log(o.out.join("\n"));
  if (o.err?.length) console.error(o.err.join("\n"));
}

/** Standard input, or a file, as text (a usage error when it cannot be read). */
async function readText(path: string): Promise<string> {
  try {
    return path === "-"
      ? await new Response(Deno.stdin.readable).text()
      : await Deno.readTextFile(path);
  } catch (err) {
    throw new UsageError(`cannot read '${path}': ${errorMessage(err)}`);
  }
}

/** The tool's arguments from the parsed command line, as its command declares them. */
async function toolArgs(
  tool: Tool,
  values: Record<string, unknown>,
  positionals: string[],
): Promise<Record<string, unknown>> {
  const spec = tool.cli!;
  const args: Record<string, unknown> = {};
  const given = positionals[0];
  if (spec.positional) {
    if (spec.positional.missing && (given ?? "").trim() === "") {
      throw new UsageError(spec.positional.missing);
    }
    if (given) args[spec.positional.arg] = given;
  }
  for (const [name, o] of Object.entries(spec.options)) {
    const value = values[name];
    if (value === undefined || value === false || o.arg === undefined) continue;
    if (o.value !== undefined) args[o.arg] = o.value;
    else if (o.int) {
      const n = intOption(value, `--${name}`)!;
      const { min, max } = o.int;
      if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
        throw new UsageError(`--${name} must be between ${min} and ${max}, got ${n}`);
      }
      args[o.arg] = n;
    } else if (o.file) args[o.arg] = await readText(String(value));
    else if (o.list) args[o.arg] = String(value).split(",").map((s) => s.trim()).filter(Boolean);
    else args[o.arg] = value;
  }
  return args;
}

/**
 * The command of `tool` (which has one: `tool.cli`).
 *
 * @example
 * ```ts
 * const refs = toolCommand(findTool("find_references")!);
 * await refs(["parse_config", "--json"]);
 * ```
 */
export function toolCommand(tool: Tool): (args: string[]) => Promise<number> {
  const spec = tool.cli!;
  return async (argv) => {
    const options: Options = { json: { type: "boolean" } };
    for (const [name, o] of Object.entries(spec.options)) options[name] = { type: o.type };
    const { values, positionals } = parse(argv, options, spec.positional ? 1 : 0);
    if (values.help) {
      console.log(`${spec.help}${TOOL_COMMAND_HELP}\n`);
      return 0;
    }
    const args = await toolArgs(tool, values, positionals);
    const { payload, code } = await runTool(values, tool.name, args, { vectors: spec.vectors });
    if (code !== 0) return code;
    if (values.json) console.log(JSON.stringify(payload, null, 2));
    else emit(spec.print(payload, values));
    return 0;
  };
}
