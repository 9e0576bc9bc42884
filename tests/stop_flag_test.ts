/**
 * The analysis jobs' stop flag: a job whose flag is raised ends at its next check — in the
 * middle of a parse or a query too — with a `timeout`, and one whose flag stays lowered
 * answers as before. (Deno does not stop a busy worker on `terminate()`, so the pool raises
 * the flag of a job past its limit; `tests/hardening_test.ts` covers the pool's side.)
 */

import assert from "node:assert/strict";
import { analyzeSource } from "../src/analysis/analyze.ts";
import { EMPTY_VIEW } from "../src/analysis/project_view.ts";
import { validateCode } from "../src/analysis/validate.ts";
import { setStopFlag, STOPPABLE, stopRequested } from "../src/analysis/stop_flag.ts";
import { newStopFlag, raiseStopFlag } from "../src/util/worker_pool.ts";
import { errorCode } from "../src/errors.ts";
import { analysisGrammar } from "../src/analysis/grammar.ts";

const SNIPPET = "import pickle\npickle.loads(data)\n";
const ids = (issues: { test_id: string }[]) => issues.map((i) => i.test_id).sort();

Deno.test("stop flag: a lowered flag changes nothing, a raised one stops validate and analyze", async () => {
  const flag = newStopFlag();
  assert.ok(flag, "shared memory is available");
  setStopFlag(flag);
  try {
    const v = await validateCode({ code: SNIPPET, language: "python" }, EMPTY_VIEW);
    assert.deepEqual(ids(v.issues), ["B301", "B403"]);
    const a = await analyzeSource("a.py", SNIPPET);
    assert.deepEqual(ids(a.issues), ["B301", "B403"]);

    raiseStopFlag(flag);
    assert.equal(stopRequested(), true);
    await assert.rejects(
      validateCode({ code: SNIPPET, language: "python" }, EMPTY_VIEW),
      (err: Error) => errorCode(err) === "timeout",
    );
    await assert.rejects(
      analyzeSource("a.py", SNIPPET),
      (err: Error) => errorCode(err) === "timeout",
    );
  } finally {
    setStopFlag(null);
  }
  // No flag on this thread (a job run inline): nothing stops.
  assert.equal(stopRequested(), false);
  const v = await validateCode({ code: SNIPPET, language: "python" }, EMPTY_VIEW);
  assert.deepEqual(ids(v.issues), ["B301", "B403"]);
});

Deno.test("stop flag: tree-sitter gives up a parse and a query when the flag is raised", async () => {
  const g = (await analysisGrammar("python"))!;
  const code = "x = f(1)\n".repeat(20_000);
  const flag = newStopFlag();
  setStopFlag(flag);
  try {
    const whole = g.parser.parse(code, null, STOPPABLE);
    assert.ok(whole, "a lowered flag parses");
    const all = g.analysis.matches(whole.rootNode, STOPPABLE).length;
    assert.ok(all > 0);
    raiseStopFlag(flag);
    assert.equal(g.parser.parse(code, null, STOPPABLE), null, "the parse is cancelled");
    const some = g.analysis.matches(whole.rootNode, STOPPABLE).length;
    assert.ok(some < all, `the query stopped early (${some} of ${all} matches)`);
    whole.delete();
  } finally {
    setStopFlag(null);
  }
});
