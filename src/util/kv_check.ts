/**
 * Whether this Deno has Deno KV, which every codectx index lives in: a program started
 * without `--unstable-kv` (and without `"unstable": ["kv"]` in its config) is told so in one
 * line, by codectx, before anything else fails.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";

/**
 * What a program that runs codectx without Deno KV reads, on one line: what to add.
 */
export const KV_MISSING =
  'codectx needs Deno KV: run deno with --unstable-kv, or add "unstable": ["kv"] to your deno.json';

/**
 * Fails with {@link KV_MISSING} when this Deno has no KV (started without `--unstable-kv` and
 * without `"unstable": ["kv"]` in its config): Deno's own error comes later, from deep inside a
 * call, with a stack trace and a hint that does not name the config key.
 *
 * @example
 * ```ts
 * requireKv(); // throws CodectxError("unavailable", KV_MISSING) under a plain `deno run`
 * ```
 */
export function requireKv(): void {
  if (typeof (Deno as { openKv?: unknown }).openKv !== "function") {
    throw new CodectxError("unavailable", KV_MISSING);
  }
}
