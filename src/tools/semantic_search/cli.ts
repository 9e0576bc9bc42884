/**
 * How `codectx search` prints `semantic_search`'s payload: the tool's text (a line or two a
 * hit); on standard error, how far the vectors were when the results are partly lexical. (The command itself, which waits for the vectors, is `cli/search.ts`.)
 *
 * @module
 */

import type { CliOutput } from "../tool.ts";
import { literalNotes, render, type Under, wordsNote } from "./render.ts";
import { join } from "../markdown.ts";
import type { SemanticSearchPayload } from "./schema.ts";

/** What `codectx search` knows besides the payload. */
export interface PrintOptions {
  /** The number of hits was not asked for: a ranked search leaves out the weak tail. */
  cut?: boolean;
  /** What holds a literal hit's line (`cli/under.ts` reads it from the file). */
  under?: Under;
}

/**
 * The results as `codectx search` prints them: the tool's text (without the weak tail when the
 * number was not asked for: `cut`), its hints in the command's words (`--top-k`,
 * `--include-tests`): a literal search says when it stopped at its cap and how many matches the
 * test files it skipped hold, as a grep user would otherwise miss them.
 */
export function print(p: SemanticSearchPayload, opts: PrintOptions = {}): CliOutput {
  const out: string[] = [];
  const err: string[] = [];
  const note = wordsNote(p);
  const [raise, tests] = ["--top-k 100", "--include-tests"];
  out.push(
    p.snippets.length === 0
      // Nothing found: the line says so; a count of the test files' matches still follows.
      ? join([
        `no results${note ? `; ${note.replace("mode regex", "--mode regex")}` : ""}`,
        literalNotes(p, raise, tests),
      ])
      : render(
        p,
        opts.cut ? "--top-k N lists them" : false,
        raise,
        tests,
        opts.under,
      ),
  );
  const v = p.vectors;
  if (v.state !== "complete" && v.state !== "off" && (p.mode === "hybrid" || p.mode === "dense")) {
    err.push(
      `codectx: vectors ${v.done}/${v.total} (${v.embedder}, ${v.state}${
        v.error ? `: ${v.error}` : ""
      }); results are partly lexical`,
    );
  }
  return { out, err };
}
