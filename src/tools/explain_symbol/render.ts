/**
 * `explain_symbol` as text (the MCP text and `codectx explain` alike): the definition, its doc's
 * first paragraph, its body as numbered lines (or, over the budget, its call lines), members,
 * callers as `file:line` lists and callees, and the references when they are more than the calls.
 *
 * @module
 */

import { bodyLines, bodyOutline } from "../../util/body_outline.ts";
import { numberedBody } from "../../util/numbered_body.ts";
import { isTestFile } from "../../util/test_files.ts";
import { C_LIBRARY } from "../../util/c_library.ts";
import { CALLABLE_KINDS } from "../../types.ts";
import { DOC_LINES, hasMemberLine, MEMBER_NAMES, memberLine } from "../../util/member_line.ts";
import { fence, join, loc, otherSymbolsNote, sureness } from "../markdown.ts";
import { FILE_KIND, renderFileExplanation } from "./file.ts";
import type { CallLine, ExplainSymbolPayload, Neighbour } from "./schema.ts";

/** The call sites of one caller in one file. */
interface SiteGroup {
  o: Neighbour;
  lines: number[];
}

/**
 * Call sites grouped by who and where, `name file:l1, l2` one line per (name, file), in the
 * payload's order (a caller of one site with its line of code when the payload holds it; the
 * payload holds those its budget names), the rest counted; test files' sites are counted on
 * one line (`codectx refs` lists their lines). How sure the match is goes in the title when
 * every site shares it.
 */
function sites(title: string, items: Neighbour[], total: number, name: string): string {
  if (total === 0) return "";
  const groups = new Map<string, SiteGroup>();
  for (const o of items) {
    const key = `${o.name}\0${o.file}\0${o.resolution}`;
    const g = groups.get(key) ?? { o, lines: [] };
    groups.set(key, g);
    g.lines.push(o.line);
  }
  const shared = items.length > 0 && items.every((o) => o.resolution === items[0].resolution)
    ? sureness(items[0])
    : undefined;
  const all = [...groups.values()];
  const tests = all.filter((g) => isTestFile(g.o.file));
  const code = all.filter((g) => !isTestFile(g.o.file));
  const count = (gs: SiteGroup[]) => gs.reduce((n, g) => n + g.lines.length, 0);
  // A caller of one call site shows the call (the line could be its definition's, issue 35).
  const site = ({ o, lines }: SiteGroup) =>
    `${lines.join(", ")}${shared === undefined ? sureness(o) : ""}${
      lines.length === 1 && o.text ? `: ${o.text}` : ""
    }`;
  // One line a file: its path once, `name :line` for each caller when it has several (each on
  // a line of its own under the path when they show their calls).
  const lines = [...Map.groupBy(code, (g) => g.o.file)].map(([file, gs]) =>
    gs.length === 1
      ? `- ${gs[0].o.name} ${file}:${site(gs[0])}`
      : gs.some((g) => g.lines.length === 1 && g.o.text)
      ? `- ${file}:\n${gs.map((g) => `  - ${g.o.name} :${site(g)}`).join("\n")}`
      : `- ${file}: ${gs.map((g) => `${g.o.name} :${site(g)}`).join("; ")}`
  );
  if (tests.length) {
    const files = new Set(tests.map((g) => g.o.file)).size;
    lines.push(`- ${count(tests)} in ${files} test file${files === 1 ? "" : "s"}`);
  }
  // Past the budget, counted (`- 1 more in 1 places` named nothing: say where to look).
  if (total > items.length) lines.push(`- ${total - items.length} more (refs ${name} lists them)`);
  const head = [`${total}`, shared?.replace(/^, /, "")].filter(Boolean).join(", ");
  return `${title} (${head}):\n${lines.join("\n")}`;
}

/** `file:line`, or `:line` in `here` (the explained symbol's file). */
function at(file: string, line: number | null, here: string): string {
  return `${file === here ? "" : file}:${line}`;
}

/** A file of C or C++ (its calls of `free`, `fprintf` are the C library's). */
const C_FILE = /\.(c|h|cc|cpp|cxx|hh|hpp|hxx|m)$/;
/** A folder of examples, docs or samples: code a project's own code does not call into. */
const ASIDE = /(^|\/)(docs?|examples?|samples?|demos?)\//;

/** Whether `file` is a test's, an example's or a doc's. */
function aside(file: string): boolean {
  return ASIDE.test(file) || isTestFile(file);
}

/**
 * A body's source for its outline: its lines from file line `first`, how many of them come
 * before the body, the file lines of the definitions it nests.
 */
interface BodySource {
  lines: string[];
  first: number;
  skip: number;
  defs: number[];
}

/**
 * The outline of a body too long to show (`source`: its lines from file line `first`; `skip`:
 * the lines before its body, the definitions it nests): its call lines, each with the project symbols it reaches (`→
 * name file:line`, `:line` in the symbol's own file; a library call's line speaks for itself),
 * the heads that enclose them and the exits of the blocks shown, indented by depth. A place
 * is given once (post_per_transfer's `curl_easy_getinfo → include/curl/curl.h:3208` came nine
 * times); a C library call (`close`, `fprintf`) is not sent to a macro of its name, nor code
 * to a definition in an example, doc or test folder (`close → docs/examples/externalsocket.c`).
 */
export function callLines(
  calls: CallLine[],
  here = "",
  source: BodySource = { lines: [], first: 0, skip: 0, defs: [] },
  /** The last file line outlined (the rest is over the budget). */
  to = Infinity,
): string[] {
  const byLine = Map.groupBy(calls, (c) => c.line);
  const body = bodyLines(source.lines, source.first, source.skip, source.defs);
  const libc = C_FILE.test(here);
  const ours = !aside(here);
  const given = new Set<string>();
  const outline = bodyOutline(body, byLine.keys(), (l) => byLine.get(l)![0].text, true)
    .filter((o) => o.line <= to);
  // A statement that only calls the C library (`free(per->outfile);`, `fflush(outs->stream);`)
  // and holds nothing, assigns nothing and is not its block's first line says nothing of the
  // flow: post_per_transfer listed 15 of them.
  const quiet = (i: number) => {
    const o = outline[i];
    const list = o.lines.flatMap((l) => byLine.get(l) ?? []);
    return libc && list.length > 0 && list.every((c) => C_LIBRARY.has(c.callee)) &&
      i > 0 && outline[i - 1].depth >= o.depth && (outline[i + 1]?.depth ?? 0) <= o.depth &&
      !/^[^(]*[^=!<>]=[^=]/.test(o.text) && !/^\}?\s*(if|else|while|for|switch)\b/.test(o.text);
  };
  return outline.filter((_, i) => !quiet(i)).map((o) => {
    const list = o.lines.flatMap((l) => byLine.get(l) ?? []);
    const text = o.text.replace(/\s+/g, " ");
    // Exact targets only: a name-only match is a guess (git's `die` reached three
    // definitions on every line), a receiver's type is the line's own to read.
    const targets = list.filter((c) =>
      c.file && c.resolution === "exact" && !(libc && C_LIBRARY.has(c.callee)) &&
      !(ours && aside(c.file))
    );
    // One plain callee whose name the line shows is named by its place alone.
    const named = targets.length !== 1 || targets[0].callee.includes(".") ||
      !new RegExp(`\\b${targets[0].callee.replace(/\W/g, "")}\\b`).test(text);
    const to = new Set(
      targets.filter((c) => !given.has(`${c.callee}\0${c.file}:${c.def_line}`)).map((c) =>
        `${named ? `${c.callee} ` : ""}${at(c.file!, c.def_line, here)}${sureness(c)}`
      ),
    );
    for (const c of targets) given.add(`${c.callee}\0${c.file}:${c.def_line}`);
    return `${"  ".repeat(o.depth)}- ${o.line}: ${text}${
      to.size ? ` → ${[...to].join("; ")}` : ""
    }`;
  });
}

/** The outline of `p`'s body from its source (to `outline_to`, and where the rest is). */
function outline(p: ExplainSymbolPayload): string {
  const { lines, first } = sourceLines(p);
  const skip = p.symbol.line - first + 1;
  const defs = p.children.map((c) => c.line);
  const to = p.outline_to;
  const out = callLines(p.calls ?? [], p.symbol.file, { lines, first, skip, defs }, to);
  if (to !== undefined) {
    const end = p.symbol.end_line ?? p.symbol.line;
    out.push(`- … lines ${to + 1}-${end} not outlined: over the token budget`);
  }
  return out.length ? `${callsHead(p)}:\n${out.join("\n")}` : "Calls: none";
}

/** The heading of the outline that stands in for a body over the token budget. */
export function callsHead(p: ExplainSymbolPayload): string {
  const s = p.symbol;
  const n = (s.end_line ?? s.line) - s.line + 1;
  const here = p.calls?.some((c) => c.file === s.file) ? " (:N in this file)" : "";
  return `Body: ${n} lines (${s.line}-${s.end_line}); its calls by branch${here}`;
}

/**
 * The doc as the texts show it: whole when short; else its first paragraph (at most
 * {@link DOC_LINES} lines) and how many lines are left and where (the JSON keeps all of it). A
 * long JSDoc printed whole was the costliest read of an assistant's run (issue 35).
 *
 * @example
 * ```ts
 * docShown("One.\n\n" + "more\n".repeat(20), "a.ts", 40); // "One.\n(21 more lines of doc at a.ts:40)"
 * ```
 */
export function docShown(doc: string, file: string, line: number): string {
  const lines = doc.trim().split("\n");
  if (lines.length <= DOC_LINES) return doc.trim();
  const blank = lines.findIndex((l) => l.trim() === "");
  const keep = Math.min(DOC_LINES, blank > 0 ? blank : DOC_LINES);
  return `${lines.slice(0, keep).join("\n")}\n(${
    lines.length - keep
  } more lines of doc at ${file}:${line})`;
}

/**
 * The source as numbered lines (its docstring, shown above, left out); a source cut at
 * 200 lines keeps the line that says so.
 */
function body(p: ExplainSymbolPayload): string {
  const { lines, first, cut } = sourceLines(p);
  return fence(numberedBody(lines.join("\n"), first, p.doc), p.symbol.language) +
    (cut ? `\n${cut}` : "");
}

/** The source's lines (without the line that says it was cut), and the file line of the first. */
function sourceLines(p: ExplainSymbolPayload): { lines: string[]; first: number; cut?: string } {
  const lines = p.source.split("\n");
  const cut = p.source_truncated ? lines.pop() : undefined;
  // The source's first line: counted back from the end, or from where the cut source goes on.
  const from = cut?.match(/\((\d+) more lines, (\d+)/);
  const first = from
    ? Number(from[2]) - lines.length
    : (p.symbol.end_line ?? p.symbol.line) - lines.length + 1;
  return { lines, first, cut };
}

/** The callees as one line: `name file:line`, `name :line` in the symbol's own file. */
function callees(p: ExplainSymbolPayload): string {
  if (!p.callees.length) return "";
  // A callee with a line of code is an attribute and its assignment (`self._chain = handler`).
  const shown = p.callees.map((c) =>
    `${c.name} ${at(c.file, c.line, p.symbol.file)}${sureness(c)}${c.text ? ` (${c.text})` : ""}`
  );
  const more = p.callees_total > shown.length ? `, ${p.callees_total - shown.length} more` : "";
  const here = p.callees.some((c) => c.file === p.symbol.file) ? " (:N in this file)" : "";
  return `Calls${here}: ${shown.join("; ")}${more}`;
}

/** Members as `name :line`, at most {@link MEMBER_NAMES} before a count. */
function names(list: { name: string; line: number }[]): string {
  const more = list.length - MEMBER_NAMES;
  return list.slice(0, MEMBER_NAMES).map((c) => `${c.name} :${c.line}`).join(", ") +
    (more > 0 ? `, … ${more} more` : "");
}

/** A kind's members in a heading: `Methods`, `Classes`. */
function kinds(kind: string): string {
  return `${kind[0].toUpperCase()}${kind.slice(1)}${/s$/.test(kind) ? "es" : "s"}`;
}

/**
 * A type's members, for a type too long to show: a line each for the callables the payload
 * keeps the signature of (`228 __init__(self, main=None, …)`), the others named by kind
 * (`Fields: a :12, b :14`), at most {@link MEMBER_NAMES} names before a count.
 */
function members(p: ExplainSymbolPayload): string {
  const s = p.symbol;
  const own = p.children.filter((c) => c.signature && hasMemberLine(c));
  const rest = p.children.filter((c) => !own.includes(c));
  const named = rest.slice(0, MEMBER_NAMES);
  const lined = new Set(own.map((c) => c.kind));
  const groups = [...Map.groupBy(named, (c) => c.kind)].map(([kind, cs]) =>
    `${lined.has(kind) ? `Other ${kinds(kind).toLowerCase()}` : kinds(kind)}: ${
      cs.map((c) => `${c.name} ${at(c.file, c.line, s.file)}`).join(", ")
    }`
  );
  const left = rest.length - named.length;
  return [
    `Members (${p.children.length}; \`explain ${s.name}.NAME\` shows a method's flow):`,
    ...own.map((c) => `- ${memberLine(c)}`),
    ...groups,
    left ? `… ${left} more members` : "",
  ].filter(Boolean).join("\n");
}

/** The definition, its doc, its body or call lines, members, callers and callees. */
export function render(p: ExplainSymbolPayload): string {
  const s = p.symbol;
  if (s.kind === FILE_KIND) return renderFileExplanation(p);
  const parent = p.parent
    ? `${p.parent.qualified_name || p.parent.name} (${p.parent.kind}) ${loc(p.parent, false)}`
    : "";
  const whole = p.calls === undefined;
  // A type over the budget: its members, not every method's branches.
  const typeMembers = !whole && !CALLABLE_KINDS.has(s.kind) && p.children.length > 0;
  return join([
    `# ${s.qualified_name || s.name} — ${s.kind} in ${loc(s)}`,
    p.candidates.length ? otherSymbolsNote(p.candidates) : "",
    parent ? `In ${parent}.` : "",
    docShown(p.doc, s.file, s.line),
    whole ? body(p) : fence(s.signature || s.name, s.language),
    typeMembers ? members(p) : whole ? "" : outline(p),
    p.children.length && !typeMembers ? `Members: ${names(p.children)}` : "",
    sites(
      CALLABLE_KINDS.has(s.kind) ? "Callers" : "Used by",
      p.callers,
      p.callers_total,
      s.qualified_name || s.name,
    ),
    whole ? callees(p) : "",
    // Every reference a call site listed above: the count said it twice (issue 35).
    p.callers_total > 0 && p.references === p.callers_total ? "" : `References: ${p.references}`,
  ]);
}
