/**
 * The pieces every tool's Markdown (the text MCP hands a model) is made of: `file:line`
 * locations, fenced code, lists, symbols, how sure a reference is, imports and paths grouped
 * by folder. Plain string functions over wire shapes: no transport, no console.
 *
 * @module
 */

/** Something at a place in a file. */
export interface Located {
  file: string;
  line?: number | null;
  end_line?: number | null;
}

/** `file:line` or `file:line-end` (`end`: false leaves the end out). */
export function loc(o: Located, end = true): string {
  const line = o.line;
  if (typeof line !== "number") return o.file;
  const last = end ? o.end_line : undefined;
  return `${o.file}:${line}${typeof last === "number" && last !== line ? `-${last}` : ""}`;
}

/** The first line of a doc string, shortened. */
export function firstLine(doc: string | null | undefined, max = 100): string {
  const line = (doc ?? "").trim().split("\n")[0];
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Code in a Markdown fence (four backticks when the code holds three). */
export function fence(code: string, language = ""): string {
  const text = code.replace(/\s+$/, "");
  const ticks = text.includes("```") ? "````" : "```";
  return `${ticks}${language}\n${text}\n${ticks}`;
}

/** A symbol as the lines below show it. */
export interface ShownSymbol extends Located {
  name: string;
  qualified_name: string;
  kind: string;
  doc: string;
}

/** `name (kind) file:line — doc` for a symbol. */
export function symbolLine(s: ShownSymbol): string {
  const name = s.qualified_name || s.name;
  const doc = firstLine(s.doc);
  return `${name} (${s.kind}) ${loc(s)}${doc ? ` — ${doc}` : ""}`;
}

/** The non-empty parts, one per line. */
export function join(parts: Array<string | false | undefined>): string {
  return parts.filter((p) => p !== undefined && p !== false && p !== "").join("\n");
}

/** `title (n of total):` and one `- ` line per item; `""` for no items. */
export function listOf<T>(
  title: string,
  items: T[],
  line: (x: T) => string,
  total?: number,
): string {
  if (items.length === 0) return "";
  const more = total !== undefined && total > items.length ? ` (${items.length} of ${total})` : "";
  return `${title}${more}:\n${items.map((x) => `- ${line(x)}`).join("\n")}`;
}

/** Something a reference or call reached, with how sure it is. */
export interface Resolved {
  resolution?: string;
}

/** How sure a reference or call is, when less than exact (issue 13's `resolution`). */
export function sureness(o: Resolved): string {
  return o.resolution === "name"
    ? ", by name only"
    : o.resolution === "inferred"
    ? ", inferred from the receiver's type"
    : "";
}

/** The resolution most items share (said once instead of on each line). */
export function commonResolution(items: Resolved[]): string | undefined {
  const counts = new Map<string | undefined, number>();
  for (const o of items) counts.set(o.resolution, (counts.get(o.resolution) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** An import statement of a file, as explain_file and get_dependencies answer it. */
export interface ShownImport {
  module: string;
  resolved: string | null;
  also?: string[];
  external: boolean;
  line: number;
  names: string[];
}

/** An import: the project file it reaches, else the module as written (external or not found). */
export function importLine(i: ShownImport): string {
  const names = i.names.length ? ` (${i.names.join(", ")})` : "";
  const target = i.resolved
    ? [i.resolved, ...(i.also ?? [])].join(", ")
    : `${i.module} (${i.external ? "external" : "not found"})`;
  return `${i.line}: ${target}${names}`;
}

/**
 * Paths grouped by folder, one folder a line (`dir/: a, b`); a folder inside the one above
 * it is indented and named from there. An extension every path shares is said once, in
 * `title`.
 */
export function byFolder(title: string, paths: string[]): string {
  const ext = paths[0]?.match(/\.[^./]+$/)?.[0] ?? "";
  const same = ext !== "" && paths.every((p) => p.endsWith(ext));
  const groups = new Map<string, string[]>();
  for (const p of paths) {
    const cut = p.lastIndexOf("/") + 1;
    const dir = p.slice(0, cut);
    const name = same ? p.slice(cut, -ext.length) : p.slice(cut);
    groups.set(dir, [...(groups.get(dir) ?? []), name]);
  }
  const dirs = [...groups.keys()].sort();
  // Names are separated by spaces (a comma is one more token each) unless one holds a space.
  const sep = paths.some((p) => p.includes(" ")) ? ", " : " ";
  const depth = new Map<string, number>();
  const lines = dirs.map((dir) => {
    // The nearest folder listed above that contains this one (sorted: it came first).
    const parent = dirs.filter((d) => d && d !== dir && dir.startsWith(d)).pop();
    depth.set(dir, parent === undefined ? 0 : depth.get(parent)! + 1);
    const shown = parent === undefined ? dir || "./" : dir.slice(parent.length);
    return `${"  ".repeat(depth.get(dir)!)}- ${shown}: ${groups.get(dir)!.join(sep)}`;
  });
  return `${title}${same ? ` (*${ext})` : ""}:\n${lines.join("\n")}`;
}

/** `Imported by n files:` grouped by folder; `""` for none. */
export function importedBy(files: string[]): string {
  return files.length ? byFolder(`Imported by ${files.length} files`, files) : "";
}

/** A security issue in one line: id, severity/confidence, where, what, and its code. */
export function issueLine(
  i: Located & {
    test_id: string;
    severity: string;
    confidence: string;
    message: string;
    code: string;
  },
): string {
  return `${i.test_id} ${i.severity}/${i.confidence} ${loc(i)}: ${i.message}` +
    `${i.code ? ` \`${firstLine(i.code, 80)}\`` : ""}`;
}

/**
 * The line that says a name means several symbols and which one is shown (`codectx explain`,
 * `calls` and `context` print it under the answer's first line so that it is not missed).
 */
export function otherSymbolsNote(
  others: ReadonlyArray<string | { file: string; line?: number | null }>,
): string {
  const where = others.slice(0, 3).map((c) => typeof c === "string" ? c : loc(c, false))
    .join(", ");
  return `(${others.length} other symbol${others.length === 1 ? " is" : "s are"} named so: ` +
    `${where}${others.length > 3 ? ", …" : ""}; --file picks one)`;
}
