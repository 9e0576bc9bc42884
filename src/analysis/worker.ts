/**
 * Analysis worker: receives `{id, file, text, language}`, answers `{id, result}` or
 * `{id, error}`.
 */

/// <reference lib="deno.worker" />

import { analyzeSource } from "./analyze.ts";

self.onmessage = async (
  e: MessageEvent<{ id: number; file: string; text: string; language: string }>,
) => {
  const { id, file, text, language } = e.data;
  try {
    self.postMessage({ id, result: await analyzeSource(file, text, language) });
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
