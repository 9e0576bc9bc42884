/**
 * The one loader of tree-sitter query files, for the parse engine (`queries/`) and for
 * analysis (`metrics/`, `rules/`, `resolve/`). It reads a file next to the code (from
 * disk, or over HTTP when the code runs from a URL) and applies the include mechanism
 * that lets a language's file hold only what differs from a related language's:
 *
 * ```scheme
 * ; inherits: javascript
 * ; TypeScript: JavaScript's patterns, plus …
 *
 * ; section: functions
 * ; inherited
 * (function_signature name: (identifier) @name) @definition.function
 * ```
 *
 * - `; inherits: <name>` as the first line: the file is `<name>.scm` of the same folder,
 *   section by section, with this file's own sections put in their place.
 * - `; section: <name>` starts a named section (up to the next one or the end). In a base
 *   file it is only a comment; in an inheriting file it replaces the base's section of
 *   that name, which must exist. An empty section drops the base's.
 * - `; inherited` inside a replacing section stands for the base's text of that section,
 *   so additions go before or after it.
 * - What comes before the first section (the file's heading comment) replaces the base's.
 *
 * The base's sections keep their order, so patterns keep theirs: that order matters (the
 * pattern written first wins a tie). A base may itself inherit.
 *
 * @module
 */

const INHERITS = /^; inherits: ([\w-]+)[ \t]*$/;
const SECTION = /^; section: ([\w.-]+)[ \t]*$/;
const INHERITED = /^; inherited[ \t]*$/;

/** A query file cut at its `; section:` lines. */
interface Sections {
  /** The text before the first section. */
  readonly head: string;
  /** Section names in file order, each with its text (marker line included). */
  readonly sections: ReadonlyArray<{ readonly name: string; readonly text: string }>;
}

/**
 * The text of the query file at `url` with its `; inherits:` line applied. Rejects when a
 * file cannot be read, a base is missing or a section names no section of its base.
 *
 * @example
 * ```ts
 * const text = await readQuery(new URL("./queries/typescript.scm", import.meta.url));
 * text.includes("(function_declaration"); // true: inherited from javascript.scm
 * ```
 */
export function readQuery(url: URL): Promise<string> {
  return expand(url, []);
}

async function expand(url: URL, chain: readonly string[]): Promise<string> {
  if (chain.includes(url.href)) {
    throw new Error(`query ${url} inherits from itself (${[...chain, url.href].join(" → ")})`);
  }
  const text = await readText(url);
  const nl = text.indexOf("\n");
  const base = INHERITS.exec((nl < 0 ? text : text.slice(0, nl)).trimEnd());
  if (!base) return text;
  const baseUrl = new URL(`${base[1]}.scm`, url);
  const baseText = await expand(baseUrl, [...chain, url.href]);
  return inherit(cut(baseText), cut(nl < 0 ? "" : text.slice(nl + 1)), url, baseUrl);
}

/** The base's sections in order, each replaced by the child's section of that name. */
function inherit(base: Sections, child: Sections, url: URL, baseUrl: URL): string {
  const own = new Map(child.sections.map((s) => [s.name, s.text]));
  for (const name of own.keys()) {
    if (!base.sections.some((s) => s.name === name)) {
      throw new Error(`query ${url}: section '${name}' is not a section of ${baseUrl}`);
    }
  }
  const parts = [child.head];
  for (const section of base.sections) {
    const replacement = own.get(section.name);
    if (replacement === undefined) {
      parts.push(section.text);
      continue;
    }
    // The marker stays, so that a file inheriting from this one can replace it again.
    const nl = section.text.indexOf("\n");
    const inherited = nl < 0 ? "" : section.text.slice(nl + 1).replace(/\n$/, "");
    parts.push(
      replacement.split("\n").map((line) => INHERITED.test(line) ? inherited : line).join("\n"),
    );
  }
  return parts.join("");
}

/** Cuts a query's text at its section markers. */
function cut(text: string): Sections {
  const lines = text.split(/(?<=\n)/);
  const sections: Array<{ name: string; text: string }> = [];
  let head = "";
  for (const line of lines) {
    const marker = SECTION.exec(line.trimEnd());
    if (marker) sections.push({ name: marker[1], text: line });
    else if (sections.length > 0) sections[sections.length - 1].text += line;
    else head += line;
  }
  return { head, sections };
}

async function readText(url: URL): Promise<string> {
  if (url.protocol === "file:") return await Deno.readTextFile(url);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`cannot read query ${url}: HTTP ${res.status}`);
  return await res.text();
}
