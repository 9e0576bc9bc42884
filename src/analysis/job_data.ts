/**
 * An analysis job as it crosses to a worker and back: what is asked (a file's analysis, a
 * snippet's validation against a project view) and the project view as plain data. Light on
 * purpose: the pool (`pool.ts`) imports this, and the analysis code itself (`job.ts`) loads
 * only where a job runs — on a worker, or inline when none can start.
 *
 * @module
 */

import { family, type ProjectView, VALIDATABLE } from "./project_view.ts";
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

/** Project views a worker keeps (the current generation and the one before). */
export const KEEP_VIEWS = 2;

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
