/**
 * The pieces every MCP text is made of: reading a payload's loosely typed fields, and writing
 * `file:line` locations, fenced code and lists.
 *
 * @module
 */

/** A payload, or an object inside one. */
export type Obj = Record<string, unknown>;

/** Whether `v` is a plain object. */
export const isObj = (v: unknown): v is Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v);
/** The objects of an array (anything else: none). */
export const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
/** A value as text (`""` for null or undefined). */
export const str = (v: unknown): string => (typeof v === "string" ? v : v == null ? "" : String(v));
/** A number, or 0. */
export const num = (v: unknown): number => (typeof v === "number" ? v : 0);

/** `file:line` or `file:line-end`. */
export function loc(o: Obj, lineKey = "line", endKey = "end_line"): string {
  const file = str(o.file);
  const line = o[lineKey];
  if (typeof line !== "number") return file;
  const end = o[endKey];
  return `${file}:${line}${typeof end === "number" && end !== line ? `-${end}` : ""}`;
}

/** The first line of a doc string, shortened. */
export function firstLine(doc: unknown, max = 100): string {
  const line = str(doc).trim().split("\n")[0];
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Code in a Markdown fence (four backticks when the code holds three). */
export function fence(code: unknown, language: unknown = ""): string {
  const text = str(code).replace(/\s+$/, "");
  const ticks = text.includes("```") ? "````" : "```";
  return `${ticks}${str(language)}\n${text}\n${ticks}`;
}

/** `name (kind) file:line — doc` for a symbol. */
export function symbolLine(s: Obj): string {
  const name = str(s.qualified_name) || str(s.name);
  const doc = firstLine(s.doc);
  return `${name} (${str(s.kind)}) ${loc(s)}${doc ? ` — ${doc}` : ""}`;
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
