/**
 * `find_references`' check of its list against the text: the lines of code that hold the name
 * as a whole word (the literal scan of an exact search), and those of them no reference is on.
 * Assistants ran `refs F` and then an exact search for `F(` to see whether refs had missed a
 * call (12 of 14 such questions, issue 35): the answer now says whether every line is listed,
 * and names the others (comments, strings, another symbol of that name).
 *
 * @module
 */

import type { Project } from "../../project/project.ts";
import { commentLeader } from "../../context/source.ts";
import { scanSnippets } from "../../search/scan.ts";

/** Lines holding the name scanned at most: a name held by more is not checked (null). */
export const MAX_TEXT_LINES = 500;

/**
 * What an unlisted line holds the name as: a call (`name(` — a call site the list missed, what
 * an answerer must see first), in a comment, in a string, or other code (another symbol's
 * definition, an attribute written).
 */
export type UnlistedKind = "call" | "comment" | "string" | "code";

/** A line holding the name that the answer does not list. */
export interface Unlisted {
  file: string;
  line: number;
  kind: UnlistedKind;
}

/**
 * How `text` holds the name at `column` (1-based), read from the line alone: a comment opener
 * or an open quote before it, else `(` after it for a call. A line inside a multi-line
 * comment or string without its own marker reads as code.
 */
export function lineKind(
  text: string,
  column: number,
  name: string,
  language: string,
): UnlistedKind {
  // The language's own comment leader (`#`, `--`, `//`): `#include` and Python's `a // b` are
  // code; C-like languages have block comments too.
  const leader = commentLeader(language);
  const slashes = leader === "//";
  let quote = "";
  for (let i = 0; i < column - 1; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'" || c === "`") {
      // A Rust lifetime or a char after a letter (`'a`, `x'`) is not a string in code.
      if (c === "'" && language === "rust") continue;
      quote = c;
    } else if (text.startsWith(leader, i)) return "comment";
    else if (slashes && c === "/" && text[i + 1] === "*") return "comment";
    // A block comment's next line (` * text`), not a pointer (`*out = …`).
    else if (
      slashes && c === "*" && text[i + 1] === " " && text.slice(0, i).trim() === ""
    ) return "comment";
  }
  if (quote) return "string";
  return /^\s*\(/.test(text.slice(column - 1 + name.length)) ? "call" : "code";
}

/** What the check found. */
export interface TextCheck {
  /** Lines of code (tests too when searched) holding the name as written, as a whole word. */
  lines: number;
  unlisted: Unlisted[];
}

/**
 * Checks `listed` (`file:line` of every definition and reference the answer holds) against the
 * lines of code that hold `name` (case as written, whole word); null for a name that is not
 * one word, or that {@link MAX_TEXT_LINES} lines or more hold.
 */
export async function textCheck(
  project: Project,
  name: string,
  listed: ReadonlySet<string>,
  includeTests: boolean,
): Promise<TextCheck | null> {
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name)) return null;
  const found = await scanSnippets(
    project,
    name,
    { mode: "exact", top_k: MAX_TEXT_LINES, scope: "code", include_tests: includeTests },
    {},
    true,
  );
  if (found.length >= MAX_TEXT_LINES) return null;
  // Smart case matches `GIT_PAGER` for `git_pager`: only the name as written counts.
  const hits = found.filter((h) =>
    h.snippet.slice((h.column ?? 1) - 1, (h.column ?? 1) - 1 + name.length) === name
  );
  const unlisted = hits.filter((h) => !listed.has(`${h.file}:${h.line}`)).map((h) => ({
    file: h.file,
    line: h.line,
    kind: lineKind(h.snippet, h.column ?? 1, name, h.language),
  }));
  return { lines: hits.length, unlisted };
}
