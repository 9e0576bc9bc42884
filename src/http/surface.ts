/**
 * What every long-running surface does around its protocol: open the project and its
 * executor, build the index in the background (the surface answers at once), watch the
 * tree, and close everything in order on SIGINT/SIGTERM.
 *
 * @module
 */

import { openProject } from "../cli/args.ts";
import { errorMessage } from "../errors.ts";
import type { IndexReport } from "../index/indexer.ts";
import type { Project } from "../index/project.ts";
import { type ProjectWatcher, watchProject } from "../index/watch.ts";
import { defaultIndexHome } from "../store/kv.ts";
import { createExecutor, type Executor } from "../tools/executor.ts";

/** An open surface runtime. */
export interface Surface {
  project: Project;
  executor: Executor;
  watcher: ProjectWatcher | null;
  /** Resolves after the first (background) indexing run, successful or not. */
  initialIndex: Promise<void>;
  /** Stops watching, lets a run in flight end (bounded) and closes the store. */
  close(): Promise<void>;
}

/** Options of {@linkcode openSurface}. */
export interface SurfaceOptions {
  watch: boolean;
  /** Where log lines go (default stderr). */
  log?: (line: string) => void;
}

/** One line for a finished indexing run. */
export function reportLine(r: IndexReport): string {
  return `indexed ${r.files} files, ${r.chunks} chunks, ${r.symbols} symbols in ${
    (r.elapsedMs / 1000).toFixed(2)
  } s (${r.changed} changed)`;
}

/**
 * Opens the project of `--path`/`--index-dir`, starts the background index and the watcher.
 */
export async function openSurface(
  values: Record<string, unknown>,
  opts: SurfaceOptions,
): Promise<Surface> {
  const log = opts.log ?? ((line: string) => console.error(line));
  const project = await openProject(values);
  const executor = await createExecutor(project);
  log(`codectx: project ${project.root}`);
  const initialIndex = project.reindex().then(
    (r) => {
      log(`codectx: ${reportLine(r)}`);
      // Vectors fill in behind lexical search, which is ready now.
      project.startVectors();
    },
    (err) => log(`codectx: indexing failed: ${errorMessage(err)}`),
  );
  let watcher: ProjectWatcher | null = null;
  if (opts.watch) {
    const ignorePaths: string[] = [];
    for (const p of [project.store.dir, defaultIndexHome()]) {
      try {
        ignorePaths.push(await Deno.realPath(p));
      } catch {
        ignorePaths.push(p);
      }
    }
    watcher = watchProject(project, {
      ignorePaths,
      onReindex: (r) => {
        if (r.changed > 0) log(`codectx: re-${reportLine(r)}`);
      },
      onError: (err) => log(`codectx: watch: ${errorMessage(err)}`),
    });
    if (!watcher.active) log("codectx: not watching the project; run index_project after changes");
  }
  let closing: Promise<void> | null = null;
  return {
    project,
    executor,
    watcher,
    initialIndex,
    close() {
      closing ??= (async () => {
        watcher?.close();
        await Promise.race([project.settled(), delay(5_000)]);
        executor.close();
      })();
      return closing;
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    Deno.unrefTimer(t);
  });
}

/** Resolves on the first SIGINT or SIGTERM (and stops listening for them). */
export function untilSignal(): Promise<Deno.Signal> {
  return new Promise((resolve) => {
    const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
    const handlers = signals.map((sig) => {
      const h = () => {
        handlers.forEach(([s, fn]) => Deno.removeSignalListener(s, fn));
        resolve(sig);
      };
      return [sig, h] as const;
    });
    handlers.forEach(([s, fn]) => Deno.addSignalListener(s, fn));
  });
}
