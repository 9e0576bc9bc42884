/**
 * The HTTP safety rules of every codectx server (bridge, REST, MCP over HTTP), as one Hono
 * middleware: Host check against DNS rebinding, an Origin allow-list with reflected CORS
 * headers, the bearer token, and the body limit. Each surface brings its own error body.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "npm:hono@4.12.7";
import { CodectxError, type ErrorCode } from "../errors.ts";
import { assertShallow } from "../util/json_depth.ts";

/** Default body limit: 1 MiB. */
export const DEFAULT_MAX_BODY = 1_048_576;

/** Draws a surface's error answer (status, code, message → Response). */
export type ErrorRenderer = (
  c: Context,
  status: number,
  code: ErrorCode | "unauthorized" | "forbidden",
  message: string,
) => Response;

/** What the safety middleware enforces. */
export interface SafetyOptions {
  /** The host the server is bound to (`127.0.0.1`, `::1`, `localhost`, `0.0.0.0`, …). */
  hostname: string;
  /** The bound port (known after listen, hence a function). */
  port: () => number;
  /** When set, every request but `OPTIONS` needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Origins allowed besides the built-in loopback and editor ones; `*` allows any. */
  allowOrigins?: readonly string[];
  /** Largest request body in bytes (default 1 MiB). */
  maxBody?: number;
  /** Request headers a browser may send (preflight answer). */
  allowHeaders?: readonly string[];
  /** Response headers a browser may read. */
  exposeHeaders?: readonly string[];
}

const DEFAULT_ALLOW_HEADERS = [
  "Content-Type",
  "Authorization",
  "Last-Event-ID",
  "X-Request-Id",
];

const EDITOR_SCHEMES = new Set([
  "vscode-webview:",
  "vscode-file:",
  "chrome-extension:",
  "moz-extension:",
]);

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * Whether a bind address only listens on this machine.
 *
 * @example
 * ```ts
 * isLoopback("127.0.0.1"); // true
 * isLoopback("0.0.0.0"); // false
 * ```
 */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(h) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Whether a browser origin may call the server: loopback pages, editor webviews and
 * extensions, plus each extra origin (`*` allows all). `null` and anything that does not
 * parse is refused.
 *
 * @example
 * ```ts
 * originAllowed("http://localhost:3000"); // true
 * originAllowed("https://evil.example"); // false
 * originAllowed("https://app.example", ["https://app.example"]); // true
 * ```
 */
export function originAllowed(origin: string, extra: readonly string[] = []): boolean {
  if (extra.includes("*")) return true;
  const o = origin.trim();
  if (extra.some((e) => e.replace(/\/+$/, "").toLowerCase() === o.toLowerCase())) return true;
  let url: URL;
  try {
    url = new URL(o);
  } catch {
    return false;
  }
  if (EDITOR_SCHEMES.has(url.protocol)) return true;
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return url.hostname === "localhost" || url.hostname === "127.0.0.1" ||
    url.hostname === "[::1]";
}

/** Whether a `Host` header names this loopback server (`localhost:PORT`, `127.0.0.1:PORT`, …). */
export function hostAllowed(host: string | null, bindHost: string, port: number): boolean {
  if (!host) return false;
  const h = host.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[^:]+)(?::(\d+))?$/.exec(h);
  if (!m) return false;
  const name = m[1];
  const p = m[2] === undefined ? 80 : Number(m[2]);
  if (p !== port) return false;
  const bind = bindHost.toLowerCase();
  const bindName = bind.includes(":") && !bind.startsWith("[") ? `[${bind}]` : bind;
  return LOOPBACK_NAMES.has(name) || name === bindName ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** Compares two strings in time that depends only on their lengths. */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/**
 * The safety middleware. Order: Host (403) → another site without an allowed Origin
 * (`Sec-Fetch-Site: cross-site`, 403) → Origin (403, or CORS headers reflected) →
 * `OPTIONS` preflight (204) → bearer token (401) → declared body size (413).
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * const app = new Hono();
 * app.use(safety({ hostname: "127.0.0.1", port: () => 24842 }, (c, status, code, message) =>
 *   c.json({ error: { code, message } }, status as 400)));
 * ```
 */
export function safety(options: SafetyOptions, render: ErrorRenderer): MiddlewareHandler {
  const opts = {
    allowOrigins: [] as readonly string[],
    maxBody: DEFAULT_MAX_BODY,
    allowHeaders: DEFAULT_ALLOW_HEADERS,
    exposeHeaders: [] as readonly string[],
    ...options,
  };
  const loopback = isLoopback(opts.hostname);
  const wildcard = opts.allowOrigins.includes("*");
  return async (c, next) => {
    const req = c.req.raw;
    const origin = req.headers.get("origin");
    const cors = (res: Response): Response => {
      if (origin === null) return res;
      try {
        res.headers.set("Access-Control-Allow-Origin", wildcard ? "*" : origin);
        res.headers.append("Vary", "Origin");
        if (opts.exposeHeaders.length) {
          res.headers.set("Access-Control-Expose-Headers", opts.exposeHeaders.join(", "));
        }
        return res;
      } catch {
        // immutable headers (a fetched response): copy once
        const copy = new Response(res.body, res);
        return cors(copy);
      }
    };
    const hardening = (res: Response): Response => {
      try {
        res.headers.set("X-Content-Type-Options", "nosniff");
        res.headers.set("Referrer-Policy", "no-referrer");
      } catch {
        // immutable headers: leave them
      }
      return res;
    };

    if (loopback && !hostAllowed(req.headers.get("host"), opts.hostname, opts.port())) {
      return hardening(
        render(
          c,
          403,
          "forbidden",
          `Host '${
            req.headers.get("host") ?? ""
          }' is not this server; on a loopback bind only localhost and 127.0.0.1 on port ${opts.port()} are answered`,
        ),
      );
    }
    // A page of another site sends no Origin on a simple GET (`<img>`, no-cors fetch), but
    // browsers say where the request comes from: such a request runs nothing here.
    const fetchSite = req.headers.get("sec-fetch-site");
    if (
      fetchSite === "cross-site" && (origin === null || !originAllowed(origin, opts.allowOrigins))
    ) {
      return hardening(
        render(
          c,
          403,
          "forbidden",
          "a request from another site is refused; a page that needs this server must be " +
            "allowed with --allow-origin and send its Origin",
        ),
      );
    }
    if (origin !== null && !originAllowed(origin, opts.allowOrigins)) {
      return hardening(
        render(
          c,
          403,
          "forbidden",
          `origin '${origin}' is not allowed; start the server with --allow-origin ${origin} to allow it`,
        ),
      );
    }
    if (req.method === "OPTIONS") {
      const res = new Response(null, { status: 204 });
      res.headers.set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
      res.headers.set("Access-Control-Allow-Headers", opts.allowHeaders.join(", "));
      res.headers.set("Access-Control-Max-Age", "600");
      if (req.headers.get("access-control-request-private-network") === "true") {
        res.headers.set("Access-Control-Allow-Private-Network", "true");
      }
      return hardening(cors(res));
    }
    if (opts.token !== undefined) {
      const auth = req.headers.get("authorization") ?? "";
      const m = /^Bearer\s+(.+)$/i.exec(auth);
      if (!m || !sameSecret(m[1].trim(), opts.token)) {
        const res = render(
          c,
          401,
          "unauthorized",
          m
            ? "the bearer token is wrong; pass the server's token as Authorization: Bearer <token>"
            : "this server needs a token; send Authorization: Bearer <token>",
        );
        res.headers.set("WWW-Authenticate", 'Bearer realm="codectx"');
        return hardening(cors(res));
      }
    }
    const declared = req.headers.get("content-length");
    if (declared !== null && Number(declared) > opts.maxBody) {
      return hardening(cors(render(c, 413, "too_large", tooLargeMessage(opts.maxBody))));
    }
    await next();
    // The headers are set on the answer itself: assigning `c.res` would copy it (a new
    // response over its body's stream, its headers copied one by one).
    const res = c.res;
    const out = hardening(cors(res));
    if (out !== res || !c.finalized) c.res = out;
  };
}

function tooLargeMessage(max: number): string {
  return `request body is larger than ${max} bytes; send less, or start the server with --max-body`;
}

/** How long a request body may take to arrive. */
export const BODY_TIMEOUT_MS = 30_000;

/** Bodies the listener read whole before it made the request (see {@link holdBody}). */
const heldBodies = new WeakMap<Request, Uint8Array>();
const decoder = new TextDecoder();

/**
 * Gives {@link readBodyText} a request's whole body, already read (the same bytes as the
 * request's own body): it is then decoded at once, without a stream, reader and timer.
 */
export function holdBody(req: Request, body: Uint8Array): Request {
  heldBodies.set(req, body);
  return req;
}

/**
 * Reads a request body as text, refusing (`too_large`) past `maxBody` bytes even when the
 * client declared no length (chunked upload), and (`timeout`) a body that takes longer than
 * {@link BODY_TIMEOUT_MS} to arrive.
 */
export async function readBodyText(
  req: Request,
  maxBody: number,
  timeoutMs = BODY_TIMEOUT_MS,
): Promise<string> {
  const held = heldBodies.get(req);
  if (held) {
    if (held.byteLength > maxBody) throw new CodectxError("too_large", tooLargeMessage(maxBody));
    return held.byteLength ? decoder.decode(held) : "";
  }
  if (!req.body) return "";
  const reader = req.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late") {
        await reader.cancel().catch(() => {});
        throw new CodectxError(
          "timeout",
          `the request body did not arrive within ${timeoutMs / 1000} s; send it at once`,
        );
      }
      const { done, value } = next;
      if (done) break;
      size += value.byteLength;
      if (size > maxBody) {
        await reader.cancel().catch(() => {});
        throw new CodectxError("too_large", tooLargeMessage(maxBody));
      }
      parts.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return new TextDecoder().decode(all);
}

/**
 * Reads and parses a JSON body (bounded by `maxBody`). A body that is not JSON fails with
 * `invalid_argument` and says where it broke; so does one nested deeper than any request
 * (whatever walks it next would overflow the stack).
 */
export async function readJsonBody(req: Request, maxBody: number): Promise<unknown> {
  const text = await readBodyText(req, maxBody);
  if (text.trim() === "") {
    throw new CodectxError("invalid_argument", "the request body is empty; send a JSON object");
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new CodectxError(
      "invalid_argument",
      `the request body is not valid JSON (${
        err instanceof Error ? err.message : String(err)
      }); send a JSON object`,
    );
  }
  assertShallow(body, "the request body");
  return body;
}

/** Narrows a parsed JSON value to a plain object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
