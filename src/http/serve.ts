/**
 * Starts a Hono app on `Deno.serve` with an explicit hostname and announces the bound
 * address on stderr (`codectx bridge listening on http://127.0.0.1:PORT`), so that
 * `--port 0` is usable from scripts and tests.
 *
 * @module
 */

import { serverConfig } from "./config.ts";
import type { SafetyOptions } from "./safety.ts";
import { openSurface, type Surface, untilSignal } from "./surface.ts";

/** A running server. */
export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:24842`. */
  url: string;
  port: number;
  /** Stops accepting connections and waits for open requests (streams are cut). */
  shutdown(): Promise<void>;
}

/** How to start a server. */
export interface ServeOptions {
  hostname: string;
  port: number;
  /** Word in the announcement: `bridge`, `web`, `mcp`. */
  label: string;
  /** Path appended to the announced address (e.g. `/mcp`). */
  announcePath?: string;
  /** Builds the request handler once the port is known. */
  build: (port: number) => (req: Request) => Response | Promise<Response>;
}

/** `http://host:port`, with brackets around an IPv6 host. */
export function baseUrl(hostname: string, port: number): string {
  const h = hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
  return `http://${h}:${port}`;
}

/**
 * Serves until `shutdown()`.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * const app = new Hono().get("/", (c) => c.text("hi"));
 * const s = startServer({ hostname: "127.0.0.1", port: 0, label: "bridge", build: () => app.fetch });
 * console.error(s.url);
 * await s.shutdown();
 * ```
 */
export function startServer(opts: ServeOptions): RunningServer {
  let handler: ((req: Request) => Response | Promise<Response>) | null = null;
  const abort = new AbortController();
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname: opts.hostname,
      port: opts.port,
      signal: abort.signal,
      onListen: () => {},
    }, (req) => handler ? handler(req) : new Response("starting", { status: 503 }));
  } catch (err) {
    if (err instanceof Deno.errors.AddrInUse) {
      throw new Error(
        `port ${opts.port} on ${opts.hostname} is in use; pass --port N (0 picks a free port)`,
      );
    }
    if (err instanceof Deno.errors.AddrNotAvailable) {
      throw new Error(`cannot bind ${opts.hostname}: no such local address; check --host`);
    }
    throw err;
  }
  const port = server.addr.port;
  handler = opts.build(port);
  const url = baseUrl(opts.hostname, port);
  console.error(`codectx ${opts.label} listening on ${url}${opts.announcePath ?? ""}`);
  return {
    url,
    port,
    async shutdown() {
      abort.abort();
      await server.finished.catch(() => {});
    },
  };
}

/** What `serveSurface` needs from a command. */
export interface SurfaceCommand {
  /** Parsed options (`SERVER_OPTIONS`). */
  values: Record<string, unknown>;
  defaultPort: number;
  label: string;
  announcePath?: string;
  /** Builds the app's request handler over the opened surface. */
  build: (
    surface: Surface,
    safety: SafetyOptions,
  ) => (req: Request) => Response | Promise<Response>;
  /** Runs before the surface closes (e.g. closing an event hub). */
  onClose?: () => void;
}

/**
 * Opens the project, starts one HTTP surface on it and serves until SIGINT/SIGTERM; the
 * exit code is 0 after a clean stop.
 */
export async function serveSurface(cmd: SurfaceCommand): Promise<number> {
  const config = serverConfig(cmd.values, cmd.defaultPort);
  const surface = await openSurface(cmd.values, { watch: config.watch });
  let server: RunningServer;
  try {
    server = startServer({
      hostname: config.host,
      port: config.port,
      label: cmd.label,
      announcePath: cmd.announcePath,
      build: (port) =>
        cmd.build(surface, {
          hostname: config.host,
          port: () => port,
          token: config.token,
          allowOrigins: config.allowOrigins,
          maxBody: config.maxBody,
        }),
    });
  } catch (err) {
    cmd.onClose?.();
    await surface.close();
    throw err;
  }
  await untilSignal();
  cmd.onClose?.();
  await server.shutdown();
  await surface.close();
  return 0;
}
