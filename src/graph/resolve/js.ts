/**
 * TypeScript and JavaScript imports: relative paths with or without extensions (and a
 * `.js` written for a `.ts` file), `index` files, `tsconfig.json`/`jsconfig.json`
 * `baseUrl` and `paths` (with `extends`), workspace packages found from their
 * `package.json`, and local entries of a `deno.json` import map. Anything else is an
 * external package (`react`, `@scope/pkg`, `node:fs`, `npm:x`, `jsr:@std/path`, URLs).
 *
 * @module
 */

import type { ImportRecord } from "../../types.ts";
import {
  type Binding,
  dirOf,
  displayNames,
  externalResolution,
  type FamilyResolver,
  fileModule,
  joinPath,
  type ModuleRef,
  OBJECT_DEFAULT,
  type ProjectView,
  type Resolution,
  type Resolver,
  unresolved,
} from "./types.ts";

const EXTENSIONS = [".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"];
const JS_TO_TS: Record<string, string[]> = {
  ".js": [".ts", ".tsx", ".d.ts"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

/** The TS/JS resolver. */
export const jsResolver: Resolver = {
  languages: ["typescript", "tsx", "javascript"],
  scoping: "imports",
  implicitThis: false,
  overrideFamily: "inherit",
  // Node's built-in modules are named with or without `node:` (`node:fs`, `fs`).
  importPath: (written) => written.replace(/^node:/, ""),
  prepare(project) {
    return new JsFamily(project);
  },
};

interface TsConfig {
  dir: string;
  baseUrl: string | null;
  paths: Array<{ pattern: string; targets: string[] }>;
}

interface WorkspacePackage {
  name: string;
  dir: string;
  entries: string[];
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

class JsFamily implements FamilyResolver {
  private readonly configs = new Map<string, TsConfig>();
  private readonly packages: WorkspacePackage[] = [];
  private readonly importMap = new Map<string, string>();
  private readonly configOfDir = new Map<string, TsConfig | null>();
  private readonly defaults = new Map<string, string | null>();

  constructor(private readonly project: ProjectView) {
    for (const f of project.files()) {
      const base = f.slice(f.lastIndexOf("/") + 1);
      if (/^[tj]sconfig(\..+)?\.json$/.test(base) && !this.configs.has(dirOf(f))) {
        const cfg = this.readConfig(f, 0);
        if (cfg && (base === "tsconfig.json" || base === "jsconfig.json")) {
          this.configs.set(dirOf(f), cfg);
        }
      } else if (base === "package.json") {
        const pkg = this.readPackage(f);
        if (pkg) this.packages.push(pkg);
      } else if ((base === "deno.json" || base === "deno.jsonc") && dirOf(f) === "") {
        const json = parseJsonc(project.readText(f));
        const imports = isObject(json) ? json.imports : undefined;
        if (isObject(imports)) {
          for (const [k, v] of Object.entries(imports)) {
            if (typeof v === "string" && /^\.\.?\//.test(v)) this.importMap.set(k, v);
          }
        }
      }
    }
    this.packages.sort((a, b) => b.name.length - a.name.length);
  }

  private readConfig(path: string, depth: number): TsConfig | null {
    const json = parseJsonc(this.project.readText(path));
    if (!isObject(json)) return null;
    const dir = dirOf(path);
    let cfg: TsConfig = { dir, baseUrl: null, paths: [] };
    const ext = json.extends;
    if (typeof ext === "string" && ext.startsWith(".") && depth < 4) {
      const target = joinPath(dir, ext.endsWith(".json") ? ext : `${ext}.json`);
      const parent = target === null ? null : this.readConfig(target, depth + 1);
      if (parent) cfg = { ...parent, dir };
    }
    const opts = json.compilerOptions;
    if (isObject(opts)) {
      if (typeof opts.baseUrl === "string") cfg.baseUrl = joinPath(dir, opts.baseUrl);
      if (isObject(opts.paths)) {
        const base = cfg.baseUrl ?? dir;
        cfg.paths = Object.entries(opts.paths).map(([pattern, targets]) => ({
          pattern,
          targets: Array.isArray(targets)
            ? targets.filter((t): t is string => typeof t === "string").map((t) =>
              joinPath(base, t) ?? t
            )
            : [],
        }));
      }
    }
    return cfg;
  }

  private readPackage(path: string): WorkspacePackage | null {
    const json = parseJsonc(this.project.readText(path));
    if (!isObject(json) || typeof json.name !== "string") return null;
    const entries: string[] = [];
    for (const key of ["source", "types", "typings", "module", "main"]) {
      const v = json[key];
      if (typeof v === "string") entries.push(v);
    }
    collectExports(json.exports, entries);
    return { name: json.name, dir: dirOf(path), entries };
  }

  /** The nearest `tsconfig.json` at or above a folder. */
  private configFor(dir: string): TsConfig | null {
    const hit = this.configOfDir.get(dir);
    if (hit !== undefined) return hit;
    const own = this.configs.get(dir);
    const cfg = own ?? (dir === "" ? null : this.configFor(dirOf(dir)));
    this.configOfDir.set(dir, cfg);
    return cfg;
  }

  /** A file for a path written without (or with a JS) extension, or an `index` file. */
  private file(path: string): string | null {
    const p = this.project;
    if (p.has(path)) return path;
    const dot = path.lastIndexOf(".");
    const ext = dot > path.lastIndexOf("/") ? path.slice(dot) : "";
    for (const alt of JS_TO_TS[ext] ?? []) {
      const candidate = path.slice(0, dot) + alt;
      if (p.has(candidate)) return candidate;
    }
    for (const e of EXTENSIONS) if (p.has(path + e)) return path + e;
    for (const e of EXTENSIONS) if (p.has(`${path}/index${e}`)) return `${path}/index${e}`;
    return null;
  }

  /** Like {@link file}, also accepting a file that exists but is not indexed (`./a.css`). */
  private target(path: string): { file: string; indexed: boolean } | null {
    const f = this.file(path);
    if (f) return { file: f, indexed: true };
    if (path !== "" && this.project.existsOnDisk(path)) return { file: path, indexed: false };
    return null;
  }

  private packageTarget(spec: string): string | null | undefined {
    for (const pkg of this.packages) {
      if (spec !== pkg.name && !spec.startsWith(pkg.name + "/")) continue;
      const sub = spec.slice(pkg.name.length + 1);
      if (sub) {
        return this.file(joinPath(pkg.dir, sub) ?? "") ??
          this.file(joinPath(pkg.dir, "src", sub) ?? "");
      }
      for (const e of pkg.entries) {
        const f = this.file(joinPath(pkg.dir, e) ?? "");
        if (f) return f;
        // A built entry (`dist/index.js`) stands for the source beside it.
        const src = e.replace(/^\.?\/?(dist|lib|build|out)\//, "src/");
        const g = src !== e ? this.file(joinPath(pkg.dir, src) ?? "") : null;
        if (g) return g;
      }
      return this.file(joinPath(pkg.dir, "src/index") ?? "") ??
        this.file(joinPath(pkg.dir, "index") ?? "");
    }
    return undefined;
  }

  resolve(imp: ImportRecord, from: string): Resolution {
    const names = displayNames(imp);
    const spec = imp.module.trim();
    const found = this.locate(spec, from);
    if (found === "external") return externalResolution(packageName(spec), names);
    if (!found) return unresolved(names);
    if (!found.indexed) {
      return {
        resolved: found.file,
        targets: [],
        external: false,
        package: null,
        names,
        bindings: [],
      };
    }
    const module = fileModule(found.file);
    const bindings: Binding[] = [];
    if (imp.alias) bindings.push({ local: imp.alias, kind: "module", module });
    for (const n of imp.names) {
      if (n.name === "*") bindings.push({ local: "*", kind: "wildcard", module });
      else bindings.push({ local: n.alias ?? n.name, kind: "name", module, name: n.name });
    }
    return {
      resolved: found.file,
      targets: [found.file],
      external: false,
      package: null,
      names,
      bindings,
    };
  }

  private locate(
    spec: string,
    from: string,
  ): { file: string; indexed: boolean } | null | "external" {
    if (spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..") {
      const path = joinPath(dirOf(from), spec);
      return path === null ? null : this.target(path);
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(spec)) return "external"; // node:, npm:, jsr:, https:
    for (const [key, value] of this.importMap) {
      if (spec === key || (key.endsWith("/") && spec.startsWith(key))) {
        const path = joinPath(value + spec.slice(key.length));
        const t = path === null ? null : this.target(path);
        if (t) return t;
      }
    }
    const cfg = this.configFor(dirOf(from));
    if (cfg) {
      for (const { pattern, targets } of cfg.paths) {
        const star = pattern.indexOf("*");
        let rest: string | null = null;
        if (star < 0) rest = spec === pattern ? "" : null;
        else {
          const pre = pattern.slice(0, star);
          const post = pattern.slice(star + 1);
          if (
            spec.startsWith(pre) && spec.endsWith(post) && spec.length >= pre.length + post.length
          ) {
            rest = spec.slice(pre.length, spec.length - post.length);
          }
        }
        if (rest === null) continue;
        for (const t of targets) {
          const f = this.file(t.replace("*", rest));
          if (f) return { file: f, indexed: true };
        }
      }
      if (cfg.baseUrl !== null) {
        const f = this.file(joinPath(cfg.baseUrl, spec) ?? "");
        if (f) return { file: f, indexed: true };
      }
    }
    const pkg = this.packageTarget(spec);
    if (pkg) return { file: pkg, indexed: true };
    if (pkg === null) return null; // a workspace package, but no such file in it
    if (spec.startsWith("/")) return null;
    return "external";
  }

  submodule(module: ModuleRef, name: string): ModuleRef | null {
    const f = module.files[0];
    if (!f || !/(^|\/)index\.[cm]?[jt]sx?$/.test(f)) return null;
    const sub = this.file(joinPath(dirOf(f), name) ?? "");
    return sub ? fileModule(sub) : null;
  }

  defaultExport(file: string): string | null {
    const hit = this.defaults.get(file);
    if (hit !== undefined) return hit;
    const text = this.project.readText(file) ?? "";
    const m =
      /^\s*export\s+default\s+(?:abstract\s+)?(?:async\s+)?(?:function\*?|class)?\s*([A-Za-z_$][\w$]*)/m
        .exec(text);
    const name = m && m[1] !== "function" && m[1] !== "class"
      ? m[1]
      : /^\s*export\s+default\s+\{/m.test(text)
      ? OBJECT_DEFAULT
      : null;
    this.defaults.set(file, name);
    return name;
  }
}

/** `@scope/pkg/sub` → `@scope/pkg`; `pkg/sub` → `pkg`; `npm:pkg@1/x` → `pkg`. */
function packageName(spec: string): string {
  let s = spec;
  if (/^(npm|jsr):/.test(s)) {
    s = s.replace(/^(npm|jsr):\/?/, "");
    const parts = s.split("/");
    const n = s.startsWith("@") ? `${parts[0]}/${parts[1] ?? ""}` : parts[0];
    return n.replace(/(?<=.)@[^/]*$/, "");
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(s)) {
    try {
      const url = new URL(s);
      return url.protocol === "node:" ? s.split("/")[0] : url.host || s;
    } catch {
      return s;
    }
  }
  const parts = s.split("/");
  return s.startsWith("@") && parts.length > 1 ? `${parts[0]}/${parts[1]}` : parts[0];
}

function collectExports(exp: Json | undefined, out: string[]): void {
  if (typeof exp === "string") out.push(exp);
  else if (isObject(exp)) {
    const main = exp["."] ?? exp;
    if (typeof main === "string") out.push(main);
    else if (isObject(main)) {
      for (const k of ["source", "types", "import", "default", "require", "node"]) {
        const v = main[k];
        if (typeof v === "string") out.push(v);
        else if (isObject(v)) collectExports(v, out);
      }
    }
  }
}

function isObject(v: Json | undefined): v is { [k: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Parses JSON with comments and trailing commas (`tsconfig.json`); null when invalid. */
export function parseJsonc(text: string | null): Json | undefined {
  if (text === null) return undefined;
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1")) as Json;
  } catch {
    return undefined;
  }
}

function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}
