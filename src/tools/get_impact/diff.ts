/**
 * Unified diffs read into files and hunks (`git diff`, `diff -u`, a patch an assistant is
 * about to apply), and a file's other side rebuilt from its text and its hunks.
 *
 * @module
 */

import { CodectxError } from "../../errors.ts";

/** One `@@ -a,b +c,d @@` block. */
export interface Hunk {
  /** The header as written (for messages). */
  header: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** Body lines with their mark: ` ` context, `-` removed, `+` added. */
  lines: Array<{ mark: " " | "-" | "+"; text: string }>;
}

/** A file of a diff. */
export interface FilePatch {
  /** Path on the old side (null: the file is new). */
  oldPath: string | null;
  /** Path on the new side (null: the file is deleted). */
  newPath: string | null;
  hunks: Hunk[];
  /** A binary file: no lines to read. */
  binary: boolean;
  /** git's id of the old side's blob (its `index a..b` line), when given in full. */
  oldBlob?: string;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** A path of a `---`/`+++` line: no timestamp, no `a/`/`b/` prefix; null for /dev/null. */
function pathOf(raw: string, prefix: "a/" | "b/"): string | null {
  let p = raw.split("\t")[0].trim();
  if (p.startsWith('"') && p.endsWith('"')) p = JSON.parse(p) as string;
  if (p === "/dev/null") return null;
  return p.startsWith(prefix) ? p.slice(2) : p;
}

/**
 * The files and hunks of a unified diff. A text with no file header or no hunk is
 * `invalid_argument`, saying what a diff looks like (unless `empty`: git's diff of nothing).
 *
 * @example
 * ```ts
 * const [f] = parseDiff("--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n");
 * f.hunks[0].lines; // [{mark: "-", text: "a"}, {mark: "+", text: "b"}]
 * ```
 */
export function parseDiff(text: string, opts: { empty?: boolean } = {}): FilePatch[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const files: FilePatch[] = [];
  let file: FilePatch | null = null;
  let hunk: Hunk | null = null;
  let left = { old: 0, new: 0 };
  const startFile = (): FilePatch => {
    const f: FilePatch = { oldPath: null, newPath: null, hunks: [], binary: false };
    files.push(f);
    hunk = null;
    return f;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (hunk && (left.old > 0 || left.new > 0)) {
      const h: Hunk = hunk;
      const mark = line[0];
      if (line === "" && i === lines.length - 1) break;
      if (mark === " " || line === "") {
        h.lines.push({ mark: " ", text: line.slice(1) });
        left.old--;
        left.new--;
        continue;
      }
      if (mark === "-") {
        h.lines.push({ mark: "-", text: line.slice(1) });
        left.old--;
        continue;
      }
      if (mark === "+") {
        h.lines.push({ mark: "+", text: line.slice(1) });
        left.new--;
        continue;
      }
      if (mark === "\\") continue; // "\ No newline at end of file"
      throw new CodectxError(
        "invalid_argument",
        `diff line ${i + 1} ends hunk '${h.header}' of ${
          file!.newPath ?? file!.oldPath
        } early: ${left.old} old and ${left.new} new lines were still due; check the hunk's counts`,
      );
    }
    if (line.startsWith("\\")) continue;
    if (line.startsWith("diff --git ")) {
      file = startFile();
      const m = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
      if (m) Object.assign(file, { oldPath: m[1], newPath: m[2] });
    } else if (line.startsWith("--- ")) {
      if (!file || file.hunks.length > 0 || hunk) file = startFile();
      file.oldPath = pathOf(line.slice(4), "a/");
    } else if (line.startsWith("+++ ") && file) {
      file.newPath = pathOf(line.slice(4), "b/");
    } else if (line.startsWith("new file mode") && file) file.oldPath = null;
    else if (line.startsWith("deleted file mode") && file) file.newPath = null;
    else if (line.startsWith("rename from ") && file) file.oldPath = line.slice(12);
    else if (line.startsWith("rename to ") && file) file.newPath = line.slice(10);
    else if (/^Binary files .* differ$/.test(line) && file) file.binary = true;
    else if (line.startsWith("index ") && file) {
      const m = /^index ([0-9a-f]{40,64})\.\./.exec(line);
      if (m && !/^0+$/.test(m[1])) file.oldBlob = m[1];
    } else if (line.startsWith("@@")) {
      const m = HUNK.exec(line);
      if (!m || !file) {
        throw new CodectxError(
          "invalid_argument",
          `diff line ${i + 1} '${line.slice(0, 80)}' is not a hunk header after a file header ` +
            "(--- a/path, +++ b/path, then @@ -start,count +start,count @@)",
        );
      }
      hunk = {
        header: m[0],
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newCount: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      };
      (file as FilePatch).hunks.push(hunk);
      left = { old: hunk.oldCount, new: hunk.newCount };
    }
  }
  const kept = files.filter((f) => f.oldPath !== null || f.newPath !== null);
  if (opts.empty) return kept;
  if (kept.length === 0 || kept.every((f) => f.hunks.length === 0 && !f.binary && !renamed(f))) {
    throw new CodectxError(
      "invalid_argument",
      "the diff holds no file with a hunk; pass a unified diff (git diff output: --- a/path, " +
        "+++ b/path, @@ -start,count +start,count @@ and the lines)",
    );
  }
  return kept;
}

function renamed(f: FilePatch): boolean {
  return f.oldPath !== null && f.newPath !== null && f.oldPath !== f.newPath;
}

/** Line numbers the hunks remove (old side) and add (new side). */
export function changedLines(hunks: Hunk[]): { removed: number[]; added: number[] } {
  const removed: number[] = [];
  const added: number[] = [];
  for (const h of hunks) {
    let o = h.oldStart;
    let n = h.newStart;
    for (const l of h.lines) {
      if (l.mark === "-") removed.push(o++);
      else if (l.mark === "+") added.push(n++);
      else {
        o++;
        n++;
      }
    }
  }
  return { removed, added };
}

/** Why a hunk does not fit a text on one side, or null when it does. */
function misfit(h: Hunk, text: string[], side: "old" | "new"): string | null {
  const want = h.lines.filter((l) => l.mark === " " || l.mark === (side === "old" ? "-" : "+"));
  const start = (side === "old" ? h.oldStart : h.newStart) - (want.length === 0 ? 0 : 1);
  for (const [k, l] of want.entries()) {
    const at = start + k;
    const got = text[at];
    if (got === undefined) {
      return `line ${at + 1} is past the end of the file (${text.length} lines)`;
    }
    if (got.replace(/\s+$/, "") !== l.text.replace(/\s+$/, "")) {
      const cut = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 59)}…` : s);
      return `line ${at + 1} reads ${cut(got)}, the diff expects ${cut(l.text)}`;
    }
  }
  return null;
}

/**
 * Which side of `patch` the indexed `text` is: `new` (the change is in it), `old` (it is
 * about to be applied), or an `invalid_argument` naming the first hunk that fits neither and
 * why.
 */
export function sideOf(patch: FilePatch, path: string, text: string[]): "old" | "new" {
  const asNew = patch.hunks.map((h) => misfit(h, text, "new"));
  if (asNew.every((m) => m === null)) return "new";
  const asOld = patch.hunks.map((h) => misfit(h, text, "old"));
  if (asOld.every((m) => m === null)) return "old";
  const i = asOld.findIndex((m) => m !== null);
  throw new CodectxError(
    "invalid_argument",
    `hunk ${i + 1} of ${patch.hunks.length} (${patch.hunks[i].header}) does not apply to ` +
      `${path} as indexed: ${asOld[i]} (nor does it match the file as already changed: ${
        asNew[i] ?? asNew.find((m) => m !== null)
      }); re-index with index_project, or make the diff against the current file`,
  );
}

/**
 * The text on the other side of `patch` from `text` (which is on `side`): the new text from
 * the old one, or the old text from the new one. Hunks fit (see {@link sideOf}).
 */
export function otherSide(patch: FilePatch, text: string[], side: "old" | "new"): string[] {
  const out: string[] = [];
  let at = 0; // next line of `text` not yet copied (0-based)
  for (const h of patch.hunks) {
    const start = (side === "old" ? h.oldStart : h.newStart) - 1;
    const from = h.lines.some((l) => l.mark === " " || l.mark === (side === "old" ? "-" : "+"))
      ? start
      : start + 1;
    while (at < from && at < text.length) out.push(text[at++]);
    for (const l of h.lines) {
      if (l.mark === " ") {
        out.push(text[at++]);
      } else if (l.mark === (side === "old" ? "-" : "+")) at++;
      else out.push(l.text);
    }
  }
  while (at < text.length) out.push(text[at++]);
  return out;
}
