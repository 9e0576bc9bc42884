/**
 * Imports of Swift (`import Module`: a project folder of that name, else a framework),
 * Lua (`require "a.b"`: `a/b.lua` or `a/b/init.lua` under the root, `lua/`, `src/`)
 * and shell scripts (`source ./x.sh`, `. x.sh`: beside the sourcing file, then the root).
 *
 * @module
 */

import type { ImportRecord } from "../../types.ts";
import {
  baseOf,
  dirOf,
  externalResolution,
  type FamilyResolver,
  fileModule,
  joinPath,
  type ModuleRef,
  type ProjectView,
  type Resolution,
  type Resolver,
  unresolved,
} from "./types.ts";

function found(module: ModuleRef, resolved: string): Resolution {
  return {
    resolved,
    targets: module.files,
    external: false,
    package: null,
    names: [],
    bindings: [{ local: "*", kind: "wildcard", module }],
  };
}

/** The Swift resolver. */
export const swiftResolver: Resolver = {
  languages: ["swift"],
  scoping: "global",
  implicitThis: true,
  prepare(project: ProjectView): FamilyResolver {
    const modules = new Map<string, string[]>();
    for (const f of project.files()) {
      if (project.languageOf(f) !== "swift") continue;
      for (let d = dirOf(f); d !== ""; d = dirOf(d)) {
        const list = modules.get(baseOf(d)) ?? [];
        list.push(f);
        modules.set(baseOf(d), list);
      }
    }
    return {
      resolve(imp: ImportRecord): Resolution {
        const name = imp.module.trim().split(".")[0];
        const files = modules.get(name);
        if (!files) return externalResolution(name);
        return found({ files }, dirOf(files[0]));
      },
    };
  },
};

/** The Lua resolver. */
export const luaResolver: Resolver = {
  languages: ["lua"],
  scoping: "global",
  implicitThis: false,
  prepare(project: ProjectView): FamilyResolver {
    return {
      resolve(imp: ImportRecord, from: string): Resolution {
        const spec = imp.module.trim().replace(/^["'[=]+|["'\]=]+$/g, "");
        const rel = spec.replaceAll(".", "/");
        for (const base of ["", "lua", "src", "lib", dirOf(from)]) {
          for (const p of [`${rel}.lua`, `${rel}/init.lua`]) {
            const f = joinPath(base, p);
            if (f !== null && project.has(f)) return found(fileModule(f), f);
          }
        }
        return externalResolution(spec.split(".")[0]);
      },
    };
  },
};

/** The shell resolver. */
export const shellResolver: Resolver = {
  languages: ["bash"],
  scoping: "global",
  implicitThis: false,
  prepare(project: ProjectView): FamilyResolver {
    return {
      resolve(imp: ImportRecord, from: string): Resolution {
        const spec = imp.module.trim().replace(/^["']|["']$/g, "");
        // `"$DIR/x.sh"`, `${BASH_SOURCE%/*}/x.sh`: the variable is the script's folder.
        const path = spec.replace(/^\$\{?[^/]*\}?\//, "./");
        if (path.startsWith("/") || path.startsWith("~")) return externalResolution(spec);
        for (const base of [dirOf(from), ""]) {
          const f = joinPath(base, path);
          if (f !== null && project.has(f)) return found(fileModule(f), f);
        }
        return path.includes("$") ? externalResolution(spec) : unresolved();
      },
    };
  },
};
