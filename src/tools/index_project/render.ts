/**
 * `index_project` as Markdown: the state, counts by language, what changed, parse errors.
 *
 * @module
 */

import { join } from "../markdown.ts";
import type { IndexPayload } from "./schema.ts";

/** One line of counts, then the files that failed to parse. */
export function render(p: IndexPayload): string {
  const langs = Object.entries(p.languages).map(([k, v]) => `${k} ${v}`).join(", ");
  const changed = p.changed
    ? `${p.changed} changed (+${p.added} ~${p.modified} -${p.deleted})`
    : "unchanged";
  return join([
    `${p.state}: ${p.files} files (${langs}), ${p.chunks} chunks, ${p.symbols} symbols; ${changed}`,
    p.errors.length ? `Errors:\n${p.errors.map((e) => `- ${JSON.stringify(e)}`).join("\n")}` : "",
  ]);
}
