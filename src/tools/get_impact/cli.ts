/**
 * `codectx impact [--base REV | --diff FILE|- | --symbols A,B] [--depth N] [--no-tests]
 * [--max-results N] [--json]`: what a change touches, as the MCP text says it.
 *
 * @module
 */

import type { CliOutput, ToolCommand } from "../tool.ts";
import { render } from "./render.ts";
import type { GetImpactPayload } from "./schema.ts";

/** The payload as `codectx impact` prints it. */
export function print(p: GetImpactPayload): CliOutput {
  return { out: [render(p)] };
}

/** `codectx impact`. */
export const command: ToolCommand<GetImpactPayload> = {
  command: "impact",
  synopsis: "  what a change touches (--base REV, --symbols A,B)",
  help: `Usage: codectx impact [options]

What a change touches: the definitions it adds, edits and removes, everything that reaches
them through callers and references (hop by hop, with how sure each path is), the files,
the tests to run, and what is likely to break. Without --diff or --symbols: the working
tree (staged and unstaged) against HEAD.

Options:
  --base REV        compare the working tree with this git revision (default HEAD)
  --diff FILE       a unified diff (- for standard input), applied already or about to be
  --symbols A,B     symbols about to change, by name
  --depth N         hops (1-6, default 3)
  --no-tests        leave test files out of the impacted (tests to run are still listed)
  --max-results N   most impacted definitions listed (default 200)
`,
  options: {
    base: { type: "string", arg: "base" },
    diff: { type: "string", arg: "diff", file: true },
    symbols: { type: "string", arg: "symbols", list: true },
    depth: { type: "string", arg: "depth", int: {} },
    "no-tests": { type: "boolean", arg: "include_tests", value: false },
    "max-results": { type: "string", arg: "max_results", int: {} },
  },
  print,
};
