/**
 * Starts a Hono app on `Deno.serve` with an explicit hostname and announces the bound
 * address on stderr (`codectx bridge listening on http://127.0.0.1:PORT`), so that
 * `--port 0` is usable from scripts and tests.
 *
 * @module
 */

import { errorMessage } from "../errors.ts";
import type { Executor } from "../tools/executor.ts";
import type { SafetyOptions } from "./safety.ts";
import { untilSignal } from "./surface.ts";

/** A running server. */
export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:24842`. */
  url: string;
  port: number;
  /**
   * Stops accepting connections and waits for open requests (streams are cut), at most
   * {@link ServerLimits.drainMs}.
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
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  let inFlight = 0;
  const guarded = async (req: Request): Promise<Response> => {
    // A Host header that makes no URL (`127.0.0.1:99999999`) fails inside the router.
    try {
      new URL(req.url);
    } catch {
      return plainError(403, "forbidden", "the Host header is not a valid host[:port]");
    }
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
    }
  };
  let stopping = false;
  const abort = new AbortController();
  const listen = (port: number): Deno.HttpServer<Deno.NetAddr> =>
    Deno.serve({
      hostname: opts.hostname,
      port,
      signal: abort.signal,
      onListen: () => {},
      onError: (err) => plainError(500, "internal", `internal error: ${errorMessage(err)}`),
    }, guarded);
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = listen(opts.port);
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
  // Out of file descriptors, Deno's accept loop ends the server: listen again once some
  // are free, instead of dying with the process.
  let restarted: Promise<void> = Promise.resolve();
  const watch = (s: Deno.HttpServer<Deno.NetAddr>) => {
    s.finished.catch((err) => {
      if (stopping) return;
      if (!isOutOfDescriptors(err)) {
        console.error(`codectx ${opts.label}: the server stopped: ${errorMessage(err)}`);
        return;
      }
      console.error(
        `codectx ${opts.label}: out of file descriptors (too many open connections); ` +
          `accepting again as soon as some close`,
      );
      restarted = (async () => {
        for (let wait = 100; !stopping; wait = Math.min(wait * 2, 2_000)) {
          await new Promise((r) => setTimeout(r, wait));
          if (stopping) return;
          try {
            server = listen(port);
            watch(server);
            return;
          } catch {
            // still out of descriptors (or the port is held a moment longer)
          }
        }
      })();
    });
  };
  watch(server);
  ignoreDescriptorExhaustion();
  return {
    url,
    port,
    async shutdown() {
      stopping = true;
      abort.abort();
      await restarted;
      // Open requests finish; a client that stops reading cannot hold the process past
      // the drain time.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, limits.drainMs);
      });
      await Promise.race([server.finished.catch(() => {}), late]);
      clearTimeout(timer);
    },
  };
}

/** Limits of one server. */
export interface ServerLimits {
  /** Requests answered at once; past it, 503 `busy` (streams count while their handler runs). */
  maxInFlight: number;
  /**
   * On shutdown, how long open requests may take to finish (ms) before the server stops
   * waiting for them: a stop (SIGINT/SIGTERM) takes at most this long.
   */
  drainMs: number;
}

/** Defaults of {@link ServerLimits}: 256 requests at once, 10 s of drain on shutdown. */
export const DEFAULT_LIMITS: ServerLimits = { maxInFlight: 256, drainMs: 10_000 };

/** An error answer before any surface is reached (the REST error shape). */
function plainError(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

function isOutOfDescriptors(err: unknown): boolean {
  return /too many open files|os error 24|EMFILE/i.test(String(err));
}

let ignoring = false;

/**
 * Deno also reports the failed accept as an unhandled rejection, which would end the
 * process: that one rejection (and no other) is marked handled.
 */
function ignoreDescriptorExhaustion(): void {
  if (ignoring) return;
  ignoring = true;
  globalThis.addEventListener("unhandledrejection", (e) => {
    if (isOutOfDescriptors(e.reason)) e.preventDefault();
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
    server = startServer({
      hostname: config.host,
      port: config.port,
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
