/**
 * The shape of a tool: a name, a description, zod schemas for input and output, a handler,
 * what it does to the world (its MCP annotations), how its payload reads as Markdown and, for
 * a tool with a command of its own, that command. A tool is one folder, `tools/<name>/`
 * (`mod.ts` the definition, `schema.ts` its wire shapes, `render.ts` its Markdown, `cli.ts`
 * its command); every surface (CLI, bridge, REST, MCP, mod.ts) is derived from these
 * declarations.
 *
 * @module
 */

import type { z } from "npm:zod@4.1.9";
import type { Project } from "../project/project.ts";

/** What a handler gets besides its arguments. */
export interface ToolContext {
  project: Project;
  /** Aborted when the call runs past its time limit. */
  signal: AbortSignal;
  /**
   * `Date.now()` at which the call's time limit passes (absent: none). Work that cannot
   * watch the signal (a synchronous scan) is stopped there (`util/bounded.ts`).
   */
  deadline?: number;
}

/**
 * What a tool does to the world, as MCP's tool annotations say it. `destructiveHint` and
 * `idempotentHint` mean something only for a tool that is not read-only.
 */
export type ToolAnnotations =
  | { readOnlyHint: true; openWorldHint: boolean }
  | {
    readOnlyHint: false;
    /** It may delete or overwrite something the user made. */
    destructiveHint: boolean;
    /** Calling it again with the same arguments changes nothing more. */
    idempotentHint: boolean;
    openWorldHint: boolean;
  };

/** Tools that only read the project and the index, and reach nothing outside the machine. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** One option of a tool's command, as `node:util` `parseArgs` reads it, and where it goes. */
export interface CliOption {
  type: "string" | "boolean";
  /** The tool argument it sets (none: the printer or the command reads it). */
  arg?: string;
  /** A whole number (a usage error otherwise), within `[min, max]` when given. */
  int?: { min?: number; max?: number };
  /** A boolean option sets `arg` to this value. */
  value?: string | number | boolean;
  /** The value names a file whose text (standard input for `-`) is the argument. */
  file?: boolean;
  /** The value is a comma-separated list. */
  list?: boolean;
}

/** What a command prints: lines on standard output, lines on standard error. */
export interface CliOutput {
  out: string[];
  err?: string[];
}

/**
 * A command that runs one tool (`codectx refs NAME` runs `find_references`): its help, its
 * options and how its payload prints. The CLI builds the command from this (`cli/tool_command.ts`);
 * `--json`, `--path`, `--index-dir`, `--no-update` and `--help` come with every one.
 */
export interface ToolCommand<P> {
  /** The command's name. */
  command: string;
  /** Its line in `codectx --help`: its arguments, two spaces, what it answers (one short line). */
  synopsis: string;
  /** Its `--help` text, up to the options every tool command takes. */
  help: string;
  /** The positional argument (at most one) and the tool argument it sets. */
  positional?: {
    arg: string;
    /** The usage error when it is missing (absent: it is optional). */
    missing?: string;
  };
  options: Record<string, CliOption>;
  /** The tool searches with the vectors: wait for them (unless `--no-wait`). */
  vectors?: boolean;
  /** The payload as text (`values`: the parsed options). */
  print(payload: P, values: Record<string, unknown>): CliOutput;
}

/** A tool declaration, typed by its schemas. */
export interface ToolDef<I extends z.ZodObject, O extends z.ZodType> {
  name: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  handler: (args: z.infer<I>, ctx: ToolContext) => Promise<z.infer<O>>;
  /** The compact Markdown a model reads (MCP's text): what to answer from, each thing once. */
  render: (payload: z.infer<O>) => string;
  /** The command that runs it, if it has one of its own. */
  cli?: ToolCommand<z.infer<O>>;
}

/** A tool as the registry and the surfaces hold it (payloads are the handler's own). */
export interface Tool {
  name: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodType;
  annotations: ToolAnnotations;
  handler: (args: Record<string, unknown>, ctx: ToolContext) => Promise<unknown>;
  render: (payload: Record<string, unknown>) => string;
  cli?: ToolCommand<Record<string, unknown>>;
}

/**
 * Declares a tool with exact types: the handler answers the output schema's type, the
 * renderer and the command's printer read it.
 *
 * @example
 * ```ts
 * const echo = defineTool({
 *   name: "echo", description: "Echoes.", annotations: READ_ONLY,
 *   input: z.object({ text: z.string() }), output: z.object({ text: z.string() }),
 *   handler: ({ text }) => Promise.resolve({ text }),
 *   render: (p) => p.text,
 * });
 * ```
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodType>(tool: ToolDef<I, O>): Tool {
  // A payload reaches render and print only as the handler answered it.
  return tool as unknown as Tool;
}
