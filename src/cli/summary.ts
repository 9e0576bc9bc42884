/**
 * `codectx summary [FILE]`: the repository at a glance (summarize_repo's command), or with a
 * file's path that file's outline, as `codectx explain FILE` gives it. `summary scrapy/cmdline.py`
 * was "unexpected argument" (issue 35); the tool has no folder scope, so a folder is an error
 * naming the commands that answer about one.
 *
 * @module
 */

import { render } from "../tools/explain_file/render.ts";
import type { ExplainFilePayload } from "../tools/explain_file/schema.ts";
import { TOOL_ENTRIES } from "../tools/tool_index.ts";
import { parse, runTool, UsageError } from "./args.ts";
import { emit, toolCommand } from "./tool_command.ts";

/** What `path` (relative to the project root `root`, or absolute) is: a folder, the root, else. */
async function kindOf(root: string, path: string): Promise<"root" | "folder" | "other"> {
  try {
    const real = await Deno.realPath(path.startsWith("/") ? path : `${root}/${path}`);
    if (real === await Deno.realPath(root)) return "root";
    return (await Deno.stat(real)).isDirectory ? "folder" : "other";
  } catch {
    return "other";
  }
}

/** `codectx summary`. */
export async function cmdSummary(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: "boolean" } }, 1);
  const summary = await TOOL_ENTRIES.find((e) => e.command === "summary")!.load();
  if (values.help) return await toolCommand(summary)(["--help"]);
  const root = (values.path as string | undefined) ?? Deno.cwd();
  const file = positionals[0];
  const kind = file === undefined ? "root" : await kindOf(root, file);
  if (kind === "folder") {
    const dir = file!.replace(/\/+$/, "");
    throw new UsageError(
      `summary outlines the whole project or one file, not a folder: a file's outline is ` +
        `codectx summary ${dir}/FILE; code under the folder, codectx search "QUERY" --path-prefix ${dir}`,
    );
  }
  const { payload, code } = kind === "root"
    ? await runTool(values, summary.name, {})
    : await runTool(values, "explain_file", { file_path: file });
  if (code !== 0) return code;
  if (values.json) console.log(JSON.stringify(payload, null, 2));
  else if (kind === "root") emit(summary.cli!.print(payload, values));
  else console.log(render(payload as ExplainFilePayload));
  return 0;
}
