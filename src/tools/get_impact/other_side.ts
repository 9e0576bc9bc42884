/**
 * The definitions of a changed file's other side (the old one, the index holding the new),
 * parsed only where the hunks are. The text outside the hunks is the same on both sides, and
 * a definition the new side starts at the top of the file (no parent, at the start of its
 * line) on an unchanged line is where the parser stands at the top on both: from one such
 * start to the next around each hunk — a window — the old text is parsed alone, and the
 * definitions outside the windows are the indexed ones, their lines moved by what the hunks
 * before them add and remove. The whole file is parsed when a window does not parse cleanly
 * alone (it did not begin or end at the top), when a definition crosses a window's edge, or
 * when the windows hold most of the file. `codectx impact --base HEAD~20` here: 58 % of the
 * changed code files' old lines parsed.
 *
 * @module
 */

import type { ParsedSource } from "../../facts/records.ts";
import { languageOfText } from "../../parse/parser.ts";
import type { SymbolRecord } from "../../types.ts";
import type { Hunk } from "./diff.ts";

/** A window: new lines `[newStart, newEnd)`, old lines `[oldStart, oldEnd)` (1-based). */
export interface Window {
  newStart: number;
  newEnd: number;
  oldStart: number;
  oldEnd: number;
}

/** Windows holding this share of the old lines or more: the whole file is parsed. */
const MOST = 0.8;

/** The old line of unchanged new line `line`. */
function oldLine(hunks: readonly Hunk[], line: number): number {
  let shift = 0;
  for (const h of hunks) {
    const before = h.newCount > 0 ? h.newStart + h.newCount - 1 < line : h.newStart < line;
    if (before) shift += h.oldCount - h.newCount;
  }
  return line + shift;
}

/**
 * The windows around `hunks` (new side `symbols` of the lines `now`, `oldLines` long on the
 * old side), or null when a definition crosses the edge of one. A window starts and ends at a
 * definition without a parent that starts a line (`const x` in a callback at the top of a
 * test file has no parent, but the parser is inside a call there).
 */
export function windowsOf(
  hunks: readonly Hunk[],
  symbols: readonly SymbolRecord[],
  now: readonly string[],
  oldLines: number,
): Window[] | null {
  const newLines = now.length;
  const added = new Set<number>();
  for (const h of hunks) for (let l = h.newStart; l < h.newStart + h.newCount; l++) added.add(l);
  const top = (s: SymbolRecord) =>
    s.parent === null && !added.has(s.startLine) && /^\S/.test(now[s.startLine - 1] ?? "");
  const starts = [...new Set(symbols.filter(top).map((s) => s.startLine))].sort((a, b) => a - b);
  const spans: Array<[number, number]> = [];
  for (const h of hunks) {
    // A hunk that only removes lines sits between new lines newStart and newStart + 1.
    const lo = h.newCount > 0 ? h.newStart : h.newStart + 0.5;
    const hi = h.newCount > 0 ? h.newStart + h.newCount - 1 : h.newStart + 0.5;
    let from = 1;
    for (const b of starts) if (b <= lo) from = b;
    const to = starts.find((b) => b > hi) ?? newLines + 1;
    const last = spans[spans.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else spans.push([from, to]);
  }
  for (const s of symbols) {
    for (const [from, to] of spans) {
      const inside = (l: number) => l >= from && l < to;
      if (inside(s.startLine) !== inside(s.endLine)) return null;
      if (s.startLine < from && s.endLine >= to) return null;
    }
  }
  return spans.map(([from, to]) => ({
    newStart: from,
    newEnd: to,
    oldStart: from === 1 ? 1 : oldLine(hunks, from),
    oldEnd: to === newLines + 1 ? oldLines + 1 : oldLine(hunks, to),
  }));
}

/**
 * The old side's definitions of a file whose new side the index holds (`symbols`, of the
 * lines `now`): windows parsed alone by `parse` (in the language of the whole text), the rest
 * moved from the new side. A language read as text (Markdown) is parsed whole.
 */
export async function oldDefinitions(
  hunks: readonly Hunk[],
  symbols: readonly SymbolRecord[],
  now: readonly string[],
  old: readonly string[],
  path: string,
  parse: (text: string, language?: string) => Promise<ParsedSource>,
): Promise<ParsedSource> {
  const text = old.join("\n");
  const info = languageOfText(path, text);
  const windows = info?.grammar ? windowsOf(hunks, symbols, now, old.length) : null;
  if (!info || windows === null || windows.length === 0) return await parse(text);
  const parsedLines = windows.reduce((n, w) => n + w.oldEnd - w.oldStart, 0);
  if (parsedLines >= MOST * old.length) return await parse(text);
  const out: SymbolRecord[] = [];
  const moved = (s: SymbolRecord, by: number): SymbolRecord => ({
    ...s,
    file: path,
    line: s.line + by,
    startLine: s.startLine + by,
    endLine: s.endLine + by,
  });
  for (const w of windows) {
    const p = await parse(old.slice(w.oldStart - 1, w.oldEnd - 1).join("\n"), info.id);
    if (p.error !== undefined || p.syntaxErrors > 0) return await parse(text);
    for (const s of p.symbols) out.push(moved(s, w.oldStart - 1));
  }
  for (const s of symbols) {
    if (windows.some((w) => s.startLine >= w.newStart && s.startLine < w.newEnd)) continue;
    out.push(moved(s, oldLine(hunks, s.startLine) - s.startLine));
  }
  out.sort((a, b) => a.startLine - b.startLine || a.line - b.line);
  return { language: info.id, symbols: out, lines: old.length, syntaxErrors: 0 };
}
