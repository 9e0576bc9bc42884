/**
 * How an analysis job is run: what `worker.ts` does with each message, and what the pool runs
 * inline when no worker can start (`pool.ts`). The job's shape is in `job_data.ts`.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import { analyzeSource } from "./analyze.ts";
import type { ProjectView } from "./project_view.ts";
import { outlineSnippet } from "./explain.ts";
import { validateCode } from "./validate.ts";
import { type AnalysisJob, viewFromData } from "./job_data.ts";

/**
 * Runs one job: what `worker.ts` does with each message. `viewOf` finds a view already
 * sent by id.
 */
export async function handleJob(
  job: AnalysisJob,
  viewOf: (id: number) => ProjectView | undefined,
): Promise<unknown> {
  if (job.kind === "analyze") return await analyzeSource(job.file, job.text, job.language);
  const view = job.view ? viewFromData(job.view) : viewOf(job.viewId);
  if (!view) throw new CodectxError("internal", "the project view was not sent to the worker");
  const v = await validateCode(
    { code: job.code, language: job.language, filePath: job.filePath },
    view,
  );
  if (!job.explain) return v;
  return { ...v, outline: await outlineSnippet(job.code, v.language, job.filePath) };
}
