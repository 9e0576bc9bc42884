/**
 * What counts as a test file: the rule lives in the kernel (`util/test_files.ts`), where the
 * tools' texts read it too; the index and the domains import it from here.
 *
 * @module
 */

export { isTestFile } from "../util/test_files.ts";
