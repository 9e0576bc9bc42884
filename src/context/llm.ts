/**
 * A minimal client of an OpenAI-compatible chat completions endpoint (OpenAI, llama.cpp's
 * server, Ollama, vLLM, LM Studio …), with a time limit. Configured by environment:
 * `CODECTX_LLM_URL` (base URL such as `http://127.0.0.1:8080/v1`, or the full
 * `…/chat/completions` URL), `CODECTX_LLM_MODEL`, `CODECTX_LLM_KEY` (sent as a bearer
 * token) and `CODECTX_LLM_TIMEOUT_MS` (default 20000).
 *
 * @module
 */

/** Where and how to reach the model. */
export interface LlmConfig {
  /** The chat completions URL. */
  url: string;
  model: string;
  key?: string;
  timeoutMs: number;
}

/** A chat message. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Default time limit of one completion: below the 30 s limit of a tool call. */
export const DEFAULT_LLM_TIMEOUT_MS = 20_000;
/** Model name sent when `CODECTX_LLM_MODEL` is unset. */
export const DEFAULT_LLM_MODEL = "gpt-4o-mini";

/**
 * The chat completions URL of a configured base: kept when it already ends with
 * `/chat/completions`, `/chat/completions` added after a `/v1`-style path, and
 * `/v1/chat/completions` after a bare host.
 *
 * @example
 * ```ts
 * chatEndpoint("http://127.0.0.1:11434"); // "http://127.0.0.1:11434/v1/chat/completions"
 * chatEndpoint("https://api.example.com/v1/"); // "https://api.example.com/v1/chat/completions"
 * ```
 */
export function chatEndpoint(base: string): string {
  const url = new URL(base.trim());
  const path = url.pathname.replace(/\/+$/, "");
  if (/\/chat\/completions$/.test(path)) url.pathname = path;
  else if (/\/v\d+[\w-]*$/.test(path)) url.pathname = `${path}/chat/completions`;
  else url.pathname = `${path}/v1/chat/completions`;
  return url.toString();
}

/** The configuration from the environment; null when `CODECTX_LLM_URL` is unset. */
export function llmConfigFromEnv(
  get: (name: string) => string | undefined = (n) => Deno.env.get(n),
): LlmConfig | null {
  const base = get("CODECTX_LLM_URL")?.trim();
  if (!base) return null;
  let url: string;
  try {
    url = chatEndpoint(base);
  } catch {
    throw new Error(`CODECTX_LLM_URL '${base}' is not a URL`);
  }
  const timeout = Number(get("CODECTX_LLM_TIMEOUT_MS"));
  return {
    url,
    model: get("CODECTX_LLM_MODEL")?.trim() || DEFAULT_LLM_MODEL,
    key: get("CODECTX_LLM_KEY")?.trim() || undefined,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_LLM_TIMEOUT_MS,
  };
}

/** A failed completion, with a message fit for a warning. */
export class LlmError extends Error {
  override name = "LlmError";
}

/**
 * One chat completion: the content of the first choice. Throws `LlmError` on a network
 * error, a non-2xx answer, a malformed body, or when `cfg.timeoutMs` passes (or `signal`
 * aborts) before the answer is read.
 *
 * @example
 * ```ts
 * const text = await chatCompletion(cfg, [{ role: "user", content: "Say hi" }]);
 * ```
 */
export async function chatCompletion(
  cfg: LlmConfig,
  messages: ChatMessage[],
  signal?: AbortSignal,
): Promise<string> {
  const timeout = AbortSignal.timeout(cfg.timeoutMs);
  const both = signal ? AbortSignal.any([timeout, signal]) : timeout;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (cfg.key) headers.authorization = `Bearer ${cfg.key}`;
  let body: unknown;
  try {
    const res = await fetch(cfg.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: cfg.model, messages, temperature: 0.2, stream: false }),
      signal: both,
    });
    const text = await res.text();
    if (!res.ok) {
      throw new LlmError(`HTTP ${res.status}${text ? `: ${text.slice(0, 200).trim()}` : ""}`);
    }
    try {
      body = JSON.parse(text);
    } catch {
      throw new LlmError("the answer is not JSON");
    }
  } catch (err) {
    if (err instanceof LlmError) throw err;
    if (timeout.aborted) throw new LlmError(`no answer within ${cfg.timeoutMs} ms`);
    if (signal?.aborted) throw new LlmError("the request was cancelled");
    throw new LlmError(err instanceof Error ? err.message : String(err));
  }
  const content = (body as { choices?: Array<{ message?: { content?: unknown } }> })
    ?.choices?.[0]?.message?.content;
  if (typeof content !== "string" || content.trim() === "") {
    throw new LlmError("the answer has no choices[0].message.content");
  }
  return content.trim();
}
