/**
 * What a tool's case is (`src/tools/<name>/case_test.ts`: one call on the fixture project,
 * what its payload and its MCP text must show), and the JSON narrowing the checks use. The
 * surface tests gather a case from every tool folder of the registry (`surfaces_helpers.ts`).
 */

import assert from "node:assert/strict";

/** A JSON value. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** Narrows a JSON value to an object (fails the test otherwise). */
export function obj(v: Json | undefined): JsonObject {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new Error(`expected a JSON object, got ${JSON.stringify(v)}`);
  }
  return v;
}

/** Narrows a JSON value to an array (fails the test otherwise). */
export function arr(v: Json | undefined): Json[] {
  if (!Array.isArray(v)) throw new Error(`expected a JSON array, got ${JSON.stringify(v)}`);
  return v;
}

/** The `key` field of each object in a JSON array (fails the test when it is no array). */
export function names(v: Json | undefined, key = "name"): Json[] {
  return arr(v).map((x) => obj(x)[key]);
}

/** One call of a tool on the fixture and what its answer must show. */
export interface ToolCase {
  /** Arguments valid on the fixture (`tests/fixtures/project`). */
  args: JsonObject;
  /**
   * Fails unless `payload` could only come from the tool really run on the fixture (a
   * symbol found, a file listed, a reference at its line), never from an empty answer.
   */
  check(payload: JsonObject, what: string): void;
  /**
   * Fails unless the MCP text (`text`, of the payload `payload`) carries what a model needs:
   * the locations and names, as Markdown rather than JSON.
   */
  text(text: string, payload: JsonObject): void;
}

export { assert };
