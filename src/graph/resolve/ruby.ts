/**
 * Ruby `require_relative` (beside the requiring file), `require`/`load`/`autoload`
 * (the project's `lib/` folders, then the root); anything else is a gem.
 *
 * @module
 */

import type { ImportRecord } from "../../types.ts";
import {
  dirOf,
  externalResolution,
  type FamilyResolver,
  fileModule,
  joinPath,
  type ProjectView,
  type Resolution,
  type Resolver,
  unresolved,
} from "./types.ts";

/** The Ruby resolver. */
export const rubyResolver: Resolver = {
  languages: ["ruby"],
  scoping: "global",
  implicitThis: true,
  prepare(project) {
    return new RubyFamily(project);
  },
};

class RubyFamily implements FamilyResolver {
  private readonly loadPath: string[];

  constructor(private readonly project: ProjectView) {
    const dirs = new Set<string>();
    for (const f of project.files()) {
      const m = /^(.*?\blib)\//.exec(f);
      if (m && project.languageOf(f) === "ruby") dirs.add(m[1]);
    }
    this.loadPath = [...[...dirs].sort((a, b) => a.length - b.length), ""];
  }

  private file(path: string | null): string | null {
    if (path === null) return null;
    for (const p of [path, `${path}.rb`]) if (this.project.has(p)) return p;
    return null;
  }

  resolve(imp: ImportRecord, from: string): Resolution {
    const spec = imp.module.trim();
    let found: string | null = null;
    if (imp.kind === "require_relative") {
      found = this.file(joinPath(dirOf(from), spec));
      if (!found) return unresolved([]);
    } else {
      for (const d of this.loadPath) {
        found = this.file(joinPath(d, spec));
        if (found) break;
      }
      if (!found && imp.kind === "load") found = this.file(joinPath(dirOf(from), spec));
    }
    if (!found) return externalResolution(spec.split("/")[0], []);
    return {
      resolved: found,
      targets: [found],
      external: false,
      package: null,
      names: [],
      bindings: [{ local: "*", kind: "wildcard", module: fileModule(found) }],
    };
  }
}
