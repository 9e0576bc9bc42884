/**
 * `ask` as Markdown: the answer, then the sources it does not already cite.
 *
 * @module
 */

import { join, listOf, loc } from "../markdown.ts";
import type { AskPayload } from "./schema.ts";

/** The answer and the sources it does not name. */
export function render(p: AskPayload): string {
  const answer = p.answer;
  // The offline answer already cites each source it quotes; list only those it does not name.
  const missing = p.sources.filter((s) => !answer.includes(`${s.file}:${s.line}`));
  return join([answer, listOf("Sources", missing, (s) => `${loc(s)} ${s.symbol ?? ""}`)]);
}
