/**
 * The HTTP/1.1 listener under every surface. It is `node:http`'s server, because Deno's
 * implementation of it enforces a time for the request head, a time for the whole request
 * (head and body) and a keep-alive idle time (answering `408` and closing), which
 * `Deno.serve` (2.9) does not: a silent connection stayed open there for good. On top of it:
 * a cap on open connections (one over it gets a `503` and is closed), a watchdog that listens
 * again if descriptor exhaustion stopped the accept loop, and a bounded drain on close. The
 * surfaces see Fetch API `Request`s and answer `Response`s.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { jsonTextOf } from "./respond.ts";
import { holdBody } from "./safety.ts";
import { endTrace, mark, startTrace, type Trace, withTrace } from "../util/request_trace.ts";

/** Connection limits of a listener (all times in milliseconds). */
export interface ConnectionLimits {
  /** Time from a connection's first byte wait to the end of a request head. */
  headersTimeoutMs: number;
  /** Time from the start of a request until its whole body is in (at least the head time). */
  bodyTimeoutMs: number;
  /**
   * How long a kept-alive connection may sit between requests. Answers advertise it
   * (`Keep-Alive: timeout=<s>`) and the connection is closed a second after that (node:http's
   * margin), so a client that honours the header never reuses a connection being closed.
   */
  idleTimeoutMs: number;
  /** Open connections at once; the next one is answered 503 and closed. */
  maxConnections: number;
}

/** Defaults of {@link ConnectionLimits}: head 10 s, request 30 s, idle 5 s, 1,024 connections. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  idleTimeoutMs: 5_000,
  maxConnections: 1_024,
};

/**
 * Descriptors kept for everything but connections (index files, workers, the watcher: ~40
 * in a running server) and for refusals in progress: a quarter of the limit, at least 128.
 */
const RESERVED_DESCRIPTORS = 128;

/** Refusals answered at once; past them, a connection over the cap is closed unanswered. */
const MAX_REFUSING = 16;

/** Bodies up to this size with a declared length are read before the handler runs. */
const BUFFERED_BODY = 1 << 20;

/** What {@link listenHttp} needs. */
export interface ListenOptions {
  hostname: string;
  port: number;
  limits: ConnectionLimits;
  handler: (req: Request) => Response | Promise<Response>;
  /** The body of an answer given before any surface is reached (403, 503, 500). */
  errorBody: (code: string, message: string) => string;
  /** One line for the server's log (descriptor exhaustion, listening again). */
  log: (line: string) => void;
}

/** A listening server. */
export interface Listener {
  port: number;
  /** Connections open now. */
  connections(): number;
  /** Stops accepting, lets open requests finish for at most `drainMs`, then cuts the rest. */
  close(drainMs: number): Promise<void>;
}

/**
 * Binds and serves. A bind error is thrown as is (`code` `EADDRINUSE`, `EADDRNOTAVAIL`).
 *
 * @example
 * ```ts
 * const l = await listenHttp({
 *   hostname: "127.0.0.1", port: 0, limits: DEFAULT_CONNECTION_LIMITS,
 *   handler: () => new Response("hi"), errorBody: (c, m) => JSON.stringify({ c, m }),
 *   log: console.error,
 * });
 * await l.close(1_000);
 * ```
 */
export async function listenHttp(opts: ListenOptions): Promise<Listener> {
  const { limits } = opts;
  const maxConnections = Math.max(1, Math.min(limits.maxConnections, descriptorBudget()));
  const server = http.createServer({
    headersTimeout: limits.headersTimeoutMs,
    // (Node refuses a request time shorter than the head time.)
    requestTimeout: Math.max(limits.bodyTimeoutMs, limits.headersTimeoutMs),
    keepAliveTimeout: limits.idleTimeoutMs,
    // How often the two request timeouts are checked (Node's default is 30 s).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, limits.headersTimeoutMs / 4)),
  } as http.ServerOptions, (req, res) => receive(req, res, opts));
  const sockets = new Set<Socket>();
  let accepted = 0;
  let refusing = 0;
  server.prependListener("connection", (socket: Socket) => {
    accepted++;
    if (sockets.size >= maxConnections) {
      if (refusing >= MAX_REFUSING) {
        socket.destroy();
        return;
      }
      refusing++;
      socket.once("close", () => refusing--);
      refuseConnection(
        socket,
        opts.errorBody(
          "busy",
          `${maxConnections} connections are open already; retry in a moment`,
        ),
      );
      return;
    }
    sockets.add(socket);
    connectionIds.set(socket, ++connectionsSeen);
    socket.once("close", () => sockets.delete(socket));
  });
  // A request head that is malformed, too large or too slow gets Node's own 400/431/408.

  await bind(server, opts.port, opts.hostname);
  const port = (server.address() as AddressInfo).port;
  const watchdog = watchAccepting(server, opts, port, () => accepted);
  return {
    port,
    connections: () => sockets.size,
    async close(drainMs: number) {
      clearInterval(watchdog);
      server.close();
      const end = performance.now() + drainMs;
      const stalled = stallWatch();
      while (sockets.size > 0 && performance.now() < end) {
        server.closeIdleConnections();
        for (const s of sockets) if (stalled(s)) s.destroy();
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const s of sockets) s.destroy();
    },
  };
}

/** Each connection's number, and the connection each request came on (see {@link clientOf}). */
const connectionIds = new WeakMap<Socket, number>();
const requestClients = new WeakMap<Request, string>();
let connectionsSeen = 0;

/**
 * Who sent `req`, as admission tells clients apart (`service/admission.ts`): its connection
 * (`connection 12`). Requests of one keep-alive connection are one client; a request that did
 * not come through a listener has none.
 */
export function clientOf(req: Request): string | undefined {
  return requestClients.get(req);
}

/**
 * The answer each connection is giving now, and the answers that are event streams: on close,
 * what a connection still owes tells whether it may finish.
 */
const answering = new WeakMap<Socket, http.ServerResponse>();
const eventStreams = new WeakSet<http.ServerResponse>();

/** A connection not read from for this long while closing is cut (its client stopped reading). */
const STALL_MS = 500;

/**
 * While closing: tells whether a connection should be cut now. One whose answer is still being
 * made (a tool call in flight) may finish within the drain time. One whose answer is complete
 * or is an event stream (which ends at shutdown), but whose client has left bytes unread for
 * {@link STALL_MS} — a subscriber that does not read — is cut at once instead of holding the
 * process for the whole drain time (with 500 such subscribers a stop took 10.1 s). A client
 * that is reading makes progress and keeps its connection until its answer is through.
 */
function stallWatch(): (socket: Socket) => boolean {
  const seen = new WeakMap<Socket, { left: number; since: number }>();
  return (socket) => {
    const res = answering.get(socket);
    if (res && !res.writableEnded && !eventStreams.has(res)) return false;
    const left = socket.writableLength;
    if (left === 0) return false;
    const now = performance.now();
    const last = seen.get(socket);
    if (!last || left < last.left) {
      seen.set(socket, { left, since: now });
      return false;
    }
    return now - last.since >= STALL_MS;
  };
}

function bind(server: http.Server, port: number, hostname: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * Deno's `node:net` accept loop stops for good when `accept` fails for want of descriptors,
 * with no event: every few seconds without a new connection, one is opened to ourselves; if
 * it is not accepted, the server listens again on the same port.
 */
function watchAccepting(
  server: http.Server,
  opts: ListenOptions,
  port: number,
  accepted: () => number,
): ReturnType<typeof setInterval> {
  const host = opts.hostname === "0.0.0.0" ? "127.0.0.1" : opts.hostname === "::" ? "::1" : opts
    .hostname.replace(/^\[|\]$/g, "");
  let seen = accepted();
  let probing = false;
  let starved = false;
  const id = setInterval(async () => {
    if (probing || accepted() !== seen) {
      seen = accepted();
      return;
    }
    probing = true;
    try {
      let conn: Deno.Conn;
      try {
        conn = await Deno.connect({ hostname: host, port });
      } catch (err) {
        if (!starved && /too many open files|os error 24/i.test(String(err))) {
          starved = true;
          opts.log(
            "out of file descriptors (too many open connections); accepting again as soon as some close",
          );
        }
        return;
      }
      const before = seen;
      for (let i = 0; i < 20 && accepted() === before; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      conn.close();
      if (accepted() === before) {
        opts.log("the accept loop had stopped (out of file descriptors); listening again");
        server.close();
        await bind(server, port, opts.hostname).catch((err) =>
          opts.log(`could not listen again: ${err}; retrying`)
        );
      }
      starved = false;
      seen = accepted();
    } finally {
      probing = false;
    }
  }, 2_000);
  // Deno's timers are numbers (the node types say Timeout); the watchdog keeps no one alive.
  Deno.unrefTimer(id as unknown as number);
  return id;
}

/** Open descriptors the process may have, less a reserve (no limit known: no cap from it). */
function descriptorBudget(): number {
  try {
    const limits = Deno.readTextFileSync("/proc/self/limits");
    const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1];
    if (soft) return Math.max(16, Number(soft) - Math.max(RESERVED_DESCRIPTORS, Number(soft) >> 2));
  } catch {
    // not Linux
  }
  return Number.MAX_SAFE_INTEGER;
}

/**
 * Answers a connection over the cap with a 503 and closes it. What the client sends meanwhile
 * is read and dropped for a second (not parsed): closing a socket with unread bytes would
 * reset it and lose the answer.
 */
function refuseConnection(socket: Socket, body: string): void {
  socket.end(rawAnswer(503, body));
  socket.setTimeout(1_000, () => socket.destroy());
  queueMicrotask(() => {
    socket.removeAllListeners("data");
    socket.on("data", () => {});
  });
}

/** A whole HTTP answer as bytes on the socket, for refusals before the HTTP parser. */
function rawAnswer(status: number, body: string): string {
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n" +
    `Connection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const NO_BODY = new Set(["GET", "HEAD", "OPTIONS"]);

/** Reads a small body whole (one allocation, no stream), then answers. */
function receive(req: http.IncomingMessage, res: http.ServerResponse, opts: ListenOptions): void {
  answering.set(req.socket, res);
  // With $CODECTX_TRACE_STAGES: the request's stages from here on (util/request_trace.ts).
  const trace = startTrace("parsed");
  const method = req.method ?? "GET";
  const declared = Number(req.headers["content-length"] ?? -1);
  if (declared === 0 || (declared < 0 && NO_BODY.has(method))) {
    void answer(req, res, null, opts, trace);
    return;
  }
  if (declared > 0 && declared <= BUFFERED_BODY) {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on(
      "end",
      () => void answer(req, res, new Uint8Array(Buffer.concat(chunks)), opts, trace),
    );
    req.on("error", () => {}); // the connection went away (or timed out): nothing to answer
    return;
  }
  void answer(req, res, bodyStream(req), opts, trace).finally(() => {
    // An answer given before the body was read (413, 403): the rest is read and dropped, so
    // that the client, still writing, gets to read it (the body timeout still applies).
    if (!req.complete) {
      req.removeAllListeners("data");
      req.on("data", () => {});
      req.resume();
    }
  });
}

/** The request body as a stream that pauses the socket while the reader is behind. */
function bodyStream(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  let open = true; // until the body ends, fails, or the reader cancels
  return new ReadableStream<Uint8Array>({
    start(ctrl) {
      req.on("data", (c: Buffer) => {
        if (!open) return;
        ctrl.enqueue(new Uint8Array(c));
        if ((ctrl.desiredSize ?? 1) <= 0) req.pause();
      });
      req.on("end", () => {
        if (open) ctrl.close();
        open = false;
      });
      req.on("error", (err) => {
        if (open) ctrl.error(err);
        open = false;
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      open = false;
      req.resume(); // the rest is read and dropped so that the connection can go on
    },
  }, { highWaterMark: 4 });
}

async function answer(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: BodyInit | null,
  opts: ListenOptions,
  trace?: Trace,
): Promise<void> {
  mark("read", trace);
  let url: URL;
  try {
    const target = req.url ?? "/";
    if (!target.startsWith("/")) throw new Error("not origin-form");
    url = new URL(`http://${req.headers.host ?? opts.hostname}${target}`);
  } catch {
    return refuse(res, 403, "forbidden", "the Host header is not a valid host[:port]", opts);
  }
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  let response: Response;
  try {
    const request = new Request(
      url,
      { method: req.method, headers, body, duplex: "half" } as RequestInit,
    );
    const req2 = body instanceof Uint8Array ? holdBody(request, body) : request;
    const connection = connectionIds.get(req.socket);
    if (connection !== undefined) requestClients.set(req2, `connection ${connection}`);
    response = await withTrace(trace, () => opts.handler(req2));
  } catch (err) {
    return refuse(res, 500, "internal", `internal error: ${err}`, opts);
  }
  const out: Record<string, string> = {};
  response.headers.forEach((v, k) => (out[k] = v));
  if (!response.body || res.destroyed) {
    res.writeHead(response.status, out).end();
    return;
  }
  const type = out["content-type"] ?? "";
  if (type.startsWith("text/event-stream")) return await pipe(response.body, res, out, response);
  try {
    if (/^(text\/|application\/(json|javascript))/.test(type)) {
      // A JSON answer's text as it was made (its stream is left unread), else the stream's.
      const text = jsonTextOf(response) ?? await response.text();
      out["content-length"] = String(Buffer.byteLength(text));
      res.writeHead(response.status, out).end(text);
      mark("written", trace);
      endTrace(trace);
    } else {
      const bytes = new Uint8Array(await response.arrayBuffer());
      out["content-length"] = String(bytes.byteLength);
      res.writeHead(response.status, out).end(bytes);
    }
  } catch (err) {
    if (!res.headersSent) refuse(res, 500, "internal", `internal error: ${err}`, opts);
    else res.destroy();
  }
}

/** Streams an event stream, reading the next chunk only once the socket took the last one. */
async function pipe(
  body: ReadableStream<Uint8Array>,
  res: http.ServerResponse,
  headers: Record<string, string>,
  response: Response,
): Promise<void> {
  eventStreams.add(res);
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = body.getReader();
  const gone = () => reader.cancel().catch(() => {});
  res.once("close", gone);
  // A stream dropped because its client does not read ends in an error: the connection is
  // cut at once (what is queued for it would never be taken).
  reader.closed.catch(() => res.destroy());
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const ok = () => {
            res.off("drain", ok);
            res.off("close", ok);
            resolve();
          };
          res.on("drain", ok);
          res.on("close", ok);
        });
      }
    }
  } catch {
    // the stream failed or was cancelled: end the answer
  } finally {
    res.off("close", gone);
    if (!res.destroyed) res.end();
    // A client that takes none of the end (its buffers full) is not waited for.
    if (!res.destroyed && !res.writableFinished) {
      const cut = setTimeout(() => res.destroy(), STREAM_END_MS);
      res.once("close", () => clearTimeout(cut));
      res.once("finish", () => clearTimeout(cut));
    }
  }
}

/** How long an ended event stream's last bytes may take to be read before the connection is cut. */
const STREAM_END_MS = 10_000;

function refuse(
  res: http.ServerResponse,
  status: number,
  code: string,
  message: string,
  opts: ListenOptions,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = opts.errorBody(code, message);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-length": String(Buffer.byteLength(body)),
  }).end(body);
}
