/**
 * Starting `codectx serve` for a bench: a child process on a free port, its address read
 * from the line it prints on stderr; stderr is drained for the process's whole life (a
 * full pipe would stall the server) and its last 64 KB kept for error messages.
 *
 * @module
 */

const CLI = new URL("../cli.ts", import.meta.url).pathname;

/** A running bridge. */
export interface Serve {
  proc: Deno.ChildProcess;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The end of what the server printed on stderr. */
  log(): string;
}

/** Options of {@link startServe}. */
export interface ServeOptions {
  root: string;
  /** The command and its own options (default `["serve"]`; e.g. `["mcp", "--http"]`). */
  command?: readonly string[];
  /** The `cli.ts` to run (default this checkout's; another worktree's for "before" figures). */
  cli?: string;
  indexDir: string;
  /** Watch the project for changes (default false: `--no-watch`). */
  watch?: boolean;
  /** V8 flags for the server (`--v8-flags=…`; default none, as a plain `deno run`). */
  v8Flags?: string;
  /** More `deno run` flags for the server (e.g. `--cpu-prof --cpu-prof-dir=DIR`). */
  denoFlags?: readonly string[];
  /** Environment variables for the server besides this process's. */
  env?: Record<string, string>;
  /** Each line the server prints on stdout (V8's `--trace-gc` lines), when it arrives. */
  onStdout?: (line: string) => void;
}

/** Starts `codectx serve` (or `opts.command`) on `root`; resolves once it prints its address. */
export async function startServe(opts: ServeOptions): Promise<Serve> {
  const proc = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...(opts.v8Flags ? [`--v8-flags=${opts.v8Flags}`] : []),
      ...(opts.denoFlags ?? []),
      opts.cli ?? CLI,
      ...(opts.command ?? ["serve"]),
      "--port",
      "0",
      "--path",
      opts.root,
      "--index-dir",
      opts.indexDir,
      ...(opts.watch ? [] : ["--no-watch"]),
    ],
    env: opts.env,
    stdin: "null",
    stdout: opts.onStdout ? "piped" : "null",
    stderr: "piped",
  }).spawn();
  if (opts.onStdout) {
    const each = opts.onStdout;
    (async () => {
      let rest = "";
      for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) {
        const lines = (rest + chunk).split("\n");
        rest = lines.pop()!;
        for (const l of lines) each(l);
      }
    })().catch(() => {});
  }
  let log = "";
  const url = await new Promise<string>((resolve, reject) => {
    (async () => {
      const dec = new TextDecoder();
      let found = false;
      for await (const chunk of proc.stderr) {
        log = (log + dec.decode(chunk, { stream: true })).slice(-65_536);
        const m = found ? null : /listening on (http:\/\/\S+)/.exec(log);
        if (m) {
          found = true;
          resolve(m[1]);
        }
      }
      if (!found) reject(new Error(`codectx serve ended before listening:\n${log}`));
    })().catch(reject);
  });
  return { proc, url, log: () => log };
}
