// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The page's small DOM helpers: elements by id, new HTML and SVG elements built from a
 * property object, and emptying a node. Text is always set with `textContent`, never as HTML.
 *
 * @module
 */

/**
 * What `el` and `svg` set on a new element: `text` is its text, `class` its class, `on…` a
 * listener, anything else an attribute.
 * @typedef {Record<string, string | number | ((ev: Event) => void)>} Props
 */

/**
 * The page's element with this id (the page holds every id the script asks for).
 * @param {string} id
 * @returns {HTMLElement}
 */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/**
 * The input, select or text area with this id.
 * @param {string} id
 * @returns {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement}
 */
export const field = (id) => /** @type {HTMLInputElement} */ ($(id));
/**
 * The button with this id.
 * @param {string} id
 * @returns {HTMLButtonElement}
 */
export const button = (id) => /** @type {HTMLButtonElement} */ ($(id));

/**
 * A new element with its properties and children.
 * @param {string} tag
 * @param {Props | null} [props]
 * @param {(Node | string)[]} [children]
 * @returns {HTMLElement}
 */
export function el(tag, props, children) {
  const e = document.createElement(tag);
  if (props) {
    Object.keys(props).forEach((k) => {
      const v = props[k];
      if (k === "text") e.textContent = String(v);
      else if (k === "class") e.className = String(v);
      else if (k.slice(0, 2) === "on") {
        e.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
      } else e.setAttribute(k, String(v));
    });
  }
  (children || []).forEach((c) => {
    e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  });
  return e;
}
/**
 * Removes every child of a node.
 * @param {HTMLElement} node
 * @returns {HTMLElement}
 */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** The SVG namespace. */
const SVG = "http://www.w3.org/2000/svg";
/**
 * A new SVG element with these attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElement}
 */
export function svg(tag, attrs) {
  const e = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  const all = attrs || {};
  Object.keys(all).forEach((k) => e.setAttribute(k, String(all[k])));
  return e;
}

/**
 * A link to one of the page's addresses (or, for `http(s):`, to the web in a new tab).
 * @param {string} href
 * @param {string} text
 * @param {string} [cls]
 * @returns {HTMLElement}
 */
export function link(href, text, cls) {
  /** @type {Props} */
  const props = { href, text };
  if (cls) props.class = cls;
  if (/^https?:/i.test(href)) {
    props.target = "_blank";
    props.rel = "noopener noreferrer";
  }
  return el("a", props);
}

/**
 * A message where a result would be: `error` for a failure, `muted` for "nothing here".
 * @param {string} text
 * @param {"error" | "muted" | "loading"} kind
 * @returns {HTMLElement}
 */
export function note(text, kind) {
  return el("p", { class: "note " + kind, text, role: kind === "error" ? "alert" : "status" });
}
