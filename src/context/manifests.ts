/**
 * Readers of package manifests: dependencies and declared entry points from `package.json`,
 * `deno.json(c)`, `pyproject.toml`, `requirements*.txt`, `go.mod`, `Cargo.toml`, `pom.xml`
 * and `build.gradle(.kts)`. Each reader is a pure function of the file's text; a manifest
 * that does not parse yields nothing rather than failing the summary.
 *
 * @module
 */

import { parse as parseToml } from "npm:smol-toml@1.9.1";

/** One declared dependency. */
export interface Dependency {
  name: string;
  /** Version or constraint as written ("" when none). */
  version: string;
  /** `runtime`, `dev`, `optional`, `peer`, `build`, `test` or `indirect`. */
  scope: string;
  /** Path of the manifest (project-relative). */
  manifest: string;
}

/** An entry point a manifest declares. */
export interface DeclaredEntry {
  /** A project-relative file when the manifest names one, else the manifest. */
  file: string;
  kind: string;
}

/** What one manifest says. */
export interface ManifestInfo {
  /** The package or module name, when declared. */
  name?: string;
  dependencies: Dependency[];
  entries: DeclaredEntry[];
}

/** Manifest file names this module reads (a `requirements*.txt` matches by pattern). */
export const MANIFEST_NAMES = [
  "package.json",
  "deno.json",
  "deno.jsonc",
  "pyproject.toml",
  "requirements.txt",
  "go.mod",
  "Cargo.toml",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
];

/** Is `basename` a manifest this module reads? */
export function isManifest(basename: string): boolean {
  return MANIFEST_NAMES.includes(basename) || /^requirements([-_.][\w.-]+)?\.txt$/.test(basename);
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return v && typeof v === "object" && !Array.isArray(v) ? v as Json : {};
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function join(dir: string, rel: string): string {
  const clean = rel.replace(/^\.\//, "");
  return dir ? `${dir}/${clean}` : clean;
}

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** Removes `//` and `/* *\/` comments and trailing commas outside strings (JSONC). */
export function stripJsonc(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += ch;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

function readPackageJson(text: string, path: string): ManifestInfo {
  const j = obj(JSON.parse(text));
  const dir = dirOf(path);
  const deps: Dependency[] = [];
  const scopes: Array<[string, string]> = [
    ["dependencies", "runtime"],
    ["devDependencies", "dev"],
    ["peerDependencies", "peer"],
    ["optionalDependencies", "optional"],
  ];
  for (const [field, scope] of scopes) {
    for (const [name, v] of Object.entries(obj(j[field]))) {
      deps.push({ name, version: str(v), scope, manifest: path });
    }
  }
  const entries: DeclaredEntry[] = [];
  if (typeof j.bin === "string") entries.push({ file: join(dir, j.bin), kind: "package.json bin" });
  for (const [cmd, file] of Object.entries(obj(j.bin))) {
    if (typeof file === "string") {
      entries.push({ file: join(dir, file), kind: `package.json bin '${cmd}'` });
    }
  }
  if (typeof j.main === "string") {
    entries.push({ file: join(dir, j.main), kind: "package.json main" });
  }
  if (typeof j.module === "string") {
    entries.push({ file: join(dir, j.module), kind: "package.json module" });
  }
  if (typeof j.exports === "string") {
    entries.push({ file: join(dir, j.exports), kind: "package.json exports" });
  }
  return { name: str(j.name) || undefined, dependencies: deps, entries };
}

/** `npm:hono@4.12.7` → hono, 4.12.7; `jsr:@std/path@^1` → @std/path, ^1. */
function splitSpecifier(spec: string): { name: string; version: string } | null {
  const m = /^(npm|jsr):\/?(@?[^@\s/]+(?:\/[^@\s/]+)?)(?:@([^/\s]+))?/.exec(spec);
  if (m) return { name: m[2], version: m[3] ?? "" };
  const url = /^https?:\/\/([^/]+\/(?:x\/)?[^@/]+)(?:@([^/]+))?/.exec(spec);
  if (url) return { name: url[1], version: url[2] ?? "" };
  return null;
}

function readDenoJson(text: string, path: string): ManifestInfo {
  const j = obj(JSON.parse(stripJsonc(text)));
  const dir = dirOf(path);
  const deps = new Map<string, Dependency>();
  for (const v of Object.values(obj(j.imports))) {
    const spec = splitSpecifier(str(v));
    if (spec && !deps.has(spec.name)) {
      deps.set(spec.name, { ...spec, scope: "runtime", manifest: path });
    }
  }
  const entries: DeclaredEntry[] = [];
  if (typeof j.exports === "string") {
    entries.push({ file: join(dir, j.exports), kind: "deno.json exports" });
  }
  for (const [key, file] of Object.entries(obj(j.exports))) {
    if (typeof file === "string") {
      entries.push({ file: join(dir, file), kind: `deno.json exports '${key}'` });
    }
  }
  return { name: str(j.name) || undefined, dependencies: [...deps.values()], entries };
}

/** A PEP 508 requirement: `requests[socks]>=2.31; python_version>"3.8"` → requests, >=2.31. */
export function parseRequirement(line: string): { name: string; version: string } | null {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(\([^)]*\)|[^;#@]*)?/.exec(line);
  if (!m) return null;
  const version = (m[3] ?? "").replace(/[()]/g, "").trim();
  return { name: m[1], version };
}

/** A requirements line that installs the project itself (`-e .`, `.[cli]`, `-e file:.`). */
const SELF_INSTALL = /^(-e\s+|--editable\s+)?(file:)?\.\/?(\[[^\]]*\])?$/;

function readRequirements(text: string, path: string): ManifestInfo {
  // A file that installs the project itself pins the environment to develop it in.
  const installsSelf = text.split("\n").some((l) =>
    SELF_INSTALL.test(l.replace(/\s+#.*$/, "").trim())
  );
  const scope = installsSelf || /dev|test|lint|doc/i.test(path.split("/").pop()!)
    ? "dev"
    : "runtime";
  const deps: Dependency[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    if (!line || line.startsWith("#") || line.startsWith("-")) continue;
    const req = parseRequirement(line);
    if (req) deps.push({ ...req, scope, manifest: path });
  }
  return { dependencies: deps, entries: [] };
}

/** `pkg.module:func` → `pkg/module.py` (or the manifest when it is not a file here). */
function pythonTarget(ref: string, dir: string, exists: (p: string) => boolean): string | null {
  const mod = ref.split(":")[0].trim();
  if (!mod) return null;
  const base = mod.replaceAll(".", "/");
  for (
    const cand of [`${base}.py`, `${base}/__init__.py`, `src/${base}.py`, `src/${base}/__init__.py`]
  ) {
    const p = join(dir, cand);
    if (exists(p)) return p;
  }
  return null;
}

function readPyproject(text: string, path: string, exists: (p: string) => boolean): ManifestInfo {
  const t = obj(parseToml(text));
  const dir = dirOf(path);
  const deps: Dependency[] = [];
  const project = obj(t.project);
  const add = (spec: unknown, scope: string) => {
    const req = typeof spec === "string" ? parseRequirement(spec) : null;
    if (req) deps.push({ ...req, scope, manifest: path });
  };
  for (const d of Array.isArray(project.dependencies) ? project.dependencies : []) {
    add(d, "runtime");
  }
  for (const list of Object.values(obj(project["optional-dependencies"]))) {
    for (const d of Array.isArray(list) ? list : []) add(d, "optional");
  }
  for (const list of Object.values(obj(t["dependency-groups"]))) {
    for (const d of Array.isArray(list) ? list : []) add(d, "dev");
  }
  const buildReqs = obj(t["build-system"]).requires;
  for (const d of Array.isArray(buildReqs) ? buildReqs : []) add(d, "build");
  const poetry = obj(obj(t.tool).poetry);
  const poetryTable = (table: unknown, scope: string) => {
    for (const [name, v] of Object.entries(obj(table))) {
      if (name === "python") continue;
      const version = typeof v === "string" ? v : str(obj(v).version);
      deps.push({ name, version, scope, manifest: path });
    }
  };
  poetryTable(poetry.dependencies, "runtime");
  poetryTable(poetry["dev-dependencies"], "dev");
  for (const group of Object.values(obj(poetry.group))) {
    poetryTable(obj(group).dependencies, "dev");
  }
  const entries: DeclaredEntry[] = [];
  const scripts = { ...obj(project.scripts), ...obj(poetry.scripts) };
  for (const [cmd, ref] of Object.entries(scripts)) {
    if (typeof ref !== "string") continue;
    entries.push({
      file: pythonTarget(ref, dir, exists) ?? path,
      kind: `pyproject script '${cmd}' (${ref})`,
    });
  }
  return { name: str(project.name) || str(poetry.name) || undefined, dependencies: deps, entries };
}

function readGoMod(text: string, path: string): ManifestInfo {
  const deps: Dependency[] = [];
  let name: string | undefined;
  let inRequire = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const mod = /^module\s+(\S+)/.exec(line);
    if (mod) name = mod[1];
    if (/^require\s*\($/.test(line)) {
      inRequire = true;
      continue;
    }
    if (inRequire && line === ")") {
      inRequire = false;
      continue;
    }
    const body = inRequire ? line : /^require\s+(.*)$/.exec(line)?.[1];
    if (!body) continue;
    const m = /^(\S+)\s+(\S+)(\s*\/\/\s*indirect)?/.exec(body);
    if (m) {
      deps.push({
        name: m[1],
        version: m[2],
        scope: m[3] ? "indirect" : "runtime",
        manifest: path,
      });
    }
  }
  return { name, dependencies: deps, entries: [] };
}

function readCargo(text: string, path: string, exists: (p: string) => boolean): ManifestInfo {
  const t = obj(parseToml(text));
  const dir = dirOf(path);
  const deps: Dependency[] = [];
  const table = (tab: unknown, scope: string) => {
    for (const [name, v] of Object.entries(obj(tab))) {
      const version = typeof v === "string"
        ? v
        : str(obj(v).version) || (obj(v).path ? `path:${str(obj(v).path)}` : "") ||
          (obj(v).git ? `git:${str(obj(v).git)}` : "");
      deps.push({ name, version, scope, manifest: path });
    }
  };
  table(t.dependencies, "runtime");
  table(t["dev-dependencies"], "dev");
  table(t["build-dependencies"], "build");
  table(obj(t.workspace).dependencies, "runtime");
  for (const target of Object.values(obj(t.target))) {
    table(obj(target).dependencies, "runtime");
    table(obj(target)["dev-dependencies"], "dev");
  }
  const entries: DeclaredEntry[] = [];
  for (const bin of Array.isArray(t.bin) ? t.bin : []) {
    const b = obj(bin);
    const file = str(b.path) ? join(dir, str(b.path)) : join(dir, `src/bin/${str(b.name)}.rs`);
    entries.push({ file: exists(file) ? file : path, kind: `cargo bin '${str(b.name)}'` });
  }
  const main = join(dir, "src/main.rs");
  if (exists(main)) entries.push({ file: main, kind: "cargo main" });
  const lib = join(dir, str(obj(t.lib).path) || "src/lib.rs");
  if (exists(lib)) entries.push({ file: lib, kind: "cargo lib" });
  return { name: str(obj(t.package).name) || undefined, dependencies: deps, entries };
}

function xmlText(block: string, tag: string): string {
  return new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`).exec(block)?.[1] ?? "";
}

function readPom(text: string, path: string): ManifestInfo {
  const noComments = text.replace(/<!--[\s\S]*?-->/g, "");
  const props = new Map<string, string>();
  const propBlock = /<properties>([\s\S]*?)<\/properties>/.exec(noComments)?.[1] ?? "";
  for (const m of propBlock.matchAll(/<([\w.-]+)>\s*([^<]*?)\s*<\/\1>/g)) props.set(m[1], m[2]);
  const project = noComments.replace(/<parent>[\s\S]*?<\/parent>/, "");
  props.set("project.version", xmlText(project.replace(/<dependencies>[\s\S]*/, ""), "version"));
  const resolve = (v: string) => v.replace(/\$\{([^}]+)\}/g, (all, k) => props.get(k) ?? all);
  const deps: Dependency[] = [];
  for (const m of noComments.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
    const group = xmlText(m[1], "groupId");
    const artifact = xmlText(m[1], "artifactId");
    if (!artifact) continue;
    const scope = xmlText(m[1], "scope");
    deps.push({
      name: group ? `${resolve(group)}:${resolve(artifact)}` : resolve(artifact),
      version: resolve(xmlText(m[1], "version")),
      scope: scope === "test" ? "test" : scope === "provided" ? "build" : "runtime",
      manifest: path,
    });
  }
  const group = xmlText(project.replace(/<dependencies>[\s\S]*/, ""), "groupId");
  const artifact = xmlText(project.replace(/<dependencies>[\s\S]*/, ""), "artifactId");
  return {
    name: artifact ? (group ? `${group}:${artifact}` : artifact) : undefined,
    dependencies: deps,
    entries: [],
  };
}

const GRADLE_CONFIGS =
  /^\s*(implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly|testCompileOnly|annotationProcessor|kapt|ksp|compile|testCompile|classpath|developmentOnly)\b\s*\(?\s*(.*)$/;

function readGradle(text: string, path: string): ManifestInfo {
  const deps: Dependency[] = [];
  for (const raw of text.split("\n")) {
    const m = GRADLE_CONFIGS.exec(raw.replace(/\/\/.*$/, ""));
    if (!m) continue;
    const config = m[1];
    const scope = /^test/.test(config)
      ? "test"
      : /compileOnly|annotationProcessor|kapt|ksp|classpath/.test(config)
      ? "build"
      : "runtime";
    const rest = m[2];
    const coord = /["']([^"':\s]+):([^"':\s]+)(?::([^"'\s]+))?["']/.exec(rest);
    if (coord) {
      deps.push({
        name: `${coord[1]}:${coord[2]}`,
        version: coord[3] ?? "",
        scope,
        manifest: path,
      });
      continue;
    }
    const group = /group\s*[:=]\s*["']([^"']+)["']/.exec(rest)?.[1];
    const name = /name\s*[:=]\s*["']([^"']+)["']/.exec(rest)?.[1];
    if (name) {
      const version = /version\s*[:=]\s*["']([^"']+)["']/.exec(rest)?.[1] ?? "";
      deps.push({ name: group ? `${group}:${name}` : name, version, scope, manifest: path });
      continue;
    }
    const project = /project\s*\(\s*["']([^"']+)["']/.exec(rest)?.[1];
    if (project) deps.push({ name: project, version: "project", scope, manifest: path });
  }
  return { dependencies: deps, entries: [] };
}

/**
 * Reads one manifest from its text; `exists` tells whether a project-relative file exists
 * (to point declared entry points at real files). Returns null for a file it does not read
 * or that does not parse.
 *
 * @example
 * ```ts
 * const info = readManifest("go.mod", "module example.com/app\nrequire golang.org/x/net v0.20.0\n", () => false);
 * info?.dependencies[0]; // {name: "golang.org/x/net", version: "v0.20.0", scope: "runtime", manifest: "go.mod"}
 * ```
 */
export function readManifest(
  path: string,
  text: string,
  exists: (p: string) => boolean = () => false,
): ManifestInfo | null {
  const base = path.split("/").pop()!;
  try {
    switch (base) {
      case "package.json":
        return readPackageJson(text, path);
      case "deno.json":
      case "deno.jsonc":
        return readDenoJson(text, path);
      case "pyproject.toml":
        return readPyproject(text, path, exists);
      case "go.mod":
        return readGoMod(text, path);
      case "Cargo.toml":
        return readCargo(text, path, exists);
      case "pom.xml":
        return readPom(text, path);
      case "build.gradle":
      case "build.gradle.kts":
        return readGradle(text, path);
      default:
        return isManifest(base) ? readRequirements(text, path) : null;
    }
  } catch {
    return null;
  }
}
