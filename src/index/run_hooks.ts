/**
 * What other domains add to an indexing run without the index knowing them: gatherers shown
 * each blob as the run writes it, and builds that follow the commit of a large generation
 * (the search floor's `lexical.bin`). `project.ts` runs them; `search/lexical_cache.ts`
 * registers its own.
 *
 * @module
 */

import type { Project } from "./project.ts";

/**
 * What an indexing run shows a gatherer: each blob it writes (key and encoded parts), that
 * its writes are done (committed, before the builds after the commit), then its end —
 * after those builds, or on failure (what was gathered is dropped).
 */
export interface RunGatherer {
  blob(hash: string, parts: Readonly<Record<string, Uint8Array>>): void;
  written(): void;
  end(): void;
}

/** Builds that follow the commit of a large generation, after its symbol and chunk columns. */
const afterCommit = new Set<(project: Project) => Promise<unknown>>();

/** Makers of what a run gathers as it writes (see {@link gatherDuringRun}). */
const gatherers = new Set<(project: Project, filesToRead: number) => RunGatherer | null>();

/**
 * Adds a build to what an indexing run of a large generation (over `LARGE_CHUNKS` chunks)
 * does after its commit, after the symbol and chunk columns: the search floor's
 * `lexical.bin` (built in a worker, whose heap ends with it). The run's report comes when all
 * are done; a build's failure is its own (the next use builds again).
 */
export function buildAfterCommit(build: (project: Project) => Promise<unknown>): void {
  afterCommit.add(build);
}

/**
 * Adds a gatherer to every indexing run that reads at least the files its maker asks for
 * (`make` is told how many the run will read and returns null to stay out): the run shows
 * it each blob as it writes it, so that a build after the commit ({@link buildAfterCommit})
 * need not read every blob back.
 */
export function gatherDuringRun(
  make: (project: Project, filesToRead: number) => RunGatherer | null,
): void {
  gatherers.add(make);
}

/** The gatherers that join a run of `project` reading `filesToRead` files. */
export function startGatherers(project: Project, filesToRead: number): RunGatherer[] {
  const out: RunGatherer[] = [];
  for (const make of gatherers) {
    const g = make(project, filesToRead);
    if (g) out.push(g);
  }
  return out;
}

/** Runs the builds after a large generation's commit, one at a time; a failure is the build's own. */
export async function runBuildsAfterCommit(project: Project): Promise<void> {
  for (const build of afterCommit) await build(project).catch(() => {});
}
