/**
 * Shared pieces of the command line: option parsing and opening the project.
 */

import { parseArgs } from "node:util";
import { CodectxError, errorMessage } from "../errors.ts";
import { Project } from "../index/project.ts";

/** A usage error: printed on one line, exit code 2. */
export class UsageError extends Error {}

/** Option declarations as `parseArgs` takes them. */
export type Options = Record<
  string,
  { type: "string" | "boolean"; short?: string; multiple?: boolean }
>;

/** Options every command takes. */
export const COMMON: Options = {
  path: { type: "string" },
  "index-dir": { type: "string" },
  help: { type: "boolean" },
};

/** Parses a command's options (plus --path, --index-dir, --help); unknown ones are usage errors. */
export function parse(args: string[], options: Options, positionals = 0) {
  try {
    const r = parseArgs({
      args,
      options: { ...COMMON, ...options },
      allowPositionals: positionals > 0,
      strict: true,
    });
    if (r.positionals.length > positionals) {
      throw new UsageError(`unexpected argument '${r.positionals[positionals]}'`);
    }
    return r;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // node:util's messages name the option; keep the first line.
    throw new UsageError(errorMessage(err).split("\n")[0].replace(/\. To specify.*$/, ""));
  }
}

/** Opens the project of --path (default: the current directory). */
export async function openProject(values: Record<string, unknown>): Promise<Project> {
  const root = (values.path as string | undefined) ?? Deno.cwd();
  try {
    return await Project.open(root, { indexDir: values["index-dir"] as string | undefined });
  } catch (err) {
    if (err instanceof CodectxError && err.code === "invalid_argument") {
      throw new UsageError(err.message);
    }
    throw err;
  }
}
