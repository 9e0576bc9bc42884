/**
 * `codectx context NAME [--file F] [--max-tokens N] [--json]`: the context window as it is;
 * its size on standard error.
 *
 * @module
 */

import { otherSymbolsNote } from "../markdown.ts";
import type { CliOutput, ToolCommand } from "../tool.ts";
import { type GetContextPayload, MAX_TOKENS_LIMIT } from "./schema.ts";

/** The payload as `codectx context` prints it. */
export function print(p: GetContextPayload): CliOutput {
  return {
    out: [p.text],
    err: [
      ...(p.candidates.length ? [otherSymbolsNote(p.candidates)] : []),
      `${p.tokens}/${p.max_tokens} tokens, ${p.sources.length} sources${
        p.truncated ? ", truncated" : ""
      }`,
    ],
  };
}

/** `codectx context`. */
export const command: ToolCommand<GetContextPayload> = {
  command: "context",
  synopsis: "NAME  its code and neighbours in a token budget",
  help: `Usage: codectx context NAME [options]

A Markdown context window for NAME: its definition, then the file's imports, the
enclosing definition, what it calls and uses, its call sites and sibling members,
ranked and packed to the token budget.

Options:
  --max-tokens N    token budget (1-32000, default 2000)
  --file F          only look in file (or folder) F
`,
  positional: {
    arg: "symbol_name",
    missing: "context needs a NAME, e.g. codectx context parse_config",
  },
  options: {
    file: { type: "string", arg: "file_path" },
    "max-tokens": { type: "string", arg: "max_tokens", int: { min: 1, max: MAX_TOKENS_LIMIT } },
  },
  print,
};
