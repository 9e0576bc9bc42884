/**
 * How deep a parsed JSON value nests, measured without recursion. `JSON.parse` reads a
 * value 100,000 levels deep, but whatever walks it recursively afterwards (zod building its
 * error text, `JSON.stringify`) overflows the stack: such a value is refused first, naming
 * where it is.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";

/**
 * Levels of arrays and objects accepted inside a request body or a tool's arguments: no
 * request codectx takes nests more than a few.
 */
export const MAX_JSON_DEPTH = 64;

/** A value waiting to be looked at, with the way down to it. */
interface Step {
  value: unknown;
  depth: number;
  key: string | number;
  parent: Step | null;
}

/**
 * The path (keys and indexes from the top) to the first array or object nested more than
 * `max` levels inside `value`, or null when none is. `value` itself is level 0.
 *
 * @example
 * ```ts
 * tooDeepAt({ query: [[["x"]]] }, 2); // ["query", 0, 0]
 * tooDeepAt({ query: "x" }, 2); // null
 * ```
 */
export function tooDeepAt(value: unknown, max: number): Array<string | number> | null {
  const stack: Step[] = [{ value, depth: 0, key: "", parent: null }];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const v = step.value;
    if (typeof v !== "object" || v === null) continue;
    if (step.depth > max) return pathOf(step);
    const entries: Array<[string | number, unknown]> = Array.isArray(v)
      ? v.map((item, i) => [i, item])
      : Object.entries(v);
    for (const [key, item] of entries) {
      if (typeof item === "object" && item !== null) {
        stack.push({ value: item, depth: step.depth + 1, key, parent: step });
      }
    }
  }
  return null;
}

function pathOf(step: Step): Array<string | number> {
  const path: Array<string | number> = [];
  for (let s: Step | null = step; s?.parent; s = s.parent) path.push(s.key);
  return path.reverse();
}

/** `query[0][0]` from `["query", 0, 0]`; at most `shown` steps, then `…`. */
function pathText(path: ReadonlyArray<string | number>, shown = 4): string {
  const text = path.slice(0, shown).map((k, i) =>
    typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`
  ).join("");
  return path.length > shown ? `${text}…` : text;
}

/**
 * Throws `invalid_argument` when `value` nests deeper than {@link MAX_JSON_DEPTH} levels,
 * naming where: `about` opens the message (`invalid arguments for semantic_search`, `the
 * request body`) and the path from the top names the argument.
 *
 * @example
 * ```ts
 * assertShallow({ query: "parse config" }, "invalid arguments for semantic_search"); // returns
 * ```
 */
export function assertShallow(value: unknown, about: string): void {
  const path = tooDeepAt(value, MAX_JSON_DEPTH);
  if (path === null) return;
  throw new CodectxError(
    "invalid_argument",
    `${about}: ${String(path[0])} is nested more than ${MAX_JSON_DEPTH} levels deep ` +
      `(at ${pathText(path)}); codectx's arguments are strings, numbers, booleans and ` +
      `short lists: send ${String(path[0])} as the API describes it`,
  );
}
