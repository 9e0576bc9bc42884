/**
 * A module bound by `require` is what its import says: `var lib = require("./lib")` then
 * `lib.repeat(…)` calls lib.js's `repeat` (nunjucks' filters.js calling lib.js), whatever
 * form the exports take (`exports.f = f`, `var _exports = module.exports = {}`).
 */

import assert from "node:assert/strict";
import { callTool, type Payload, refLines, withExecutor } from "./helpers.ts";

Deno.test("lib.f() after var lib = require('./lib') calls lib.js's f", async () => {
  await withExecutor({
    "src/lib.js": "'use strict';\n\nvar _exports = module.exports = {};\n\n" +
      "function repeat(char_, n) {\n  return char_ + n;\n}\n_exports.repeat = repeat;\n",
    "src/filters.js": "'use strict';\n\nvar lib = require('./lib');\n\n" +
      "function center(str, width) {\n  var pre = lib.repeat(' ', width);\n  return pre + str;\n}\n" +
      "module.exports = { center: center };\n",
    "index.js": "const lib = require('./src/lib');\nlib.repeat('-', 3);\n",
  }, async (ex) => {
    const refs = await refLines(ex, "repeat");
    assert.ok(refs.includes("src/filters.js:6 call exact"), refs.join("\n"));
    assert.ok(refs.includes("index.js:2 call exact"), refs.join("\n"));
    const graph = await callTool(ex, "get_call_graph", { symbol_name: "repeat" });
    const sites = (graph.edges as Payload[]).filter((e) => e.to === "repeat")
      .map((e) => `${e.file}:${e.line}`).sort();
    assert.deepEqual(sites, ["index.js:2", "src/filters.js:6"]);
  });
});
