/**
 * Starts a Hono app on `Deno.serve` with an explicit hostname and announces the bound
 * address on stderr (`codectx bridge listening on http://127.0.0.1:PORT`), so that
 * `--port 0` is usable from scripts and tests.
 *
 * @module
 */

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
