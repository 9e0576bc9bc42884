/**
 * The one tool executor: validates arguments against a tool's zod schema, runs the handler
 * under the time limit, and answers `{success, result_payload, execution_time_ms, error?}`.
 * Every surface calls this; none runs a handler itself.
 */

import type { z } from "npm:zod@4.1.9";
import { CodectxError, type ErrorCode, errorCode, errorMessage } from "../errors.ts";
import type { Project } from "../project/project.ts";
import { ProjectService, type Service, type ServiceOptions } from "../service/service.ts";
import { callWeight } from "../service/admission.ts";
import { loadTool, TOOL_NAMES } from "./tool_index.ts";
import type { Tool } from "./tool.ts";
import { currentTrace, mark } from "../util/request_trace.ts";
import { assertShallow } from "../util/json_depth.ts";

/** A tool invocation. */
export interface ToolCall {
  /** One of `TOOL_NAMES`. */
  tool_name: string;
  /** The tool's arguments (an object; validated against its input schema). */
  arguments?: unknown;
}

/** The result of one invocation, in wire shape. */
export interface ToolResult {
  /** Whether the tool answered. */
  success: boolean;
  /** The tool's answer (its output schema); `{}` on failure. */
  result_payload: Record<string, unknown>;
  /** Time the call took. */
  execution_time_ms: number;
  /** Present when `success` is false: what went wrong and what to do. */
  error?: string;
  /** Present when `success` is false: the machine-readable cause. */
  error_code?: ErrorCode;
}

/** Who asked (for events and logs), and how long the call may take. */
export interface CallMeta {
  requestId?: string;
  source?: string;
  /** Who asks (a connection, an MCP session): clients take turns for places (`admission.ts`). */
  client?: string;
  /**
   * This call's time limit in ms, instead of the executor's; `0` means none (the CLI's
   * `index` and `quality` over a whole tree, where the user is waiting on purpose).
   */
  timeoutMs?: number;
}

/** Events every surface can subscribe to (the bridge streams them). */
export type ExecutorEvent =
  | { type: "tool.started"; request_id: string; tool_name: string; source: string; ts: string }
  | {
    type: "tool.completed";
    request_id: string;
    tool_name: string;
    success: boolean;
    execution_time_ms: number;
    error?: string;
  };

/** Executor options. */
export interface ExecutorOptions extends ServiceOptions {
  /** Time limit of one call (default 30 s). */
  timeoutMs?: number;
}

/** Runs tools against one project (each tool's folder is loaded when first called). */
export interface Executor {
  /** What surfaces need besides tools: health, indexing events, background work. */
  readonly service: Service;
  execute(call: ToolCall, meta?: CallMeta): Promise<ToolResult>;
  onEvent(fn: (e: ExecutorEvent) => void): () => void;
  /** Closes the service (and so the project's store). */
  close(): Promise<void>;
}

/**
 * Creates an executor over a project root (or an open project or service, which the
 * executor then owns: `close()` closes it).
 *
 * @example
 * ```ts
 * const ex = await createExecutor("./my-repo");
 * const r = await ex.execute({ tool_name: "search_symbols", arguments: { query: "parse" } });
 * if (r.success) console.log(r.result_payload.symbols);
 * ```
 */
export async function createExecutor(
  root: string | Project | ProjectService,
  opts: ExecutorOptions = {},
): Promise<Executor> {
  const service = root instanceof ProjectService ? root : await ProjectService.open(root, opts);
  const project = service.project;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const listeners = new Set<(e: ExecutorEvent) => void>();
  const emit = (e: ExecutorEvent) => {
    for (const fn of listeners) {
      try {
        fn(e);
      } catch {
        // a listener's failure is not the call's
      }
    }
  };

  return {
    service,
    onEvent(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close() {
      return service.close();
    },
    async execute(call, meta = {}) {
      const t0 = performance.now();
      const requestId = meta.requestId ?? crypto.randomUUID();
      const toolName = typeof call?.tool_name === "string" ? call.tool_name : "";
      emit({
        type: "tool.started",
        request_id: requestId,
        tool_name: toolName,
        source: meta.source ?? "unknown",
        ts: new Date().toISOString(),
      });
      let result: ToolResult;
      try {
        const tool = await loadTool(toolName);
        if (!tool) {
          throw new CodectxError(
            "unknown_tool",
            toolName
              ? `unknown tool '${toolName}'; valid tools: ${TOOL_NAMES.join(", ")}`
              : `tool_name is missing; valid tools: ${TOOL_NAMES.join(", ")}`,
          );
        }
        const args = validate(tool, call.arguments);
        const trace = currentTrace();
        if (trace) trace.id = requestId;
        mark("queued", trace);
        // A few calls run at once (service.admit): the others wait their turn, so `/health`
        // and short calls do not queue behind every step of 50 searches. A call whose time
        // ran out while it waited does not start.
        const limitMs = meta.timeoutMs ?? timeoutMs;
        // The handler's own limit falls a little before the executor's, so that work that
        // stops itself there (a scan) says why in its own words.
        const deadline = limitMs > 0
          ? Date.now() + limitMs - Math.min(250, limitMs / 10)
          : undefined;
        const payload = await withTimeout(
          (signal) =>
            service.admit(() => {
              mark("admitted", trace);
              signal.throwIfAborted();
              return tool.handler(args, { project, signal, deadline });
            }, { client: meta.client, weight: callWeight(tool.name, args), signal, deadline }),
          limitMs,
          tool.name,
        );
        mark("executed", trace);
        result = {
          success: true,
          result_payload: payload as Record<string, unknown>,
          execution_time_ms: elapsed(t0),
        };
      } catch (err) {
        const code = errorCode(err);
        result = {
          success: false,
          result_payload: {},
          execution_time_ms: elapsed(t0),
          error: code === "internal" ? `internal error: ${errorMessage(err)}` : errorMessage(err),
          error_code: code,
        };
      }
      emit({
        type: "tool.completed",
        request_id: requestId,
        tool_name: toolName,
        success: result.success,
        execution_time_ms: result.execution_time_ms,
        ...(result.error ? { error: result.error } : {}),
      });
      return result;
    },
  };
}

/** Checks arguments against the tool's schema; unknown argument names are refused too. */
export function validate(tool: Tool, raw: unknown): z.infer<Tool["input"]> {
  const args = raw === undefined || raw === null ? {} : raw;
  if (typeof args !== "object" || Array.isArray(args)) {
    throw new CodectxError("invalid_argument", `arguments of ${tool.name} must be a JSON object`);
  }
  const known = Object.keys(tool.input.shape);
  const unknown = Object.keys(args).filter((k) => !known.includes(k));
  if (unknown.length) {
    throw new CodectxError(
      "invalid_argument",
      `unknown argument${unknown.length > 1 ? "s" : ""} ${
        unknown.map((k) => `'${k}'`).join(", ")
      } for ${tool.name}; ` +
        (known.length ? `valid: ${known.join(", ")}` : "it takes none"),
    );
  }
  assertShallow(args, `invalid arguments for ${tool.name}`); // before zod: its message recurses
  const parsed = tool.input.safeParse(args, { reportInput: true });
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => {
      const where = i.path.join(".") || "arguments";
      // A value outside a fixed set: the value given and the set, in words.
      if (i.code === "invalid_value") {
        return `${where} '${String(i.input)}' is not one of ${i.values.map(String).join(", ")}`;
      }
      return `${where}: ${i.message}`;
    }).join("; ");
    throw new CodectxError("invalid_argument", `invalid arguments for ${tool.name}: ${detail}`);
  }
  return parsed.data;
}

/** How long past its limit a call's own `timeout` error is waited for (see `withTimeout`). */
const OWN_WORDS_MS = 500;

/** Runs `run` under a limit of `ms` (none when `ms` is 0), aborting its signal past it. */
async function withTimeout<T>(
  run: (signal: AbortSignal) => Promise<T>,
  ms: number,
  name: string,
): Promise<T> {
  const ctrl = new AbortController();
  if (ms <= 0) return await run(ctrl.signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const running = run(ctrl.signal);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(async () => {
      ctrl.abort();
      // Work that stops itself at its deadline (a scan) says why in its own words: its error
      // is the answer when it comes within a moment (a loaded machine delays it).
      const own = await Promise.race([
        running.then(() => null, (e) => errorCode(e) === "timeout" ? e : null),
        new Promise<null>((r) => grace = setTimeout(() => r(null), OWN_WORDS_MS)),
      ]);
      clearTimeout(grace);
      reject(
        own ??
          new CodectxError(
            "timeout",
            `${name} took longer than ${Math.round(ms / 1000)} s; narrow the request and retry`,
          ),
      );
    }, ms);
  });
  try {
    return await Promise.race([running, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function elapsed(t0: number): number {
  return Math.round((performance.now() - t0) * 100) / 100;
}

/** Drops `undefined` values: tool schemas refuse unknown keys, not absent ones. */
export function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
