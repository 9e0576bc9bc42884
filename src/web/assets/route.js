// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The page's addresses: every view has a deep link in the hash (`#/symbol/Session.request`,
 * `#/file/src/app.py:120`, `#/graph/calls/Command.main?depth=2`), so a view can be shared,
 * bookmarked and left with the browser's back button.
 *
 * @module
 */

/**
 * A parsed address: the view, its argument (a name or a path) and its options.
 * @typedef {{ view: string, arg: string, params: URLSearchParams }} Route
 */

/**
 * Reads an address such as `#/symbol/Greeter.greet?file=app/main.py`.
 * @param {string} hash
 * @returns {Route}
 */
export function parseRoute(hash) {
  const h = hash.replace(/^#\/?/, "");
  const qi = h.indexOf("?");
  const path = qi >= 0 ? h.slice(0, qi) : h;
  const query = qi >= 0 ? h.slice(qi + 1) : "";
  const slash = path.indexOf("/");
  const view = slash >= 0 ? path.slice(0, slash) : path;
  let arg = slash >= 0 ? path.slice(slash + 1) : "";
  try {
    arg = decodeURIComponent(arg);
  } catch {
    // a hand-typed `%` stays as written
  }
  return { view: view || "search", arg, params: new URLSearchParams(query) };
}

/**
 * Encodes a name or path for an address, keeping `/`, `:` and `.` readable.
 * @param {string} s
 * @returns {string}
 */
function encodeArg(s) {
  return encodeURIComponent(s).replace(/%2F/g, "/").replace(/%3A/g, ":");
}

/**
 * The address of a view.
 * @param {string} view
 * @param {string} [arg]
 * @param {Record<string, string | number | boolean | undefined | null>} [params]
 * @returns {string}
 */
export function href(view, arg, params) {
  /** @type {string[]} */
  const parts = [];
  const p = params || {};
  Object.keys(p).forEach((k) => {
    const v = p[k];
    if (v !== undefined && v !== null && v !== "" && v !== false) {
      parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(String(v)));
    }
  });
  return "#/" + view + (arg ? "/" + encodeArg(arg) : "") +
    (parts.length ? "?" + parts.join("&") : "");
}

/**
 * The address of a symbol's view; `file` picks one of several symbols of that name.
 * @param {string} name
 * @param {string | null} [file]
 * @returns {string}
 */
export function symbolHref(name, file) {
  return href("symbol", name, { file: file || undefined });
}

/**
 * The address of a file's view, at a line when one is given.
 * @param {string} file
 * @param {number | null} [line]
 * @returns {string}
 */
export function fileHref(file, line) {
  return href("file", line ? file + ":" + line : file);
}

/**
 * Splits `src/app.py:120` into the path and the line (0 when there is none).
 * @param {string} arg
 * @returns {{ file: string, line: number }}
 */
export function splitFileLine(arg) {
  const m = /^(.*?):(\d+)(?:-\d+)?$/.exec(arg);
  return m ? { file: m[1], line: Number(m[2]) } : { file: arg, line: 0 };
}
