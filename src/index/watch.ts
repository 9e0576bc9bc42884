/**
 * Keeps a project's index up to date while a long-running surface serves it: watches the
 * tree with `Deno.watchFs`, waits for a quiet moment (debounce), then runs the incremental
 * `project.reindex()`. Changes during a run trigger one more run after it.
 *
 * @example
 * ```ts
 * import { Project } from "./project.ts";
 * const project = await Project.open(".");
 * const watcher = watchProject(project, { onReindex: (r) => console.error(r.changed) });
 * // … later
 * watcher.close();
 * ```
 *
 * @module
 */

import type { IndexReport } from "./indexer.ts";
import type { Project } from "./project.ts";
import { DEFAULT_SKIP_DIRS } from "./walker.ts";

/** Options of {@linkcode watchProject}. */
export interface WatchOptions {
  /** Quiet time after the last change before reindexing (default 300 ms). */
  debounceMs?: number;
  /** Folder names whose events are ignored at any depth (default: the walker's skip list). */
  skipDirs?: readonly string[];
  /** Absolute folders whose events are ignored (e.g. an index folder inside the root). */
  ignorePaths?: readonly string[];
  /** After each run triggered by a change. */
  onReindex?: (report: IndexReport) => void;
  /** When watching or reindexing fails; the watcher keeps going when it can. */
  onError?: (err: unknown) => void;
}

/** A running watcher. */
export interface ProjectWatcher {
  /** False when the platform refused to watch (e.g. too many inotify watches). */
  readonly active: boolean;
  /** Stops watching; a run in flight finishes on its own. */
  close(): void;
}

/**
 * Whether an event path can matter to the index: inside the root, outside skipped folders
 * and ignored paths.
 */
export function relevantPath(
  root: string,
  path: string,
  skip: ReadonlySet<string>,
  ignorePaths: readonly string[] = [],
): boolean {
  if (path !== root && !path.startsWith(root + "/")) return false;
  if (ignorePaths.some((p) => path === p || path.startsWith(p + "/"))) return false;
  const rel = path.slice(root.length + 1);
  return !rel.split("/").some((part) => skip.has(part));
}

/** Watches `project.root` and reindexes after changes. */
export function watchProject(project: Project, options: WatchOptions = {}): ProjectWatcher {
  const opts = {
    debounceMs: 300,
    skipDirs: DEFAULT_SKIP_DIRS,
    ignorePaths: [] as readonly string[],
    onReindex: () => {},
    onError: () => {},
    ...options,
  };
  const skip = new Set(opts.skipDirs);
  let fs: Deno.FsWatcher;
  try {
    fs = Deno.watchFs(project.root, { recursive: true });
  } catch (err) {
    opts.onError(err);
    return { active: false, close() {} };
  }
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let dirty = false;

  const run = async () => {
    timer = undefined;
    if (running) {
      dirty = true;
      return;
    }
    running = true;
    try {
      do {
        dirty = false;
        // A run started elsewhere may have walked before this change: let it end first.
        await project.settled();
        if (closed) break;
        const report = await project.reindex();
        opts.onReindex(report);
      } while (dirty && !closed);
    } catch (err) {
      opts.onError(err);
    } finally {
      running = false;
    }
  };

  const schedule = () => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, opts.debounceMs);
  };

  (async () => {
    try {
      for await (const ev of fs) {
        if (ev.kind === "access" || ev.kind === "other") continue;
        if (ev.paths.some((p) => relevantPath(project.root, p, skip, opts.ignorePaths))) {
          schedule();
        }
      }
    } catch (err) {
      if (!closed) opts.onError(err);
    }
  })();

  return {
    active: true,
    close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      try {
        fs.close();
      } catch {
        // already closed
      }
    },
  };
}
