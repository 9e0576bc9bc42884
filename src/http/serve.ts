/**
 * Starts a surface's app on the listener of `listener.ts` (header, body and idle timeouts, a
 * connection cap, a bounded drain) with an explicit hostname and announces the bound address
 * on stderr (`codectx bridge listening on http://127.0.0.1:PORT`), so that `--port 0` is
 * usable from scripts and tests; serves one surface over an executor until a signal.
 *
 * @module
 */

import { errorMessage } from "../errors.ts";
import type { Executor } from "../tools/executor.ts";
import {
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
  type Listener,
  listenHttp,
} from "./listener.ts";
import type { SafetyOptions } from "./safety.ts";
import { idleCollector } from "./idle_gc.ts";
import { untilSignal } from "./surface.ts";

/** A running server. */
export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:24842`. */
  url: string;
  port: number;
  /** Connections open now. */
  connections(): number;
  /**
   * Stops accepting connections and waits for open requests (streams are cut), at most
   * {@link ServerLimits.drainMs}; then closes the connections left.
   */
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
  /** Connection limits (defaults: {@link DEFAULT_LIMITS}). */
  limits?: Partial<ServerLimits>;
}

/** `http://host:port`, with brackets around an IPv6 host. */
export function baseUrl(hostname: string, port: number): string {
  const h = hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
  return `http://${h}:${port}`;
}

/**
 * Serves until `shutdown()`, with the connection limits of {@link ServerLimits}.
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * const app = new Hono().get("/", (c) => c.text("hi"));
 * const s = await startServer({ hostname: "127.0.0.1", port: 0, label: "bridge", build: () => app.fetch });
 * console.error(s.url);
 * await s.shutdown();
 * ```
 */
export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  let handler: ((req: Request) => Response | Promise<Response>) | null = null;
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  let inFlight = 0;
  const idle = idleCollector();
  // `/health` polls (monitors, the fuzz's prober) are not work: a server polled every 50 ms
  // is still quiet.
  const work = (req: Request) => !req.url.endsWith("/health");
  const guarded = async (req: Request): Promise<Response> => {
    if (work(req)) idle.touch();
    if (!handler) return plainError(503, "busy", "the server is starting; retry in a moment");
    if (inFlight >= limits.maxInFlight) {
      return plainError(
        503,
        "busy",
        `the server is answering ${limits.maxInFlight} requests already; retry in a moment`,
      );
    }
    inFlight++;
    try {
      return await handler(req);
    } catch (err) {
      return plainError(500, "internal", `internal error: ${errorMessage(err)}`);
    } finally {
      inFlight--;
      if (work(req)) idle.touch();
    }
  };
  let listener: Listener;
  try {
    listener = await listenHttp({
      hostname: opts.hostname,
      port: opts.port,
      limits,
      handler: guarded,
      errorBody,
      log: (line) => console.error(`codectx ${opts.label}: ${line}`),
    });
  } catch (err) {
    idle.stop();
    const code = (err as { code?: string }).code;
    if (code === "EADDRINUSE" || err instanceof Deno.errors.AddrInUse) {
      throw new Error(
        `port ${opts.port} on ${opts.hostname} is in use; pass --port N (0 picks a free port)`,
      );
    }
    if (code === "EADDRNOTAVAIL" || err instanceof Deno.errors.AddrNotAvailable) {
      throw new Error(`cannot bind ${opts.hostname}: no such local address; check --host`);
    }
    throw err;
  }
  const port = listener.port;
  handler = opts.build(port);
  const url = baseUrl(opts.hostname, port);
  console.error(`codectx ${opts.label} listening on ${url}${opts.announcePath ?? ""}`);
  return {
    url,
    port,
    connections: () => listener.connections(),
    // Open requests finish; a client that stops reading cannot hold the process past the
    // drain time.
    shutdown: () => {
      idle.stop();
      return listener.close(limits.drainMs);
    },
  };
}

/** Limits of one server: its connections and its requests. */
export interface ServerLimits extends ConnectionLimits {
  /** Requests answered at once; past it, 503 `busy` (streams count while their handler runs). */
  maxInFlight: number;
  /**
   * On shutdown, how long open requests may take to finish (ms) before the server stops
   * waiting for them and closes their connections: a stop (SIGINT/SIGTERM) takes at most
   * this long.
   */
  drainMs: number;
}

/**
 * Defaults of {@link ServerLimits}: those of {@link DEFAULT_CONNECTION_LIMITS}, 256 requests
 * at once, 10 s of drain on shutdown.
 */
export const DEFAULT_LIMITS: ServerLimits = {
  ...DEFAULT_CONNECTION_LIMITS,
  maxInFlight: 256,
  drainMs: 10_000,
};

/** The REST error body, for answers given before any surface is reached. */
function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/** An error answer before any surface is reached (the REST error shape). */
function plainError(status: number, code: string, message: string): Response {
  return new Response(errorBody(code, message), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** A resolved server configuration (the command line's `--host`, `--port`, … options). */
export interface ServerConfig {
  host: string;
  port: number;
  token?: string;
  allowOrigins: string[];
  maxBody: number;
  /** Re-index after changes to the tree. */
  watch: boolean;
  /** Connection and request limits other than the defaults (e.g. `--max-connections`). */
  limits?: Partial<ServerLimits>;
}

/** What `serveSurface` needs from a command. */
export interface SurfaceCommand {
  /** The executor of the project to serve (closed when the server stops). */
  executor: Executor;
  /** Address, limits and safety options (`serverConfig`). */
  config: ServerConfig;
  label: string;
  announcePath?: string;
  /** Builds the app's request handler over the executor. */
  build: (
    executor: Executor,
    safety: SafetyOptions,
  ) => (req: Request) => Response | Promise<Response>;
  /** Runs before the executor closes (e.g. closing an event hub). */
  onClose?: () => void;
}

/**
 * Starts one HTTP surface over an executor, with the index building in the background (the
 * surface answers at once) and the tree watched, and serves until SIGINT/SIGTERM; the exit
 * code is 0 after a clean stop.
 */
export async function serveSurface(cmd: SurfaceCommand): Promise<number> {
  const { config, executor } = cmd;
  let server: RunningServer;
  try {
    server = await startServer({
      hostname: config.host,
      port: config.port,
      limits: config.limits,
      label: cmd.label,
      announcePath: cmd.announcePath,
      build: (port) =>
        cmd.build(executor, {
          hostname: config.host,
          port: () => port,
          token: config.token,
          allowOrigins: config.allowOrigins,
          maxBody: config.maxBody,
        }),
    });
  } catch (err) {
    cmd.onClose?.();
    await executor.close();
    throw err;
  }
  executor.service.start({ watch: config.watch });
  await untilSignal();
  cmd.onClose?.();
  await server.shutdown();
  await executor.close();
  return 0;
}
