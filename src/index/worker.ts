/**
 * Parsing worker: receives `{id, path, text, language}`, answers `{id, result}`.
 */

/// <reference lib="deno.worker" />

import { extract } from "./extract.ts";

self.onmessage = async (
  e: MessageEvent<{ id: number; path: string; text: string; language: string }>,
) => {
  const { id, path, text, language } = e.data;
  const result = await extract(path, text, language);
  self.postMessage({ id, result });
};
