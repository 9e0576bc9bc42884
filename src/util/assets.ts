/**
 * The one place that says where codectx's own files are: tree-sitter grammars (npm
 * `tree-sitter-wasms`), query files, the `codectx-code` model, the web page's files, worker
 * scripts and the page's graph library (npm `@viz-js/viz`). Every module that reads one of
 * them asks `assetUrl` (a file of this repository) or `packageFileUrl` (a file of an npm
 * package), so a clone and a compiled binary find the same files:
 *
 * - **clone** (`deno run cli.ts`, `deno install -g … cli.ts`, `mod.ts` imported by path): the
 *   root is the repository folder, two levels above this module; npm packages are in its
 *   `node_modules/` (`nodeModulesDir: "auto"`), or in Deno's npm cache when another project
 *   imports `mod.ts` (then the module resolver finds them).
 * - **compiled** (`deno task compile` → `dist/codectx`): `deno compile` puts every module and
 *   every `--include`d file in an embedded file system whose root is
 *   `$TMPDIR/deno-compile-<binary name>/` (named after `Deno.execPath()`), laid out as in the
 *   repository; Deno's file APIs read from it. npm package files are there under
 *   `node_modules/.deno/<name>@<version>/node_modules/<name>/`, the paths the compile task
 *   includes (the `node_modules/<name>` links may be absent).
 *
 * `compiledLayout` builds the second layout from an executable path, so a test can lay out a
 * folder as `deno compile` would and resolve every asset in it without building a binary.
 *
 * @module
 */

import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";

/** Where codectx's files are: the folder that holds `cli.ts`, `src/` and `model/`. */
export interface AssetLayout {
  /** `clone` for a source tree, `compiled` for a `deno compile` binary. */
  readonly kind: "clone" | "compiled";
  /** The root folder, as a directory URL (ends in `/`). */
  readonly root: URL;
}

/** This module's place: `src/util/assets.ts` below the root. */
const ROOT_FROM_HERE = "../../";

/**
 * The layout of a compiled binary at `execPath`: the embedded file system's root,
 * `<tempDir>/deno-compile-<binary name>/`.
 *
 * @example
 * ```ts
 * compiledLayout("/usr/local/bin/codectx", "/tmp").root.href;
 * // "file:///tmp/deno-compile-codectx/"
 * ```
 */
export function compiledLayout(execPath: string, tempDir: string = tmpdir()): AssetLayout {
  const root = pathToFileURL(`${tempDir.replace(/\/+$/, "")}/deno-compile-${basename(execPath)}/`);
  return { kind: "compiled", root };
}

/**
 * The layout this process runs in. A compiled binary's modules live in its embedded file
 * system, so both layouts find the root next to this module; `kind` tells them apart.
 */
export function currentLayout(): AssetLayout {
  return {
    kind: Deno.build.standalone ? "compiled" : "clone",
    root: new URL(ROOT_FROM_HERE, import.meta.url),
  };
}

let current: AssetLayout | undefined;

/**
 * The URL of one of codectx's files, given by its path from the repository root
 * (`src/parse/queries/python.scm`, `model/codectx-code/`, `src/index/worker.ts`). A path that
 * ends in `/` gives a folder.
 *
 * @example
 * ```ts
 * const url = assetUrl("src/parse/queries/python.scm");
 * await Deno.readTextFile(url);
 * ```
 */
export function assetUrl(path: string, layout?: AssetLayout): URL {
  if (path.startsWith("/") || path.split("/").includes("..")) {
    throw new Error(`asset path '${path}' must be relative to the codectx folder, without '..'`);
  }
  return new URL(path, (layout ?? (current ??= currentLayout())).root);
}

function isFile(url: URL): boolean {
  try {
    return Deno.statSync(url).isFile;
  } catch {
    return false;
  }
}

/** `node_modules/.deno/<name>@<version>/node_modules/<name>/` of the root, if there is one. */
function pinnedPackageDir(root: URL, name: string): URL | undefined {
  const store = new URL("node_modules/.deno/", root);
  const prefix = `${name.replace("/", "+")}@`;
  try {
    for (const entry of Deno.readDirSync(store)) {
      if (entry.name.startsWith(prefix)) {
        return new URL(`${entry.name}/node_modules/${name}/`, store);
      }
    }
  } catch {
    // No store: not installed with a node_modules folder.
  }
  return undefined;
}

/** `@scope/name/rest` → [`@scope/name`, `rest`]; `name/rest` → [`name`, `rest`]. */
function splitSpecifier(specifier: string): [string, string] {
  const parts = specifier.split("/");
  const n = specifier.startsWith("@") ? 2 : 1;
  return [parts.slice(0, n).join("/"), parts.slice(n).join("/")];
}

/**
 * The URL of a file of an installed npm package, given as `name/path`
 * (`tree-sitter-wasms/out/tree-sitter-python.wasm`, `@viz-js/viz/dist/viz.js`). Looks in the
 * root's `node_modules/` (the package's link, then Deno's `.deno` store), then lets Node's
 * resolver look further up (a `node_modules/` above the root). Throws with what to run when
 * the package is not installed.
 *
 * @example
 * ```ts
 * const wasm = packageFileUrl("tree-sitter-wasms/out/tree-sitter-python.wasm");
 * ```
 */
export function packageFileUrl(specifier: string, layout?: AssetLayout): URL {
  const [name, rest] = splitSpecifier(specifier);
  if (!rest) throw new Error(`'${specifier}' names no file of the package; add its path`);
  const use = layout ?? (current ??= currentLayout());
  const linked = new URL(`node_modules/${name}/${rest}`, use.root);
  if (isFile(linked)) return linked;
  const pinned = pinnedPackageDir(use.root, name);
  if (pinned && isFile(new URL(rest, pinned))) return new URL(rest, pinned);
  if (use.kind === "compiled") {
    throw new Error(
      `${specifier} is not in this binary; build it with 'deno task compile', which includes it`,
    );
  }
  try {
    return pathToFileURL(createRequire(use.root).resolve(specifier));
  } catch {
    throw new Error(
      `npm package ${name} is not installed; run 'deno install' in the codectx folder (${use.root.pathname})`,
    );
  }
}
