/**
 * The REST API and web page (`codectx web`): `/health`, `/api/{search, symbols, symbol,
 * references, file, deps, callgraph, quality, summary, ask, analyze, impact}`, the event stream
 * `/tools/stream` (the bridge's: tool and index events) and the page's files. Every endpoint is a tool call
 * through the one executor, one small handler per route; failures answer
 * `{"error": {"code", "message"}}` with the HTTP status of the code (400, 404, 413, …).
 *
 * @module
 */

import { type Context, Hono } from "npm:hono@4.12.7";
import { CodectxError } from "../errors.ts";
import {
  connectHub,
  createEventHub,
  type EventHub,
  lastEventIdOf,
  sseResponse,
} from "../http/events.ts";
import { processMemory } from "../http/health.ts";
import { clientOf } from "../http/listener.ts";
import { jsonResponse, renderRestError, restError, restErrorOf } from "../http/respond.ts";
import { isObject, readBodyText, safety, type SafetyOptions } from "../http/safety.ts";
import { defined, type Executor } from "../tools/executor.ts";
import { VERSION } from "../version.ts";
import { assertShallow } from "../util/json_depth.ts";
import { mountAssets } from "./assets.ts";

/** The names under `/api/`, as the not-found message lists them. */
const ENDPOINTS =
  "search,symbols,symbol,references,file,deps,callgraph,quality,summary,ask,analyze,impact";

/** What the REST app is built from. */
export interface WebOptions {
  executor: Executor;
  safety: SafetyOptions;
  /**
   * The event hub `/tools/stream` serves (tool and index events); without one the app makes
   * its own, fed by the executor. Close it on shutdown to end the open streams.
   */
  hub?: EventHub;
}

type Json = Record<string, unknown>;

/** Reads an integer query parameter; absent → undefined; anything else → invalid_argument. */
function intParam(c: Context, name: string, min: number, max: number): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return undefined;
  if (!/^-?\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new CodectxError(
      "invalid_argument",
      `${name} must be an integer from ${min} to ${max}, not '${raw}'`,
    );
  }
  return Number(raw);
}

/** Reads a number query parameter. */
function numberParam(c: Context, name: string): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) {
    throw new CodectxError("invalid_argument", `${name} must be a number, not '${raw}'`);
  }
  return n;
}

/** Reads an optional string query parameter; blank counts as absent. */
function optionalParam(c: Context, name: string): string | undefined {
  return c.req.query(name)?.trim() || undefined;
}

/** Reads a boolean query parameter (`1`/`true`/`0`/`false`); absent → undefined. */
function boolParam(c: Context, name: string): boolean | undefined {
  const raw = c.req.query(name)?.trim().toLowerCase();
  if (raw === undefined || raw === "") return undefined;
  if (raw === "1" || raw === "true") return true;
  if (raw === "0" || raw === "false") return false;
  throw new CodectxError("invalid_argument", `${name} must be 1, 0, true or false, not '${raw}'`);
}

/** Reads a required string query parameter. */
function requiredParam(c: Context, name: string, what: string): string {
  const v = c.req.query(name);
  if (v === undefined || v.trim() === "") {
    throw new CodectxError("invalid_argument", `${name} is required: ${what}`);
  }
  return v;
}

/** The last indexing progress event, as `/health` shows it while the index is being built. */
interface Progress {
  phase: string;
  files_done: number;
  files_total: number;
}

/** What every route handler gets. */
interface Ctx {
  executor: Executor;
  /** Who asks (the request's connection), for admission. */
  client?: string;
  maxBody: number;
  /** The indexing run's latest progress; null when no run is going on. */
  progress: Progress | null;
  /**
   * Runs a tool; a failure is thrown as the executor's code and message. `params` names the
   * endpoint's parameter for a tool argument (`{query: "q"}`): a message that opens with the
   * argument's name is prefixed with the parameter's (`q: query '(' is not …`).
   */
  tool(
    name: string,
    args: Json,
    params?: Record<string, string>,
  ): Promise<{ payload: Json; ms: number }>;
}

/**
 * Wraps a handler: its tool calls are the request's client's (admission lets clients take
 * turns); thrown errors become the REST error body.
 */
function route(ctx: Ctx, fn: (ctx: Ctx, c: Context) => Promise<Response>) {
  return async (c: Context) => {
    try {
      return await fn({ ...ctx, client: clientOf(c.req.raw) }, c);
    } catch (err) {
      return restErrorOf(err);
    }
  };
}

/** Reads a JSON object body; anything else is `invalid_argument` naming the shape wanted. */
async function readJsonObject(ctx: Ctx, req: Request, shape: string): Promise<Json> {
  const text = await readBodyText(req, ctx.maxBody);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CodectxError("invalid_argument", `the body is not valid JSON; send ${shape}`);
  }
  if (!isObject(body)) {
    throw new CodectxError("invalid_argument", `the body must be a JSON object: ${shape}`);
  }
  assertShallow(body, "the request body");
  return body;
}

/** `GET /health`: the project and its index. */
async function health(ctx: Ctx): Promise<Response> {
  const s = await ctx.executor.service.health();
  const root = ctx.executor.service.root;
  return jsonResponse({
    status: "ok",
    version: VERSION,
    project: {
      root,
      name: root.split("/").filter(Boolean).pop() ?? root,
      files: s.files,
      chunks: s.chunks,
      symbols: s.symbols,
      languages: s.languages,
    },
    index: {
      state: s.state,
      vectors: s.vectors,
      vectors_total: s.vectors_total,
      vectors_state: s.vectors_state,
      last_indexed_at: s.last_indexed_at,
      watching: s.watching,
      watch_reason: s.watch_reason,
      progress: s.state === "indexing" ? ctx.progress : null,
    },
    memory: processMemory(),
  });
}

/**
 * `GET /api/search?q=…[&mode=hybrid|lexical|dense|exact|regex&scope=code|docs|tests|all
 * &include_tests=1&language=…&path_prefix=…&top_k=…&threshold=…]`: ranked snippets, or every
 * exact/regex match with its line and column; a bad regex is a 400 naming the query.
 */
async function search(ctx: Ctx, c: Context): Promise<Response> {
  const q = requiredParam(c, "q", "what to search for, e.g. /api/search?q=parse+config");
  const args = defined({
    query: q,
    top_k: intParam(c, "top_k", 1, 100) ?? 10,
    threshold: numberParam(c, "threshold"),
    path_prefix: c.req.query("path_prefix"),
    language: c.req.query("language"),
    mode: c.req.query("mode"),
    scope: optionalParam(c, "scope"),
    include_tests: boolParam(c, "include_tests"),
  });
  const { payload, ms } = await ctx.tool("semantic_search", args, { query: "q" });
  return jsonResponse({
    query: q,
    mode: payload.mode,
    results: payload.snippets ?? [],
    took_ms: ms,
    index_state: payload.index_state,
  });
}

/** `GET /api/symbols`: a file's outline (`file` alone) or a name search, paged. */
async function symbols(ctx: Ctx, c: Context): Promise<Response> {
  const q = optionalParam(c, "q");
  const file = optionalParam(c, "file");
  const kind = optionalParam(c, "kind");
  const limit = intParam(c, "limit", 1, 500) ?? 50;
  const offset = intParam(c, "offset", 0, 1_000_000) ?? 0;
  if (file && !q) {
    // A file's outline in source order, as the file holds it.
    const { payload } = await ctx.tool("explain_file", { file_path: file }, { file_path: "file" });
    const all = (Array.isArray(payload.symbols) ? payload.symbols : []).filter(
      (s) => !kind || (isObject(s) && s.kind === kind),
    );
    return jsonResponse({ symbols: all.slice(offset, offset + limit), total: all.length });
  }
  const { payload } = await ctx.tool(
    "search_symbols",
    defined({ query: q, kind, limit, offset, path_prefix: file }),
  );
  return jsonResponse({ symbols: payload.symbols ?? [], total: payload.total ?? 0 });
}

/** `GET /api/symbol?name=…[&file=…]`: one symbol explained (signature, doc, source, neighbours). */
async function symbol(ctx: Ctx, c: Context): Promise<Response> {
  const name = requiredParam(c, "name", "the symbol, e.g. ?name=Session.request");
  const file = optionalParam(c, "file");
  const { payload } = await ctx.tool(
    "explain_symbol",
    defined({ symbol_name: name, file_path: file }),
    { file_path: "file" },
  );
  return jsonResponse(payload);
}

/** `GET /api/references?symbol=…[&file=…&limit=…&include_tests=0]`: every reference to a symbol. */
async function references(ctx: Ctx, c: Context): Promise<Response> {
  const name = requiredParam(c, "symbol", "the symbol, e.g. ?symbol=parse_config");
  const { payload } = await ctx.tool(
    "find_references",
    defined({
      symbol_name: name,
      file_path: optionalParam(c, "file"),
      limit: intParam(c, "limit", 1, 2000),
      include_tests: boolParam(c, "include_tests"),
    }),
    { file_path: "file" },
  );
  return jsonResponse(payload);
}

/**
 * `GET /api/file?path=…[&source=1]`: a file's outline, imports and importers; `source=1`
 * adds its text (explain_file's `include_source`, read through the safe read) and where its
 * code names are (`include_names`: `source_names`).
 */
async function file(ctx: Ctx, c: Context): Promise<Response> {
  const path = requiredParam(c, "path", "the file, relative to the project root");
  const source = boolParam(c, "source");
  const { payload } = await ctx.tool(
    "explain_file",
    // The page links the names in code: with the text, where they are.
    defined({
      file_path: path,
      include_source: source || undefined,
      include_names: source || undefined,
    }),
    { file_path: "path" },
  );
  return jsonResponse(payload);
}

/** `GET /api/quality[?path=…]`: maintainability, complexity and security findings. */
async function quality(ctx: Ctx, c: Context): Promise<Response> {
  const path = optionalParam(c, "path");
  return jsonResponse((await ctx.tool("analyze_quality", defined({ path }))).payload);
}

/** `GET /api/deps[?file=…]`: a file's imports and importers, or the whole graph. */
async function deps(ctx: Ctx, c: Context): Promise<Response> {
  const file = optionalParam(c, "file");
  const { payload } = await ctx.tool("get_dependencies", defined({ file_path: file }), {
    file_path: "file",
  });
  return jsonResponse(payload);
}

/** `GET /api/callgraph?symbol=…[&depth=…&file=…&include_tests=0]`: callers and callees. */
async function callGraph(ctx: Ctx, c: Context): Promise<Response> {
  const symbol = requiredParam(c, "symbol", "the function or method, e.g. ?symbol=main");
  const { payload } = await ctx.tool(
    "get_call_graph",
    defined({
      symbol_name: symbol,
      depth: intParam(c, "depth", 1, 5),
      file_path: optionalParam(c, "file"),
      include_tests: boolParam(c, "include_tests"),
    }),
    { file_path: "file" },
  );
  return jsonResponse(payload);
}

/** `GET /api/summary`: the repository summary. */
async function summary(ctx: Ctx): Promise<Response> {
  return jsonResponse((await ctx.tool("summarize_repo", {})).payload);
}

/** `POST /api/ask`: JSON `{question, top_k?}` or the question as text. */
async function ask(ctx: Ctx, c: Context): Promise<Response> {
  const type = c.req.header("content-type") ?? "";
  let question: unknown;
  let topK: unknown;
  if (/^application\/(.+\+)?json/i.test(type)) {
    const body = await readJsonObject(ctx, c.req.raw, "{question, top_k?}");
    question = body.question;
    topK = body.top_k;
  } else {
    question = (await readBodyText(c.req.raw, ctx.maxBody)).trim();
  }
  if (typeof question !== "string" || question.trim() === "") {
    throw new CodectxError(
      "invalid_argument",
      "question is required: send JSON {question, top_k?} or the question as text/plain",
    );
  }
  const { payload } = await ctx.tool("ask", defined({ question, top_k: topK }));
  return jsonResponse({
    answer: payload.answer,
    sources: payload.sources ?? [],
    mode: payload.mode,
    ...(payload.warning ? { warning: payload.warning } : {}),
  });
}

/** The options of `get_impact` every impact request may add (`?depth=2&include_tests=0`). */
function impactOptions(c: Context): Json {
  return defined({
    depth: intParam(c, "depth", 1, 6),
    include_tests: boolParam(c, "include_tests"),
    max_results: intParam(c, "max_results", 1, 5000),
  });
}

/**
 * `GET /api/impact[?base=REV | ?symbols=a,b][&depth=…&include_tests=0&max_results=…]`: what
 * the working tree's change against `base` (default HEAD), or a change to the named symbols,
 * touches (`get_impact`).
 */
async function impactGet(ctx: Ctx, c: Context): Promise<Response> {
  const symbols = optionalParam(c, "symbols")?.split(",").map((s) => s.trim()).filter(Boolean);
  const { payload } = await ctx.tool(
    "get_impact",
    { ...defined({ base: optionalParam(c, "base"), symbols }), ...impactOptions(c) },
  );
  return jsonResponse(payload);
}

/**
 * `POST /api/impact`: a unified diff as text/plain (options in the query), or JSON
 * `{diff | base | symbols, depth?, include_tests?, max_results?}`.
 */
async function impactPost(ctx: Ctx, c: Context): Promise<Response> {
  const type = c.req.header("content-type") ?? "";
  const args = /^application\/(.+\+)?json/i.test(type)
    ? await readJsonObject(ctx, c.req.raw, "{diff | base | symbols, depth?, include_tests?}")
    : { diff: await readBodyText(c.req.raw, ctx.maxBody) };
  const { payload } = await ctx.tool("get_impact", { ...impactOptions(c), ...args });
  return jsonResponse(payload);
}

/**
 * `POST /api/analyze`: `validate_code` on a snippet; mode `explain` answers the snippet's
 * symbols, their calls and the project symbols they reach (the tool's explain mode).
 */
async function analyze(ctx: Ctx, c: Context): Promise<Response> {
  const shape = '{code, language?, file_path?, mode: "validate"|"explain"}';
  const body = await readJsonObject(ctx, c.req.raw, shape);
  const mode = body.mode ?? "validate";
  if (mode !== "validate" && mode !== "explain") {
    throw new CodectxError(
      "invalid_argument",
      `mode must be "validate" or "explain", not ${JSON.stringify(mode)}`,
    );
  }
  if (typeof body.code !== "string" || body.code === "") {
    throw new CodectxError("invalid_argument", `code is required: send ${shape}`);
  }
  const { payload } = await ctx.tool(
    "validate_code",
    defined({
      code: body.code,
      language: body.language,
      file_path: body.file_path,
      mode: mode === "explain" ? "explain" : undefined,
    }),
  );
  if (mode === "validate") return jsonResponse(payload);
  return jsonResponse({ language: payload.language, ...(payload.explanation as Json) });
}

/**
 * Builds the REST app.
 *
 * @example
 * ```ts
 * import { createExecutor } from "../tools/executor.ts";
 * const executor = await createExecutor("./repo");
 * const app = createWebApp({ executor, safety: { hostname: "127.0.0.1", port: () => 24843 } });
 * Deno.serve({ hostname: "127.0.0.1", port: 24843 }, app.fetch);
 * ```
 */
export function createWebApp(opts: WebOptions): Hono {
  const { executor } = opts;
  const ctx: Ctx = {
    executor,
    maxBody: opts.safety.maxBody ?? 1_048_576,
    progress: null,
    async tool(name, args, params = {}) {
      const r = await executor.execute({ tool_name: name, arguments: args }, {
        source: "web",
        client: this.client,
      });
      if (!r.success) {
        const message = r.error ?? `${name} failed`;
        const arg = /^\w+/.exec(message)?.[0] ?? "";
        const named = Object.hasOwn(params, arg) ? `${params[arg]}: ${message}` : message;
        throw new CodectxError(r.error_code ?? "internal", named);
      }
      return { payload: r.result_payload, ms: r.execution_time_ms };
    },
  };
  // Kept for `/health`, so the page can draw a progress bar while a run goes on.
  executor.service.subscribe((e) => {
    if (e.type === "progress") {
      ctx.progress = {
        phase: e.progress.phase,
        files_done: e.progress.filesDone,
        files_total: e.progress.filesTotal,
      };
    }
  });
  const app = new Hono();
  app.use(safety(opts.safety, renderRestError));
  mountAssets(app);
  app.get("/health", route(ctx, health));
  let hub = opts.hub;
  if (!hub) {
    hub = createEventHub();
    connectHub(hub, executor);
  }
  const events = hub;
  app.get("/tools/stream", (c) => sseResponse(events, lastEventIdOf(c.req.raw)));
  app.get("/api/search", route(ctx, search));
  app.get("/api/symbols", route(ctx, symbols));
  app.get("/api/symbol", route(ctx, symbol));
  app.get("/api/references", route(ctx, references));
  app.get("/api/file", route(ctx, file));
  app.get("/api/quality", route(ctx, quality));
  app.get("/api/deps", route(ctx, deps));
  app.get("/api/callgraph", route(ctx, callGraph));
  app.get("/api/summary", route(ctx, summary));
  app.post("/api/ask", route(ctx, ask));
  app.post("/api/analyze", route(ctx, analyze));
  app.get("/api/impact", route(ctx, impactGet));
  app.post("/api/impact", route(ctx, impactPost));
  app.notFound((c) =>
    restError(
      404,
      "not_found",
      `no endpoint ${c.req.method} ${
        new URL(c.req.url).pathname
      }; the API is /health, /tools/stream and /api/{${ENDPOINTS}}`,
    )
  );
  app.onError((err) => restErrorOf(err));
  return app;
}
