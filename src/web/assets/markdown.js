// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * A small, safe Markdown renderer for the summary and the answers of Ask: headings,
 * paragraphs, lists, quotes, fenced code, inline code, emphasis, links and `file:line`
 * citations (which become links to the file view). It builds DOM nodes and sets text with
 * `textContent` only, so no text of the answer is ever parsed as HTML; a link leads only to
 * `http(s):` or to one of the page's own addresses.
 *
 * @module
 */

import { el, link } from "./dom.js";
import { fileHref } from "./route.js";

/** `path/file.ext:12` or `path/file.ext:12-20`: a citation of a place in the project. */
const CITATION = /([\w.\-/]*[\w-]\.[A-Za-z][\w]*):(\d+)(?:[-–](\d+))?/g;

/**
 * Text with its `file:line` citations turned into links.
 * @param {string} text
 * @returns {Node[]}
 */
function cited(text) {
  /** @type {Node[]} */
  const out = [];
  let last = 0;
  for (const m of text.matchAll(CITATION)) {
    const at = m.index || 0;
    if (at > last) out.push(document.createTextNode(text.slice(last, at)));
    out.push(link(fileHref(m[1], Number(m[2])), m[0], "cite"));
    last = at + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

/**
 * Where a Markdown link may lead: the web, or one of the page's addresses; a bare
 * `file:line` becomes the file view. Anything else (`javascript:`, `data:`…) is refused.
 * @param {string} url
 * @returns {string | null}
 */
function safeHref(url) {
  if (/^https?:\/\//i.test(url) || url.startsWith("#/")) return url;
  const m = /^([\w.\-/]+):(\d+)$/.exec(url);
  if (m) return fileHref(m[1], Number(m[2]));
  return null;
}

/** Inline syntax, tried in this order at each position. */
const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

/**
 * Inline Markdown: code, strong, emphasis, links, and citations in plain text.
 * @param {string} text
 * @returns {Node[]}
 */
export function inline(text) {
  /** @type {Node[]} */
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index || 0;
    if (at > last) out.push(...cited(text.slice(last, at)));
    if (m[1] !== undefined) {
      const code = el("code", { text: m[1] });
      const cite = new RegExp("^" + CITATION.source + "$").exec(m[1]);
      out.push(cite ? el("a", { href: fileHref(cite[1], Number(cite[2])) }, [code]) : code);
    } else if (m[2] !== undefined || m[3] !== undefined) {
      out.push(el("strong", null, inline(m[2] ?? m[3])));
    } else if (m[4] !== undefined) {
      out.push(el("em", null, inline(m[4])));
    } else {
      const target = safeHref(m[6]);
      out.push(target ? el("a", { href: target }, inline(m[5])) : document.createTextNode(m[0]));
    }
    last = at + m[0].length;
  }
  if (last < text.length) out.push(...cited(text.slice(last)));
  return out;
}

/**
 * Renders Markdown into a new `div.markdown`.
 * @param {string} text
 * @returns {HTMLElement}
 */
export function renderMarkdown(text) {
  const root = el("div", { class: "markdown" });
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  /** @type {string[]} */
  let para = [];
  /** @type {HTMLElement | null} */
  let list = null;
  const flush = () => {
    // A line break inside a paragraph is kept: answers put one fact on each line.
    if (para.length) {
      root.appendChild(
        el("p", null, para.flatMap((l, i) => i ? [el("br"), ...inline(l)] : inline(l))),
      );
    }
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      flush();
      list = null;
      /** @type {string[]} */
      const body = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence[1])) body.push(lines[i++]);
      const code = el("code", { text: body.join("\n") });
      if (fence[2]) code.setAttribute("data-lang", fence[2]);
      root.appendChild(el("pre", null, [code]));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      list = null;
      // The page's own h1 is the project; an answer's headings start one below.
      const level = Math.min(6, heading[1].length + 1);
      root.appendChild(el("h" + level, null, inline(heading[2])));
    } else if (item) {
      flush();
      const ordered = /\d/.test(item[1]);
      const tag = ordered ? "OL" : "UL";
      if (!list || list.tagName !== tag) {
        list = el(tag.toLowerCase());
        root.appendChild(list);
      }
      list.appendChild(el("li", null, inline(item[2])));
    } else if (/^\s*>\s?/.test(line)) {
      flush();
      list = null;
      root.appendChild(el("blockquote", null, inline(line.replace(/^\s*>\s?/, ""))));
    } else if (line.trim() === "") {
      flush();
      list = null;
    } else if (list && /^\s{2,}\S/.test(line) && !para.length) {
      // A continuation of the last list item.
      const li = /** @type {HTMLElement} */ (list.lastChild);
      li.append(" ", ...inline(line.trim()));
    } else {
      list = null;
      para.push(line.trim());
    }
  }
  flush();
  return root;
}
