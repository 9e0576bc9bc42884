/**
 * The assistant bench's wrapper: runs one command as an assistant would, prints what it printed
 * (stdout, then stderr) and appends to a log how many characters that was, so every command an
 * answerer runs is counted. One argument after `--` runs through `sh -c` (pipes, `&&`); several
 * run as they are.
 *
 * Run: `deno run -A bench/assistant/run.ts [--log FILE] [--arm ARM] [--q ID] -- CMD ARGS…`
 * (`$ASSIST_LOG`, `$ASSIST_ARM`, `$ASSIST_Q` stand for the options).
 *
 * @module
 */

import { parseArgs } from "node:util";

/** One command run, as the log holds it (one JSON object a line). */
export interface LogEntry {
  at: string;
  arm: string;
  /** The question it was run for. */
  q: string;
  cmd: string;
  /** Characters printed (stdout and stderr): what the assistant read. */
  chars: number;
  code: number;
}

/** Reads a log: one entry a line (blank lines skipped). */
export async function readLog(path: string): Promise<LogEntry[]> {
  const text = await Deno.readTextFile(path);
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as LogEntry);
}

if (import.meta.main) {
  const dash = Deno.args.indexOf("--");
  const { values } = parseArgs({
    args: dash < 0 ? Deno.args : Deno.args.slice(0, dash),
    options: { log: { type: "string" }, arm: { type: "string" }, q: { type: "string" } },
  });
  const argv = dash < 0 ? [] : Deno.args.slice(dash + 1);
  const log = values.log ?? Deno.env.get("ASSIST_LOG");
  if (!argv.length || !log) {
    console.error(
      "usage: deno run -A bench/assistant/run.ts --log FILE [--arm ARM] [--q ID] -- CMD ARGS…",
    );
    Deno.exit(2);
  }
  const [cmd, args] = argv.length === 1 ? ["sh", ["-c", argv[0]]] : [argv[0], argv.slice(1)];
  const out = await new Deno.Command(cmd, { args, stdin: "null", stdout: "piped", stderr: "piped" })
    .output();
  const dec = new TextDecoder();
  const [stdout, stderr] = [dec.decode(out.stdout), dec.decode(out.stderr)];
  await Deno.stdout.write(out.stdout);
  await Deno.stderr.write(out.stderr);
  const entry: LogEntry = {
    at: new Date().toISOString(),
    arm: values.arm ?? Deno.env.get("ASSIST_ARM") ?? "",
    q: values.q ?? Deno.env.get("ASSIST_Q") ?? "",
    cmd: argv.join(" "),
    chars: [...stdout].length + [...stderr].length,
    code: out.code,
  };
  await Deno.writeTextFile(log, JSON.stringify(entry) + "\n", { append: true });
  Deno.exit(out.code);
}
