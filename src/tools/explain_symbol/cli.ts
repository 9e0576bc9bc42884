/**
 * `codectx explain NAME [--file F] [--json]`: a symbol's definition, source, doc, callers,
 * callees and members as text.
 *
 * @module
 */

import { CALLABLE_KINDS } from "../../types.ts";
import { otherSymbolsNote } from "../markdown.ts";
import type { CliOutput, ToolCommand } from "../tool.ts";
import { callLines, callsHead, docShown } from "./render.ts";
import type { ExplainSymbolPayload, Neighbour } from "./schema.ts";

/** The payload as `codectx explain` prints it. */
export function print(p: ExplainSymbolPayload): CliOutput {
  const out: string[] = [];
  const s = p.symbol;
  out.push(`${s.qualified_name} (${s.kind}) — ${s.file}:${s.line}-${s.end_line}`);
  if (p.candidates.length) out.push(otherSymbolsNote(p.candidates));
  if (p.doc) out.push(`\n${docShown(p.doc, s.file, s.line)}`);
  if (!p.calls) out.push(`\n${p.source}`);
  else {
    out.push(`\n${s.signature || s.name}`, `\n${callsHead(p)}:`);
    for (const l of callLines(p.calls)) out.push(`  ${l}`);
  }
  const places = (title: string, list: Neighbour[], total: number, count = String(total)) => {
    if (!list.length) return;
    out.push(`\n${title} (${count}):`);
    for (const c of list) {
      // A receiver of unknown type: the one member of that name, which may not be the one.
      const sure = c.resolution === "name" ? "  (by name only)" : "";
      out.push(`  ${c.name}  ${c.file}:${c.line}${sure}${c.text ? `  ${c.text}` : ""}`);
    }
  };
  // A type's or a constant's "callers" are its uses.
  const called = CALLABLE_KINDS.has(s.kind);
  places(
    called ? "Called from" : "Used by",
    p.callers,
    p.callers_total,
    called ? callSites(p.callers, p.callers_total) : String(p.callers_total),
  );
  if (!p.calls) places("Calls", p.callees, p.callees_total);
  if (p.children.length) {
    out.push(`\nMembers (${p.children.length}):`);
    for (const c of p.children) out.push(`  ${c.qualified_name} (${c.kind})  ${c.file}:${c.line}`);
  }
  out.push(`\nReferences: ${p.references}`);
  if (p.candidates.length) {
    out.push(`\nOther symbols named so (--file picks one):`);
    for (const c of p.candidates) {
      out.push(`  ${c.qualified_name} (${c.kind})  ${c.file}:${c.line}`);
    }
  }
  return { out };
}

/**
 * "24 callers, 33 call sites", counted as the web page and `calls` count them: a caller is
 * a symbol that calls (or a file's top level), a call site each call it makes.
 */
function callSites(callers: Neighbour[], total: number): string {
  const sites = `${total} call site${total === 1 ? "" : "s"}`;
  if (callers.length < total) return `${sites}, first ${callers.length} listed`;
  const distinct = new Set(callers.map((c) => c.name === "<top level>" ? c.file : c.name)).size;
  return `${distinct} caller${distinct === 1 ? "" : "s"}, ${sites}`;
}

/** `codectx explain`. */
export const command: ToolCommand<ExplainSymbolPayload> = {
  command: "explain",
  synopsis: "NAME  what it does: signature, doc, body or its calls, callers",
  help: `Usage: codectx explain NAME [options]

A symbol's definition, doc, members, callers (with their lines of code) and callees; its
source when it fits --max-tokens, else the lines of its calls in order. NAME may be
qualified (Session.request, pkg.module.func).

Options:
  --file F          only look in file (or folder) F
  --max-tokens N    the text's budget (default 1500)
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
