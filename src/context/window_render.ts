/**
 * The render-and-fit step of `get_context`'s window: the definition first, then as many
 * ranked items as the token budget holds, grouped under headings, cut at line boundaries.
 *
 * @module
 */

import type { SymbolRecord } from "../types.ts";
import { clampText, fitBudget } from "./pack.ts";
import { commentLeader, docSummary, fenceLanguage } from "./source.ts";
import type { TokenCounter } from "./tokens.ts";
import { type Group, GROUP_ORDER, type Item } from "./window_collect.ts";

/** What went into a context window, and why. */
export interface ContextSource {
  file: string;
  line: number;
  endLine: number;
  reason: string;
}

/** A context window for one symbol. */
export interface ContextWindow {
  /** Qualified name of the symbol. */
  symbol: string;
  file: string;
  line: number;
  text: string;
  tokens: number;
  sources: ContextSource[];
  /** True when something ranked was left out or the definition was cut. */
  truncated: boolean;
  /** Other symbols the name could mean (`file:line qualified_name`). */
  candidates: SymbolRecord[];
}

/** The definition's lines from its doc comment on, and an outline for big containers. */
export interface DefinitionLines {
  /** Line of the first line shown (the doc comment's start). */
  first: number;
  lines: string[];
  /** Head up to the first member, then members' signatures; null when not worth it. */
  outline: string[] | null;
}

/**
 * Render + fit: the definition first, then as many ranked items as `max` tokens hold.
 *
 * @example
 * ```ts
 * const w = renderWindow(target, def, ranked, [], 2000, await tokenCounter());
 * console.log(w.tokens <= 2000);
 * ```
 */
export function renderWindow(
  target: SymbolRecord,
  def: DefinitionLines,
  ranked: Item[],
  candidates: SymbolRecord[],
  max: number,
  counter: TokenCounter,
): ContextWindow {
  const fence = fenceLanguage(target.language);
  const lead = commentLeader(target.language);
  const summary = docSummary(target.doc);
  const header = [
    `# ${target.qualifiedName} — ${target.kind} in ${target.file}:${target.line}`,
    ...(summary && !def.lines.join("\n").includes(summary.slice(0, 40)) ? ["", summary] : []),
  ];

  const renderWith = (body: string[], outline: boolean) => (shown: number, k: number) => {
    const out = [...header, "", "```" + fence, ...body.slice(0, shown), "```"];
    if (outline) {
      out.push(`(outline: member bodies left out; lines ${def.first}–${target.endLine})`);
    } else if (shown < body.length) {
      out.push(`(cut: lines ${def.first + shown}–${target.endLine} not shown)`);
    }
    const chosen = ranked.slice(0, k);
    for (const g of GROUP_ORDER) {
      const its = chosen.filter((it) => it.group === g);
      if (!its.length) continue;
      out.push("", `## ${groupTitle(g, target)}`, "", "```" + fence);
      its.forEach((it, i) => {
        if (i > 0) out.push("");
        out.push(`${lead} ${it.label}`, ...it.lines);
      });
      out.push("```");
    }
    return out.join("\n");
  };

  const T = def.lines.length;
  const K = ranked.length;
  let render = renderWith(def.lines, false);
  let body = def.lines;
  let outline = false;
  const bare = counter.count(render(0, 0));
  if (bare > max) {
    // Not even the heading fits: cut the whole text at line (then character) boundaries.
    const c = clampText(render(T, 0), max, counter);
    return finish(target, c.text, c.tokens, def.first, 0, [], true, candidates);
  }
  const others = K ? counter.count(render(0, K)) - bare : 0;
  const cap = max - Math.min(others, Math.floor(max * 0.4));
  let t = fitBudget(0, T, cap, counter, (n) => render(n, 0)) ??
    { text: "", tokens: bare, amount: 0 };
  if (t.amount < T && def.outline) {
    // The whole body does not fit its share: an outline (head + member signatures) reads better.
    const o = def.outline;
    const rOutline = renderWith(o, true);
    const to = fitBudget(0, o.length, cap, counter, (n) => rOutline(n, 0));
    if (to && to.amount === o.length) {
      render = rOutline;
      body = o;
      outline = true;
      t = to;
    }
  }
  let k = fitBudget(0, K, max, counter, (n) => render(t.amount, n))!;
  if (k.amount === K && t.amount < body.length) {
    t = fitBudget(t.amount, body.length, max, counter, (n) => render(n, K)) ?? t;
    k = { ...t, amount: K };
  }
  const shown = t.amount;
  const text = render(shown, k.amount);
  const tokens = counter.count(text);
  const lastLine = outline ? target.endLine : def.first + Math.max(shown, 1) - 1;
  return finish(
    target,
    text,
    tokens,
    def.first,
    lastLine,
    ranked.slice(0, k.amount),
    outline || shown < body.length || k.amount < K,
    candidates,
  );
}

function groupTitle(g: Group, target: SymbolRecord): string {
  switch (g) {
    case "imports":
      return `Imports of ${target.file}`;
    case "parent":
      return "Enclosing definition";
    case "callees":
      return "Calls";
    case "types":
      return "Uses";
    case "callers":
      return "Called from";
    case "members":
      return target.parent ? `Other members of ${target.parent}` : `Also in ${target.file}`;
  }
}

function finish(
  target: SymbolRecord,
  text: string,
  tokens: number,
  first: number,
  last: number,
  chosen: Item[],
  truncated: boolean,
  candidates: SymbolRecord[],
): ContextWindow {
  const sources: ContextSource[] = [];
  if (last >= first) {
    sources.push({ file: target.file, line: first, endLine: last, reason: "definition" });
  }
  const order = new Map(GROUP_ORDER.map((g, i) => [g, i]));
  for (const it of [...chosen].sort((a, b) => order.get(a.group)! - order.get(b.group)!)) {
    sources.push({ file: it.file, line: it.line, endLine: it.endLine, reason: it.reason });
  }
  return {
    symbol: target.qualifiedName,
    file: target.file,
    line: target.line,
    text,
    tokens,
    sources,
    truncated,
    candidates,
  };
}
