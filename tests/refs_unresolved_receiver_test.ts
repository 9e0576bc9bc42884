/**
 * A call of a function through a receiver codectx cannot follow is a use by name, listed as
 * grep would list it — never "no references". Blind run (issue 35): pm2's
 * `God.executeApp = function …` and `Common.parseConfig = function …` (members assigned to an
 * object) answered "no references" to `refs` and `find_references` where seven calls exist, and
 * SQLAlchemy's `save_obj` listed only its own recursive call, not `persistence.save_obj(…)`
 * through a module held in a variable. A name that leads to a library stays out.
 */

import assert from "node:assert/strict";
import { renderText } from "../src/mcp/render.ts";
import { callTool, withExecutor } from "./helpers.ts";

const FILES = {
  "lib/God.js": [
    "var God = module.exports = {};", // 1
    "", // 2
    "God.executeApp = function executeApp(env, cb) {", // 3
    "  return cb(null, env);", // 4
    "};", // 5
    "", // 6
    "God.handleExit = function handleExit(clu) {", // 7
    "  God.executeApp(clu.env, function () {});", // 8
    "};", // 9
    "",
  ].join("\n"),
  "lib/Reload.js": [
    "module.exports = function (God) {", // 1
    "  God.reload = function (id, cb) {", // 2
    "    return God.executeApp({ id: id }, cb);", // 3
    "  };", // 4
    "};", // 5
    "",
  ].join("\n"),
  "orm/persistence.py": [
    "def save_obj(base_mapper, states):", // 1
    "    if not states:", // 2
    "        return save_obj(base_mapper, [])", // 3
    "    return states", // 4
    "",
  ].join("\n"),
  "orm/unitofwork.py": [
    "from . import util", // 1
    "", // 2
    "", // 3
    "def flush(mapper, states):", // 4
    "    persistence = util.preloaded.orm_persistence", // 5
    "    persistence.save_obj(mapper, states)", // 6
    "",
  ].join("\n"),
  "orm/util.py": "preloaded = None\n",
  "app.py": "from json import loads\n\n\ndef read(s):\n    return loads(s)\n",
  "mine.py": "def loads(s):\n    return s\n",
};

type Ref = { file: string; line: number; kind: string; resolution: string };
const lines = (p: Record<string, unknown>) =>
  (p.references as Ref[]).map((r) => `${r.file}:${r.line} ${r.kind} ${r.resolution}`);

Deno.test("find_references: calls through a receiver it cannot follow are listed by name", async () => {
  await withExecutor(FILES, async (ex) => {
    const app = await callTool(ex, "find_references", { symbol_name: "God.executeApp" });
    const calls = lines(app).filter((l) => / call /.test(l));
    assert.deepEqual(calls, ["lib/God.js:8 call name", "lib/Reload.js:3 call name"]);
    assert.match(
      renderText("find_references", app),
      /Reload\.js[^]*3 reload: return God\.executeApp/,
    );

    const save = await callTool(ex, "find_references", { symbol_name: "save_obj" });
    assert.ok(lines(save).includes("orm/persistence.py:3 call exact"), lines(save).join("\n"));
    assert.ok(lines(save).includes("orm/unitofwork.py:6 call name"), lines(save).join("\n"));

    // `loads` in app.py is json's: not a use of mine.py's `loads`.
    const loads = await callTool(ex, "find_references", {
      symbol_name: "loads",
      file_path: "mine.py",
    });
    assert.ok(!lines(loads).some((l) => l.startsWith("app.py")), lines(loads).join("\n"));
  });
});
