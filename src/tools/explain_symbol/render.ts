/**
 * `explain_symbol` as Markdown: the definition, its source (doc once), members, callers and
 * callees grouped by who and where.
 *
 * @module
 */

import { CALLABLE_KINDS } from "../../types.ts";
import { fence, join, listOf, loc, sureness, symbolLine } from "../markdown.ts";
import type { CallLine, ExplainSymbolPayload, Neighbour } from "./schema.ts";

/**
 * Call sites grouped by who and where, `name file:l1, l2` one line per (name, file), in the
 * payload's order, with the sites' lines of code when the payload has them (`: code · code`);
 * how sure the match is goes in the title when every site shares it.
 */
function sites(title: string, items: Neighbour[], total: number): string {
  if (items.length === 0) return "";
  const groups = new Map<string, { o: Neighbour; lines: number[]; code: string[] }>();
  for (const o of items) {
    const key = `${o.name}\0${o.file}\0${o.resolution}`;
    const g = groups.get(key) ?? { o, lines: [], code: [] };
    groups.set(key, g);
    g.lines.push(o.line);
    if (o.text) g.code.push(o.text);
  }
  const shared = items.every((o) => o.resolution === items[0].resolution)
    ? sureness(items[0])
    : undefined;
  const more = total > items.length ? `${items.length} of ${total}` : "";
  const head = [more, shared?.replace(/^, /, "")].filter(Boolean).join(", ");
  const lines = [...groups.values()].map(({ o, lines, code }) =>
    `- ${o.name} ${o.file}${lines.length ? `:${lines.join(", ")}` : ""}${
      shared === undefined ? sureness(o) : ""
    }${code.length ? `: ${code.join(" · ")}` : ""}`
  );
  return `${title}${head ? ` (${head})` : ""}:\n${lines.join("\n")}`;
}

/**
 * The calls of a body too long to show, one line of code each with the project symbols it
 * reaches (`→ name file:line`); a library call's line speaks for itself.
 */
export function callLines(calls: CallLine[]): string[] {
  const byLine = new Map<number, CallLine[]>();
  for (const c of calls) byLine.set(c.line, [...(byLine.get(c.line) ?? []), c]);
  return [...byLine].map(([line, list]) => {
    const to = list.filter((c) => c.file).map((c) =>
      `${c.callee} ${c.file}:${c.def_line}${sureness(c)}`
    );
    return `${line}: ${list[0].text}${to.length ? ` → ${to.join("; ")}` : ""}`;
  });
}

/** The heading of the call lines that stand in for a body over the token budget. */
export function callsHead(p: ExplainSymbolPayload): string {
  const s = p.symbol;
  const n = (s.end_line ?? s.line) - s.line + 1;
  return `Body: ${n} lines, over the token budget (read lines ${s.line}-${s.end_line} for all of it); its calls in order`;
}

/** Lines of a doc shown whole; a longer one is shown to the end of its first paragraph. */
const DOC_LINES = 12;

/**
 * The doc as the texts show it: whole when short; else its first paragraph (at most
 * {@link DOC_LINES} lines) and how many lines are left and where (the JSON keeps all of it). A
 * long JSDoc printed whole was the costliest read of an assistant's run (issue 35).
 *
 * @example
 * ```ts
 * docShown("One.\n\n" + "more\n".repeat(20), "a.ts", 40); // "One.\n(21 more lines of doc above a.ts:40)"
 * ```
 */
export function docShown(doc: string, file: string, line: number): string {
  const lines = doc.trim().split("\n");
  if (lines.length <= DOC_LINES) return doc.trim();
  const blank = lines.findIndex((l) => l.trim() === "");
  const keep = Math.min(DOC_LINES, blank > 0 ? blank : DOC_LINES);
  return `${lines.slice(0, keep).join("\n")}\n(${
    lines.length - keep
  } more lines of doc above ${file}:${line})`;
}

/** The definition, its source (doc once), members, callers and callees. */
export function render(p: ExplainSymbolPayload): string {
  const s = p.symbol;
  const parent = p.parent
    ? `${p.parent.qualified_name || p.parent.name} (${p.parent.kind}) ${loc(p.parent, false)}`
    : "";
  // The doc once: a docstring inside the source is not repeated above it.
  const doc = p.doc.trim();
  const docInSource = doc !== "" && p.source.includes(doc.split("\n")[0].trim());
  const whole = p.calls === undefined;
  return join([
    `# ${s.qualified_name || s.name} — ${s.kind} in ${loc(s)}`,
    parent ? `In ${parent}.` : "",
    docInSource && whole ? "" : docShown(doc, s.file, s.line),
    whole
      ? fence(p.source, s.language) + (p.source_truncated ? "\n(source truncated)" : "")
      : fence(s.signature || s.name, s.language),
    whole ? "" : listOf(callsHead(p), callLines(p.calls ?? []), (l) => l) || "Calls: none",
    listOf("Members", p.children, (c) => `${c.signature || c.name} :${c.line}`),
    sites(CALLABLE_KINDS.has(s.kind) ? "Callers" : "Used by", p.callers, p.callers_total),
    whole ? sites("Callees", p.callees, p.callees_total) : "",
    `References: ${p.references}`,
    listOf("Other symbols with this name", p.candidates, symbolLine),
  ]);
}
