/**
 * Analysis of a file or folder of a project: the files the walker keeps (`.gitignore`
 * respected, binary and over-1-MiB files skipped), each analyzed once per content (an
 * in-memory cache keyed by content hash), in parallel when there are many.
 *
 * @module
 */

import { CodectxError, errorCode } from "../errors.ts";
import { readProjectFile } from "../index/safe_read.ts";
import { isBinary, NAME_SKIP_REASONS, walk } from "../index/walker.ts";
import { languageForPath } from "../parse/languages.ts";
import { sha256Hex } from "../util/hash.ts";
import type { FileAnalysis } from "./analyze.ts";
import {
  type AnalysisPool,
  createAnalysisPool,
  FILE_TIMEOUT_MS,
  holdToolPool,
  poolSizeFor,
  toolPool,
} from "./pool.ts";
import { bracketsTooDeepMessage } from "./syntax.ts";
import { tooDeepMessage } from "./tree_walk.ts";

/** Options of {@linkcode collectAnalyses}. */
export interface CollectOptions {
  /** Extra ignore patterns (gitignore syntax). */
  exclude?: string[];
  /** Aborts the run (the executor's time limit). */
  signal?: AbortSignal;
  /** Worker count; default: by the number of files. */
  workers?: number;
  /**
   * A time (`performance.now()` scale) at which to answer with what is done; the rest is
   * counted in `pending` and goes on being analyzed into the cache (see `background`), so
   * a later call finds it done.
   */
  deadline?: number;
}

/** Files analyzed and files left out. */
export interface Collected {
  analyses: FileAnalysis[];
  skipped: Array<{ file: string; reason: string }>;
  /** Files not analyzed yet when the deadline came. */
  pending: number;
  /** Settles when the files past the deadline are analyzed (and cached) too. */
  background: Promise<void>;
}

/** At most this many bytes per file (as the index). */
export const MAX_FILE_BYTES = 1_048_576;

const CACHE_LIMIT = 50_000;
const cache = new Map<string, FileAnalysis>();

async function contentKey(language: string, bytes: Uint8Array): Promise<string> {
  return `${language}:${await sha256Hex(bytes)}`;
}

/** The cached analysis of a content, stamped with `file`. */
function restamp(a: FileAnalysis, file: string): FileAnalysis {
  return { ...a, file, issues: a.issues.map((i) => ({ ...i, file })) };
}

/**
 * Analyzes `rel` (a project-relative file or folder, "" for the whole project) under
 * `root` (a real path).
 *
 * @example
 * ```ts
 * const { analyses } = await collectAnalyses("/repo", "src");
 * analyses.map((a) => [a.file, a.metrics?.mi]);
 * ```
 */
export async function collectAnalyses(
  root: string,
  rel: string,
  opts: CollectOptions = {},
): Promise<Collected> {
  const abs = rel ? `${root}/${rel}` : root;
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(abs);
  } catch {
    throw new CodectxError("not_found", `path '${rel}' does not exist in the project`);
  }
  const skipped: Collected["skipped"] = [];
  let files: Array<{ path: string; absPath: string }>;
  if (info.isFile) {
    if (info.size > MAX_FILE_BYTES) {
      throw new CodectxError(
        "too_large",
        `file '${rel}' is ${info.size} bytes; analysis reads files up to 1 MiB`,
      );
    }
    files = [{ path: rel, absPath: abs }];
  } else {
    const prefix = rel ? `${rel}/` : "";
    const entries = await walk(root, {
      extraIgnores: opts.exclude,
      onSkip: (path, reason) => {
        const listed = reason === "too_large" || NAME_SKIP_REASONS.has(reason);
        if (listed && path.startsWith(prefix)) skipped.push({ file: path, reason });
      },
    });
    files = entries.filter((e) => e.path.startsWith(prefix));
  }
  // A few files go to the shared (warm) workers; many get a pool of their own — made at the
  // first file not in the cache: starting workers holds the server's thread (50–270 ms each
  // under load), and a tree analyzed before needs none.
  const size = opts.workers ?? poolSizeFor(files.length);
  let own: AnalysisPool | null = null;
  let held: (() => void) | null = null;
  const poolNow = (): AnalysisPool => {
    if (size > 1 || opts.workers !== undefined) return own ??= createAnalysisPool(size);
    held ??= holdToolPool();
    return toolPool();
  };
  const release = () => {
    own?.close();
    held?.();
  };
  const analyses: FileAnalysis[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const lenient = new TextDecoder();
  const queue = [...files];
  let done = 0;
  const lane = async () => {
    for (let f = queue.shift(); f; f = queue.shift(), done++) {
      if (opts.signal?.aborted) return;
      let bytes: Uint8Array;
      try {
        bytes = await readProjectFile(root, f.path);
      } catch {
        skipped.push({ file: f.path, reason: "unreadable" });
        continue;
      }
      if (isBinary(bytes)) {
        if (info.isFile) {
          throw new CodectxError("invalid_argument", `file '${rel}' is binary, not text`);
        }
        skipped.push({ file: f.path, reason: "binary" });
        continue;
      }
      let text: string;
      try {
        text = decoder.decode(bytes);
      } catch {
        if (info.isFile) {
          throw new CodectxError("invalid_argument", `file '${rel}' is not UTF-8 text`);
        }
        // Latin-1 and stray bytes in a folder: read as the index does, with replacements.
        text = lenient.decode(bytes);
      }
      const language = languageForPath(f.path)?.id ?? "text";
      const key = await contentKey(language, bytes);
      let a = cache.get(key);
      if (!a) {
        try {
          a = await poolNow().analyze(f.path, text, language, {
            signal: opts.signal,
            timeoutMs: FILE_TIMEOUT_MS,
          });
        } catch (err) {
          if (info.isFile || errorCode(err) !== "timeout") throw err;
          skipped.push({ file: f.path, reason: "timeout" });
          continue;
        }
        if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
        cache.set(key, a);
      }
      if (a.tooDeep) {
        if (info.isFile) {
          const what = `file '${rel}'`;
          throw new CodectxError(
            "invalid_argument",
            a.tooDeepBy === "brackets" ? bracketsTooDeepMessage(what) : tooDeepMessage(what),
          );
        }
        skipped.push({ file: f.path, reason: "too_deep" });
        continue;
      }
      analyses.push(a.file === f.path ? a : restamp(a, f.path));
    }
  };
  const lanes = Math.max(2, poolSizeFor(files.length) * 2);
  const all = Promise.all(Array.from({ length: lanes }, lane)).finally(release);
  // At the deadline, answer with what is done; the rest goes on filling the cache.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = opts.deadline === undefined ? null : opts.deadline - performance.now();
  const late = wait === null
    ? null
    : wait <= 0
    ? Promise.resolve("late" as const)
    : new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), wait);
    });
  const first = await (late ? Promise.race([all, late]) : all).finally(() => clearTimeout(timer));
  const background = first === "late" ? all.then(() => {}, () => {}) : Promise.resolve();
  const pending = first === "late" ? files.length - done : 0;
  if (opts.signal?.aborted) {
    throw new CodectxError("timeout", "analysis was cut off by the time limit; analyze a folder");
  }
  const result = [...analyses];
  result.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { analyses: result, skipped: [...skipped], pending, background };
}
