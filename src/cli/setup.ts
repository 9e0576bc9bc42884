/**
 * `codectx setup <client>`: the MCP server entry for one assistant (Claude Desktop, Claude
 * Code, Cursor, VS Code, Codex), written for this machine — the absolute path of the Deno
 * that runs this command, of this clone's `cli.ts` and `deno.json`, and of the project.
 * Without `--write` it prints the entry to paste (stdout) and where it goes (stderr); with
 * `--write` it merges the entry into the client's config file: a backup first, other
 * servers and settings kept, and a file it cannot parse left untouched (exit code 2).
 *
 * @module
 */

import meta from "../../deno.json" with { type: "json" };
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseToml, stringify as stringifyToml } from "npm:smol-toml@1.9.1";
import { errorMessage } from "../errors.ts";
import { parse, UsageError } from "./args.ts";

/** The clients `setup` knows. */
export const CLIENTS = ["claude-desktop", "claude-code", "cursor", "vscode", "codex"] as const;

/** One of {@linkcode CLIENTS}. */
export type Client = typeof CLIENTS[number];

/** How a client starts a stdio MCP server. */
export interface Launch {
  command: string;
  args: string[];
}

/** Where a client keeps its servers, and in which shape. */
interface ClientFormat {
  /** Display name. */
  title: string;
  /** The config file on this OS (`project` for per-project files). */
  file(project: string): string;
  /** `json`: the servers object lives under `key`; `toml`: a `[mcp_servers.NAME]` table. */
  syntax: "json" | "toml";
  key: string;
  /** The entry as this client writes it. */
  entry(launch: Launch): Record<string, unknown>;
}

const HELP = `Usage: codectx setup <client> [--path DIR] [--write] [options]

Prints the MCP server entry that starts codectx on DIR for one assistant, with absolute
paths for this machine; --write merges it into the assistant's config file.

Clients and the file --write changes (Linux):
  claude-desktop  ~/.config/Claude/claude_desktop_config.json
  claude-code     DIR/.mcp.json (project scope; or paste the printed 'claude mcp add-json')
  cursor          ~/.cursor/mcp.json
  vscode          DIR/.vscode/mcp.json
  codex           ~/.codex/config.toml ($CODEX_HOME/config.toml when set)

Options:
  --path DIR          the project the server answers about (default: current directory)
  --write             merge into the config file: the old file is copied to FILE.bak-<time>
                      first, other servers are kept, an unreadable file is left as it is
  --config-file F     write to F instead of the client's usual file
  --name N            the server's name in the config (default: codectx)
  --index-dir DIR     pass --index-dir to the server (default: the server's own choice)

The command is the absolute path of the Deno running this setup, so an assistant started
from a desktop menu (whose PATH rarely holds ~/.deno/bin) finds it.`;

function home(): string {
  const h = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (!h) throw new UsageError("HOME is not set; name the file with --config-file F");
  return h;
}

function claudeDesktopFile(): string {
  if (Deno.build.os === "darwin") {
    return join(home(), "Library/Application Support/Claude/claude_desktop_config.json");
  }
  if (Deno.build.os === "windows") {
    return join(Deno.env.get("APPDATA") ?? home(), "Claude", "claude_desktop_config.json");
  }
  const config = Deno.env.get("XDG_CONFIG_HOME") ?? join(home(), ".config");
  return join(config, "Claude", "claude_desktop_config.json");
}

const stdioEntry = (launch: Launch) => ({ command: launch.command, args: launch.args });

const FORMATS: Record<Client, ClientFormat> = {
  "claude-desktop": {
    title: "Claude Desktop",
    file: claudeDesktopFile,
    syntax: "json",
    key: "mcpServers",
    entry: stdioEntry,
  },
  "claude-code": {
    title: "Claude Code",
    file: (project) => join(project, ".mcp.json"),
    syntax: "json",
    key: "mcpServers",
    entry: (launch) => ({ type: "stdio", ...stdioEntry(launch) }),
  },
  cursor: {
    title: "Cursor",
    file: () => join(home(), ".cursor", "mcp.json"),
    syntax: "json",
    key: "mcpServers",
    entry: stdioEntry,
  },
  vscode: {
    title: "VS Code",
    file: (project) => join(project, ".vscode", "mcp.json"),
    syntax: "json",
    key: "servers",
    entry: (launch) => ({ type: "stdio", ...stdioEntry(launch) }),
  },
  codex: {
    title: "Codex",
    file: () => join(Deno.env.get("CODEX_HOME") ?? join(home(), ".codex"), "config.toml"),
    syntax: "toml",
    key: "mcp_servers",
    entry: stdioEntry,
  },
};

/** The folder of this codectx (the clone holding `cli.ts` and `deno.json`). */
const CODECTX_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The `--v8-flags=…` of this clone's `mcp` task (a long-running server gives memory back only
 * with them; see the README), so an assistant starts the server as `deno task mcp` does.
 */
function mcpV8Flags(): string[] {
  const flag = /--v8-flags=\S+/.exec(meta.tasks.mcp)?.[0];
  return flag ? [flag] : [];
}

/**
 * How to start `codectx mcp` on `project` from this machine: this Deno with this clone's
 * `deno.json` (named, so that a `deno.json` in the client's working folder cannot take its
 * place) and the `mcp` task's V8 flags, or the binary itself when codectx runs compiled.
 */
export function mcpLaunch(project: string, indexDir?: string): Launch {
  const serverArgs = ["mcp", "--path", project, ...(indexDir ? ["--index-dir", indexDir] : [])];
  const exe = Deno.execPath();
  if (!/^deno(\.exe)?$/.test(exe.split(/[\\/]/).pop() ?? "")) {
    return { command: exe, args: serverArgs };
  }
  return {
    command: exe,
    args: [
      "run",
      "-A",
      ...mcpV8Flags(),
      "--config",
      join(CODECTX_ROOT, "deno.json"),
      join(CODECTX_ROOT, "cli.ts"),
      ...serverArgs,
    ],
  };
}

/** The text to paste: the client's servers object holding only `name`. */
export function configSnippet(client: Client, name: string, launch: Launch): string {
  const f = FORMATS[client];
  const doc = { [f.key]: { [name]: f.entry(launch) } };
  return f.syntax === "json" ? JSON.stringify(doc, null, 2) : stringifyToml(doc);
}

/** A config file that could not be read as its format: reported, never overwritten. */
export class MalformedConfig extends Error {}

type Table = Record<string, unknown>;

function isTable(v: unknown): v is Table {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The merged text, and whether server `name` was there before. */
interface Merged {
  text: string;
  existed: boolean;
}

/** `text` with `entry` set as server `name`; other keys and servers kept. */
function mergeJson(
  text: string,
  f: ClientFormat,
  name: string,
  entry: Table,
  file: string,
): Merged {
  let doc: unknown = {};
  if (text.trim() !== "") {
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new MalformedConfig(
        `${file} is not valid JSON (${errorMessage(err)}); it was left unchanged. ` +
          `Fix it (comments and trailing commas are not read), or paste the entry that ` +
          `'codectx setup' prints without --write`,
      );
    }
  }
  if (!isTable(doc) || (f.key in doc && !isTable(doc[f.key]))) {
    throw new MalformedConfig(
      `${file}: expected a JSON object with an object "${f.key}"; it was left unchanged`,
    );
  }
  const old = (doc[f.key] ?? {}) as Table;
  const servers = { ...old, [name]: entry };
  return {
    text: JSON.stringify({ ...doc, [f.key]: servers }, null, 2) + "\n",
    existed: name in old,
  };
}

/**
 * `text` with the `[mcp_servers.<name>]` table replaced or appended. The rest of the file is
 * kept byte for byte (comments included): only that table's lines change.
 */
function mergeToml(text: string, name: string, entry: Table, file: string): Merged {
  let doc: Table;
  try {
    doc = parseToml(text);
  } catch (err) {
    throw new MalformedConfig(
      `${file} is not valid TOML (${errorMessage(err).split("\n")[0]}); it was left unchanged`,
    );
  }
  const servers = doc.mcp_servers;
  if (servers !== undefined && !isTable(servers)) {
    throw new MalformedConfig(`${file}: mcp_servers is not a table; it was left unchanged`);
  }
  const block = stringifyToml({ mcp_servers: { [name]: entry } }).trim();
  let kept = text;
  const existed = servers !== undefined && name in servers;
  if (existed) {
    const header = new RegExp(
      `^\\s*\\[\\s*mcp_servers\\s*\\.\\s*("?)${name.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}\\1` +
        `\\s*(\\]|\\.)`,
    );
    const lines = text.split("\n");
    const out: string[] = [];
    let skipping = false;
    for (const line of lines) {
      if (/^\s*\[/.test(line)) skipping = header.test(line);
      if (!skipping) out.push(line);
    }
    kept = out.join("\n");
  }
  const merged = `${kept.trimEnd()}${kept.trim() === "" ? "" : "\n\n"}${block}\n`;
  // The table may have been written inline (`mcp_servers = { … }`): then the text cannot be
  // edited line by line, and the file stays as it is.
  try {
    const check = parseToml(merged).mcp_servers as Table;
    if (JSON.stringify(check[name]) === JSON.stringify(entry)) return { text: merged, existed };
  } catch {
    // falls through to the report below
  }
  throw new MalformedConfig(
    `${file}: could not place [mcp_servers.${name}] without rewriting other lines; ` +
      `it was left unchanged: add the printed entry by hand`,
  );
}

/** What {@linkcode writeConfig} did. */
export interface WriteResult {
  file: string;
  backup?: string;
  action: "added" | "updated";
}

/** Merges server `name` into `file` (created when missing), after a backup of the old file. */
export async function writeConfig(
  client: Client,
  file: string,
  name: string,
  launch: Launch,
): Promise<WriteResult> {
  const f = FORMATS[client];
  let text = "";
  try {
    text = await Deno.readTextFile(file);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const entry = f.entry(launch);
  const merged = f.syntax === "json"
    ? mergeJson(text, f, name, entry, file)
    : mergeToml(text, name, entry, file);
  await Deno.mkdir(dirname(file), { recursive: true });
  let backup: string | undefined;
  if (text !== "") {
    backup = `${file}.bak-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    await Deno.copyFile(file, backup);
  }
  // Written beside the file and renamed over it: a crash never leaves half a config.
  const tmp = `${file}.codectx-tmp`;
  await Deno.writeTextFile(tmp, merged.text);
  await Deno.rename(tmp, file);
  return { file, backup, action: merged.existed ? "updated" : "added" };
}

function isClient(s: string): s is Client {
  return (CLIENTS as readonly string[]).includes(s);
}

/** Runs `codectx setup`. */
export async function cmdSetup(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    write: { type: "boolean" },
    "config-file": { type: "string" },
    name: { type: "string" },
  }, 1);
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const client = positionals[0];
  if (!client || !isClient(client)) {
    throw new UsageError(
      `${client ? `unknown client '${client}'` : "setup needs a client"}; clients: ` +
        CLIENTS.join(", "),
    );
  }
  const project = await projectRoot(values.path as string | undefined);
  const indexDir = values["index-dir"] ? resolve(values["index-dir"] as string) : undefined;
  const name = (values.name as string | undefined) ?? "codectx";
  const launch = mcpLaunch(project, indexDir);
  const f = FORMATS[client];
  const file = values["config-file"] ? resolve(values["config-file"] as string) : f.file(project);
  if (/[\\/]_npx[\\/]/.test(launch.command)) {
    console.error(
      `codectx setup: this Deno runs from npx's cache (${launch.command}), which npm may clear; ` +
        "for a lasting entry install Deno (npm install -g deno@2.9.6) and run setup with it",
    );
  }
  if (!values.write) {
    console.log(configSnippet(client, name, launch));
    const where = f.syntax === "json" ? `under "${f.key}" in ${file}` : `in ${file}`;
    console.error(
      `codectx setup: ${f.title}: put the entry above ${where}, or run again with --write`,
    );
    if (client === "claude-code") {
      console.error(
        `  or, for every project of this user: claude mcp add-json --scope user ${name} '${
          JSON.stringify(f.entry(launch))
        }'`,
      );
    }
    return 0;
  }
  try {
    const r = await writeConfig(client, file, name, launch);
    console.log(
      `${r.action} MCP server '${name}' for ${f.title} in ${r.file}` +
        (r.backup ? ` (previous file saved as ${r.backup})` : "") +
        `; restart ${f.title} to load it`,
    );
    return 0;
  } catch (err) {
    if (err instanceof MalformedConfig) {
      console.error(`codectx setup: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

async function projectRoot(path: string | undefined): Promise<string> {
  const abs = resolve(path ?? Deno.cwd());
  try {
    const real = await Deno.realPath(abs);
    if ((await Deno.stat(real)).isDirectory) return real;
  } catch {
    // reported below
  }
  throw new UsageError(`--path ${abs} is not a folder; give the project's root folder`);
}
