/**
 * `explain_file`: the outline of one file — language, size, symbols, imports — and, on
 * request (`include_source`), its text, read through the same safe read as indexing and cut
 * at {@link MAX_SOURCE_LINES} lines or {@link MAX_SOURCE_BYTES} bytes.
 */

import { CodectxError } from "../../errors.ts";
import { fileDependencies } from "../../graph/deps.ts";
import { loadGraph } from "../../graph/graph.ts";
import { type GraphPart, refAt, refCount } from "../../facts/codec.ts";
import { readProjectFile, UnsafeFileError } from "../../index/safe_read.ts";
import type { SymbolRecord } from "../../types.ts";
import { fileNotInIndex } from "../../util/suggest.ts";
import { toWireSymbol } from "../schemas.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { render } from "./render.ts";
import { input, MAX_SOURCE_LINES, output } from "./schema.ts";
import { lineView, textLines } from "../../util/line_context.ts";

/** At most this many bytes of a file's text are answered (the index's file size limit). */
export const MAX_SOURCE_BYTES = 1_048_576;

/** The text of an indexed file, cut at the limits; `truncated` when it was cut. */
async function readSource(
  root: string,
  rel: string,
): Promise<{ source: string; truncated: boolean }> {
  let bytes: Uint8Array;
  try {
    bytes = await readProjectFile(root, rel, { maxBytes: MAX_SOURCE_BYTES });
  } catch (err) {
    if (err instanceof UnsafeFileError && err.reason === "outside_root") {
      throw new CodectxError("outside_root", `${err.message}; pass a file inside the project`);
    }
    if (err instanceof UnsafeFileError && err.reason === "too_large") {
      throw new CodectxError(
        "invalid_argument",
        `${err.message}; files over ${MAX_SOURCE_BYTES} bytes are outlined without their text (drop include_source)`,
      );
    }
    throw new CodectxError(
      "not_found",
      `${
        err instanceof Error ? err.message : String(err)
      }; re-index with index_project if it changed`,
    );
  }
  const text = new TextDecoder().decode(bytes).replace(/\r\n?/g, "\n");
  const lines = text.split("\n");
  if (lines.length <= MAX_SOURCE_LINES) return { source: text, truncated: false };
  return { source: lines.slice(0, MAX_SOURCE_LINES).join("\n"), truncated: true };
}

/** Where the file's code names are (its references, definitions included), in text order. */
function namesAt(part: GraphPart): Array<[number, number]> {
  const at: Array<[number, number]> = [];
  for (let i = 0; i < refCount(part); i++) {
    const r = refAt(part, i);
    if (r.line <= MAX_SOURCE_LINES) at.push([r.line, r.column]);
  }
  return at.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/**
 * The symbols as an outline: each followed by its members, otherwise in line order — a Rust
 * `impl Error` block's methods come after `struct Error`, not under whatever the file defines
 * between the two (walkdir's error.rs put them after `enum ErrorInner`).
 */
function outlineOrder(symbols: readonly SymbolRecord[]): SymbolRecord[] {
  const names = new Set(symbols.map((s) => s.qualifiedName));
  const members = new Map<string, SymbolRecord[]>();
  for (const s of symbols) {
    if (!s.parent || !names.has(s.parent) || s.parent === s.qualifiedName) continue;
    const list = members.get(s.parent) ?? [];
    members.set(s.parent, list);
    list.push(s);
  }
  const out: SymbolRecord[] = [];
  const seen = new Set<SymbolRecord>();
  const visit = (s: SymbolRecord) => {
    if (seen.has(s)) return;
    seen.add(s);
    out.push(s);
    for (const m of members.get(s.qualifiedName) ?? []) visit(m);
  };
  for (const s of symbols) {
    if (!s.parent || !names.has(s.parent) || s.parent === s.qualifiedName) visit(s);
  }
  // A member whose parent chain loops back on itself still appears once.
  for (const s of symbols) visit(s);
  return out;
}

/** The `explain_file` tool. */
export const explainFileTool = defineTool({
  name: "explain_file",
  description:
    "Outline of a file: its symbols (kind, lines, signature, doc), imports and importers.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async ({ file_path, include_source, include_names, line }, { project }) => {
    const rel = project.resolvePath(file_path);
    const index = await project.index();
    const entry = index.files.get(rel);
    if (!entry) throw fileNotInIndex(rel, index.files.keys());
    if (entry.skipped) {
      throw new CodectxError("not_found", `file '${rel}' is not indexed: it is ${entry.skipped}`);
    }
    const graph = await loadGraph(project);
    const graphFile = graph.byPath.get(rel);
    const deps = graphFile ? fileDependencies(graph, graphFile) : null;
    const text = include_source || line !== undefined ? await readSource(project.root, rel) : null;
    const symbols = outlineOrder(index.symbolsByFile.get(rel) ?? []).map(toWireSymbol);
    if (line !== undefined) {
      // One line in its function (what `codectx show FILE:N` prints): not the whole outline.
      const total = textLines(text!.source).length;
      if (line < 1 || line > total) {
        throw new CodectxError(
          "invalid_argument",
          `line: ${rel} has ${total} lines; pass a line from 1 to ${total}`,
        );
      }
      return {
        file: rel,
        language: entry.language,
        lines: entry.lines,
        size: entry.size,
        symbols: [],
        imports: [],
        imported_by: [],
        parse_error: entry.error ?? null,
        line_context: lineView(text!.source, symbols, line),
      };
    }
    return {
      file: rel,
      language: entry.language,
      lines: entry.lines,
      size: entry.size,
      symbols,
      imports: deps?.imports ?? [],
      imported_by: deps?.importedBy ?? [],
      parse_error: entry.error ?? null,
      ...(text && include_source
        ? {
          source: text.source,
          source_truncated: text.truncated,
          ...(include_names ? { source_names: graphFile ? namesAt(graphFile.part) : [] } : {}),
        }
        : {}),
    };
  },
  render,
});
