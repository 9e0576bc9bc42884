/**
 * PHP `use` (class names through composer `autoload` PSR-4 and PSR-0 prefixes, then
 * through the namespaces files declare) and `require`/`include` of a path beside the
 * including file. Classes of namespaces the project does not declare are external.
 *
 * @module
 */

import type { ImportRecord } from "../../types.ts";
import { parseJsonc } from "./js.ts";
import {
  type Binding,
  dirOf,
  displayNames,
  externalResolution,
  type FamilyResolver,
  fileModule,
  joinPath,
  type ProjectView,
  type Resolution,
  type Resolver,
  unresolved,
} from "./types.ts";

/** The PHP resolver. */
export const phpResolver: Resolver = {
  languages: ["php"],
  scoping: "global",
  implicitThis: false,
  prepare(project) {
    return new PhpFamily(project);
  },
};

class PhpFamily implements FamilyResolver {
  /** PSR-4 `[namespace prefix, folder]`, longest prefix first. */
  private readonly psr4: Array<[string, string]> = [];
  private readonly psr0: string[] = [];
  /** Fully qualified class name → file, from namespace declarations. */
  private readonly classes = new Map<string, string>();
  private readonly namespaces = new Set<string>();

  constructor(private readonly project: ProjectView) {
    for (const f of project.files()) {
      if (f === "composer.json" || f.endsWith("/composer.json")) this.readComposer(f);
      if (project.languageOf(f) !== "php") continue;
      const ns = project.packageOf(f) ?? "";
      if (ns) this.namespaces.add(ns);
      for (const s of project.symbolsOf(f)) {
        if (s.kind === "namespace" || s.kind === "method" || s.kind === "constant") continue;
        const fq = ns ? `${ns}\\${s.name}` : s.name;
        if (!this.classes.has(fq)) this.classes.set(fq, f);
      }
    }
    this.psr4.sort((a, b) => b[0].length - a[0].length);
  }

  private readComposer(path: string): void {
    const json = parseJsonc(this.project.readText(path));
    if (typeof json !== "object" || json === null || Array.isArray(json)) return;
    const dir = dirOf(path);
    for (const key of ["autoload", "autoload-dev"]) {
      const auto = json[key];
      if (typeof auto !== "object" || auto === null || Array.isArray(auto)) continue;
      for (const [kind, map] of Object.entries(auto)) {
        if (typeof map !== "object" || map === null || Array.isArray(map)) continue;
        for (const [prefix, dirs] of Object.entries(map)) {
          for (const d of Array.isArray(dirs) ? dirs : [dirs]) {
            if (typeof d !== "string") continue;
            const folder = joinPath(dir, d) ?? dir;
            if (kind === "psr-4") this.psr4.push([prefix.replace(/\\+$/, ""), folder]);
            else if (kind === "psr-0") this.psr0.push(folder);
          }
        }
      }
    }
  }

  private classFile(fq: string): string | null {
    const name = fq.replace(/^\\/, "");
    for (const [prefix, folder] of this.psr4) {
      if (prefix !== "" && name !== prefix && !name.startsWith(prefix + "\\")) continue;
      const rest = prefix === "" ? name : name.slice(prefix.length + 1);
      const f = joinPath(folder, rest.replaceAll("\\", "/") + ".php");
      if (f !== null && this.project.has(f)) return f;
    }
    for (const folder of this.psr0) {
      const f = joinPath(folder, name.replaceAll("\\", "/").replaceAll("_", "/") + ".php");
      if (f !== null && this.project.has(f)) return f;
    }
    return this.classes.get(name) ?? null;
  }

  resolve(imp: ImportRecord, from: string): Resolution {
    const spec = imp.module.trim();
    const listed = displayNames(imp);
    const last = spec.slice(spec.lastIndexOf("\\") + 1);
    const names = listed.length ? listed : [imp.alias ? `${last} as ${imp.alias}` : last];
    if (/\.(php|phtml|inc)$/i.test(spec) || spec.includes("/")) {
      const local = joinPath(dirOf(from), spec.replace(/^\//, "")) ?? "";
      const found = [local, joinPath(spec) ?? ""].find((p) => p && this.project.has(p));
      if (!found) return unresolved([]);
      return {
        resolved: found,
        targets: [found],
        external: false,
        package: null,
        names: [],
        bindings: [{ local: "*", kind: "wildcard", module: fileModule(found) }],
      };
    }
    const bindings: Binding[] = [];
    const targets: string[] = [];
    const entries = imp.names.length > 0
      ? imp.names.map((n) => ({ fq: `${spec}\\${n.name}`, local: n.alias ?? n.name }))
      : [{ fq: spec, local: imp.alias ?? spec.slice(spec.lastIndexOf("\\") + 1) }];
    for (const e of entries) {
      const file = this.classFile(e.fq);
      if (!file) continue;
      if (!targets.includes(file)) targets.push(file);
      const name = e.fq.slice(e.fq.lastIndexOf("\\") + 1);
      bindings.push({ local: e.local, kind: "name", module: fileModule(file), name });
    }
    if (targets.length > 0) {
      return { resolved: targets[0], targets, external: false, package: null, names, bindings };
    }
    const ns = spec.includes("\\") ? spec.slice(0, spec.lastIndexOf("\\")) : spec;
    if (this.namespaces.has(ns) || this.namespaces.has(spec)) return unresolved(names);
    return externalResolution(spec.split("\\").slice(0, 2).join("\\"), names);
  }
}
