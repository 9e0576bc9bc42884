/**
 * Test helpers: temporary projects written from a map of files, and a temporary index home.
 */

import assert from "node:assert/strict";
import { createExecutor, type Executor } from "../src/tools/executor.ts";

/** Writes `files` (path → content) under a new temp dir and returns its real path. */
export async function makeProject(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "codectx-proj-" }));
  await writeFiles(root, files);
  return root;
}

/** Writes (or overwrites) files under `root`, creating folders. */
export async function writeFiles(
  root: string,
  files: Record<string, string | Uint8Array>,
): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const path = `${root}/${rel}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
}

/** A fresh folder for an index. */
export async function tempIndexDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "codectx-index-" });
}

/** Removes folders, ignoring errors. */
export async function cleanup(...dirs: string[]): Promise<void> {
  for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
}

/**
 * Runs `body` against an in-process executor over a new project of `files` (no parse workers,
 * no embedder, no call limit: these tests check answers, not speed), then removes both.
 * `body` is also given the project's root.
 */
export async function withExecutor(
  files: Record<string, string>,
  body: (ex: Executor, root: string) => Promise<void>,
): Promise<void> {
  const root = await makeProject(files);
  const indexDir = await tempIndexDir();
  const ex = await createExecutor(root, {
    indexDir,
    workers: 0,
    embedder: "none",
    maxMemoryMiB: 4096,
    timeoutMs: 0,
  });
  try {
    await body(ex, root);
  } finally {
    await ex.close();
    await cleanup(root, indexDir);
  }
}

/**
 * `files` indexed by index_project in a process of its own, and how to open another on the
 * same index (a fresh process, as a command or an assistant's server is).
 */
export async function indexedProject(files: Record<string, string>) {
  const root = await makeProject(files);
  const indexDir = await tempIndexDir();
  const open = () => createExecutor(root, { indexDir, workers: 0, timeoutMs: 0 });
  const indexing = await open();
  try {
    await callTool(indexing, "index_project", {});
  } finally {
    await indexing.close();
  }
  return { root, indexDir, open };
}

/** A tool's result payload. */
export type Payload = Record<string, unknown>;

/** Runs one tool through the executor and returns its payload; a failed call fails the test. */
export async function callTool(ex: Executor, tool: string, args: Payload): Promise<Payload> {
  const r = await ex.execute({ tool_name: tool, arguments: args });
  if (!r.success) throw new Error(`${tool} ${JSON.stringify(args)}: ${r.error}`);
  return r.result_payload;
}

/**
 * `find_references` of `symbol` (in `file` when given) as one line per reference:
 * `file:line kind resolution`.
 */
export async function refLines(ex: Executor, symbol: string, file?: string): Promise<string[]> {
  const p = await callTool(ex, "find_references", {
    symbol_name: symbol,
    ...(file ? { file_path: file } : {}),
  });
  return referenceLines(p);
}

/** A `find_references` payload as one line per reference: `file:line kind resolution`. */
export function referenceLines(p: Payload): string[] {
  return (p.references as Payload[]).map((r) => `${r.file}:${r.line} ${r.kind} ${r.resolution}`);
}

/** Fails unless every `want` line is among `lines` (the message shows them all). */
export function has(lines: string[], ...want: string[]): void {
  for (const w of want) assert.ok(lines.includes(w), `${w}\n${lines.join("\n")}`);
}

/** Path of the repository's cli.ts. */
export const CLI = new URL("../cli.ts", import.meta.url).pathname;

/** Runs the CLI to completion and returns exit code and output. */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    stdin: "null",
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
