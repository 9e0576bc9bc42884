/**
 * C# `using` directives: a namespace leads to every project file that declares it (by
 * `namespace`), `using X = A.B.C;` to the type `C` of namespace `A.B`. Namespaces the
 * project does not declare (`System.*`) are external.
 *
 * @module
 */

import type { ImportRecord } from "../../types.ts";
import {
  type Binding,
  dirOf,
  externalResolution,
  type FamilyResolver,
  fileModule,
  type ModuleRef,
  type ProjectView,
  type Resolution,
  type Resolver,
} from "./types.ts";

/** The C# resolver. */
export const csharpResolver: Resolver = {
  languages: ["csharp"],
  scoping: "package",
  implicitThis: true,
  prepare(project) {
    return new CsharpFamily(project);
  },
};

class CsharpFamily implements FamilyResolver {
  private readonly namespaces = new Map<string, string[]>();

  constructor(private readonly project: ProjectView) {
    for (const f of project.files()) {
      if (project.languageOf(f) !== "csharp") continue;
      const ns = project.packageOf(f) ?? "";
      const list = this.namespaces.get(ns) ?? [];
      list.push(f);
      this.namespaces.set(ns, list);
    }
  }

  private namespace(ns: string): ModuleRef | null {
    const files = this.namespaces.get(ns);
    if (!files) return null;
    const dirs = new Set(files.map(dirOf));
    return { files, ...(dirs.size === 1 ? { dir: [...dirs][0] } : {}) };
  }

  resolve(imp: ImportRecord, from: string): Resolution {
    void from;
    const path = imp.module.trim().replace(/^global::/, "");
    const names = imp.alias ? [`${imp.alias} = ${path}`] : [];
    const ns = this.namespace(path);
    if (ns) {
      const bindings: Binding[] = [
        imp.alias
          ? { local: imp.alias, kind: "module", module: ns }
          : { local: "*", kind: "wildcard", module: ns },
      ];
      return {
        resolved: ns.dir ?? ns.files[0],
        targets: ns.files,
        external: false,
        package: null,
        names,
        bindings,
      };
    }
    const dot = path.lastIndexOf(".");
    const owner = dot > 0 ? this.namespace(path.slice(0, dot)) : null;
    const type = path.slice(dot + 1);
    const file = owner?.files.find((f) =>
      this.project.symbolsOf(f).some((s) => s.name === type && s.kind !== "method")
    );
    if (file) {
      return {
        resolved: file,
        targets: [file],
        external: false,
        package: null,
        names,
        bindings: [{
          local: imp.alias ?? type,
          kind: "name",
          module: fileModule(file),
          name: type,
        }],
      };
    }
    return externalResolution(path.split(".").slice(0, 2).join("."), names);
  }
}
