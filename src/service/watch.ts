/**
 * Keeps a project's index up to date while a long-running surface serves it: watches the
 * folders an indexing run lists (`project.directories()`), each on its own, in one
 * `Deno.watchFs` (one inotify instance, one watch per folder), waits for a quiet moment
 * (debounce), then runs the incremental `project.reindex()`. Changes during a run trigger one
 * more run after it.
 *
 * A recursive watch would follow every symlink, out of the root too: a link to `/usr` put
 * 17,539 inotify watches on the machine and one to `/` made the watcher give up. Watching the
 * walker's own folders keeps the watcher inside the root by the walker's rule (no symlink out,
 * no skipped or ignored folder). When folders come or go (or an ignore file changes), the list
 * is made again and the watcher replaced before the next run, whose walk catches what was
 * written in between.
 *
 * The root itself is checked every second (and at once when an event names it): gone, nothing
 * is watched and {@linkcode ProjectWatcher.status} says so; back (or another folder in its
 * place), it is watched again and indexed.
 *
 * @example
 * ```ts
 * import { Project } from "../project/project.ts";
 * const project = await Project.open(".");
 * const watcher = await watchProject(project, { onReindex: (r) => console.error(r.changed) });
 * console.error(watcher.status()); // { watching: true, reason: null, folders: 12 }
 * // … later
 * watcher.close();
 * ```
 *
 * @module
 */

import { errorMessage } from "../errors.ts";
import type { IndexReport } from "../index/indexer.ts";
import { rootIdentity } from "../index/paths.ts";
import type { Project } from "../project/project.ts";
import { UNWALKED_DIRS } from "../index/walker.ts";

/** Options of {@linkcode watchProject}. */
export interface WatchOptions {
  /** Quiet time after the last change before reindexing (default 300 ms). */
  debounceMs?: number;
  /** Folder names whose events are ignored at any depth (default: those the walker never enters on its own). */
  skipDirs?: readonly string[];
  /** Absolute folders neither watched nor listened to (e.g. an index folder inside the root). */
  ignorePaths?: readonly string[];
  /** How often the root's existence is checked, in ms (default 1000). */
  rootCheckMs?: number;
  /** After each run triggered by a change. */
  onReindex?: (report: IndexReport) => void;
  /** When watching or reindexing fails; the watcher keeps going when it can. */
  onError?: (err: unknown) => void;
  /** When the root goes away (`false`) or is back, or replaced by another folder (`true`). */
  onRoot?: (present: boolean) => void;
}

/** Whether a watcher sees edits, as health endpoints show it. */
export interface WatchStatus {
  /** True while every folder of the project is watched. */
  watching: boolean;
  /** Why not, when `watching` is false: what failed and what to do. */
  reason: string | null;
  /** Folders watched now (one inotify watch each). */
  folders: number;
}

/** A running watcher. */
export interface ProjectWatcher {
  /** Whether edits are seen now, and why not. */
  status(): WatchStatus;
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
  if (underAny(path, ignorePaths)) return false;
  const rel = path.slice(root.length + 1);
  return !rel.split("/").some((part) => skip.has(part));
}

/** Files whose change can add or remove folders from the walk. */
const IGNORE_FILES = new Set([".gitignore", ".codectxignore"]);

/** Listing and watching again after a folder vanished in between: at most this many tries. */
const WATCH_TRIES = 3;

/**
 * Watches the folders of `project` and reindexes after changes; resolves once they are
 * watched (or watching failed: see `status()`).
 */
export async function watchProject(
  project: Project,
  options: WatchOptions = {},
): Promise<ProjectWatcher> {
  const opts = {
    debounceMs: 300,
    skipDirs: UNWALKED_DIRS,
    ignorePaths: [] as readonly string[],
    rootCheckMs: 1000,
    onReindex: () => {},
    onError: () => {},
    onRoot: () => {},
    ...options,
  };
  const root = project.root;
  const skip = new Set(opts.skipDirs);
  let fs: Deno.FsWatcher | null = null;
  let watched = new Set<string>();
  let reason: string | null = "not watching yet";
  let rootId = rootIdentity(root);
  let rootGone = false;
  /** The folder list must be made again before the next run. */
  let foldersChanged = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let dirty = false;

  const stopWatching = () => {
    const old = fs;
    fs = null;
    watched = new Set();
    try {
      old?.close();
    } catch {
      // already closed
    }
  };

  /** Lists the folders and replaces the watcher with one on them (the new one first). */
  const rewatch = async (): Promise<void> => {
    for (let attempt = 1; attempt <= WATCH_TRIES; attempt++) {
      let dirs: string[];
      try {
        dirs = [...new Set(await project.directories())].filter(
          (d) => !underAny(d, opts.ignorePaths),
        );
      } catch (err) {
        if (project.rootMissing) return checkRoot();
        return fail(`the project's folders could not be listed: ${errorMessage(err)}`, err);
      }
      if (closed || rootGone) return;
      let next: Deno.FsWatcher;
      try {
        next = Deno.watchFs(dirs, { recursive: false });
      } catch (err) {
        // A folder removed since the listing: list again.
        if (err instanceof Deno.errors.NotFound && attempt < WATCH_TRIES) continue;
        return fail(`${dirs.length} folders could not be watched: ${errorMessage(err)}`, err);
      }
      const old = fs;
      fs = next;
      watched = new Set(dirs);
      reason = null;
      listen(next);
      try {
        old?.close();
      } catch {
        // already closed
      }
      return;
    }
  };

  const fail = (what: string, err: unknown) => {
    reason = `${what}; edits are not seen: run index_project after changes`;
    opts.onError(new Error(reason, { cause: err }));
  };

  const listen = (w: Deno.FsWatcher) => {
    (async () => {
      try {
        for await (const ev of w) onEvent(ev);
      } catch (err) {
        if (closed || w !== fs) return;
        fail(`the watcher stopped: ${errorMessage(err)}`, err);
      }
    })();
  };

  const onEvent = (ev: Deno.FsEvent) => {
    if (ev.kind === "access" || ev.kind === "other") return;
    let relevant = false;
    for (const path of ev.paths) {
      if (path === root && ev.kind !== "modify") checkRoot();
      if (!relevantPath(root, path, skip, opts.ignorePaths)) continue;
      relevant = true;
      if (changesFolders(ev.kind, path)) foldersChanged = true;
    }
    if (relevant) schedule(opts.debounceMs);
  };

  /** Whether an event may add or remove a folder of the walk. */
  const changesFolders = (kind: Deno.FsEvent["kind"], path: string): boolean => {
    if (IGNORE_FILES.has(path.slice(path.lastIndexOf("/") + 1))) return true;
    if (kind === "modify") return false;
    if (watched.has(path)) return true;
    try {
      return Deno.statSync(path).isDirectory;
    } catch {
      return false;
    }
  };

  /** Notices the root gone, back, or replaced by another folder. */
  const checkRoot = () => {
    if (closed) return;
    const id = rootIdentity(root);
    if (id === null) {
      if (rootGone) return;
      rootGone = true;
      stopWatching();
      reason = `the project root ${root} is gone (deleted or moved); it is watched and ` +
        `indexed again when it is back`;
      opts.onRoot(false);
      return;
    }
    if (!rootGone && id === rootId) return;
    if (rootGone) reason = `the project root ${root} is back; watching it again`;
    rootGone = false;
    rootId = id;
    foldersChanged = true;
    opts.onRoot(true);
    schedule(0);
  };

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
        if (closed || rootGone) break;
        // Watch new folders before the walk: what is written in them meanwhile, it finds.
        if (foldersChanged) {
          foldersChanged = false;
          await rewatch();
        }
        const report = await project.reindex();
        opts.onReindex(report);
      } while (dirty && !closed);
    } catch (err) {
      if (project.rootMissing) checkRoot();
      else opts.onError(err);
    } finally {
      running = false;
    }
  };

  const schedule = (ms: number) => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, ms);
  };

  await rewatch();
  const poll = setInterval(checkRoot, opts.rootCheckMs);
  Deno.unrefTimer(poll);

  return {
    status() {
      // Asked, the root is checked now: health never says "watching" of a folder that is gone.
      checkRoot();
      return { watching: fs !== null && reason === null, reason, folders: watched.size };
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(poll);
      if (timer !== undefined) clearTimeout(timer);
      stopWatching();
    },
  };
}

/** Whether `path` is one of `dirs` or inside one. */
function underAny(path: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => path === d || path.startsWith(d + "/"));
}
