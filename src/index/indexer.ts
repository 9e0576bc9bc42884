/**
 * Incremental, crash-safe indexing of a project root into the store.
 *
 * Stages, one function each: hold the writer lease → walk → diff against the current
 * manifest (size, mtime) → read, hash and parse what may have changed, writing blobs
 * (`ingest.ts`) → commit the new manifest (one atomic flip) and collect garbage → report.
 * Readers see nothing before the commit: a run cut off earlier leaves the previous index
 * whole, and the next run reuses the blobs it wrote.
 */

import { languageForPath } from "../parse/languages.ts";
import type { FileEntry, Manifest, Store } from "../store/kv.ts";
import type { WalkEntry } from "../types.ts";
import { ingest, skippedEntry } from "./ingest.ts";
import { DEFAULT_MAX_MEMORY_MIB, MemoryBudget } from "./memory.ts";
import { NAME_SKIP_REASONS, type SkipReason, walk } from "./walker.ts";

export { blobKey } from "./ingest.ts";

/**
 * Progress of one indexing run. Phase `embed` comes from the background embedding after a
 * commit; its counts are chunks, not files.
 */
export interface IndexProgress {
  phase: "walk" | "parse" | "write" | "done" | "embed";
  filesDone: number;
  filesTotal: number;
}

/** Options of one run. */
export interface IndexOptions {
  /** Re-parse every file even when unchanged. */
  force?: boolean;
  onProgress?: (p: IndexProgress) => void;
  /** Parsing workers (default: one per core; 0 parses on this thread). */
  workers?: number;
  /** Extra ignore patterns (gitignore syntax). */
  exclude?: string[];
  /**
   * Memory the run may use, in MiB (default {@link DEFAULT_MAX_MEMORY_MIB}): near it files
   * go through one at a time, past it the run fails and the last index stays.
   */
  maxMemoryMiB?: number;
}

/** What one run did. */
export interface IndexReport {
  generation: number;
  files: number;
  chunks: number;
  symbols: number;
  /** Files added, changed or deleted since the previous index. */
  changed: number;
  added: number;
  modified: number;
  deleted: number;
  parsed: number;
  languages: Record<string, number>;
  errors: Array<{ file: string; error: string }>;
  skipped: number;
  /** Files in a known language not indexed, and why (`too_large`, `minified`, `binary`…). */
  skippedFiles?: Array<{ file: string; reason: string; detail?: string }>;
  /** Paths the walk left out, by reason (`not_accepted` files, `ignored` files or folders…). */
  walkSkips?: Partial<Record<SkipReason, number>>;
  /** Highest resident memory of the process seen during the run, in MiB. */
  peakMemoryMiB?: number;
  elapsedMs: number;
}

/**
 * Brings the store up to date with the files under `root` (a real path).
 * Throws when another live process is writing the same index.
 */
export async function runIndex(
  root: string,
  store: Store,
  opts: IndexOptions = {},
): Promise<IndexReport> {
  const t0 = performance.now();
  const elapsed = () => Math.round(performance.now() - t0);
  await store.holdLease();
  try {
    const progress = opts.onProgress ?? (() => {});
    progress({ phase: "walk", filesDone: 0, filesTotal: 0 });
    const budget = new MemoryBudget(opts.maxMemoryMiB ?? DEFAULT_MAX_MEMORY_MIB);
    // The store reads the last manifest on its own thread while this one walks.
    const reading = readPrevious(store);
    reading.catch(() => {}); // awaited below; a failure is thrown there, after the walk
    const walked = await walkSources(root, opts.exclude);
    const previous = await reading;
    const diff = diffWithPrevious(walked, previous.byPath, opts.force ?? false);

    const total = diff.toRead.length;
    progress({ phase: "parse", filesDone: 0, filesTotal: total });
    const ingested = await ingest(diff.toRead, previous.byPath, store, {
      force: opts.force,
      workers: opts.workers,
      budget,
      onFile: (done) => {
        if (done % 50 === 0 || done === total) {
          progress({ phase: "parse", filesDone: done, filesTotal: total });
        }
      },
    });

    const { added, modified, parsed } = ingested;
    const changed = added + modified + diff.deleted;
    const files = [...diff.kept, ...ingested.files, ...walked.tooLarge].sort(byPath);
    let generation = previous.generation ?? 0;
    if (changed > 0 || previous.manifest === null || opts.force) {
      progress({ phase: "write", filesDone: total, filesTotal: total });
      generation = await commit(store, files, previous, elapsed);
    }
    progress({ phase: "done", filesDone: total, filesTotal: total });
    return withNameSkips(
      summarize(files, {
        generation,
        changed,
        added,
        modified,
        deleted: diff.deleted,
        parsed,
        walkSkips: walked.skips,
        peakMemoryMiB: Math.round(budget.peak / 2 ** 20),
        elapsedMs: elapsed(),
      }),
      walked.badNames,
    );
  } finally {
    await store.releaseLease();
  }
}

/** What the walk found: files to index, files too large to, and counts of what it left out. */
interface Walked {
  entries: WalkEntry[];
  /** Skipped entries of files in a known language over the size limit. */
  tooLarge: FileEntry[];
  skips: Partial<Record<SkipReason, number>>;
  /** Files and folders whose name cannot be a path of the index, with the walk's words. */
  badNames: NonNullable<IndexReport["skippedFiles"]>;
}

/** The files under `root` in a language codectx parses, ignore rules applied. */
async function walkSources(root: string, exclude: string[] | undefined): Promise<Walked> {
  const tooLarge: FileEntry[] = [];
  const skips: Partial<Record<SkipReason, number>> = {};
  const badNames: Walked["badNames"] = [];
  const entries = await walk(root, {
    accept: (p) => languageForPath(p) !== undefined,
    extraIgnores: exclude,
    onSkip: (path, reason, detail) => {
      skips[reason] = (skips[reason] ?? 0) + 1;
      // Folders skipped by default are named with how to index them (the walk's detail).
      if (NAME_SKIP_REASONS.has(reason) || (reason === "default_skip" && detail)) {
        badNames.push({ file: path, reason, ...(detail === undefined ? {} : { detail }) });
      }
      if (reason !== "too_large") return;
      const info = statOrNull(`${root}/${path}`);
      const row = languageForPath(path)!;
      const base = {
        path,
        size: info?.size ?? 0,
        mtimeMs: info?.mtime?.getTime() ?? 0,
        language: row.id,
      };
      const limit = row.unnamed
        ? "256 KiB limit of plain text of no known language"
        : "1 MiB limit";
      tooLarge.push(skippedEntry(base, "too_large", `${base.size} bytes, over the ${limit}`));
    },
  });
  return { entries, tooLarge, skips, badNames };
}

/**
 * The report with the files the walk left out for their name listed among the skipped: they
 * are in no manifest (their name is no path codectx can store or print), so nothing else
 * would tell the user they exist.
 */
function withNameSkips(report: IndexReport, badNames: Walked["badNames"]): IndexReport {
  if (badNames.length === 0) return report;
  const skippedFiles = [...badNames, ...(report.skippedFiles ?? [])];
  return { ...report, skipped: report.skipped + badNames.length, skippedFiles };
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

/** The index a run starts from. */
interface Previous {
  generation: number | null;
  manifest: Manifest | null;
  /** The manifest's entries by path (empty without one). */
  byPath: Map<string, FileEntry>;
}

async function readPrevious(store: Store): Promise<Previous> {
  const generation = await store.currentGeneration();
  const manifest = generation === null ? null : await store.readCurrent();
  return { generation, manifest, byPath: new Map(manifest?.files.map((f) => [f.path, f]) ?? []) };
}

/** The walk compared with the previous manifest. */
interface Diff {
  /** Entries of files whose size and mtime did not change. */
  kept: FileEntry[];
  /** Files to read: new, or with another size or mtime (all of them when forced). */
  toRead: WalkEntry[];
  /** Files of the previous manifest that are gone. */
  deleted: number;
}

function diffWithPrevious(
  { entries, tooLarge }: Walked,
  previous: ReadonlyMap<string, FileEntry>,
  force: boolean,
): Diff {
  const kept: FileEntry[] = [];
  const toRead: WalkEntry[] = [];
  for (const e of entries) {
    const old = previous.get(e.path);
    if (!force && old && old.size === e.size && old.mtimeMs === e.mtimeMs) kept.push(old);
    else toRead.push(e);
  }
  // A file too large to index is still there: recorded as skipped, not deleted.
  const seen = new Set([...entries, ...tooLarge].map((e) => e.path));
  const deleted = [...previous.keys()].filter((p) => !seen.has(p)).length;
  return { kept, toRead, deleted };
}

function byPath(a: FileEntry, b: FileEntry): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * Writes the manifest of the next generation and makes it current in one atomic flip,
 * then collects what no generation uses. Returns the new generation.
 */
async function commit(
  store: Store,
  files: FileEntry[],
  previous: Previous,
  elapsed: () => number,
): Promise<number> {
  const prevGen = previous.generation;
  const generation = (prevGen ?? 0) + 1;
  // Leftovers of runs cut off before their commit; the current generation stays readable.
  await store.dropGenerationsExcept(prevGen);
  const manifest: Manifest = {
    generation,
    createdAt: new Date().toISOString(),
    elapsedMs: elapsed(),
    files,
  };
  await store.writeManifest(manifest);
  if (!(await store.commit(generation, prevGen))) {
    throw new Error("the index changed while indexing; run the indexing again");
  }
  const held = new Map([[generation, manifest]]);
  if (prevGen !== null && previous.manifest) held.set(prevGen, previous.manifest);
  await store.collectGarbage(held);
  return generation;
}

/** Totals of a manifest's files. */
export function summarize(
  files: FileEntry[],
  extra: Omit<
    IndexReport,
    "files" | "chunks" | "symbols" | "languages" | "errors" | "skipped" | "skippedFiles"
  >,
): IndexReport {
  let chunks = 0;
  let symbols = 0;
  const languages: Record<string, number> = {};
  const errors: Array<{ file: string; error: string }> = [];
  const skippedFiles: IndexReport["skippedFiles"] = [];
  for (const f of files) {
    if (f.skipped) {
      skippedFiles.push({
        file: f.path,
        reason: f.skipped,
        ...(f.error === undefined ? {} : { detail: f.error }),
      });
      continue;
    }
    chunks += f.chunks;
    symbols += f.symbols;
    languages[f.language] = (languages[f.language] ?? 0) + 1;
    if (f.error) errors.push({ file: f.path, error: f.error });
  }
  const skipped = skippedFiles.length;
  return {
    ...extra,
    files: files.length - skipped,
    chunks,
    symbols,
    languages,
    errors,
    skipped,
    skippedFiles,
  };
}
