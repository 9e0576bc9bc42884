/**
 * The files of the web page (`src/web/assets/`): `index.html` at `/`, and its stylesheet and
 * script modules by their names (`/app.css`, `/app.js`, `/dom.js`, …), plus the graph layout
 * library (Graphviz compiled to WebAssembly, npm `@viz-js/viz`) at `/vendor/viz.js`, taken
 * from the installed package so the page works offline. Each file is read once, beside this
 * module (so `deno compile --include src/web/assets` carries them), and then served from
 * memory.
 *
 * @module
 */

import type { Hono } from "npm:hono@4.12.7";
import { assetUrl, packageFileUrl } from "../util/assets.ts";

/** How one URL path of the page is answered. */
interface Asset {
  /** The file in `src/web/assets/`, or a bare npm specifier of a package's module. */
  file: string;
  /** Its response headers. */
  headers: Record<string, string>;
}

/**
 * The page's security policy: its own script, stylesheet and API only, no framing, no form
 * posts elsewhere. The page sets text with `textContent`, so it needs nothing inline.
 * `wasm-unsafe-eval` lets the layout library compile its WebAssembly, and nothing else.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The layout library's browser module (the WebAssembly is inside it). */
const VIZ = "@viz-js/viz/dist/viz.js";

/** One of the page's script modules. */
function script(file: string): Asset {
  return {
    file,
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
  };
}

/** One of the page's stylesheets. */
function style(file: string): Asset {
  return {
    file,
    headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "no-cache" },
  };
}

/** Every URL path the page uses, and what answers it. `no-cache` so an upgrade shows at once. */
const ASSETS: Readonly<Record<string, Asset>> = {
  "/": {
    file: "index.html",
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": CONTENT_SECURITY_POLICY,
      "Cache-Control": "no-cache",
    },
  },
  "/app.js": script("app.js"),
  "/code.js": script("code.js"),
  "/dom.js": script("dom.js"),
  "/dot.js": script("dot.js"),
  "/file.js": script("file.js"),
  "/graph.js": script("graph.js"),
  "/graphviz.js": script("graphviz.js"),
  "/impact.js": script("impact.js"),
  "/pictures.js": script("pictures.js"),
  "/markdown.js": script("markdown.js"),
  "/quality.js": script("quality.js"),
  "/rest.js": script("rest.js"),
  "/route.js": script("route.js"),
  "/search.js": script("search.js"),
  "/summary.js": script("summary.js"),
  "/symbol.js": script("symbol.js"),
  "/vendor/viz.js": script(VIZ),
  "/app.css": style("app.css"),
  "/graph.css": style("graph.css"),
};

/** The URL paths `serveAsset` answers. */
export const ASSET_PATHS: readonly string[] = Object.keys(ASSETS);

/** Each file's text, read on first use; a failed read is dropped so the next request retries. */
const texts = new Map<string, Promise<string>>();

/**
 * Reads one file of `assets/` (from disk, or over HTTP when this module was loaded remotely),
 * or the module an npm specifier resolves to.
 */
async function readAsset(file: string): Promise<string> {
  const url = file === VIZ ? packageFileUrl(VIZ) : assetUrl(`src/web/assets/${file}`);
  if (url.protocol === "file:") return await Deno.readTextFile(url);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`cannot read the web page's ${file} (${url}): HTTP ${res.status}`);
  return await res.text();
}

/** One file's text, read once. */
function assetText(file: string): Promise<string> {
  let text = texts.get(file);
  if (!text) {
    text = readAsset(file);
    texts.set(file, text);
    text.catch(() => texts.delete(file));
  }
  return text;
}

/**
 * Answers one URL path of the web page with its file and headers; `null` when the path is
 * not one of the page's (`ASSET_PATHS`).
 *
 * @example
 * ```ts
 * const res = await serveAsset("/app.js");
 * console.log(res?.headers.get("content-type")); // "text/javascript; charset=utf-8"
 * ```
 */
export async function serveAsset(pathname: string): Promise<Response | null> {
  if (!Object.hasOwn(ASSETS, pathname)) return null;
  const asset = ASSETS[pathname];
  return new Response(await assetText(asset.file), { headers: asset.headers });
}

/**
 * Adds a `GET` route to the app for every path of the web page (`HEAD` follows, as Hono
 * answers it from `GET`).
 *
 * @example
 * ```ts
 * import { Hono } from "hono";
 * const app = new Hono();
 * mountAssets(app);
 * const res = await app.request("/");
 * console.log(res.headers.get("content-type")); // "text/html; charset=utf-8"
 * ```
 */
export function mountAssets(app: Hono): void {
  for (const path of ASSET_PATHS) {
    app.get(path, async (c) => (await serveAsset(path)) ?? c.notFound());
  }
}
