/**
 * Which key items (`path:line`, a path, a name) a codectx answer shows, as a reader would read
 * them: a line number under its file (`path` alone on a line, `# name — kind in path:a-b`,
 * `name (kind path:a-b): …`, `- path:`) or after ` :` (the file the answer is about) stands for
 * `path:line`. `sizes.ts --keys` uses it to say whether a cut lost an item an answer needed.
 *
 * @module
 */

import { expandLineLists, names } from "./keys.ts";

const PATH = String.raw`[\w.-]+(?:/[\w.-]+)*\.\w+`;

/** `text` with each line number spelled out as `path:line`. */
export function placed(text: string): string {
  let home = "";
  let file = "";
  return text.split("\n").map((line) => {
    const head = new RegExp(`^(?:# .* — \\w+ in |\\S+ \\(\\w+ )(${PATH}):\\d+`).exec(line);
    if (head) home = file = head[1];
    const bare = new RegExp(`^\\s*(?:- )?(${PATH}):?\\s*$`).exec(line);
    if (bare) {
      file = bare[1];
      return line;
    }
    let out = line.replace(
      /(^|\s)(?:(- )|(\s\s))?(\d+)(?=[: ,]|$)/,
      (m, pre, dash, sp, n) => (dash || sp) && file ? `${pre}${dash ?? sp}${file}:${n}` : m,
    );
    // `:N` alone is a line of the file the answer is about (or of the group's file).
    if (file || home) {
      out = out.replace(/(^|[\s(])(:\d+)/g, (_m, pre, n) => `${pre}${file || home}${n}`);
    }
    return out;
  }).join("\n");
}

/** The items of `all` (each `a|b`) that `text` shows. */
export function shownItems(text: string, all: string[]): string[] {
  const read = expandLineLists(placed(text));
  return all.filter((item) => names(read, item));
}
