/**
 * What a snippet may refer to in its project: the names the index holds, the project's
 * own modules, and the dependencies its manifests declare (requirements, pyproject,
 * package.json, deno.json, go.mod).
 *
 * @module
 */

import { GRAPH_PART, type StoredPart } from "../facts/codec.ts";
import type { Generation, LoadedIndex, Project } from "../project/project.ts";
import { Memo, slot } from "../util/memo.ts";
import { LANGUAGES } from "../parse/languages.ts";
import type { Store } from "../store/kv.ts";

/** Languages a snippet can be validated in (those with a grammar). */
export const VALIDATABLE: readonly string[] = LANGUAGES.filter((l) => l.grammar).map((l) => l.id);

/** Language families that share names (TypeScript calls JavaScript). */
export function family(language: string): string {
  return language === "typescript" || language === "tsx" ? "javascript" : language;
}

/** The project as name resolution sees it. */
export interface ProjectView {
  /** Symbol names of files of a language family. */
  symbolNames(language: string): ReadonlySet<string>;
  /**
   * Names other modules can import from a file: its top-level symbols and the names its
   * imports bind (`from .utils import echo` in a package's `__init__.py`, `export { x }
   * from "./y"`); `*` among them when it takes in all of another module's names.
   */
  topLevelNames(path: string): ReadonlySet<string> | undefined;
  /** Indexed file paths. */
  files: ReadonlySet<string>;
  /** Python module names the project defines (`pkg.util` for `src/pkg/util.py`) → path. */
  pythonModules: ReadonlyMap<string, string>;
  /**
   * Declared dependencies: Python import names, npm/deno package names (the project's own
   * package names included: a package may import itself by name), Go module paths.
   */
  dependencies: { python: Set<string>; javascript: Set<string>; go: Set<string> };
  /** Go module path of the project (go.mod), or "". */
  goModule: string;
  /**
   * What is built over a project's view (the plain data sent to analysis workers); absent on
   * a view made for one call (the empty view, a worker's copy).
   */
  readonly memo?: Memo<ProjectView>;
}

/** An empty view, for a snippet checked without a project. */
export const EMPTY_VIEW: ProjectView = {
  symbolNames: () => new Set(),
  topLevelNames: () => undefined,
  files: new Set(),
  pythonModules: new Map(),
  dependencies: { python: new Set(), javascript: new Set(), go: new Set() },
  goModule: "",
};

const VIEW = slot<Generation, Promise<ProjectView>>(
  "analysis view",
  ({ project, index }) => build(project.root, index, project.store),
);

/**
 * The view of a project's current index (cached per index generation).
 *
 * @example
 * ```ts
 * const view = await projectView(project);
 * view.dependencies.python.has("requests");
 * ```
 */
export async function projectView(project: Project): Promise<ProjectView> {
  return await (await project.index()).memo.get(VIEW);
}

/** Distribution names whose import name differs. */
const DIST_TO_MODULE: Record<string, string[]> = {
  pyyaml: ["yaml"],
  beautifulsoup4: ["bs4"],
  pillow: ["PIL"],
  "scikit-learn": ["sklearn"],
  "scikit-image": ["skimage"],
  "opencv-python": ["cv2"],
  "opencv-python-headless": ["cv2"],
  protobuf: ["google"],
  pyjwt: ["jwt"],
  "python-dateutil": ["dateutil"],
  "python-dotenv": ["dotenv"],
  "psycopg2-binary": ["psycopg2"],
  "psycopg-binary": ["psycopg"],
  attrs: ["attr", "attrs"],
  pyserial: ["serial"],
  pycryptodome: ["Crypto"],
  pycryptodomex: ["Cryptodome"],
  pymongo: ["pymongo", "bson", "gridfs"],
  "typing-extensions": ["typing_extensions"],
  "google-cloud-storage": ["google"],
  "msgpack-python": ["msgpack"],
  pyzmq: ["zmq"],
  "ruamel.yaml": ["ruamel"],
  setuptools: ["setuptools", "pkg_resources"],
  "python-multipart": ["multipart"],
  "email-validator": ["email_validator"],
};

/** Import names of a Python distribution name. */
export function pythonImportNames(dist: string): string[] {
  const lower = dist.toLowerCase();
  const known = DIST_TO_MODULE[lower] ?? DIST_TO_MODULE[lower.replace(/_/g, "-")];
  const base = lower.replace(/[-.]/g, "_");
  const names = new Set([...(known ?? []), base, base.replace(/^(python|py)_/, "")]);
  if (lower.startsWith("google-")) names.add("google");
  return [...names];
}

async function readText(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

/** Families whose snippets are checked against the names files import. */
const IMPORTING = new Set(["python", "javascript"]);

async function build(root: string, index: LoadedIndex, store: Store): Promise<ProjectView> {
  const byFamily = new Map<string, Set<string>>();
  const topLevel = new Map<string, Set<string>>();
  for (const s of index.symbols) {
    const fam = family(s.language);
    let set = byFamily.get(fam);
    if (!set) byFamily.set(fam, set = new Set());
    set.add(s.name);
    if (s.parent === null) {
      let t = topLevel.get(s.file);
      if (!t) topLevel.set(s.file, t = new Set());
      t.add(s.name);
    }
  }
  // Names bound by imports are importable from the file too (re-exports).
  const importing = [...index.files.values()].filter((f) =>
    !f.skipped && IMPORTING.has(family(f.language))
  );
  const parts = await store.readAllBlobs<StoredPart>(
    GRAPH_PART,
    new Set(importing.map((f) => f.blob)),
  );
  for (const f of importing) {
    const imports = parts.get(f.blob)?.imports ?? [];
    if (imports.length === 0) continue;
    let t = topLevel.get(f.path);
    if (!t) topLevel.set(f.path, t = new Set());
    for (const imp of imports) {
      if (imp.alias) t.add(imp.alias);
      else if (imp.names.length === 0 && f.language === "python") t.add(imp.module.split(".")[0]);
      for (const n of imp.names) t.add(n.alias ?? n.name);
    }
  }
  const files = new Set<string>();
  const pythonModules = new Map<string, string>();
  for (const [path, entry] of index.files) {
    if (entry.skipped) continue;
    files.add(path);
    if (entry.language !== "python") continue;
    const parts = path.replace(/\.pyi?$/, "").split("/");
    if (parts[parts.length - 1] === "__init__") parts.pop();
    for (let i = 0; i < parts.length; i++) {
      const name = parts.slice(i).join(".");
      if (name && !pythonModules.has(name)) pythonModules.set(name, path);
    }
  }
  const deps = { python: new Set<string>(), javascript: new Set<string>(), go: new Set<string>() };
  await readPythonDeps(root, files, deps.python);
  await readJsDeps(root, files, deps.javascript);
  const goModule = await readGoMod(root, deps.go);
  let memo: Memo<ProjectView> | null = null;
  const view: ProjectView = {
    symbolNames: (language) => byFamily.get(family(language)) ?? new Set(),
    topLevelNames: (path) => topLevel.get(path),
    files,
    pythonModules,
    dependencies: deps,
    goModule,
    get memo() {
      return memo ??= new Memo(view);
    },
  };
  return view;
}

const REQUIREMENT = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/;

async function readPythonDeps(root: string, files: Set<string>, out: Set<string>) {
  const add = (dist: string) => {
    for (const n of pythonImportNames(dist)) out.add(n);
  };
  const candidates = ["requirements.txt", "requirements-dev.txt", "dev-requirements.txt"];
  try {
    for await (const e of Deno.readDir(root)) {
      if (e.isFile && /^requirements.*\.(txt|in)$/.test(e.name)) candidates.push(e.name);
    }
    for await (const e of Deno.readDir(`${root}/requirements`)) {
      if (e.isFile && /\.(txt|in)$/.test(e.name)) candidates.push(`requirements/${e.name}`);
    }
  } catch {
    // no such folder
  }
  for (const name of new Set(candidates)) {
    const text = await readText(`${root}/${name}`);
    if (!text) continue;
    for (const line of text.split("\n")) {
      if (/^\s*(#|-)/.test(line)) continue;
      const m = REQUIREMENT.exec(line);
      if (m) add(m[1]);
    }
  }
  const pyproject = await readText(`${root}/pyproject.toml`);
  if (pyproject) {
    // PEP 621 arrays of requirement strings, and Poetry's tables of names.
    for (
      const m of pyproject.matchAll(
        /["']([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:[<>=!~;@ ][^"']*)?["']/g,
      )
    ) {
      add(m[1]);
    }
    const poetry = /\[tool\.poetry\.(?:dev-)?dependencies\]([\s\S]*?)(?:\n\[|$)/g;
    for (const m of pyproject.matchAll(poetry)) {
      for (const line of m[1].split("\n")) {
        const k = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*=/.exec(line);
        if (k) add(k[1]);
      }
    }
  }
  for (const name of ["setup.cfg", "setup.py", "Pipfile"]) {
    const text = await readText(`${root}/${name}`);
    if (!text) continue;
    if (name === "Pipfile") {
      for (const line of text.split("\n")) {
        const k = /^\s*"?([A-Za-z0-9][A-Za-z0-9._-]*)"?\s*=/.exec(line);
        if (k) add(k[1]);
      }
      continue;
    }
    const block = /install_requires\s*=\s*(\[[^\]]*\]|(?:\n[ \t]+.+)+)/.exec(text);
    if (block) {
      for (const m of block[1].matchAll(/["']?\s*([A-Za-z0-9][A-Za-z0-9._-]*)/g)) add(m[1]);
    }
  }
  void files;
}

async function readJsDeps(root: string, files: Set<string>, out: Set<string>) {
  const manifests = [...files].filter((f) =>
    /(^|\/)package\.json$/.test(f) || /(^|\/)deno\.jsonc?$/.test(f)
  );
  for (const f of new Set(["package.json", "deno.json", "deno.jsonc", ...manifests])) {
    const text = await readText(`${root}/${f}`);
    if (!text) continue;
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text.replace(/^\s*\/\/.*$/gm, ""));
    } catch {
      continue;
    }
    if (typeof json.name === "string" && json.name) out.add(json.name);
    for (
      const key of [
        "dependencies",
        "devDependencies",
        "peerDependencies",
        "optionalDependencies",
        "imports",
      ]
    ) {
      const deps = json[key];
      if (deps && typeof deps === "object") {
        for (const name of Object.keys(deps)) out.add(name.replace(/\/$/, ""));
      }
    }
  }
}

async function readGoMod(root: string, out: Set<string>): Promise<string> {
  const text = await readText(`${root}/go.mod`);
  if (!text) return "";
  const module = /^module\s+(\S+)/m.exec(text)?.[1] ?? "";
  for (const m of text.matchAll(/^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]+\/\S+)\s+v\S+/gm)) {
    out.add(m[1]);
  }
  return module;
}
