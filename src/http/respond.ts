/**
 * JSON answers and the REST error body `{"error": {"code", "message"}}`.
 *
 * @module
 */

import { type ErrorCode, errorCode, errorMessage, HTTP_STATUS } from "../errors.ts";
import type { ErrorRenderer } from "./safety.ts";

/** A JSON response with any status. */
export function jsonResponse(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const text = JSON.stringify(body);
  const res = new Response(text, { status, headers });
  res.headers.set("Content-Type", "application/json; charset=utf-8");
  res.headers.set("Cache-Control", "no-store");
  jsonTexts.set(res, text);
  return res;
}

/** The body text of each response {@link jsonResponse} made. */
const jsonTexts = new WeakMap<Response, string>();

/**
 * The body of a response made by {@link jsonResponse}, as the text it was made from (so
 * the listener writes it without reading the response's stream); undefined for others.
 */
export function jsonTextOf(res: Response): string | undefined {
  return jsonTexts.get(res);
}

/** HTTP status of an error code (500 for anything unknown). */
export function statusOf(code: string | undefined): number {
  return code !== undefined && code in HTTP_STATUS ? HTTP_STATUS[code as ErrorCode] : 500;
}

/**
 * The REST error body.
 *
 * @example
 * ```ts
 * restError(400, "invalid_argument", "q is required"); // 400 {"error":{"code":…,"message":…}}
 * ```
 */
export function restError(status: number, code: string, message: string): Response {
  return jsonResponse({ error: { code, message } }, status);
}

/** A thrown value as a REST error answer. */
export function restErrorOf(err: unknown): Response {
  const code = errorCode(err);
  const message = code === "internal" ? `internal error: ${errorMessage(err)}` : errorMessage(err);
  return restError(statusOf(code), code, message);
}

/** The REST renderer for the safety middleware. */
export const renderRestError: ErrorRenderer = (_c, status, code, message) =>
  restError(status, code, message);
