/**
 * What counts as a test file: the one rule every tool uses (`include_tests` of
 * semantic_search, find_references and get_call_graph; the `tests` scope of search; the texts
 * that count a test file's references instead of listing them). In the kernel so that tools'
 * renderers read it; `index/test_files.ts` hands it to the domains.
 *
 * A file is a test file when its path has a test folder, or its name follows its
 * language's test naming:
 *
 * | language                      | test files                                                     |
 * | ----------------------------- | -------------------------------------------------------------- |
 * | every language                | under a folder `test/`, `tests/`, `t/` (Perl, git, Celery), `__tests__/`, `testing/`, `spec/`, `specs/`, `testdata/`, or `src/test/` (Maven, Gradle) |
 * | Python                        | `test_*.py`, `*_test.py`, `conftest.py`                        |
 * | Go                            | `*_test.go`                                                    |
 * | JavaScript, TypeScript        | `*.test.*` and `*.spec.*` (`.js`, `.jsx`, `.ts`, `.tsx`, `.mjs`, `.cjs`, `.mts`, `.cts`), type tests `*.test-d.*` (vitest, tsd), and Deno's `*_test.*` |
 * | Java, Kotlin, C#, Swift, Scala | `*Test.*`, `*Tests.*`                                          |
 * | Ruby                          | `*_spec.rb`, `*_test.rb`                                       |
 * | Elixir, Dart                  | `*_test.exs`, `*_test.ex`, `*_test.dart`                       |
 * | Rust                          | the crate's `tests/` folder (integration tests); a `#[cfg(test)] mod tests` inside a source file is not a file of its own and counts as code |
 *
 * @module
 */

/** Test folders of the common ecosystems. */
const TEST_DIR = /(^|\/)(tests?|t|__tests__|testing|spec|specs|testdata|src\/test)\//;
/** Test file names, per language (see the table above). */
const TEST_FILE =
  /(^|\/)(test_[^/]*\.py|[^/]*_test\.(py|go|rb|exs?|dart|[cm]?[jt]sx?)|conftest\.py|[^/]*\.(test|spec|test-d)\.[cm]?[jt]sx?|[^/]*Tests?\.(java|kt|cs|swift|scala)|[^/]*_spec\.rb)$/;

/**
 * Whether a project-relative path is a test file.
 *
 * @example
 * ```ts
 * isTestFile("pkg/tests/test_io.py"); // true
 * isTestFile("cli/app_test.go");      // true
 * isTestFile("src/io.py");            // false
 * ```
 */
export function isTestFile(path: string): boolean {
  return TEST_DIR.test(path) || TEST_FILE.test(path);
}
