/**
 * `codectx setup <client>`: for each of the five clients the entry is written with `--write`
 * into a config file that already holds another server, then launched exactly as written —
 * command, args and env, nothing added — by the official MCP SDK client, which calls two
 * tools. Also: the printed entry is the written one, a second write updates in place with a
 * backup, and a malformed file is reported with exit code 2 and left byte for byte.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "npm:/@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { StdioClientTransport } from "npm:/@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
import { parse as parseToml } from "smol-toml";
import { cleanup, runCli } from "./helpers.ts";
import { fixtureCopy } from "./surfaces_helpers.ts";

type Table = Record<string, unknown>;

/** A stdio server entry as the clients store it. */
interface Entry {
  type?: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

interface ClientCase {
  client: string;
  /** The file name the client uses (the test writes it in a temp folder). */
  file: string;
  /** Servers key in the file. */
  key: string;
  /** A file that already holds another server and a setting of the user's. */
  existing: string;
  malformed: string;
}

const otherJson = (key: string) =>
  JSON.stringify({ theme: "dark", [key]: { other: { command: "other-server", args: ["-v"] } } });

const CASES: ClientCase[] = [
  ...([
    ["claude-desktop", "claude_desktop_config.json", "mcpServers"],
    ["claude-code", ".mcp.json", "mcpServers"],
    ["cursor", "mcp.json", "mcpServers"],
    ["vscode", "mcp.json", "servers"],
  ] as const).map(([client, file, key]) => ({
    client,
    file,
    key,
    existing: otherJson(key),
    malformed: `{"${key}": {"other": {"command": "x",}}}`,
  })),
  {
    client: "codex",
    file: "config.toml",
    key: "mcp_servers",
    existing: '# my settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other-server"\n',
    malformed: '[mcp_servers.other]\ncommand = "x\n',
  },
];

function readConfig(c: ClientCase, text: string): Table {
  return c.file.endsWith(".toml") ? parseToml(text) : JSON.parse(text);
}

function serversOf(c: ClientCase, text: string): Record<string, Entry> {
  return readConfig(c, text)[c.key] as Record<string, Entry>;
}

/** Starts the server as the client would and calls two tools; returns the answers. */
async function launch(entry: Entry): Promise<{ file: string; symbol: string }> {
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    env: entry.env,
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (log += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "setup-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    const file = await client.callTool({
      name: "explain_file",
      arguments: { file_path: "app/main.py" },
    }) as { structuredContent?: { file?: string }; isError?: boolean };
    const found = await client.callTool({
      name: "search_symbols",
      arguments: { query: "Vector", kind: "struct" },
    }) as { structuredContent?: { symbols?: Array<{ name: string }> } };
    assert.notEqual(file.isError, true, log);
    return {
      file: file.structuredContent?.file ?? "",
      symbol: found.structuredContent?.symbols?.[0]?.name ?? "",
    };
  } catch (err) {
    console.error(log);
    throw err;
  } finally {
    await client.close().catch(() => {});
  }
}

Deno.test({
  name: "setup: each client's written entry starts the server and answers two tools",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const fx = await fixtureCopy();
    const dir = await Deno.makeTempDir({ prefix: "codectx-setup-" });
    try {
      for (const c of CASES) {
        await t.step(c.client, async () => {
          const file = join(dir, c.client, c.file);
          await Deno.mkdir(join(dir, c.client), { recursive: true });
          await Deno.writeTextFile(file, c.existing);
          const common = ["setup", c.client, "--path", fx.root, "--index-dir", fx.indexDir];

          const printed = await runCli(common);
          assert.equal(printed.code, 0, printed.stderr);
          assert.match(printed.stderr, /--write/);

          const wrote = await runCli([...common, "--write", "--config-file", file]);
          assert.equal(wrote.code, 0, wrote.stderr);
          assert.match(wrote.stdout, /added MCP server 'codectx'/);
          const text = await Deno.readTextFile(file);
          const servers = serversOf(c, text);
          // The user's other server and settings are still there.
          assert.deepEqual(Object.keys(servers).sort(), ["codectx", "other"]);
          assert.equal(servers.other.command, "other-server");
          if (c.file.endsWith(".toml")) assert.ok(text.startsWith("# my settings\n"), text);
          else assert.equal(readConfig(c, text).theme, "dark");
          // What was printed is what was written.
          assert.deepEqual(serversOf(c, printed.stdout).codectx, servers.codectx);
          // The old file was copied first.
          const backup = wrote.stdout.match(/saved as (\S+)\)/)?.[1] ?? "";
          assert.equal(await Deno.readTextFile(backup), c.existing);

          const entry = servers.codectx;
          assert.ok(entry.command.startsWith("/"), entry.command);
          assert.ok(entry.args.includes(fx.root));
          // Started as `deno task mcp` starts it: with the V8 flags that let it give memory back.
          assert.ok(
            entry.args.includes(
              "--v8-flags=--expose-gc,--no-memory-pool-share-memory-on-teardown,--heap-growing-percent=50",
            ),
            entry.args.join(" "),
          );
          if (c.client === "vscode" || c.client === "claude-code") {
            assert.equal(entry.type, "stdio");
          }
          const answers = await launch(entry);
          assert.deepEqual(answers, { file: "app/main.py", symbol: "Vector" });

          // A second write replaces the entry in place, keeps the rest, and backs up again.
          const again = await runCli([
            "setup",
            c.client,
            "--path",
            join(fx.root, "app"),
            "--write",
            "--config-file",
            file,
          ]);
          assert.equal(again.code, 0, again.stderr);
          assert.match(again.stdout, /updated MCP server 'codectx'/);
          const after = serversOf(c, await Deno.readTextFile(file));
          assert.deepEqual(Object.keys(after).sort(), ["codectx", "other"]);
          assert.ok(after.codectx.args.includes(join(fx.root, "app")));
          assert.ok(!after.codectx.args.includes(fx.root));
        });
      }
    } finally {
      await cleanup(dir);
      await fx.cleanup();
    }
  },
});

Deno.test("setup: a malformed config is reported with exit code 2 and left untouched", async () => {
  const dir = await Deno.makeTempDir({ prefix: "codectx-setup-" });
  try {
    for (const c of CASES) {
      const file = join(dir, `${c.client}-${c.file}`);
      await Deno.writeTextFile(file, c.malformed);
      const r = await runCli(["setup", c.client, "--path", dir, "--write", "--config-file", file]);
      assert.equal(r.code, 2, `${c.client}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /not valid (JSON|TOML).*left unchanged/, c.client);
      assert.equal(await Deno.readTextFile(file), c.malformed, c.client);
    }
    // No backup, no temp file: nothing was written.
    const names = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert.equal(names.length, CASES.length, names.join(", "));
    // A file that does not exist yet is created with just this server.
    const fresh = join(dir, "new", "mcp.json");
    const r = await runCli(["setup", "cursor", "--path", dir, "--write", "--config-file", fresh]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(JSON.parse(await Deno.readTextFile(fresh)).mcpServers), [
      "codectx",
    ]);
    const bad = await runCli(["setup", "emacs", "--path", dir]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown client 'emacs'; clients: claude-desktop/);
  } finally {
    await cleanup(dir);
  }
});
