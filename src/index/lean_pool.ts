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
import { unpackParts } from "../util/frames.ts";
import { createPool, frameProtocol, type Pool } from "../util/worker_pool.ts";
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

/**
 * The config a parse process runs with: light.json first, as a parse process needs only the
 * default path's packages (light.lock) and deno.json's lock would have it fetch the MCP SDK in
 * a quick start's clone. Undefined outside a clone: the process resolves packages by itself.
 */
function configFile(root: URL): string | undefined {
  if (root.protocol !== "file:") return undefined;
  for (const name of ["light.json", "deno.json"]) {
    const file = new URL(name, root);
    try {
      if (Deno.statSync(file).isFile) return file.pathname;
    } catch {
      // Not there: the next one.
    }
  }
  return undefined;
}

/** The `deno` arguments that start a parse process, or null when none can be started. */
export function leanCommand(v8Flags: string = LEAN_V8_FLAGS): string[] | null {
  if (Deno.build.standalone || Deno.env.get("CODECTX_PARSE_PROCESS") === "0") return null;
  const config = configFile(currentLayout().root);
  return [
    "run",
    "--allow-read",
    "--allow-env",
    "--no-prompt",
    ...(config ? ["--config", config] : ["--no-config"]),
    `--v8-flags=${v8Flags}`,
    assetUrl("src/index/lean_process.ts").href,
  ];
}

/** One file to parse, as sent to a parse worker (`worker.ts`) or process. */
export interface ParseJob {
  path: string;
  bytes: Uint8Array;
  language: string;
}

/**
 * Up to `size` parse processes, each started when a file finds the others busy, ended after a
 * second with nothing to do. Null when this runtime cannot start one with its own V8 flags.
 * A process that dies fails the pool (`failure`): the caller then parses these files itself.
 */
export function createLeanPool(size: number): Pool<ParseJob, EncodedExtraction> | null {
  const args = leanCommand();
  if (!args) return null;
  return createPool<ParseJob, EncodedExtraction>({
    name: "parse",
    member: { process: args },
    size: Math.max(1, size),
    idleMs: IDLE_MS,
    restart: false,
    // Its resident memory counts in the run's budget while it lives.
    onStart: (m) => trackChild(m.process!.pid, m.process!.status),
    protocol: frameProtocol<ParseJob, EncodedExtraction>(
      (id, job) => ({ header: { id, path: job.path, language: job.language }, payload: job.bytes }),
      ({ header, payload }) => {
        const h = header as LeanReply;
        if ("failed" in h) return { id: h.id, error: h.failed };
        const { parts, id, ...counts } = h;
        return { id, result: { ...counts, parts: unpackParts(parts, payload) } };
      },
    ),
  });
}
