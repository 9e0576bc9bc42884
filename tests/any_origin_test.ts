/**
 * `--allow-origin '*'` without a token would let any web page the user opens call every tool:
 * `serve`, `web` and `mcp --http` refuse to start so unless `--unsafe-any-origin` confirms
 * it, and then warn on stderr at start; with a token, `*` starts quietly and a page without
 * the token gets 401.
 */

import assert from "node:assert/strict";
import { serverConfig } from "../src/cli/server_options.ts";
import { cleanup, CLI, makeProject, tempIndexDir } from "./helpers.ts";
import { REPO, startCli } from "./surfaces_helpers.ts";

const noEnv = () => undefined;

Deno.test("serverConfig: '*' without a token is refused, confirmed it warns, with a token it is quiet", () => {
  assert.throws(
    () => serverConfig({ "allow-origin": ["*"] }, 1, noEnv, () => {}),
    /any web page.*--token <secret>.*--unsafe-any-origin/,
  );
  const warned: string[] = [];
  const confirmed = serverConfig(
    { "allow-origin": ["*"], "unsafe-any-origin": true },
    1,
    noEnv,
    (line) => warned.push(line),
  );
  assert.deepEqual(confirmed.allowOrigins, ["*"]);
  assert.equal(warned.length, 1);
  assert.match(warned[0], /WARNING: --allow-origin '\*' without a token .* --token <secret>/);

  const quiet: string[] = [];
  serverConfig({ "allow-origin": ["*"], token: "s" }, 1, noEnv, (l) => quiet.push(l));
  serverConfig({ "allow-origin": ["*"] }, 1, () => "from-env", (l) => quiet.push(l));
  serverConfig({ "allow-origin": ["https://app.example"] }, 1, noEnv, (l) => quiet.push(l));
  assert.deepEqual(quiet, []);
  assert.throws(
    () => serverConfig({ "unsafe-any-origin": true }, 1, noEnv, () => {}),
    /confirms --allow-origin '\*'/,
  );
});

/**
 * Starts `codectx <command> <args>` and returns once it exits (refused) or announces its
 * address (started, then stopped): it never waits on a server that runs.
 */
async function startOrRefuse(
  command: string[],
  args: string[],
): Promise<{ started: boolean; code: number; stderr: string }> {
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...command, ...args],
    cwd: REPO,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { CODECTX_TOKEN: "" },
  }).spawn();
  let stderr = "";
  let started = false;
  const dec = new TextDecoder();
  for await (const chunk of proc.stderr) {
    stderr += dec.decode(chunk, { stream: true });
    if (!started && /listening on http/.test(stderr)) {
      started = true;
      proc.kill("SIGTERM");
    }
  }
  const { code } = await proc.status;
  return { started, code, stderr };
}

Deno.test("serve, web and mcp --http refuse --allow-origin '*' without a token, naming the risk and --token", async () => {
  const root = await makeProject({ "a.py": "def alpha():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const common = ["--path", root, "--index-dir", indexDir, "--port", "0", "--no-watch"];
  try {
    for (const command of [["serve"], ["web"], ["mcp", "--http"]]) {
      const r = await startOrRefuse(command, [...common, "--allow-origin", "*"]);
      assert.equal(r.started, false, `${command.join(" ")} started:\n${r.stderr}`);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /any web page .* every tool/);
      assert.match(r.stderr, /--token <secret>/);
    }
  } finally {
    await cleanup(root, indexDir);
  }
});

Deno.test("--unsafe-any-origin starts with a warning on stderr; with a token '*' needs the token", async () => {
  const root = await makeProject({ "a.py": "def alpha():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const common = ["--path", root, "--index-dir", indexDir, "--port", "0", "--no-watch"];
  const page = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
  const open = await startCli("serve", [...common, "--allow-origin", "*", "--unsafe-any-origin"], {
    CODECTX_TOKEN: "",
  });
  const guarded = await startCli("serve", [...common, "--allow-origin", "*", "--token", "s3"], {
    CODECTX_TOKEN: "",
  });
  try {
    assert.match(open.stderr(), /WARNING: --allow-origin '\*' without a token/);
    // Deliberately open: a page of any site is answered.
    const res = await fetch(`${open.url}/tools/list`, { headers: page });
    await res.body?.cancel();
    assert.equal(res.status, 200);

    assert.doesNotMatch(guarded.stderr(), /WARNING/);
    const refused = await fetch(`${guarded.url}/tools/list`, { headers: page });
    await refused.body?.cancel();
    assert.equal(refused.status, 401);
    const withToken = await fetch(`${guarded.url}/tools/list`, {
      headers: { ...page, Authorization: "Bearer s3" },
    });
    await withToken.body?.cancel();
    assert.equal(withToken.status, 200);
  } finally {
    await open.stop();
    await guarded.stop();
    await cleanup(root, indexDir);
  }
});
