/**
 * The index format is versioned: an index written in another format (older or newer) is
 * rebuilt with one line on stderr saying so, once; a current one is opened silently.
 */

import assert from "node:assert/strict";
import { formatChange } from "../src/store/format.ts";
import { STORE_FORMAT } from "../src/store/kv.ts";
import { cleanup, makeProject, runCli, tempIndexDir } from "./helpers.ts";

Deno.test("format: what opening a store of each recorded format does", () => {
  assert.equal(formatChange("/i", STORE_FORMAT, true, STORE_FORMAT), null);
  assert.deepEqual(formatChange("/i", null, false, STORE_FORMAT), { found: null, message: "" });
  const older = formatChange("/i", STORE_FORMAT - 1, true, STORE_FORMAT);
  assert.match(older?.message ?? "", /format \d+ by an older codectx; rebuilding it in format/);
  const newer = formatChange("/i", STORE_FORMAT + 5, true, STORE_FORMAT);
  assert.match(newer?.message ?? "", /by a newer codectx/);
  assert.match(formatChange("/i", null, true, 3)?.message ?? "", /without a format version/);
  assert.match(formatChange("/i", "3", true, 3)?.message ?? "", /without a format version/);
});

/** The `.kv` file `codectx index` wrote under `indexDir` (one project: one folder). */
async function kvPath(indexDir: string): Promise<string> {
  for await (const e of Deno.readDir(indexDir)) {
    if (e.isDirectory) return `${indexDir}/${e.name}/index.kv`;
  }
  throw new Error(`no index folder in ${indexDir}`);
}

for (const written of [STORE_FORMAT - 1, STORE_FORMAT + 1]) {
  Deno.test(`format: an index written in format ${written} is rebuilt with one line saying so`, async () => {
    const project = await makeProject({
      "a.py": "def one():\n    return 1\n",
      "b.py": "from a import one\n\n\ndef two():\n    return one() + 1\n",
    });
    const home = await tempIndexDir();
    const env = { CODECTX_HOME: home, NO_COLOR: "1" };
    try {
      const first = await runCli(["index", "--path", project, "--json"], env);
      assert.equal(first.code, 0, first.stderr);
      assert.doesNotMatch(first.stderr, /rebuilding/);

      // Another codectx's index: same keys, another format stamp.
      const kv = await Deno.openKv(await kvPath(home));
      await kv.set(["format"], written);
      kv.close();

      const second = await runCli(["index", "--path", project, "--json"], env);
      assert.equal(second.code, 0, second.stderr);
      const lines = second.stderr.split("\n").filter((l) => /rebuilding/.test(l));
      assert.equal(lines.length, 1, second.stderr);
      assert.match(lines[0], new RegExp(`format ${written} by an? (older|newer) codectx`));
      const summary = JSON.parse(second.stdout);
      assert.equal(summary.files, 2);
      assert.equal(summary.parsed, 2, "every file is parsed again");

      const third = await runCli(["index", "--path", project, "--json"], env);
      assert.equal(third.code, 0, third.stderr);
      assert.doesNotMatch(third.stderr, /rebuilding/);
      assert.equal(JSON.parse(third.stdout).changed, 0);
    } finally {
      await cleanup(project, home);
    }
  });
}
