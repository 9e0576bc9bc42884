/**
 * Command-line options shared by the long-running surfaces (`serve`, `web`, `mcp --http`):
 * bind address, token, extra origins, body limit, watching, the indexing memory budget, the
 * connection cap.
 *
 * @module
 */

import { DEFAULT_MAX_BODY, isLoopback } from "../http/safety.ts";
import type { ServerConfig } from "../http/serve.ts";
import { type Options, UsageError } from "./args.ts";

/** The options, as `parse` takes them. `--allow-origin` may be repeated or comma-separated. */
export const SERVER_OPTIONS: Options = {
  host: { type: "string", short: "h" },
  port: { type: "string", short: "p" },
  token: { type: "string" },
  "max-body": { type: "string" },
  "no-watch": { type: "boolean" },
  "allow-origin": { type: "string", multiple: true },
  "unsafe-any-origin": { type: "boolean" },
  "max-memory": { type: "string" },
  "max-connections": { type: "string" },
  timeout: { type: "string" },
};

/** Help lines for those options. */
export const SERVER_HELP =
  `  --host, -h HOST      interface to bind (default 127.0.0.1; others need --token)
  --port, -p N         port (0 picks a free one; the address is printed on stderr)
  --token SECRET       require Authorization: Bearer SECRET (default: $CODECTX_TOKEN)
  --allow-origin O     also allow this browser origin (repeatable, comma-separated; '*' = any,
                       which needs --token, or --unsafe-any-origin to run without one)
  --unsafe-any-origin  accept --allow-origin '*' without a token: any web page you open can
                       then call every tool (a warning is printed at each start)
  --max-body SIZE      largest request body (default 1MiB; e.g. 262144, 512k, 2m)
  --no-watch           do not watch the project for changes
  --max-memory MIB     memory an indexing run may use (default 1024)
  --max-connections N  open connections at once; one more is answered 503 (default 1024)
  --timeout S          seconds a tool call may take before it is stopped (default 30)
  --path DIR           project root (default: current directory)
  --index-dir DIR      where the index lives`;

/** Parses `1048576`, `512k`, `2m`, `1MiB` into bytes. */
export function parseSize(text: string): number | null {
  const m = /^\s*(\d+)\s*(b|k|kb|kib|m|mb|mib)?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? "b").toLowerCase();
  const mult = unit.startsWith("k") ? 1024 : unit.startsWith("m") ? 1024 * 1024 : 1;
  return n * mult;
}

/**
 * Reads the server options from parsed values; a bad value or an unsafe bind is a
 * `UsageError` that says what to pass instead. `warn` gets the lines to print on stderr
 * at start (an unsafe setting the user confirmed).
 */
export function serverConfig(
  values: Record<string, unknown>,
  defaultPort: number,
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
  warn: (line: string) => void = (line) => console.error(line),
): ServerConfig {
  const host = typeof values.host === "string" && values.host !== "" ? values.host : "127.0.0.1";
  let port = defaultPort;
  if (values.port !== undefined) {
    const p = String(values.port);
    if (!/^\d{1,5}$/.test(p) || Number(p) > 65535) {
      throw new UsageError(`--port must be an integer from 0 to 65535, not '${p}'`);
    }
    port = Number(p);
  }
  let maxBody = DEFAULT_MAX_BODY;
  if (values["max-body"] !== undefined) {
    const size = parseSize(String(values["max-body"]));
    if (size === null || size < 1) {
      throw new UsageError(
        `--max-body must be a positive size in bytes (e.g. 1048576, 512k, 2m), not '${
          values["max-body"]
        }'`,
      );
    }
    maxBody = size;
  }
  const rawOrigins: unknown = values["allow-origin"];
  const list = Array.isArray(rawOrigins)
    ? rawOrigins
    : typeof rawOrigins === "string"
    ? [rawOrigins]
    : [];
  const allowOrigins = list.flatMap((o) => String(o).split(",")).map((o) => o.trim()).filter(
    Boolean,
  );
  const tokenValue = typeof values.token === "string" ? values.token : env("CODECTX_TOKEN");
  const token = tokenValue && tokenValue.trim() !== "" ? tokenValue.trim() : undefined;
  if (values.token !== undefined && token === undefined) {
    throw new UsageError("--token is empty; pass a non-empty secret");
  }
  if (!isLoopback(host) && token === undefined) {
    throw new UsageError(
      `binding ${host} exposes the project to the network; pass --token <secret> (or set CODECTX_TOKEN) so that every request must carry Authorization: Bearer <secret>, or bind 127.0.0.1`,
    );
  }
  checkAnyOrigin(allowOrigins, token, values["unsafe-any-origin"] === true, warn);
  let limits: ServerConfig["limits"];
  if (values["max-connections"] !== undefined) {
    const n = String(values["max-connections"]);
    if (!/^\d{1,7}$/.test(n) || Number(n) < 1) {
      throw new UsageError(`--max-connections must be a positive integer, not '${n}'`);
    }
    limits = { maxConnections: Number(n) };
  }
  return {
    host,
    port,
    token,
    allowOrigins,
    maxBody,
    watch: values["no-watch"] !== true,
    ...(limits ? { limits } : {}),
  };
}

/**
 * `--allow-origin '*'` without a token lets every web page the user opens call every tool
 * (read the project's code, follow its symbols): refused unless `--unsafe-any-origin`
 * confirms it, and then said on stderr at each start. With a token, a page must also know
 * the secret, which none does unless given it.
 */
function checkAnyOrigin(
  origins: readonly string[],
  token: string | undefined,
  confirmed: boolean,
  warn: (line: string) => void,
): void {
  const any = origins.includes("*");
  if (confirmed && !any) {
    throw new UsageError(
      "--unsafe-any-origin confirms --allow-origin '*' without a token; pass both, or neither",
    );
  }
  if (!any || token !== undefined) return;
  const risk = "--allow-origin '*' without a token lets any web page open in your browser " +
    "call every tool of this server and read the project's code";
  const fix = "pass --token <secret> (or set CODECTX_TOKEN) so that only clients sending " +
    "Authorization: Bearer <secret> are answered, or name the origins you need " +
    "(--allow-origin https://app.example)";
  if (!confirmed) {
    throw new UsageError(`${risk}; ${fix}, or add --unsafe-any-origin to accept that risk`);
  }
  warn(`codectx: WARNING: ${risk}. To close it, ${fix}.`);
}
