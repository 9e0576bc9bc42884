/**
 * `get_context` as Markdown: the window as it is, its call sites one line each.
 *
 * @module
 */

import { join } from "../markdown.ts";
import type { GetContextPayload } from "./schema.ts";

/**
 * A call-site block's heading in a context window, `# file:line in caller (n×)` (or just
 * `# file:line` at module level), first in its block.
 */
const SITE_HEADING = /^(?:#|\/\/|--|;) (\S+:\d+\b.*)$/;

/**
 * The window's "Called from" section as one line per call site — where, in what, and the
 * calling line itself — instead of a code block of each caller's surroundings (each is a
 * `get_context` away). The rest of the window is kept as it is.
 */
function compactCallSites(text: string, symbol: string): string {
  const lines = text.split("\n");
  const start = lines.indexOf("## Called from");
  const open = start + 2;
  if (start < 0 || !lines[open]?.startsWith("```")) return text;
  let close = open + 1;
  while (close < lines.length && lines[close] !== "```") close++;
  const short = symbol.split(/\.|::/).pop() ?? symbol;
  const call = new RegExp(`\\b${short.replace(/[^\w$]/g, "\\$&")}\\s*\\(`);
  const out: string[] = [];
  let site: { where: string; calls: string[] } | null = null;
  const flush = () => {
    if (!site) return;
    const shown = site.calls.slice(0, 2).map((c) => `\`${c}\``).join(" … ");
    out.push(`- ${site.where}${shown ? `: ${shown}` : ""}`);
  };
  const body = lines.slice(open + 1, close);
  for (const [i, line] of body.entries()) {
    const heading = i === 0 || body[i - 1] === "" ? SITE_HEADING.exec(line) : null;
    if (heading) {
      flush();
      site = { where: heading[1], calls: [] };
    } else if (site && call.test(line) && !/^\s*(def|function|fn|func)\b/.test(line)) {
      site.calls.push(line.trim());
    }
  }
  flush();
  return [...lines.slice(0, start + 1), ...out, ...lines.slice(close + 1)].join("\n");
}

/** The window, call sites one line each, and the other symbols the name could mean. */
export function render(p: GetContextPayload): string {
  return join([
    compactCallSites(p.text, p.symbol),
    p.candidates.length ? `Other symbols with this name: ${p.candidates.join("; ")}` : "",
  ]);
}
