/**
 * `codectx refs NAME [--file F] [--limit N] [--json]`: every reference to a symbol, a line
 * each, then how many and to what.
 *
 * @module
 */

import type { CliOutput, ToolCommand } from "../tool.ts";
import type { FindReferencesPayload } from "./schema.ts";

/** The payload as `codectx refs` prints it. */
export function print(p: FindReferencesPayload): CliOutput {
  const out = p.references.map((r) =>
    `${r.file}:${r.line}:${r.column}  ${r.kind.padEnd(10)}  ${r.context}`
  );
  const defs = p.definitions.map((d) => `${d.qualified_name} (${d.file}:${d.line})`);
  out.push(
    `${p.total} reference${p.total === 1 ? "" : "s"} to ${defs.join(", ")}` +
      (p.truncated ? ` (first ${p.references.length} shown; --limit N for more)` : ""),
  );
  return { out };
}

/** `codectx refs`. */
export const command: ToolCommand<FindReferencesPayload> = {
  command: "refs",
  synopsis: "NAME  every use as file:line and enclosing function (--file F)",
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
