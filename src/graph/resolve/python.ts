/**
 * Python imports: absolute (`import a.b`, `from a.b import c`) and relative
 * (`from ..x import y`) imports, packages (`__init__.py`), namespace packages, stub files
 * and `src/` layouts. A module is looked up under the importing file's own source root
 * first (the first folder above it that is no package), then under the project root,
 * `src/` and every other source root of the project — except that a test folder's root
 * (`tests/`) is an import root only for the files inside it, so the standard library's
 * `typing` is not the project's `tests/typing/`. `from . import types` leads to the
 * submodule `types.py` when the package defines no `types` itself.
 *
 * @module
 */

import { isTestFile } from "../../index/test_files.ts";
import type { ImportRecord } from "../../types.ts";
import {
  baseOf,
  type Binding,
  dirOf,
  displayNames,
  externalResolution,
  type FamilyResolver,
  joinPath,
  type ModuleRef,
  type ProjectView,
  type Resolution,
  type Resolver,
  unresolved,
} from "./types.ts";

const INIT = ["__init__.py", "__init__.pyi"];
const SUFFIXES = [".py", ".pyi", ".pyw"];

/** The Python resolver. */
export const pythonResolver: Resolver = {
  languages: ["python"],
  scoping: "imports",
  implicitThis: false,
  callMethod: "__call__",
  prepare(project) {
    return new PythonFamily(project);
  },
};

class PythonFamily implements FamilyResolver {
  /** Source roots, most files first. */
  private readonly roots: string[];
  private readonly rootOfDir = new Map<string, string>();
  private readonly cache = new Map<string, ModuleRef | null>();
  /** {@link absolute}'s answers by source root and dotted name (a project repeats its imports). */
  private readonly found = new Map<string, ModuleRef | null>();
  /** Roots that are test folders (an import root only for their own files). */
  private testRoots: Set<string> | null = null;

  constructor(private readonly project: ProjectView) {
    const counts = new Map<string, number>();
    for (const f of project.files()) {
      if (project.languageOf(f) !== "python") continue;
      const root = this.sourceRoot(dirOf(f));
      counts.set(root, (counts.get(root) ?? 0) + 1);
    }
    const rest = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([r]) => r);
    const first = ["", ...(project.isDir("src") ? ["src"] : [])];
    this.roots = [...first, ...rest.filter((r) => !first.includes(r))];
  }

  /** The first folder at or above `dir` that is not a package. */
  private sourceRoot(dir: string): string {
    const hit = this.rootOfDir.get(dir);
    if (hit !== undefined) return hit;
    const isPackage = dir !== "" && INIT.some((i) => this.project.has(`${dir}/${i}`));
    const root = isPackage ? this.sourceRoot(dirOf(dir)) : dir;
    this.rootOfDir.set(dir, root);
    return root;
  }

  /** The module at a slash path: `a/b.py`, `a/b/__init__.py`, or the folder `a/b`. */
  private moduleAt(path: string): ModuleRef | null {
    const hit = this.cache.get(path);
    if (hit !== undefined) return hit;
    let found: ModuleRef | null = null;
    for (const s of SUFFIXES) {
      if (this.project.has(path + s)) {
        found = { files: [path + s] };
        break;
      }
    }
    if (!found) {
      for (const i of INIT) {
        const p = path === "" ? i : `${path}/${i}`;
        if (this.project.has(p)) {
          found = { files: [p], dir: path };
          break;
        }
      }
    }
    if (!found && path !== "" && this.project.isDir(path)) found = { files: [], dir: path };
    this.cache.set(path, found);
    return found;
  }

  /**
   * pytest: a test file (and a `conftest.py`) sees the fixtures of the `conftest.py` files of
   * its folder and the folders above, nearest first, without importing them.
   */
  implicitWildcards(from: string): ModuleRef[] {
    if (baseOf(from) !== "conftest.py" && !isTestFile(from)) return [];
    const out: ModuleRef[] = [];
    for (let dir = dirOf(from);; dir = dirOf(dir)) {
      const path = dir === "" ? "conftest.py" : `${dir}/conftest.py`;
      if (path !== from && this.project.has(path)) out.push({ files: [path] });
      if (dir === "") return out;
    }
  }

  submodule(module: ModuleRef, name: string): ModuleRef | null {
    if (module.dir === undefined) return null;
    return this.moduleAt(module.dir === "" ? name : `${module.dir}/${name}`);
  }

  /**
   * Finds a dotted module under the roots, the importing file's own root first. A path
   * that goes on past a plain module (`os.path`: `os.py` sets `path` at run time) leads
   * to that module.
   */
  private absolute(dotted: string, from: string): ModuleRef | null {
    const own = this.sourceRoot(dirOf(from));
    const key = `${own}\0${dotted}`;
    let hit = this.found.get(key);
    if (hit === undefined) this.found.set(key, hit = this.lookUp(dotted, own));
    return hit;
  }

  private lookUp(dotted: string, own: string): ModuleRef | null {
    const segs = dotted.split(".");
    this.testRoots ??= new Set(this.roots.filter((r) => r !== "" && isTestFile(`${r}/`)));
    for (const root of [own, ...this.roots.filter((r) => r !== own)]) {
      if (root !== own && this.testRoots.has(root)) continue;
      const at = (n: number) => {
        const rel = segs.slice(0, n).join("/");
        return this.moduleAt(root === "" ? rel : `${root}/${rel}`);
      };
      const m = at(segs.length);
      if (m) return m;
      for (let n = segs.length - 1; n >= 1; n--) {
        const prefix = at(n);
        if (prefix && prefix.dir === undefined) return prefix;
        if (prefix) break;
      }
    }
    return null;
  }

  /** Whether the first segment names a package or module somewhere in the roots. */
  private knownTop(dotted: string, from: string): boolean {
    return this.absolute(dotted.split(".")[0], from) !== null;
  }

  resolve(imp: ImportRecord, from: string): Resolution {
    const names = displayNames(imp);
    const spec = imp.module.trim();
    let module: ModuleRef | null;
    if (spec.startsWith(".")) {
      const dots = /^\.+/.exec(spec)![0].length;
      let base: string | null = dirOf(from);
      for (let i = 1; i < dots && base !== null; i++) base = base === "" ? null : dirOf(base);
      if (base === null) return unresolved(names);
      const rest = spec.slice(dots).replaceAll(".", "/");
      const path = joinPath(base, rest);
      module = path === null ? null : this.moduleAt(path);
      if (!module && path === "") module = { files: [], dir: "" };
      if (!module) return unresolved(names);
    } else {
      module = this.absolute(spec, from);
      if (!module) {
        return this.knownTop(spec, from) ? unresolved(names) : externalResolution(
          spec.split(".")[0],
          names,
        );
      }
    }
    const targets = [...module.files];
    const bindings: Binding[] = [];
    if (imp.names.length === 0) {
      if (imp.alias) bindings.push({ local: imp.alias, kind: "module", module });
      else {
        // `import a.b.c` binds `a`.
        const top = spec.split(".")[0];
        const head = top === spec ? module : this.absolute(top, from);
        if (head) bindings.push({ local: top, kind: "module", module: head });
      }
    }
    // `from pkg import sub, other` names the submodules' file when it imports only those
    // (a name the package defines itself wins).
    const subFiles: string[] = [];
    for (const n of imp.names) {
      if (n.name === "*") {
        bindings.push({ local: "*", kind: "wildcard", module });
        continue;
      }
      bindings.push({ local: n.alias ?? n.name, kind: "name", module, name: n.name });
      const sub = this.submodule(module, n.name);
      if (sub) {
        for (const f of sub.files) if (!targets.includes(f)) targets.push(f);
        const own = module.files.some((f) =>
          this.project.symbolsOf(f).some((x) => x.name === n.name && x.parent === null)
        );
        if (!own && sub.files.length) subFiles.push(sub.files[0]);
      }
    }
    const onlySubmodules = subFiles.length > 0 && subFiles.length === imp.names.length;
    const resolved = (onlySubmodules ? subFiles[0] : null) ?? module.files[0] ?? module.dir ??
      null;
    return { resolved, targets, external: false, package: null, names, bindings };
  }
}
