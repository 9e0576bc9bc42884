/**
 * Java, Kotlin and Scala imports: a qualified name leads to the file that declares the
 * type in that package (found from `package` declarations and top-level types, so a
 * Kotlin file with several classes or a source root other than `src/main/java` works),
 * `a.b.*` to every file of the package, `import static a.b.C.m` to member `m` of `C`.
 * Types of the same package need no import.
 *
 * @module
 */

import { CLASS_LIKE, type ImportRecord } from "../../types.ts";
import {
  baseOf,
  type Binding,
  dirOf,
  displayNames,
  externalResolution,
  type FamilyResolver,
  fileModule,
  type ModuleRef,
  type ProjectView,
  type Resolution,
  type Resolver,
  unresolved,
} from "./types.ts";

/** The Java/Kotlin/Scala resolver. */
export const jvmResolver: Resolver = {
  languages: ["java", "kotlin", "scala"],
  scoping: "package",
  implicitThis: true,
  prepare(project) {
    return new JvmFamily(project);
  },
};

class JvmFamily implements FamilyResolver {
  /** Qualified type name → file. */
  private readonly types = new Map<string, string>();
  /** Package → files. */
  private readonly packages = new Map<string, string[]>();

  constructor(project: ProjectView) {
    for (const f of project.files()) {
      const lang = project.languageOf(f);
      if (lang !== "java" && lang !== "kotlin" && lang !== "scala") continue;
      const pkg = project.packageOf(f) ?? "";
      const list = this.packages.get(pkg) ?? [];
      list.push(f);
      this.packages.set(pkg, list);
      const prefix = pkg ? `${pkg}.` : "";
      const stem = baseOf(f).replace(/\.[^.]+$/, "");
      if (!this.types.has(prefix + stem)) this.types.set(prefix + stem, f);
      for (const s of project.symbolsOf(f)) {
        if (s.parent === null && CLASS_LIKE.has(s.kind) && !this.types.has(prefix + s.name)) {
          this.types.set(prefix + s.name, f);
        }
      }
    }
  }

  private packageModule(pkg: string): ModuleRef | null {
    const files = this.packages.get(pkg);
    return files ? { files, dir: dirOf(files[0]) } : null;
  }

  resolve(imp: ImportRecord, from: string): Resolution {
    void from;
    const path = imp.module.trim().replace(/\.\*$/, "").replace(/`/g, "");
    const listedNames = displayNames(imp);
    const last = path.slice(path.lastIndexOf(".") + 1);
    const names = listedNames.length ? listedNames : [imp.alias ? `${last} as ${imp.alias}` : last];
    const wildcard = imp.names.some((n) => n.name === "*");
    const listed = imp.names.filter((n) => n.name !== "*");
    const bindings: Binding[] = [];
    const targets: string[] = [];
    let resolved: string | null = null;
    const add = (file: string) => {
      resolved ??= file;
      if (!targets.includes(file)) targets.push(file);
    };

    if (listed.length > 0) {
      // Scala selectors: `import a.b.{C, D => E}`.
      for (const n of listed) {
        const file = this.types.get(`${path}.${n.name}`);
        if (!file) continue;
        add(file);
        bindings.push({
          local: n.alias ?? n.name,
          kind: "name",
          module: fileModule(file),
          name: n.name,
        });
      }
    } else if (wildcard) {
      const pkg = this.packageModule(path);
      const type = this.types.get(path);
      if (pkg) {
        resolved = pkg.dir ?? null;
        targets.push(...pkg.files);
        bindings.push({ local: "*", kind: "wildcard", module: pkg });
      } else if (type) {
        add(type);
        const owner = path.split(".").pop()!;
        bindings.push({ local: "*", kind: "wildcard", module: { files: [type], dir: owner } });
      }
    } else {
      const segs = path.split(".");
      const last = segs[segs.length - 1];
      // `a.b.C`, then `a.b.C.m` (a member or a nested type), `a.b.C.D.m`.
      for (let k = segs.length; k >= 1; k--) {
        const file = this.types.get(segs.slice(0, k).join("."));
        if (!file) continue;
        add(file);
        if (k === segs.length) {
          bindings.push({
            local: imp.alias ?? last,
            kind: "name",
            module: fileModule(file),
            name: last,
          });
        } else {
          bindings.push({
            local: imp.alias ?? last,
            kind: "member",
            module: fileModule(file),
            owner: segs[segs.length - 2],
            name: last,
          });
        }
        break;
      }
    }
    if (resolved !== null) {
      return { resolved, targets, external: false, package: null, names, bindings };
    }
    // A package of this project without that type is a miss, not an external library.
    const segs = path.split(".");
    for (let k = segs.length; k >= 1; k--) {
      if (this.packages.has(segs.slice(0, k).join(".")) && k >= 2) return unresolved(names);
    }
    return externalResolution(segs.slice(0, Math.min(segs.length, 2)).join("."), names);
  }
}
