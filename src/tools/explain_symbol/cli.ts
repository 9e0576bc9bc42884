/**
 * `codectx explain NAME [--file F] [--json]`: a symbol's definition, doc, body (numbered lines,
 * or its call lines), callers and callees, as the tool's text says them.
 *
 * @module
 */

import type { CliOutput, ToolCommand } from "../tool.ts";
import { render } from "./render.ts";
import type { ExplainSymbolPayload } from "./schema.ts";

/** The payload as `codectx explain` prints it: the tool's text. */
export function print(p: ExplainSymbolPayload): CliOutput {
  return { out: [render(p)] };
}

/** `codectx explain`. */
export const command: ToolCommand<ExplainSymbolPayload> = {
  command: "explain",
  synopsis: "NAME  what it does: signature, doc, calls by branch, callers",
  help: `Usage: codectx explain NAME [options]

A symbol's definition, doc, members, callers (file:line) and callees; its body as numbered
lines when it fits --max-tokens, else its calls in the branches and loops that hold them.
NAME may be qualified (Session.request, pkg.module.func), or a file's path: its outline,
imports and importers.

Options:
  --file F          only look in file (or folder) F
  --max-tokens N    the text's budget (default 1000; a body over 30% of it is shown as
                    its call lines)
`,
  positional: {
    arg: "symbol_name",
    missing: "explain needs a NAME, e.g. codectx explain Session.request",
  },
  options: {
    file: { type: "string", arg: "file_path" },
    "max-tokens": { type: "string", arg: "max_tokens", int: { min: 200 } },
  },
  print,
};
