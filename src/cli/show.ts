/**
 * `codectx show FILE:A-B`: lines of a project file, numbered (`N: text`). An answer names
 * `file:line`s and the help said to read them with `sed -n A,Bp FILE`, which numbers nothing:
 * answerers counted offsets by hand and one answer was a line off (issue 35). The text is
 * `explain_file`'s (`include_source`: read as indexing reads it, a path outside the root
 * refused); the MCP surface has the same through that tool.
 *
 * @module
 */

import type { ExplainFilePayload } from "../tools/explain_file/schema.ts";
import { lineInContext, numberedLine, OUTSIDE as AROUND, textLines } from "../util/line_context.ts";
import { openExecutor, parse, runTool, upToDate, UsageError } from "./args.ts";

/** Most lines one call prints. */
export const MAX_SHOW_LINES = 200;
/** Ranges one call reads at most (`codectx show a.py:1-9 b.py:20-30 …`). */
export const MAX_SHOW_RANGES = 8;

const HELP = `Usage: codectx show FILE:A-B | FILE:N | FILE … [options]

Lines of a project file, numbered (N: text): lines A to B, or the whole file when it has at
most ${MAX_SHOW_LINES} lines. FILE:N is line N in its function: the function's line, the lines
N sits under (if/else/case/loop heads, whole conditions) and the 7 lines around N (the ${
  AROUND * 2 + 1
}
around N outside a function). At most ${MAX_SHOW_LINES} lines a call; the last line says how to see
the rest. FILE is relative to the project root; up to ${MAX_SHOW_RANGES} ranges a call, each under
its file's name.

Options:
  --no-update       a file the index does not hold yet is not indexed first
  --path DIR        project root (default: current directory)
  --index-dir DIR   where the index lives
`;

/** What `FILE:A-B`, `FILE:N` or `FILE` asks for (`to` absent: to the end, or around `from`). */
export interface ShowSpec {
  file: string;
  from?: number;
  to?: number;
  around?: boolean;
}

/**
 * Reads `FILE:A-B`, `FILE:N` or `FILE`; a bad range is a usage error.
 *
 * @example
 * ```ts
 * parseSpec("src/app.py:10-20"); // { file: "src/app.py", from: 10, to: 20 }
 * ```
 */
export function parseSpec(spec: string): ShowSpec {
  const m = /^(.+?):(\d+)(?:-(\d+))?$/.exec(spec);
  if (!m) return { file: spec };
  const from = Number(m[2]);
  const to = m[3] === undefined ? undefined : Number(m[3]);
  if (from < 1 || (to !== undefined && to < from)) {
    throw new UsageError(`'${spec}': lines are numbered from 1, A-B with A ≤ B (FILE:10-20)`);
  }
  return to === undefined ? { file: m[1], from, around: true } : { file: m[1], from, to };
}

/**
 * The lines `spec` asks for out of `text`, numbered, at most {@link MAX_SHOW_LINES}, then a
 * line saying how to see the rest; a file too long to show whole, or a range past its end,
 * is a usage error saying what to ask instead.
 */
export function numberedLines(
  file: string,
  text: string,
  spec: ShowSpec,
  truncated = false,
): string[] {
  const lines = textLines(text);
  const total = lines.length;
  if (truncated && (spec.from ?? 1) > total) {
    throw new UsageError(`${file}: lines past ${total} are not read (sed -n A,Bp ${file})`);
  }
  if (spec.from === undefined && total > MAX_SHOW_LINES) {
    throw new UsageError(
      `${file} has ${total} lines, more than ${MAX_SHOW_LINES} shown at once: ask for a range ` +
        `(codectx show ${file}:1-${MAX_SHOW_LINES}), or its outline (codectx explain ${file})`,
    );
  }
  let from = spec.from ?? 1;
  let to = spec.to ?? total;
  if (spec.around) [from, to] = [Math.max(1, from - AROUND), from + AROUND];
  if (from > total) {
    throw new UsageError(
      `${file} has ${total} line${total === 1 ? "" : "s"}; ask within 1-${total}`,
    );
  }
  to = Math.min(to, total);
  const last = Math.min(to, from + MAX_SHOW_LINES - 1);
  const out: string[] = [];
  for (let n = from; n <= last; n++) out.push(numberedLine(lines, n));
  if (last < to) {
    out.push(
      `(lines ${last + 1}-${to} not shown, ${MAX_SHOW_LINES} a call: codectx show ${file}:${
        last + 1
      }-${Math.min(to, last + MAX_SHOW_LINES)})`,
    );
  }
  return out;
}

/** `codectx show`. */
export async function cmdShow(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {}, MAX_SHOW_RANGES);
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!positionals[0]) {
    throw new UsageError("show needs FILE:A-B, e.g. codectx show src/app.py:10-30");
  }
  // Several ranges in one call (an answerer asked for two and read them with `sed` instead).
  const specs = positionals.map(parseSpec);
  const executor = await openExecutor(values);
  try {
    let updated = false;
    /** A file's text, read once however many of its ranges are asked. */
    const read = async (file: string): Promise<ExplainFilePayload | number> => {
      const args = { file_path: file, include_source: true };
      // The text is read from the file as it is now: the index is brought up to date (a walk
      // of the tree, seconds on a large one) only when it does not hold the file yet.
      const first = (await executor.service.generation()) === null
        ? undefined
        : await executor.execute({ tool_name: "explain_file", arguments: args }, {
          source: "cli",
        });
      if (first?.success) return first.result_payload as ExplainFilePayload;
      if (!updated && (!values["no-update"] || !first)) await upToDate(executor, values);
      updated = true;
      const r = await runTool(values, "explain_file", args, { executor });
      return r.code !== 0 ? r.code : r.payload as ExplainFilePayload;
    };
    const texts = new Map<string, ExplainFilePayload | number>();
    const parts: string[] = [];
    for (const spec of specs) {
      if (!texts.has(spec.file)) texts.set(spec.file, await read(spec.file));
      const p = texts.get(spec.file)!;
      if (typeof p === "number") return p;
      const lines = (spec.around && !p.source_truncated &&
        lineInContext(textLines(p.source ?? ""), p.symbols, spec.from!)) ||
        numberedLines(p.file, p.source ?? "", spec, p.source_truncated);
      // Each range under its file's name when there are several.
      parts.push([...(specs.length > 1 ? [`${p.file}:`] : []), ...lines].join("\n"));
    }
    console.log(parts.join("\n"));
    return 0;
  } finally {
    await executor.close();
  }
}
