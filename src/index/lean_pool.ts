/**
 * Parse processes for grammars with a huge lexer. V8 optimises a hot WebAssembly function
 * with TurboFan, and for the one-function lexers of some tree-sitter grammars that takes
 * hundreds of MB of compiler memory (measured: C++'s 592 KB lexer 416 MB, bash's 213 KB one
 * 237 MB), whatever the file. V8 flags cannot be set from inside a running program, so the
 * files of those grammars go to separate `deno` processes started with
 * `--liftoff-only` (V8's baseline compiler, which compiles in one pass with little
 * memory); the other grammars stay in the pool's Web Workers.
 *
 * A process starts when its first file comes and ends when it has had nothing to do for a
 * second (these grammars are rare in most trees: the Python standard library has one C++
 * and one shell file), or when the pool closes. A compiled
 * binary cannot start one (its V8 flags are fixed when it is built, and it reads no
 * `DENO_V8_FLAGS`), so it parses every grammar in its workers, as does a run where the
 * process failed to start or died (`CODECTX_PARSE_PROCESS=0` asks for that too).
 *
 * @module
 */

import { largestWasmFunction } from "../parse/grammars.ts";
import { languageById, looksLikeCpp } from "../parse/languages.ts";
import { assetUrl, currentLayout } from "../util/assets.ts";
import type { EncodedExtraction } from "./extract.ts";
import { encodeFrame, readFrames, unpackParts } from "./frames.ts";
import { trackChild } from "./memory.ts";
import type { LeanReply } from "./lean_process.ts";

/**
 * A grammar whose largest wasm function is at least this many bytes is parsed in a parse
 * process. Of the bundled grammars: C++ (592 KB), Swift (400 KB), OCaml (251 KB) and bash
 * (213 KB); TSX (192 KB), TypeScript (160 KB) and the rest stay in workers.
 */
export const LEAN_LEXER_BYTES = 200_000;

/** A parse process with nothing to do for this long ends (ms). */
const IDLE_MS = 1000;

/** V8 flags of a parse process. */
export const LEAN_V8_FLAGS = "--liftoff-only";

const leanByLanguage = new Map<string, boolean>();

/** Whether files of `language` go to a parse process. */
export function isLeanLanguage(language: string): boolean {
  let lean = leanByLanguage.get(language);
  if (lean === undefined) {
    const info = languageById(language);
    try {
      lean = info?.grammar !== undefined && !info.text &&
        largestWasmFunction(info.grammar) >= LEAN_LEXER_BYTES;
    } catch {
      lean = false;
    }
    leanByLanguage.set(language, lean);
  }
  return lean;
}

const decoder = new TextDecoder();

/** Whether one file goes to a parse process (a C header that reads as C++ parses as C++). */
export function isLeanFile(path: string, bytes: Uint8Array, language: string): boolean {
  if (isLeanLanguage(language)) return true;
  return language === "c" && path.endsWith(".h") && isLeanLanguage("cpp") &&
    looksLikeCpp(decoder.decode(bytes));
}

/** The `deno` arguments that start a parse process, or null when none can be started. */
export function leanCommand(v8Flags: string = LEAN_V8_FLAGS): string[] | null {
  if (Deno.build.standalone || Deno.env.get("CODECTX_PARSE_PROCESS") === "0") return null;
  const root = currentLayout().root;
  let config = ["--no-config"];
  if (root.protocol === "file:") {
    const file = new URL("deno.json", root);
    try {
      if (Deno.statSync(file).isFile) config = ["--config", file.pathname];
    } catch {
      // A folder without its deno.json: the process resolves npm packages by itself.
    }
  }
  return [
    "run",
    "--allow-read",
    "--allow-env",
    "--no-prompt",
    ...config,
    `--v8-flags=${v8Flags}`,
    assetUrl("src/index/lean_process.ts").href,
  ];
}

interface Pending {
  resolve: (x: EncodedExtraction) => void;
  reject: (e: Error) => void;
}

/** One parse process: jobs written to its stdin, answers read from its stdout in order. */
class LeanProcess {
  private readonly child: Deno.ChildProcess;
  private readonly stdin: WritableStreamDefaultWriter<Uint8Array>;
  private readonly pending = new Map<number, Pending>();
  private readonly done: Promise<unknown>;
  private stderrTail = "";
  private failure: string | null = null;
  private nextId = 0;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    args: string[],
    private readonly onIdleClose: (p: LeanProcess) => void,
  ) {
    this.child = new Deno.Command(Deno.execPath(), {
      args,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.stdin = this.child.stdin.getWriter();
    const reading = this.readReplies().catch((err) => this.fail(String(err)));
    const stderr = this.readStderr();
    const status = this.child.status.then((s) => this.fail(`it exited with code ${s.code}`));
    this.done = Promise.allSettled([reading, stderr, status]);
    trackChild(this.child.pid, this.child.status);
  }

  /** Files sent and not answered. */
  get load(): number {
    return this.pending.size;
  }

  /** Whether the process died or could not be written to. */
  get failed(): boolean {
    return this.failure !== null;
  }

  extract(path: string, bytes: Uint8Array, language: string): Promise<EncodedExtraction> {
    if (this.failure) return Promise.reject(new Error(this.failure));
    clearTimeout(this.idle);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.stdin.write(encodeFrame({ id, path, language }, bytes)).catch((err) =>
        this.fail(`writing to it failed: ${err}`)
      );
    });
  }

  /** Closes stdin (the process ends when it has answered), and waits for it to end. */
  close(): Promise<void> {
    clearTimeout(this.idle);
    return this.closing ??= this.end();
  }

  private async end(): Promise<void> {
    await this.stdin.close().catch(() => {});
    if (this.pending.size > 0) {
      try {
        this.child.kill();
      } catch {
        // Already gone.
      }
    }
    await this.done;
  }

  private async readReplies(): Promise<void> {
    for await (const { header, payload } of readFrames<LeanReply>(this.child.stdout)) {
      const job = this.pending.get(header.id);
      if (!job) continue;
      this.pending.delete(header.id);
      if (this.pending.size === 0 && !this.closing) {
        this.idle = setTimeout(() => {
          this.onIdleClose(this);
          this.close();
        }, IDLE_MS);
      }
      if ("failed" in header) {
        job.reject(new Error(header.failed));
        continue;
      }
      const { parts, id: _, ...counts } = header;
      job.resolve({ ...counts, parts: unpackParts(parts, payload) });
    }
  }

  private async readStderr(): Promise<void> {
    for await (const chunk of this.child.stderr) {
      this.stderrTail = (this.stderrTail + decoder.decode(chunk)).slice(-2000);
    }
  }

  private fail(why: string): void {
    const tail = this.stderrTail.trim();
    this.failure ??= `the parse process failed: ${why}${tail ? `: ${tail}` : ""}`;
    for (const job of this.pending.values()) job.reject(new Error(this.failure));
    this.pending.clear();
  }
}

/** Parse processes for the lean grammars' files; `close()` ends them. */
export interface LeanPool {
  /** Extracts one file in a parse process; rejects when the process failed. */
  extract(path: string, bytes: Uint8Array, language: string): Promise<EncodedExtraction>;
  /** Whether a process failed (the caller then parses these files itself). */
  readonly failed: boolean;
  close(): Promise<void>;
}

/**
 * Up to `size` parse processes, each started when a file finds the others busy. Returns
 * null when this runtime cannot start one with its own V8 flags.
 */
export function createLeanPool(size: number): LeanPool | null {
  const args = leanCommand();
  if (!args) return null;
  const processes: LeanProcess[] = [];
  const ending: Promise<void>[] = [];
  let failed = false;
  const ended = (p: LeanProcess) => {
    const i = processes.indexOf(p);
    if (i !== -1) processes.splice(i, 1);
    ending.push(p.close());
  };
  return {
    extract(path, bytes, language) {
      let best = processes.reduce<LeanProcess | undefined>(
        (b, p) => (b === undefined || p.load < b.load ? p : b),
        undefined,
      );
      if (!best || (best.load > 0 && processes.length < Math.max(1, size))) {
        try {
          best = new LeanProcess(args, ended);
        } catch (err) {
          failed = true;
          return Promise.reject(err);
        }
        processes.push(best);
      }
      return best.extract(path, bytes, language).catch((err) => {
        failed = true;
        throw err;
      });
    },
    get failed() {
      return failed || processes.some((p) => p.failed);
    },
    async close() {
      await Promise.all([...processes.map((p) => p.close()), ...ending]);
      processes.length = 0;
    },
  };
}
