/**
 * `get_dependencies`' wire shapes: its arguments and its payload.
 *
 * @module
 */

import { z } from "npm:zod@4.1.9";
import { filePathArg } from "../schemas.ts";

const importSchema = z.object({
  module: z.string().describe("As written"),
  resolved: z.string().nullable().describe("Project-relative file or package folder"),
  external: z.boolean(),
  package: z.string().nullable().describe("The external package, when external"),
  line: z.number().int(),
  names: z.array(z.string()),
  also: z.array(z.string()).optional().describe(
    "The other project files the statement imports (`from . import a, b`)",
  ),
});

/** Its arguments. */
export const input = z.object({
  file_path: filePathArg.optional(),
  package: z.string().min(1).optional(),
});

/** Its payload. */
export const output = z.object({
  file: z.string().nullable(),
  language: z.string().optional(),
  imports: z.array(importSchema),
  imported_by: z.array(z.string()),
  nodes: z.array(z.object({
    file: z.string(),
    language: z.string(),
    imports: z.number().int(),
    imported_by: z.number().int(),
  })).optional(),
  edges: z.array(z.object({ from: z.string(), to: z.string(), line: z.number().int() }))
    .optional(),
  external: z.array(z.object({
    package: z.string(),
    count: z.number().int(),
    files: z.number().int(),
  })).optional(),
  cycles: z.array(z.array(z.string())).optional(),
  importers: z.array(z.object({
    file: z.string(),
    line: z.number().int(),
    module: z.string(),
    names: z.array(z.string()),
    external: z.boolean(),
    resolved: z.string().nullable(),
  })).optional(),
  unresolved: z.number().int().optional(),
});

/** What `get_dependencies` answers. */
export type GetDependenciesPayload = z.infer<typeof output>;
