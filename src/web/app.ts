/**
 * The REST API and web page (`codectx web`): DESIGN.md section 4. Every endpoint is a
 * tool call through the one executor; failures answer `{"error": {"code", "message"}}`
 * with the HTTP status of the code (400, 404, 413, 501, …).
 *
 * @module
 */

import { type Context, Hono } from "hono";
import { explainSnippet } from "../analysis/explain.ts";
import { CodectxError } from "../errors.ts";
import { jsonResponse, renderRestError, restError, restErrorOf } from "../http/respond.ts";
import { isObject, readBodyText, safety, type SafetyOptions } from "../http/safety.ts";
import { indexStatus } from "../http/status.ts";
import { defined, type Executor } from "../tools/executor.ts";
import { VERSION } from "../version.ts";
import { PAGE_CSS, PAGE_HTML, PAGE_JS } from "./page.ts";

/** What the REST app is built from. */
export interface WebOptions {
  executor: Executor;
  safety: SafetyOptions;
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

/** Reads a required string query parameter. */
function requiredParam(c: Context, name: string, what: string): string {
  const v = c.req.query(name);
  if (v === undefined || v.trim() === "") {
    throw new CodectxError("invalid_argument", `${name} is required: ${what}`);
  }
  return v;
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
  const project = executor.project;
  const maxBody = opts.safety.maxBody ?? 1_048_576;
  const app = new Hono();
  app.use(safety(opts.safety, renderRestError));

  /** Runs a tool; a failure is thrown as the executor's code and message. */
  const tool = async (name: string, args: Json): Promise<{ payload: Json; ms: number }> => {
    const r = await executor.execute({ tool_name: name, arguments: args }, { source: "web" });
    if (!r.success) {
      throw new CodectxError(r.error_code ?? "internal", r.error ?? `${name} failed`);
    }
    return { payload: r.result_payload, ms: r.execution_time_ms };
  };

  /** Wraps a handler: thrown errors become the REST error body. */
  const route = (fn: (c: Context) => Promise<Response>) => async (c: Context) => {
    try {
      return await fn(c);
    } catch (err) {
      return restErrorOf(err);
    }
  };

  const readJsonObject = async (req: Request, shape: string): Promise<Json> => {
    const text = await readBodyText(req, maxBody);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CodectxError("invalid_argument", `the body is not valid JSON; send ${shape}`);
    }
    if (!isObject(body)) {
      throw new CodectxError("invalid_argument", `the body must be a JSON object: ${shape}`);
    }
    return body;
  };

  app.get("/", () =>
    new Response(PAGE_HTML, {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy":
          "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        "Cache-Control": "no-cache",
      },
    }));
  app.get("/app.js", () =>
    new Response(PAGE_JS, {
      headers: {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "no-cache",
      },
    }));
  app.get("/app.css", () =>
    new Response(PAGE_CSS, {
      headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "no-cache" },
    }));

  app.get(
    "/health",
    route(async () => {
      const s = await indexStatus(project);
      return jsonResponse({
        status: "ok",
        version: VERSION,
        project: {
          root: project.root,
          name: project.name,
          files: s.files,
          chunks: s.chunks,
          symbols: s.symbols,
          languages: s.languages,
        },
        index: { state: s.state, vectors: s.vectors, last_indexed_at: s.last_indexed_at },
      });
    }),
  );

  app.get(
    "/api/search",
    route(async (c) => {
      const q = requiredParam(c, "q", "what to search for, e.g. /api/search?q=parse+config");
      const { payload, ms } = await tool(
        "semantic_search",
        defined({
          query: q,
          top_k: intParam(c, "top_k", 1, 100) ?? 10,
          threshold: numberParam(c, "threshold"),
          path_prefix: c.req.query("path_prefix"),
          language: c.req.query("language"),
          mode: c.req.query("mode"),
        }),
      );
      return jsonResponse({
        query: q,
        results: payload.snippets ?? [],
        took_ms: ms,
        index_state: payload.index_state,
      });
    }),
  );

  app.get(
    "/api/symbols",
    route(async (c) => {
      const q = c.req.query("q")?.trim() || undefined;
      const file = c.req.query("file")?.trim() || undefined;
      const kind = c.req.query("kind")?.trim() || undefined;
      const limit = intParam(c, "limit", 1, 500) ?? 50;
      const offset = intParam(c, "offset", 0, 1_000_000) ?? 0;
      if (file && !q) {
        // A file's outline in source order, as the file holds it.
        const { payload } = await tool("explain_file", { file_path: file });
        const all = (Array.isArray(payload.symbols) ? payload.symbols : []).filter(
          (s) => !kind || (isObject(s) && s.kind === kind),
        );
        return jsonResponse({ symbols: all.slice(offset, offset + limit), total: all.length });
      }
      const { payload } = await tool(
        "search_symbols",
        defined({ query: q, kind, limit, offset, path_prefix: file }),
      );
      return jsonResponse({ symbols: payload.symbols ?? [], total: payload.total ?? 0 });
    }),
  );

  app.get(
    "/api/deps",
    route(async (c) => {
      const file = c.req.query("file")?.trim() || undefined;
      const { payload } = await tool("get_dependencies", defined({ file_path: file }));
      return jsonResponse(payload);
    }),
  );

  app.get(
    "/api/callgraph",
    route(async (c) => {
      const symbol = requiredParam(c, "symbol", "the function or method, e.g. ?symbol=main");
      const { payload } = await tool(
        "get_call_graph",
        defined({
          symbol_name: symbol,
          depth: intParam(c, "depth", 1, 5),
          file_path: c.req.query("file")?.trim() || undefined,
        }),
      );
      return jsonResponse(payload);
    }),
  );

  app.get(
    "/api/summary",
    route(async () => jsonResponse((await tool("summarize_repo", {})).payload)),
  );

  app.post(
    "/api/ask",
    route(async (c) => {
      const type = c.req.header("content-type") ?? "";
      let question: unknown;
      let topK: unknown;
      if (/^application\/(.+\+)?json/i.test(type)) {
        const body = await readJsonObject(c.req.raw, "{question, top_k?}");
        question = body.question;
        topK = body.top_k;
      } else {
        question = (await readBodyText(c.req.raw, maxBody)).trim();
      }
      if (typeof question !== "string" || question.trim() === "") {
        throw new CodectxError(
          "invalid_argument",
          "question is required: send JSON {question, top_k?} or the question as text/plain",
        );
      }
      const { payload } = await tool("ask", defined({ question, top_k: topK }));
      return jsonResponse({
        answer: payload.answer,
        sources: payload.sources ?? [],
        mode: payload.mode,
        ...(payload.warning ? { warning: payload.warning } : {}),
      });
    }),
  );

  app.post(
    "/api/analyze",
    route(async (c) => {
      const shape = '{code, language?, file_path?, mode: "validate"|"explain"}';
      const body = await readJsonObject(c.req.raw, shape);
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
      if (mode === "validate") {
        const { payload } = await tool(
          "validate_code",
          defined({ code: body.code, language: body.language, file_path: body.file_path }),
        );
        return jsonResponse(payload);
      }
      // The snippet's own symbols, what they call and the project symbols they reach.
      const explanation = await explainSnippet(project, {
        code: body.code,
        language: typeof body.language === "string" ? body.language : undefined,
        filePath: typeof body.file_path === "string" ? body.file_path : undefined,
      });
      return jsonResponse(explanation);
    }),
  );

  app.post(
    "/api/analyze",
    route(async (c) => {
      const shape = '{code, language?, file_path?, mode: "validate"|"explain"}';
      const body = await readJsonObject(c.req.raw, shape);
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
      if (mode === "validate") {
        const { payload } = await tool(
          "validate_code",
          defined({ code: body.code, language: body.language, file_path: body.file_path }),
        );
        return jsonResponse(payload);
      }
      const where = typeof body.file_path === "string" ? ` (from ${body.file_path})` : "";
      const question = `Explain this code${where}:\n${body.code}`;
      if (question.length > 4096) {
        throw new CodectxError(
          "invalid_argument",
          'code is too long to explain (at most about 4000 characters); send less, or use mode "validate"',
        );
      }
      const { payload } = await tool("ask", { question });
      return jsonResponse({
        answer: payload.answer,
        sources: payload.sources ?? [],
        mode: payload.mode,
        ...(payload.warning ? { warning: payload.warning } : {}),
      });
    }),
  );

  app.notFound((c) =>
    restError(
      404,
      "not_found",
      `no endpoint ${c.req.method} ${
        new URL(c.req.url).pathname
      }; the API is /health and /api/{search,symbols,deps,callgraph,summary,ask,analyze}`,
    )
  );
  app.onError((err) => restErrorOf(err));
  return app;
}
