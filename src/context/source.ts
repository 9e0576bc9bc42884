/**
 * Reading the lines of indexed files, once per request, through the same checks as
 * indexing: a file that now leads outside the root, or is no longer a regular file, reads
 * as empty.
 *
 * @module
 */

import { readProjectFile } from "../index/safe_read.ts";

/** Lines of project files by relative path; a file read once is kept for the request. */
export class SourceReader {
  private cache = new Map<string, Promise<string[]>>();

  constructor(private readonly root: string) {}

  /** All lines of `file` (no line endings); empty when the file cannot be read. */
  lines(file: string): Promise<string[]> {
    let p = this.cache.get(file);
    if (!p) {
      p = readProjectFile(this.root, file)
        .then((b) => new TextDecoder().decode(b).replace(/\r\n?/g, "\n").split("\n"))
        .catch(() => []);
      this.cache.set(file, p);
    }
    return p;
  }

  /** Lines `from`..`to` (1-based, inclusive, clamped) of `file`. */
  async span(file: string, from: number, to: number): Promise<string[]> {
    const all = await this.lines(file);
    return all.slice(Math.max(0, from - 1), Math.max(0, Math.min(all.length, to)));
  }
}

/** Comment leader of a language, for location notes inside code blocks. */
export function commentLeader(language: string): string {
  switch (language) {
    case "python":
    case "ruby":
    case "bash":
    case "toml":
    case "yaml":
      return "#";
    case "lua":
      return "--";
    default:
      return "//";
  }
}

/** The Markdown fence language of an indexed language. */
export function fenceLanguage(language: string): string {
  return language === "csharp" ? "cs" : language === "markdown" ? "md" : language;
}

/**
 * The doc-comment lines just above `startLine` (`///`, `//`, `/** … *\/`, `#`, `--`), for
 * languages that document a definition before it; returns the first line of that block.
 */
export function docCommentStart(lines: readonly string[], startLine: number): number {
  let i = startLine - 2; // 0-based index of the line above
  let first = startLine;
  let inBlock = false;
  while (i >= 0) {
    const t = lines[i].trim();
    if (inBlock) {
      first = i + 1;
      if (t.startsWith("/*")) inBlock = false;
      i--;
      continue;
    }
    if (t.endsWith("*/")) {
      first = i + 1;
      inBlock = !t.startsWith("/*");
      i--;
      continue;
    }
    if (/^(\/\/|#(?!include|define|if|\[)|--)/.test(t) && !t.startsWith("#!")) {
      first = i + 1;
      i--;
      continue;
    }
    break;
  }
  return first;
}

/** First sentence of a doc, on one line (at most 200 characters). */
export function docSummary(doc: string): string {
  const para = doc.trim().split(/\n\s*\n/)[0]?.replace(/\s+/g, " ").trim() ?? "";
  const m = /^(.{1,200}?[.!?])(\s|$)/.exec(para);
  return m ? m[1] : para.slice(0, 200);
}
