/**
 * `codectx tool NAME [--args JSON]`: runs any tool through the executor and prints its
 * whole result (`{tool_name, success, result_payload, execution_time_ms, error?}`).
 *
 * @module
 */

import { errorMessage } from "../errors.ts";
import { TOOL_NAMES } from "../tools/tool_index.ts";
import { openExecutor, parse, upToDate, UsageError } from "./args.ts";

const HELP = `Usage: codectx tool NAME [--args JSON] [--path DIR] [--index-dir DIR]

Runs one tool and prints its JSON result (no time limit; Ctrl-C stops it).
Tools: ${TOOL_NAMES.join(", ")}.
  --args JSON       the tool's arguments, e.g. '{"file_path": "src/app.py"}'
  --no-update       answer from the index as it is, without first reading edited files
  --path DIR        project root (default: current directory)
  --index-dir DIR   where the index lives
`;

export async function cmdTool(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { args: { type: "string" } }, 1);
  if (values.help) {
    console.log(HELP);
    return 0;
  }
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
  const executor = await openExecutor(values);
  try {
    if (name !== "index_project") await upToDate(executor, values);
    // No time limit: the shell waits on purpose (a first or forced index_project of a large
    // tree takes longer than the servers' 30 s); Ctrl-C stops it.
    const result = await executor.execute({ tool_name: name, arguments: parsedArgs }, {
      source: "cli",
      timeoutMs: 0,
    });
    console.log(JSON.stringify({ tool_name: name, ...result }, null, 2));
    return result.success ? 0 : 1;
  } finally {
    await executor.close();
  }
}
