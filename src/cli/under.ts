/**
 * What holds the lines a literal search found, for `codectx search --mode exact|regex`: the
 * branch heads above each, read from the file.
 *
 * @module
 */

import { join } from "node:path";
import type { Under } from "../tools/semantic_search/render.ts";
import type { SemanticSearchPayload } from "../tools/semantic_search/schema.ts";
import { type BodyLines, bodyLines, headsOf, statementStart } from "../util/body_outline.ts";
import { textLines } from "../util/line_context.ts";
import { isTestFile } from "../util/test_files.ts";

/** Hits in code a literal search says the conditions of; more are a list to scan, not read. */
const MAX_UNDER = 3;

/**
 * What holds each line a literal search found: the statement it is a line of when that began
 * above it (a message or a reason code on a call's second line: openssl's six
 * `SSLfatal(s, …,\n SSL_R_WRONG_VERSION_NUMBER)`, the raises read one line off), and, when it
 * found at most {@link MAX_UNDER} lines in code, the (at most two) branch heads above it in
 * its function, read from the file under `root` (issue 35: after `search "Empty reply from
 * server" --mode exact`, the answerer read 17 lines with `sed` for the `if` above it).
 */
export function underOf(p: SemanticSearchPayload, root: string): Under | undefined {
  if (p.mode !== "exact" && p.mode !== "regex") return undefined;
  // More hits are a list to scan: each says only the statement it is a line of.
  const few = p.snippets.filter((h) => !isTestFile(h.file)).length <= MAX_UNDER;
  const files = new Map<string, BodyLines>();
  return (file, line) => {
    if (!files.has(file)) {
      let lines: string[] = [];
      try {
        lines = textLines(Deno.readTextFileSync(join(root, file)));
      } catch {
        // A file gone since the search: nothing is said of its lines.
      }
      files.set(file, bodyLines(lines, 1));
    }
    const b = files.get(file)!;
    // A hit in a comment or a string is under nothing said here.
    if (!(b.indent[line - 1] >= 0)) return "";
    // A message on a line of its own is an argument: the statement it is in (`raise …(`).
    const start = statementStart(b, line);
    const heads = few ? headsOf(b, start, 2) : [];
    return [
      start < line ? `statement ${start}: ${b.lines[start - 1].trim()}` : "",
      heads.length ? `under ${heads.map((h) => `${h.line} ${h.text}`).join("; ")}` : "",
    ].filter(Boolean).join("; ");
  };
}
