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
 * Lays out DOT text and shows it in `out` as a pannable, zoomable SVG. Given several
 * layouts of one graph (e.g. left-to-right and top-down), the one that fits the frame at the
 * largest scale is shown.
 * @param {HTMLElement} out
 * @param {string | string[]} dot
 * @returns {Promise<SVGSVGElement>}
 */
export async function drawDot(out, dot) {
  const v = await loadViz();
  const W = Math.max(1, out.clientWidth), H = frameHeight();
  /** @type {SVGSVGElement | null} */
  let picture = null;
  let best = -1;
  (Array.isArray(dot) ? dot : [dot]).forEach((d) => {
    const p = v.renderSVGElement(d);
    const b = p.viewBox.baseVal;
    // Never larger than natural size (4/3 px a point): two layouts that both fit tie.
    const fit = Math.min(4 / 3, W / Math.max(1, b.width), H / Math.max(1, b.height));
    if (fit > best) {
      best = fit;
      picture = p;
    }
  });
  const shown = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (picture));
  shown.classList.add("graph-svg");
  const box = panZoom(shown);
  out.appendChild(box);
  box.dispatchEvent(new Event("mounted"));
  return shown;
}

/** The frame's height in CSS pixels, as the stylesheet sets it (72% of the window, ≤ 760). */
function frameHeight() {
  return Math.min(innerHeight * 0.72, 760);
}

/**
 * The smallest scale (CSS pixels per Graphviz point) a picture is first shown at: a 10 pt
 * label is then 10 px high. A picture that would be smaller when whole is first shown in
 * part, around its centre node, at this scale; "fit" shows it whole.
 */
const READABLE_SCALE = 1;

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
   * The view after "fit": the whole picture, never drawn larger than its natural size (a
   * Graphviz point is 4/3 of a CSS pixel), in a frame no taller than needed. At start
   * (`readable`), a picture too big to read whole is shown at {@link READABLE_SCALE} around
   * its centre node (or its middle).
   * @param {boolean} readable
   */
  const initial = (readable) => {
    frame.style.height = "";
    frame.style.height = Math.min(full.h * 4 / 3 + 24, frame.clientHeight) + "px";
    const W = Math.max(1, frame.clientWidth), H = Math.max(1, frame.clientHeight);
    const scale = Math.min(4 / 3, W / full.w, H / full.h);
    const w = W / scale, h = H / scale;
    view = { x: full.x - (w - full.w) / 2, y: full.y - (h - full.h) / 2, w, h };
    widest = Math.max(full.w * 4, w);
    apply();
    const part = readable && scale < READABLE_SCALE;
    hint.hidden = !part;
    if (!part) return;
    // Where the centre node is, in the picture's units (the view fills the frame exactly).
    const r = frame.getBoundingClientRect();
    const center = picture.querySelector("g.node.center");
    let cx = full.x + full.w / 2, cy = full.y + full.h / 2;
    if (center) {
      const c = center.getBoundingClientRect();
      cx = view.x + (c.left + c.width / 2 - r.left) * view.w / r.width;
      cy = view.y + (c.top + c.height / 2 - r.top) * view.h / r.height;
    }
    const pw = W / READABLE_SCALE, ph = H / READABLE_SCALE;
    // Keep the view on the picture (the centre moves in from the edges); a side the frame
    // holds whole is centred.
    /**
     * @param {number} c
     * @param {number} size
     * @param {number} from
     * @param {number} length
     */
    const place = (c, size, from, length) =>
      size >= length
        ? from - (size - length) / 2
        : Math.min(Math.max(c - size / 2, from), from + length - size);
    const x = place(cx, pw, full.x, full.w), y = place(cy, ph, full.y, full.h);
    view = { x, y, w: pw, h: ph };
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
  const hint = el("span", {
    class: "graph-hint",
    text: "Part of the picture, at reading size: drag to move, wheel to zoom, “fit” for all.",
  });
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
      onclick: () => initial(false),
    }),
  ]);
  frame.appendChild(picture);
  const box = el("div", { class: "graph-box" }, [tools, frame, hint]);
  box.addEventListener("mounted", () => initial(true));
  return box;
}
