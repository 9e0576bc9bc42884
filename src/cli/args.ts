/**
 * Shared pieces of the command line: option parsing, opening the project's executor and
 * running one tool for a command.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { CodectxError, errorMessage } from "../errors.ts";
import {
  type CallMeta,
  createExecutor,
  type Executor,
  type ExecutorOptions,
} from "../tools/executor.ts";

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
  // A command that answers from the index: as it is, without the check for edited files.
  "no-update": { type: "boolean" },
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

/**
 * Opens the executor of the project of --path (default: the current directory) and
 * --index-dir; a path that is not a folder is a usage error.
 */
export async function openExecutor(
  values: Record<string, unknown>,
  opts: ExecutorOptions = {},
): Promise<Executor> {
  const root = (values.path as string | undefined) ?? Deno.cwd();
  try {
    const maxMemoryMiB = intOption(values["max-memory"], "--max-memory");
    const timeoutS = intOption(values.timeout, "--timeout");
    if (timeoutS === 0) {
      throw new UsageError("--timeout must be at least 1 (seconds a tool call may take)");
    }
    return await createExecutor(root, {
      indexDir: values["index-dir"] as string | undefined,
      ...(maxMemoryMiB !== undefined ? { maxMemoryMiB } : {}),
      ...(timeoutS !== undefined ? { timeoutMs: timeoutS * 1000 } : {}),
      ...opts,
    });
  } catch (err) {
    if (err instanceof CodectxError && err.code === "invalid_argument") {
      throw new UsageError(err.message);
    }
    throw err;
  }
}

/** Help lines of the options every tool command takes. */
export const TOOL_COMMAND_HELP = `  --json            print the tool's JSON result
  --no-update       answer from the index as it is, without first reading files edited
                    since (on a large tree that check takes seconds)
  --path DIR        project root (default: current directory)
  --index-dir DIR   where the index lives`;

/**
 * Runs one tool for a command (on `executor`, or on one opened for the call). On failure
 * it prints the error and returns the exit code: 2 for a bad argument or a path outside
 * the root, 1 otherwise. `meta.timeoutMs` lifts the limit for calls the user waits on.
 */
export async function runTool(
  values: Record<string, unknown>,
  tool: string,
  args: Record<string, unknown>,
  meta: Omit<CallMeta, "source"> & {
    /** Run on this executor, as it is (the caller opened it and closes it). */
    executor?: Executor;
    /** Else one opened with these options (default: the project's own). */
    open?: ExecutorOptions;
    /** The tool searches with the vectors: wait for them (unless --no-wait), as a server has. */
    vectors?: boolean;
  } = {},
): Promise<{ payload: Record<string, unknown>; code: number }> {
  const { executor: given, open, vectors, ...call } = meta;
  const executor = given ?? await openExecutor(values, open);
  try {
    if (!given && tool !== "index_project") await upToDate(executor, values);
    if (!given && vectors && !values["no-wait"]) await waitForVectors(executor);
    const r = await executor.execute({ tool_name: tool, arguments: args }, {
      ...call,
      source: "cli",
    });
    if (!r.success) {
      console.error(`codectx: ${r.error}`);
      const usage = r.error_code === "invalid_argument" || r.error_code === "outside_root";
      return { payload: {}, code: usage ? 2 : 1 };
    }
    return { payload: r.result_payload, code: 0 };
  } finally {
    if (!given) await executor.close();
  }
}

/**
 * Waits for the vectors. Stored vectors load in well under a second; only when the model is
 * still computing after that does it say so, then how far it is every 2 s.
 */
async function waitForVectors(executor: Executor): Promise<void> {
  const h = await executor.service.health();
  if (h.vectors_state === "off" || h.vectors_state === "complete") return;
  const t0 = performance.now();
  let told = false;
  let last = 0;
  const stop = executor.service.subscribe((e) => {
    if (e.type !== "progress" || e.progress.phase !== "embed") return;
    const now = performance.now();
    if (now - t0 < 1000 || e.progress.filesDone >= e.progress.filesTotal) return;
    if (!told) {
      told = true;
      console.error(
        `codectx: computing vectors (${h.embedder}); the first time takes a while, later runs reuse them; --no-wait answers at once`,
      );
    }
    if (now - last < 2000) return;
    last = now;
    console.error(`  vectors ${e.progress.filesDone}/${e.progress.filesTotal}`);
  });
  try {
    await executor.service.vectorsReady();
  } finally {
    stop();
  }
}

/**
 * Brings the index up to date before a command answers, as a server's watcher does: a file
 * edited since the last run is re-read (a walk and a stat of each file when nothing
 * changed). When that fails — another process indexing the project (a server watching it),
 * a read-only index folder — the command answers from the index last committed; with none,
 * the error is the command's. `--no-update` skips it (on a large tree the walk takes seconds).
 */
export async function upToDate(executor: Executor, values: Record<string, unknown>): Promise<void> {
  // Not `health()`: asking it starts the embedding, which a command that does not search
  // paid for (the chunk table read from the store: 40% of a fresh `codectx explain`).
  if (values["no-update"] && (await executor.service.generation()) !== null) return;
  const r = await executor.execute({ tool_name: "index_project", arguments: {} }, {
    source: "cli",
    timeoutMs: 0,
  });
  if (!r.success && (await executor.service.health()).generation === null) {
    throw new CodectxError(r.error_code ?? "internal", r.error ?? "indexing failed");
  }
}

/** A whole-number option, or undefined when absent; anything else is a usage error. */
export function intOption(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const s = String(value);
  if (!/^\d+$/.test(s)) throw new UsageError(`${name} must be a whole number, got '${s}'`);
  return Number(s);
}
