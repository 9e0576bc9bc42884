/**
 * Go imports: a `go.mod` module path maps import paths to package folders (nested
 * modules too). Without any `go.mod` (a GOPATH tree) an import path whose tail is a
 * package folder of the project resolves to it. Paths without a dot in their first
 * element are the standard library.
 *
 * @module
 */

import type { ImportRecord } from "../../types.ts";
import {
  type Binding,
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

/** The Go resolver. */
export const goResolver: Resolver = {
  languages: ["go"],
  scoping: "package",
  implicitThis: false,
  pathIsPackage: true,
  overrideFamily: "structural",
  prepare(project) {
    return new GoFamily(project);
  },
};

class GoFamily implements FamilyResolver {
  /** `[module path, folder]`, longest module path first. */
  private readonly modules: Array<[string, string]> = [];
  private readonly packages = new Map<string, ModuleRef | null>();

  constructor(private readonly project: ProjectView) {
    const dirs = new Set<string>([""]);
    for (const f of project.files()) {
      if (project.languageOf(f) !== "go") continue;
      for (let d = f; d.includes("/");) {
        d = d.slice(0, d.lastIndexOf("/"));
        if (dirs.has(d)) break;
        dirs.add(d);
      }
    }
    for (const d of dirs) {
      const text = project.readText(d === "" ? "go.mod" : `${d}/go.mod`);
      const m = text ? /^\s*module\s+"?([^\s"]+)"?/m.exec(text) : null;
      if (m) this.modules.push([m[1], d]);
    }
    this.modules.sort((a, b) => b[0].length - a[0].length);
  }

  /** The non-test Go files of a folder, as a package; null when there are none. */
  private packageAt(dir: string): ModuleRef | null {
    const hit = this.packages.get(dir);
    if (hit !== undefined) return hit;
    const files = this.project.filesIn(dir).filter((f) => f.endsWith(".go"));
    const main = files.filter((f) => !f.endsWith("_test.go"));
    const pkg = files.length ? { files: main.length ? main : files, dir } : null;
    this.packages.set(dir, pkg);
    return pkg;
  }

  private locate(path: string): ModuleRef | null | "external" {
    for (const [mod, dir] of this.modules) {
      if (path === mod || path.startsWith(mod + "/")) {
        const sub = joinPath(dir, path.slice(mod.length + 1));
        return sub === null ? null : this.packageAt(sub);
      }
    }
    const segs = path.split("/");
    if (!segs[0].includes(".")) {
      // The standard library, or a GOPATH package of this tree (`myapp/util`).
      return this.modules.length === 0 ? this.packageAt(path) ?? "external" : "external";
    }
    if (this.modules.length === 0) {
      for (let k = 1; k < segs.length; k++) {
        const pkg = this.packageAt(segs.slice(k).join("/"));
        if (pkg) return pkg;
      }
    }
    return "external";
  }

  resolve(imp: ImportRecord, from: string): Resolution {
    void from;
    const names = displayNames(imp);
    const path = imp.module.trim();
    const found = this.locate(path);
    if (found === "external") return externalResolution(externalPackage(path), names);
    if (found === null) return unresolved(names);
    const bindings: Binding[] = [];
    if (imp.names.some((n) => n.name === "*")) {
      bindings.push({ local: "*", kind: "wildcard", module: found });
    } else if (imp.kind !== "_") {
      const declared = found.files.map((f) => this.project.packageOf(f)).find((p) => p);
      const local = imp.alias ?? declared ?? path.split("/").pop()!.replace(/^go-|\.v\d+$/g, "");
      bindings.push({ local, kind: "module", module: found });
    }
    return {
      resolved: found.dir ?? null,
      targets: found.files,
      external: false,
      package: null,
      names,
      bindings,
    };
  }
}

/** `github.com/a/b/c` → `github.com/a/b`; `golang.org/x/net/http2` → `golang.org/x/net`. */
function externalPackage(path: string): string {
  const segs = path.split("/");
  if (!segs[0].includes(".")) return path;
  return segs.slice(0, 3).join("/");
}
