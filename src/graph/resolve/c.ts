/**
 * C and C++ includes: `#include "x.h"` beside the including file, then in the project's
 * include folders (every `include/`, the root, `src/`), then any project file whose path
 * ends with the written one; `#include <x.h>` in the include folders only. A header that
 * is not in the project is external (the system or a library).
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
} from "./types.ts";

/** The C/C++ resolver. */
export const cResolver: Resolver = {
  languages: ["c", "cpp"],
  scoping: "global",
  linked: true,
  implicitThis: true,
  // `<openssl/ssl.h>` and `"openssl/ssl.h"` name one header.
  importPath: (written) => written.trim().replace(/^<(.*)>$/, "$1"),
  prepare(project) {
    return new CFamily(project);
  },
};

class CFamily implements FamilyResolver {
  private readonly includeDirs: string[];
  private readonly byBase = new Map<string, string[]>();

  constructor(private readonly project: ProjectView) {
    const dirs = new Set<string>(["", "src"]);
    for (const f of project.files()) {
      const lang = project.languageOf(f);
      if (lang !== "c" && lang !== "cpp") continue;
      const m = /^(.*?\binclude)\//.exec(f);
      if (m) dirs.add(m[1]);
      const base = f.slice(f.lastIndexOf("/") + 1);
      const list = this.byBase.get(base) ?? [];
      list.push(f);
      this.byBase.set(base, list);
    }
    this.includeDirs = [...dirs];
  }

  resolve(imp: ImportRecord, from: string): Resolution {
    const raw = imp.module.trim();
    const system = raw.startsWith("<");
    const path = raw.replace(/^[<"]|[>"]$/g, "");
    const candidates = system
      ? this.includeDirs.map((d) => joinPath(d, path))
      : [joinPath(dirOf(from), path), ...this.includeDirs.map((d) => joinPath(d, path))];
    let found = candidates.find((c) => c !== null && this.project.has(c)) ?? null;
    if (!found && !system) {
      const base = path.slice(path.lastIndexOf("/") + 1);
      const tail = path.replace(/^(\.\.?\/)+/, "");
      const hits = (this.byBase.get(base) ?? []).filter((f) =>
        f === tail || f.endsWith("/" + tail)
      );
      if (hits.length === 1) found = hits[0];
    }
    if (!found) return externalResolution(path.split("/")[0], []);
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
