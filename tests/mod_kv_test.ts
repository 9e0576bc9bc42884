/**
 * `mod.ts` imported by a program that has no Deno KV (a plain `deno run`, no `--unstable-kv`,
 * no `"unstable": ["kv"]`) fails at import with codectx's own line saying what to add, not
 * with Deno's error from inside the first call.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { KV_MISSING } from "../src/util/kv_check.ts";

Deno.test("mod.ts without Deno KV: one line from codectx saying what to add", async () => {
  const dir = await Deno.makeTempDir({ prefix: "codectx-nokv-" });
  try {
    const mod = new URL("../mod.ts", import.meta.url).href;
    // It would index and call a tool if the import went through.
    await Deno.writeTextFile(
      join(dir, "main.ts"),
      `import { createExecutor } from ${JSON.stringify(mod)};
const ex = await createExecutor(${JSON.stringify(dir)}, { indexDir: ${
        JSON.stringify(join(dir, "idx"))
      } });
await ex.execute({ tool_name: "search_symbols", arguments: { query: "x" } });
await ex.close();
console.log("ran");
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.notEqual(out.code, 0);
    assert.equal(new TextDecoder().decode(out.stdout), "");
    assert.ok(stderr.includes(KV_MISSING), stderr);
    assert.match(KV_MISSING, /--unstable-kv/);
    assert.match(KV_MISSING, /"unstable": \["kv"\]/);
    assert.doesNotMatch(KV_MISSING, /\n/);
    // Nothing was opened or written before it said so.
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["main.ts"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
