/**
 * Errors as values with a code: each surface maps the code to its own status.
 */

/** The codes a tool or surface can fail with. */
export type ErrorCode =
  | "invalid_argument"
  | "outside_root"
  | "not_found"
  | "unknown_tool"
  | "too_large"
  | "timeout"
  | "busy"
  | "unavailable"
  | "internal";

/** HTTP status for each code. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_argument: 400,
  outside_root: 400,
  unknown_tool: 400,
  not_found: 404,
  too_large: 413,
  timeout: 504,
  busy: 503,
  unavailable: 503,
  internal: 500,
};

/** A failure the user can act on; `message` says what to do next. */
export class CodectxError extends Error {
  /** An error with a code (its HTTP status is `HTTP_STATUS[code]`) and a message saying what to do. */
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
    this.name = "CodectxError";
  }
}

/** The code of any thrown value (`internal` for unexpected ones). */
export function errorCode(err: unknown): ErrorCode {
  return err instanceof CodectxError ? err.code : "internal";
}

/** The message of any thrown value. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
