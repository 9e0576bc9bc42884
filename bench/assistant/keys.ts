/**
 * The assistant bench's question and key format, and how an answer is judged against a key.
 *
 * A key file (`keys/<project>.json`) holds the project, the version its paths are of, the
 * oracle that verified it, and its questions; each question has the items its answer must
 * name (`all`: `file:line`, a `file`, or a name; `a|b` for equivalents), the items a wrong
 * answer would name (`none`), and how the key was verified (`oracle`). An answer is free text
 * (Markdown, one `## <id>` section a question); an item counts when the text holds it.
 *
 * @module
 */

/** One question with its key. */
export interface Question {
  id: string;
  /** where_handled, who_calls, what_does, importers, where_add, what_breaks, error_raised. */
  kind: string;
  question: string;
  /** Items the answer must name: `path:line`, `path`, or a name; `a|b` for equivalents. */
  all: string[];
  /** Items that make an answer wrong (a file that does not do it, a caller that is not one). */
  none?: string[];
  /** Share of `all` that makes it partly right (default 0.5). */
  partly?: number;
  /** How the key was verified (the oracle's command or query). */
  oracle: string;
}

/** A key file. */
export interface KeyFile {
  project: string;
  /** Where the code comes from and which version (`bench/assistant/projects.ts`). */
  source: string;
  /** Who wrote the key and with what. */
  author: string;
  questions: Question[];
}

/** Reads a key file. */
export async function readKeys(path: string): Promise<KeyFile> {
  return JSON.parse(await Deno.readTextFile(path)) as KeyFile;
}

/** An answer file's sections by question id (`## q01` … up to the next `## `). */
export function answerSections(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  let id = "";
  for (const line of markdown.split("\n")) {
    const m = /^##\s+(\S+)/.exec(line);
    if (m) {
      id = m[1].replace(/[:.]$/, "");
      out.set(id, "");
    } else if (id) out.set(id, out.get(id) + line + "\n");
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether `text` names `item`: a path (`a/b.py`, `a/b.py:12`) must stand as a path (a prefix
 * folder before it is allowed, a digit after the line is not); a name must stand as a word.
 */
export function names(text: string, item: string): boolean {
  return item.split("|").some((alt) => {
    const [path, line] = alt.split(/:(?=\d+$)/);
    const isPath = path.includes("/") || /\.\w+$/.test(path);
    const re = isPath
      ? new RegExp(
        `(^|[^\\w.-])([\\w.-]+/)*${escape(path)}${line ? `:${line}(?!\\d)` : "(?![\\w/])"}`,
      )
      : new RegExp(`(^|[^\\w])${escape(alt)}(?![\\w])`);
    return re.test(text);
  });
}

/**
 * An answer's line lists written after one path spelled out, one `path:line` each, so that each
 * line counts as the place it names. Two forms: on one line (`a/b.py:105, :188, :196` or
 * `a/b.py:105, 188`), and a path that ends a line (`All calls are in a/b.py:`) followed by list
 * items that begin with line numbers (`- 108 (Handle)`, `- 257, 279`), as a reader would read them.
 */
export function expandLineLists(text: string): string {
  // A short note may follow a line (`a.ts:73 (recursive), 94`); numbers inside it stay as written.
  const inline = text.replace(
    /([\w./-]+\.\w+):(\d+)((?:\s*(?:\([^()\n]*\))?\s*,\s*:?\d+(?![\w/:]|\.\w))+)/g,
    (_m, path: string, first: string, rest: string) =>
      `${path}:${first}` +
      rest.replace(
        /\([^()\n]*\)|(,\s*):?(\d+)/g,
        (m, sep?: string, n?: string) => sep === undefined ? m : `${sep}${path}:${n}`,
      ),
  );
  let heading: string | null = null;
  return inline.split("\n").map((line) => {
    const item = /^\s*(?:[-*]|\d+\.)\s+(\d+(?:\s*,\s*\d+)*)(?![\w./:])(.*)$/.exec(line);
    if (heading && item) {
      return line.replace(
        item[1],
        item[1].split(/\s*,\s*/).map((n) => `${heading}:${n}`).join(", "),
      );
    }
    const h = /([\w./-]+\.\w+):\s*$/.exec(line);
    heading = h ? h[1] : null;
    return line;
  }).join("\n");
}

/** A verdict on one answer. */
export interface Verdict {
  verdict: "right" | "partly" | "wrong";
  missing: string[];
  wrongItems: string[];
}

/** Judges an answer: right when it names every item and no wrong one; partly past `partly`. */
export function judge(q: Question, written: string): Verdict {
  const answer = expandLineLists(written);
  const missing = q.all.filter((i) => !names(answer, i));
  const wrongItems = (q.none ?? []).filter((i) => names(answer, i));
  const found = q.all.length - missing.length;
  const verdict = missing.length === 0 && wrongItems.length === 0
    ? "right"
    : found >= Math.max(1, Math.ceil(q.all.length * (q.partly ?? 0.5)))
    ? "partly"
    : "wrong";
  return { verdict, missing, wrongItems };
}
