/**
 * `find_references` as text (the MCP text and `codectx refs` alike): what is referenced and
 * how often in one line, then each file's references, a line each with the enclosing
 * definition; a test file's many references are its line numbers on one line, its few (up to
 * {@link FEW_TEST_LINES}, or all in a small answer) lines as a code file's with `(test)`.
 *
 * @module
 */

import { isTestFile } from "../../util/test_files.ts";
import { commonResolution, join, loc, sureness } from "../markdown.ts";
import type { FindReferencesPayload } from "./schema.ts";

type Reference = FindReferencesPayload["references"][number];

/** Longest line of code quoted for a reference; a longer one is cut around the name. */
const MAX_CONTEXT = 100;

/** `context` trimmed, cut to {@link MAX_CONTEXT} characters around `name` when longer. */
export function quoteAround(context: string, name: string): string {
  const t = context.trim();
  if (t.length <= MAX_CONTEXT) return t;
  const at = Math.max(0, t.indexOf(name));
  const start = Math.max(0, Math.min(at - 30, t.length - MAX_CONTEXT + 2));
  const end = start + MAX_CONTEXT - 2;
  return `${start > 0 ? "…" : ""}${t.slice(start, end).trim()}${end < t.length ? "…" : ""}`;
}

/** Reference kinds whose line of code adds nothing to where they are (`80 import`). */
const BARE_KINDS = /^(import|export_list)$/;

/**
 * How sure a line is when it differs from the usual: `exact` said as such (a line among
 * name-only ones must be told apart), the others as {@link sureness} says them.
 */
function lineSureness(r: Reference, usual: string | undefined): string {
  if (r.resolution === usual) return "";
  return r.resolution === "name" ? sureness(r) : `, ${r.resolution}`;
}

/**
 * The references of one file: a line each with its enclosing definition (each line its own:
 * a line without one is at the top of the file).
 */
function fileLines(rs: Reference[], usual: string | undefined, name: string): string[] {
  // One line of code once: a call and a read of the name on it (`tk.fail(req, pre.fail)`) were
  // two lines quoting the same code, read as a duplicate (issue 35's fifth run).
  return [...Map.groupBy(rs, (r) => r.line).values()].map((same) => {
    const r = same.find((x) => x.kind === "call") ?? same[0];
    const others = [...new Set(same.filter((x) => x !== r).map((x) => x.kind))];
    const also = others.length ? ` (also ${others.join(", ")})` : "";
    if (r.kind === "definition") {
      return `  ${r.line} definition${also}: ${quoteAround(r.context, name)}`;
    }
    const inside = r.in ? ` in ${r.in}` : "";
    const sure = lineSureness(r, usual);
    if (BARE_KINDS.test(r.kind)) return `  ${r.line} ${r.kind}${sure}${inside}${also}`;
    // A call is the unmarked line (the first line says so): its enclosing definition alone.
    const what = r.kind === "call"
      ? (r.in ? `${r.in}${sure}` : sure.slice(2))
      : `${r.kind}${sure}${inside}`;
    return `  ${r.line}${what ? ` ${what}` : ""}${also}: ${quoteAround(r.context, name)}`;
  });
}

/**
 * A test file with at most this many references shows each line's code as a code file does:
 * bare numbers sent assistants to `sed` to see whether the line was a call.
 */
const FEW_TEST_LINES = 3;

/** An answer with at most this many references shows every test line's code too. */
const SMALL_ANSWER = 12;

/** A test file's line numbers listed before the rest are counted. */
const MAX_TEST_LINES = 12;

/**
 * A test file's references: its line numbers, the first {@link MAX_TEST_LINES}; calls bare,
 * each other kind after its name (`12 40; read 31; import 3`).
 */
function testLines(file: string, rs: Reference[]): string {
  const shown = Map.groupBy(rs.slice(0, MAX_TEST_LINES), (r) => r.kind);
  const calls = shown.get("call")?.map((r) => r.line).join(" ");
  const others = [...shown].filter(([kind]) => kind !== "call")
    .map(([kind, xs]) => `${kind} ${xs.map((r) => r.line).join(" ")}`);
  const lines = [...(calls ? [calls] : []), ...others].join("; ");
  return `${file} (test, ${rs.length}): ${lines}${rs.length > MAX_TEST_LINES ? " …" : ""}`;
}

/** Unlisted lines a text check names; the rest are counted. */
const NAMED_UNLISTED = 4;

/** How each kind of unlisted line is said, calls first: a call the list missed matters most. */
const UNLISTED_KINDS = [
  ["call", "call", "calls"],
  ["comment", "comment", "comments"],
  ["string", "string", "strings"],
  ["code", "other code line", "other code lines"],
] as const;

/**
 * The text check in one line: every line of code holding the name is listed, or how many are
 * not, by kind — calls named first (up to {@link NAMED_UNLISTED}), then comments, strings and
 * other code (the first of each named) — and how to see them (`search`: the exact search's
 * call on this surface).
 */
export function textCheckLine(
  p: FindReferencesPayload,
  name: string,
  search: (name: string) => string,
): string {
  const c = p.text_check;
  if (!c || c.lines === 0) return "";
  if (c.unlisted.length === 0) {
    return `Text check: every occurrence of "${name}" in code is listed.`;
  }
  // Calls of another definition of the name, by that definition: not refs' misses.
  const others = [...Map.groupBy(c.unlisted.filter((u) => u.resolves_to), (u) => u.resolves_to!)]
    .sort((a, b) => b[1].length - a[1].length).map(([to, us]) =>
      `${us.length} ${us.length === 1 ? "call" : "calls"} of ${to} (${us[0].file}:${us[0].line}${
        us.length > 1 ? ` +${us.length - 1}` : ""
      })`
    );
  const byKind = Map.groupBy(c.unlisted.filter((u) => !u.resolves_to), (u) => u.kind);
  const parts = UNLISTED_KINDS.flatMap(([kind, one, many]) => {
    const us = byKind.get(kind) ?? [];
    if (us.length === 0) return [];
    const named = us.slice(0, kind === "call" ? NAMED_UNLISTED : 1);
    const at = [...Map.groupBy(named, (u) => u.file)].map(([file, xs]) =>
      `${file}:${xs.map((u) => u.line).join(",")}`
    );
    const more = us.length - named.length;
    return [
      `${us.length} ${us.length === 1 ? one : many} (${at.join(" ")}${more ? ` +${more}` : ""})`,
    ];
  });
  return `Not listed: ${c.unlisted.length} of ${c.lines} code lines with "${name}": ${
    [...parts, ...others].join("; ")
  } — ${search(name)}`;
}

/** The exact search of `name` as a tool call. */
const toolSearch = (name: string) => `semantic_search "${name}" mode exact`;

/**
 * The symbol and its count in one line (its definition in it when there is one), then each
 * file's references; a test file's many are its line numbers (`file (test, n): l1 l2 …`),
 * which is all an assistant takes from them unless it asks about a test; its few are lines of
 * code under `file (test)`.
 */
export function render(
  p: FindReferencesPayload,
  search: (name: string) => string = toolSearch,
): string {
  // A definition the first line names is not listed again under its file.
  const named = new Set(p.definitions.map((d) => `${d.file}:${d.line}`));
  const refs = p.references.filter((r) =>
    r.kind !== "definition" || !named.has(`${r.file}:${r.line}`)
  );
  const byFile = Map.groupBy(refs, (r) => r.file);
  // Counted as listed: the definitions the first line names are not among the references.
  const hidden = p.references.filter((r) => !refs.includes(r));
  const total = p.total - hidden.length;
  const by = { ...p.by_resolution };
  for (const r of hidden) by[r.resolution]--;
  const files = byFile.size;
  const usual = commonResolution(refs);
  const name = p.symbol.split(/[.:#]/).pop() ?? p.symbol;
  const checkLine = textCheckLine(p, name, search);
  const compact = (file: string, rs: Reference[]) =>
    isTestFile(file) && rs.length > FEW_TEST_LINES && refs.length > SMALL_ANSWER &&
    rs.every((r) => r.kind !== "definition");
  const groups = [...byFile].map(([file, rs]) =>
    compact(file, rs) ? testLines(file, rs) : [
      isTestFile(file) ? `${file} (test)` : file,
      ...fileLines(rs, usual, name),
    ].join("\n")
  );
  const counts = ([["exact", "exact"], ["inferred", "inferred"], ["name", "by name only"]] as const)
    .filter(([k]) => by[k] > 0).map(([k, label]) => `${label} ${by[k]}`);
  const usualWord = usual === undefined ? "" : sureness({ resolution: usual }).replace(/^, /, "");
  const defs = p.definitions.map((d) => `${d.kind} ${loc(d)}`).join(", ");
  const shown = p.truncated ? `, first ${refs.length} shown` : "";
  // Uses of a name no definition is spelled as (a field): said so, with what matched by case.
  const written = !p.definitions.some((d) => d.name === p.symbol || d.qualified_name === p.symbol);
  if (written) {
    const near = p.definitions.map((d) => `${d.qualified_name || d.name} ${d.kind} ${loc(d)}`);
    return join([
      `${p.symbol}: no definition has this name${
        near.length ? ` (by case: ${near.join(", ")})` : ""
      }; ${p.total} use${
        p.total === 1 ? "" : "s"
      } of the name as written, by name only, in ${files} file${files === 1 ? "" : "s"}${shown}`,
      groups.join("\n"),
      checkLine,
    ]);
  }
  if (total === 0) {
    // Nothing to list: a text check that found no other line says so in the same line.
    const alone = p.text_check?.unlisted.length === 0;
    return join([
      `${p.symbol} (${defs}): no references${
        alone ? "; no other line of code holds the name" : ""
      }`,
      alone ? "" : checkLine,
    ]);
  }
  const calls = [...byFile].some(([file, rs]) =>
    !compact(file, rs) && rs.some((r) => r.kind === "call")
  );
  const marks = [
    ...(calls ? ["calls"] : []),
    ...(counts.length > 1 && usualWord ? [usualWord] : []),
  ];
  return join([
    `${p.symbol} (${defs}): ${total} reference${total === 1 ? "" : "s"} in ${files} ` +
    `file${files === 1 ? "" : "s"}${shown}${counts.length > 1 ? `; ${counts.join(", ")}` : ""}${
      marks.length ? `; lines are ${marks.join(", ")} unless marked` : ""
    }`,
    groups.join("\n"),
    checkLine,
  ]);
}
