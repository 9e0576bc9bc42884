/**
 * The parse process: a separate `deno` process that parses the files of grammars whose
 * lexer V8 must not optimise (see `lean_pool.ts`). It reads jobs as frames on stdin
 * (header `{ id, path, language }`, the file's bytes as payload) and answers each with its
 * encoded extraction on stdout, one job at a time; it ends when stdin closes.
 *
 * @module
 */

import { encodeFrame, packParts, readFrames } from "../util/frames.ts";
import { extractEncoded } from "./extract.ts";

/** A job's header. */
export interface LeanJob {
  id: number;
  path: string;
  language: string;
}

/** An answer's header: the extraction without its parts (they are the payload), or an error. */
export type LeanReply =
  | {
    id: number;
    language: string;
    lines: number;
    symbols: number;
    chunks: number;
    error?: string;
    parts: [string, number][];
  }
  | { id: number; failed: string };

/** Answers the jobs of stdin on stdout until stdin ends. */
export async function serveLeanJobs(): Promise<void> {
  const out = Deno.stdout.writable.getWriter();
  for await (const { header, payload } of readFrames<LeanJob>(Deno.stdin.readable)) {
    let frame: Uint8Array;
    try {
      const x = await extractEncoded(header.path, payload, header.language);
      const { names, payload: parts } = packParts(x.parts);
      const reply: LeanReply = {
        id: header.id,
        language: x.language,
        lines: x.lines,
        symbols: x.symbols,
        chunks: x.chunks,
        ...(x.error ? { error: x.error } : {}),
        parts: names,
      };
      frame = encodeFrame(reply, parts);
    } catch (err) {
      frame = encodeFrame({
        id: header.id,
        failed: err instanceof Error ? err.message : String(err),
      });
    }
    await out.write(frame);
  }
  await out.close();
}

if (import.meta.main) await serveLeanJobs();
