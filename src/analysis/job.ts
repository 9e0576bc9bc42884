/**
 * An analysis job as it crosses to a worker and back: what is asked (a file's analysis, a
 * snippet's validation against a project view), what a worker answers, and how a job is run
 * — what `worker.ts` does with each message, and what the pool runs inline when no worker can
 * start (`pool.ts`).
 *
 * @module
 */

import { CodectxError, type ErrorCode, errorCode, errorMessage } from "../errors.ts";
import { analyzeSource } from "./analyze.ts";
import { family, type ProjectView } from "./project_view.ts";
import { VALIDATABLE } from "./detect.ts";
import { outlineSnippet } from "./explain.ts";
import { validateCode } from "./validate.ts";
import { slot } from "../util/memo.ts";

/** One file to analyze. */
export interface AnalyzeJob {
  kind: "analyze";
  file: string;
  text: string;
  language: string;
}

/** One snippet to validate against a project view (sent once per worker, then by id). */
export interface ValidateJob {
  kind: "validate";
  code: string;
  language?: string;
  filePath?: string;
  viewId: number;
  view?: ViewData;
  /** Also outline the snippet (its symbols and calls) in the language chosen. */
  explain?: boolean;
}

/** A job of `worker.ts`. */
export type AnalysisJob = AnalyzeJob | ValidateJob;

/** A project view as plain data, for a worker. */
export interface ViewData {
  /** Symbol names by language family. */
  names: Array<[string, string[]]>;
  topLevel: Array<[string, string[]]>;
  files: string[];
  pythonModules: Array<[string, string]>;
  dependencies: { python: string[]; javascript: string[]; go: string[] };
  goModule: string;
}

/** A worker's answer, with the memory its isolate holds after the job (`heapUsed + external`). */
export type JobReply =
  & ({ id: number; result: unknown } | { id: number; error: { code: ErrorCode; message: string } })
  & { memory?: number };

/** Sent by a worker when it begins a job (its module is loaded): the job's time starts then. */
export interface JobStarted {
  id: number;
  started: true;
}

/** Project views a worker keeps (the current generation and the one before). */
export const KEEP_VIEWS = 2;

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

/** A thrown value as a worker's error reply. */
export function replyError(id: number, err: unknown): JobReply {
  return { id, error: { code: errorCode(err), message: errorMessage(err) } };
}

let nextViewId = 1;

/**
 * A view's id and plain data (what a worker is sent), made once per view (a view made for one
 * call: each time).
 */
const SHIPPED = slot("worker data", (view: ProjectView) => shipped(view));

export function viewData(view: ProjectView): { id: number; data: ViewData } {
  return view.memo?.get(SHIPPED) ?? shipped(view);
}

function shipped(view: ProjectView): { id: number; data: ViewData } {
  const families = [...new Set(VALIDATABLE.map(family))];
  return {
    id: nextViewId++,
    data: {
      names: families.map((f) => [f, [...view.symbolNames(f)]]),
      topLevel: [...view.files].flatMap((f) => {
        const names = view.topLevelNames(f);
        return names ? [[f, [...names]] as [string, string[]]] : [];
      }),
      files: [...view.files],
      pythonModules: [...view.pythonModules],
      dependencies: {
        python: [...view.dependencies.python],
        javascript: [...view.dependencies.javascript],
        go: [...view.dependencies.go],
      },
      goModule: view.goModule,
    },
  };
}

/** The view a worker rebuilds from {@link ViewData}. */
export function viewFromData(d: ViewData): ProjectView {
  const names = new Map(d.names.map(([f, n]) => [f, new Set(n)]));
  const topLevel = new Map(d.topLevel.map(([f, n]) => [f, new Set(n)]));
  const none = new Set<string>();
  return {
    symbolNames: (language) => names.get(family(language)) ?? none,
    topLevelNames: (path) => topLevel.get(path),
    files: new Set(d.files),
    pythonModules: new Map(d.pythonModules),
    dependencies: {
      python: new Set(d.dependencies.python),
      javascript: new Set(d.dependencies.javascript),
      go: new Set(d.dependencies.go),
    },
    goModule: d.goModule,
  };
}
