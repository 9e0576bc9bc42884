/**
 * What kind of file a search result comes from (code, docs or tests) and which kinds a
 * search covers: the `scope` and `include_tests` arguments of `semantic_search`. What a
 * test file is: the one rule in `index/test_files.ts`.
 *
 * @module
 */

import { isTestFile } from "../index/test_files.ts";
import { languageById } from "../parse/languages.ts";
import { slot } from "../util/memo.ts";
import type { ChunkTable } from "./table.ts";

/** The kinds of file. */
export type FileClass = "code" | "docs" | "tests";

/** The `scope` argument. */
export type SearchScope = "code" | "docs" | "tests" | "all";

/** Scopes, as the tool lists them. */
export const SCOPES: readonly SearchScope[] = ["code", "docs", "tests", "all"];

/**
 * The class of a file by its path and language.
 *
 * @example
 * ```ts
 * fileClass("pkg/tests/test_io.py", "python"); // "tests"
 * fileClass("README.md", "markdown");          // "docs"
 * fileClass("src/io.py", "python");            // "code"
 * ```
 */
export function fileClass(path: string, language: string): FileClass {
  // Prose and build files are docs wherever they live (the language row says which).
  if (languageById(language)?.docs) return "docs";
  if (isTestFile(path)) return "tests";
  return "code";
}

/**
 * Code a project carries but did not write: a vendored copy (`vendor/`, `third_party/`,
 * `node_modules/`) or a generated file (`*.pb.go`, `*_pb2.py`, `*.min.js`, `zz_generated*`). A
 * literal search lists the project's own lines first (containerd's `TaskExit`: the first ten
 * matches were methods of a generated `task.pb.go`, issue 35).
 *
 * @example
 * ```ts
 * isCarried("api/events/task.pb.go"); // true
 * isCarried("runtime/v2/service.go"); // false
 * ```
 */
export function isCarried(path: string): boolean {
  return /(^|\/)(vendor|third_party|third-party|node_modules)\//.test(path) ||
    /(\.pb(\.gw)?\.go|_pb2(_grpc)?\.pyi?|\.pb\.(cc|h)|\.min\.js)$|(^|\/)zz_generated|_generated\.go$/
      .test(path);
}

/**
 * Score factor of docs in the default scope: a question about behaviour should meet the
 * code that implements it before the prose that describes it; docs still answer when no
 * code does. Measured on `got`'s package (see `bench/search_vs_bm25.ts --docs`).
 */
export const DEFAULT_DOCS_WEIGHT = 0.6;

/**
 * Per class, whether a search covers it and the factor of its scores; null = left out.
 * Default (no scope): code, and docs ranked below code; tests only with `include_tests`.
 */
export function classWeights(
  scope: SearchScope | undefined,
  includeTests: boolean | undefined,
): Record<FileClass, number | null> {
  switch (scope) {
    case "code":
      return { code: 1, docs: null, tests: includeTests ? 1 : null };
    case "docs":
      return { code: null, docs: 1, tests: null };
    case "tests":
      return { code: null, docs: null, tests: 1 };
    case "all":
      return { code: 1, docs: 1, tests: 1 };
    default:
      return { code: 1, docs: DEFAULT_DOCS_WEIGHT, tests: includeTests ? 1 : null };
  }
}

const FILE_CLASSES = slot(
  "file classes",
  (table: ChunkTable) => table.files.map((f) => fileClass(f.path, f.language)),
);

/** The class (code, docs, tests…) of each file of the table, made once per table. */
export function fileClasses(table: ChunkTable): FileClass[] {
  return table.memo.get(FILE_CLASSES);
}

const CARRIED = slot(
  "carried files",
  (table: ChunkTable) => table.files.map((f) => isCarried(f.path)),
);

/** Per file of the table, whether it is carried code ({@link isCarried}), made once per table. */
export function carriedFiles(table: ChunkTable): boolean[] {
  return table.memo.get(CARRIED);
}
