import assert from "node:assert/strict";
import { isTestFile } from "../src/util/test_files.ts";

Deno.test("a Deno test file (name_test.ts) is a test file, as Deno's runner finds it", () => {
  for (
    const path of ["src/tools/get_impact/case_test.ts", "tests/x.ts", "a/b_test.mjs", "c_test.tsx"]
  ) {
    assert.equal(isTestFile(path), true, path);
  }
  for (const path of ["src/latest.ts", "src/contest_ts.ts", "src/test_utils.ts", "src/attest.js"]) {
    assert.equal(isTestFile(path), false, path);
  }
});
