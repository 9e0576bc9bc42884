// @ts-check
/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * Pictures of graphs: DOT text laid out by Graphviz (npm `@viz-js/viz`, WebAssembly, served
 * by `codectx web` itself at `/vendor/viz.js` and loaded on first use), shown as SVG in a
 * frame that pans (drag) and zooms (wheel, buttons). Nodes carry `href`s to the page's
 * addresses, so a click opens the node's view.
 *
 * @module
 */

import { el } from "./dom.js";

/**
 * What the page uses of a Graphviz instance.
 * @typedef {{ renderSVGElement(dot: string): SVGSVGElement }} Viz
 */

/** Where the server serves the layout library. */
const VIZ_URL = "/vendor/viz.js";

/** @type {Promise<Viz> | null} */
let viz = null;

/**
 * The Graphviz instance, loaded once.
 * @returns {Promise<Viz>}
 */
function loadViz() {
  if (!viz) {
    const loading = /** @type {Promise<{ instance(): Promise<Viz> }>} */ (import(VIZ_URL));
    viz = loading.then((m) => m.instance());
    viz.catch(() => {
      viz = null;
    });
  }
  return viz;
}

/**
 * A DOT string literal.
 * @param {string} s
 * @returns {string}
 */
export function dotQuote(s) {
  return '"' + s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n") + '"';
}

/**
 * DOT attributes `[a="x", b="y"]` from an object; absent values are left out.
 * @param {Record<string, string | number | undefined | null>} attrs
 * @returns {string}
 */
export function dotAttrs(attrs) {
  const parts = Object.keys(attrs)
    .filter((k) => attrs[k] !== undefined && attrs[k] !== null)
    .map((k) => k + "=" + dotQuote(String(attrs[k])));
  return parts.length ? " [" + parts.join(", ") + "]" : "";
}

/**
 * Lays out DOT text and shows it in `out` as a pannable, zoomable SVG.
 * @param {HTMLElement} out
 * @param {string} dot
 * @returns {Promise<SVGSVGElement>}
 */
export async function drawDot(out, dot) {
  const v = await loadViz();
  const picture = v.renderSVGElement(dot);
  picture.classList.add("graph-svg");
  const box = panZoom(picture);
  out.appendChild(box);
  box.dispatchEvent(new Event("mounted"));
  return picture;
}

/**
 * A frame around an SVG with drag to pan, wheel to zoom at the pointer, and buttons to zoom
 * and fit. A drag does not count as a click on the node where it started.
 * @param {SVGSVGElement} picture
 * @returns {HTMLElement}
 */
function panZoom(picture) {
  const base = picture.viewBox.baseVal;
  const full = { x: base.x, y: base.y, w: base.width, h: base.height };
  let view = { ...full };
  let widest = full.w * 4;
  const apply = () => {
    picture.setAttribute("viewBox", view.x + " " + view.y + " " + view.w + " " + view.h);
  };
  /**
   * The view at start and after "fit": the whole picture, never drawn larger than its
   * natural size (a Graphviz point is 4/3 of a CSS pixel), in a frame no taller than needed.
   */
  const initial = () => {
    frame.style.height = "";
    frame.style.height = Math.min(full.h * 4 / 3 + 24, frame.clientHeight) + "px";
    const W = Math.max(1, frame.clientWidth), H = Math.max(1, frame.clientHeight);
    const scale = Math.min(4 / 3, W / full.w, H / full.h);
    const w = W / scale, h = H / scale;
    view = { x: full.x - (w - full.w) / 2, y: full.y - (h - full.h) / 2, w, h };
    widest = Math.max(full.w * 4, w);
    apply();
  };
  picture.removeAttribute("width");
  picture.removeAttribute("height");
  /**
   * Zooms by `f` around the point at fractions `fx`, `fy` of the frame.
   * @param {number} f
   * @param {number} fx
   * @param {number} fy
   */
  const zoom = (f, fx, fy) => {
    const w = Math.min(widest, Math.max(full.w / 40, view.w * f));
    const h = w * (view.h / view.w);
    view = { x: view.x + (view.w - w) * fx, y: view.y + (view.h - h) * fy, w, h };
    apply();
  };
  const frame = el("div", { class: "graph-frame" });
  frame.addEventListener("wheel", (ev) => {
    const e = /** @type {WheelEvent} */ (ev);
    e.preventDefault();
    const r = frame.getBoundingClientRect();
    zoom(
      e.deltaY > 0 ? 1.15 : 1 / 1.15,
      (e.clientX - r.left) / r.width,
      (e.clientY - r.top) / r.height,
    );
  }, { passive: false });
  let drag = /** @type {{ x: number, y: number, moved: boolean } | null} */ (null);
  frame.addEventListener("pointerdown", (ev) => {
    const e = /** @type {PointerEvent} */ (ev);
    drag = { x: e.clientX, y: e.clientY, moved: false };
  });
  frame.addEventListener("pointermove", (ev) => {
    const e = /** @type {PointerEvent} */ (ev);
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    drag.moved = true;
    const r = frame.getBoundingClientRect();
    const scale = Math.max(view.w / r.width, view.h / r.height);
    view = { ...view, x: view.x - dx * scale, y: view.y - dy * scale };
    drag.x = e.clientX;
    drag.y = e.clientY;
    apply();
  });
  const end = () => {
    // Keep `moved` until the click that follows this pointerup has been swallowed.
    setTimeout(() => (drag = null), 0);
  };
  frame.addEventListener("pointerup", end);
  frame.addEventListener("pointerleave", end);
  frame.addEventListener("click", (ev) => {
    if (drag && drag.moved) {
      ev.preventDefault();
      ev.stopPropagation();
    }
  }, true);
  const tools = el("div", { class: "graph-tools" }, [
    el("button", {
      type: "button",
      text: "+",
      title: "zoom in",
      onclick: () => zoom(1 / 1.4, 0.5, 0.5),
    }),
    el("button", {
      type: "button",
      text: "−",
      title: "zoom out",
      onclick: () => zoom(1.4, 0.5, 0.5),
    }),
    el("button", {
      type: "button",
      text: "fit",
      title: "show the whole picture",
      onclick: () => initial(),
    }),
  ]);
  frame.appendChild(picture);
  const box = el("div", { class: "graph-box" }, [tools, frame]);
  box.addEventListener("mounted", initial);
  return box;
}
