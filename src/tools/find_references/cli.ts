/**
 * `codectx refs NAME [--file F] [--limit N] [--json]`: every reference to a symbol, as the
 * tool's text says them (what and how many, then a line each, grouped by file).
 *
 * @module
 */

import type { CliOutput, ToolCommand } from "../tool.ts";
import { render } from "./render.ts";
import type { FindReferencesPayload } from "./schema.ts";

/** The payload as `codectx refs` prints it: the tool's text, with how to see more. */
export function print(p: FindReferencesPayload): CliOutput {
  const more = p.truncated ? [`(--limit N prints more than ${p.references.length})`] : [];
  const search = (name: string) => `codectx search '${name}' --mode exact`;
  return { out: [render(p, search), ...more] };
}

/** `codectx refs`. */
export const command: ToolCommand<FindReferencesPayload> = {
  command: "refs",
  synopsis: "NAME  who calls it, what breaks if it changes: its uses (--file F)",
  help: `Usage: codectx refs NAME [options]

Every reference to a symbol (definitions, calls, imports, types, inheritance, reads,
writes), resolved through scopes and imports. NAME may be qualified (Session.request).

Options:
  --file F          only the definition in file F (for a name defined in several files)
  --limit N         most references printed (default 200)
`,
  positional: { arg: "symbol_name", missing: "refs needs a NAME, e.g. codectx refs parse_config" },
  options: {
    file: { type: "string", arg: "file_path" },
    limit: { type: "string", arg: "limit", int: {} },
  },
  print,
};
