/**
 * The contract between the code graph and the per-language import resolvers.
 *
 * A resolver knows one family's import syntax and module layout (TS/JS paths and
 * `tsconfig.json`, Python packages, `go.mod`, Rust `mod`/`crate::`, Java packages, …).
 * Given one import record and the project's files, it answers where the import leads
 * (project files, or an external package) and which local names it binds. The graph code
 * that uses the answers knows no language.
 *
 * @module
 */

import type { ImportRecord, SymbolRecord } from "../../types.ts";

/** A module: the files that make it up, and its folder when it is one (a package). */
export interface ModuleRef {
  files: string[];
  dir?: string;
}

/** A local name an import binds. */
export type Binding =
  /** `import * as ns`, `import numpy as np`, a Go package: `ns.x` is member `x` of the module. */
  | { local: string; kind: "module"; module: ModuleRef }
  /** `from m import f as g`, `import {f as g}`: `g` is what module `m` calls `f`. */
  | { local: string; kind: "name"; module: ModuleRef; name: string }
  /** Java `import a.b.C`, PHP `use A\B\C`: the top-level type `name` of the module. */
  | { local: string; kind: "member"; module: ModuleRef; owner: string; name: string }
  /** `from m import *`, `export * from`, Go `.` imports, C# `using`: every name of the module. */
  | { local: "*"; kind: "wildcard"; module: ModuleRef };

/** Where one import leads. */
export interface Resolution {
  /** Project-relative file or folder the import names, or null. */
  resolved: string | null;
  /** Every project file the import brings in (a Go package's files, Python submodules). */
  targets: string[];
  /** True when the module is outside the project (a package, the standard library). */
  external: boolean;
  /** The external package's name (`requests`, `@scope/pkg`, `fmt`), or null. */
  package: string | null;
  /** The imported names as the user reads them. */
  names: string[];
  bindings: Binding[];
}

/** How a name that no import binds is looked up after the file's own definitions. */
export type Scoping =
  /** Only through imports (Python, TS/JS, Rust). */
  | "imports"
  /** Also the other files of the same package (Go folder, Java/Kotlin package, C# namespace). */
  | "package"
  /** Any definition of the project (C, C++, Ruby, PHP, Lua, shell, Swift). */
  | "global";

/** What a resolver can ask about the project. */
export interface ProjectView {
  /** Real path of the root. */
  readonly root: string;
  /** Indexed files (project-relative), skipped ones excluded. */
  has(path: string): boolean;
  /** Whether a folder holds indexed files (at any depth); "" is the root. */
  isDir(path: string): boolean;
  /** Indexed files directly in a folder. */
  filesIn(dir: string): readonly string[];
  /** Every indexed file, in path order. */
  files(): readonly string[];
  /** Language id of an indexed file. */
  languageOf(path: string): string | undefined;
  /** The package or namespace a file declares. */
  packageOf(path: string): string | undefined;
  /** The file's symbols, in source order. */
  symbolsOf(path: string): readonly SymbolRecord[];
  /** Text of a file under the root (indexed or not, e.g. `go.mod`), or null; cached. */
  readText(path: string): string | null;
  /** Whether a path exists on disk under the root (files that are not indexed: `.css`). */
  existsOnDisk(path: string): boolean;
}

/** One family's import resolver. */
export interface Resolver {
  /** Language ids it serves. */
  readonly languages: readonly string[];
  readonly scoping: Scoping;
  /**
   * A global name's one definition in the project is what a use of it means, as exact as a
   * scope lookup (C, C++: the linker joins every file's external names); elsewhere that one
   * definition is `inferred` (a Ruby or PHP name may be a library's).
   */
  readonly linked?: boolean;
  /** Members of the enclosing class are in scope without `this.`/`self.` (Java, C++, Ruby). */
  readonly implicitThis: boolean;
  /** The method a call of an instance runs (Python `__call__`), where the language has one. */
  readonly callMethod?: string;
  /**
   * An import path names one package and its longer paths are other packages (Go:
   * `chi/v5/middleware` is not `chi/v5`), where a submodule is part of its module elsewhere
   * (`os.path` of `os`, `zod/v4` of `zod`, `serde::de` of `serde`).
   */
  readonly pathIsPackage?: boolean;
  /**
   * The module an import names, as a user asks for it where the language writes one module two
   * ways (C `<zlib.h>` and `"zlib.h"`, Node `node:fs` and `fs`): `get_dependencies`' `package`
   * matches either form. Absent: as written.
   */
  importPath?(written: string): string;
  /**
   * Which other methods a method's references and callers include, labelled `inferred`:
   * `inherit` — the methods it overrides or that override it, siblings' overrides too
   * (TypeScript's rule: a call of `Base.m` may run `Derived.m`); `structural` — the
   * methods of the same name of the interfaces its type implements (Go: a call of
   * `Flag.Apply` may run `BoolFlag.Apply`). None when absent.
   */
  readonly overrideFamily?: "inherit" | "structural";
  /** Builds whatever the family needs once per project graph; returns the resolve function. */
  prepare(project: ProjectView): FamilyResolver;
}

/** A resolver bound to one project. */
export interface FamilyResolver {
  resolve(imp: ImportRecord, from: string): Resolution;
  /**
   * A submodule of a module, for `pkg.sub` and `from pkg import sub` (Python packages, TS
   * folders), or null.
   */
  submodule?(module: ModuleRef, name: string): ModuleRef | null;
  /** A path head that names a module by position (`crate`, `super`, `self` in Rust). */
  pathHead?(head: string, from: string): ModuleRef | null;
  /**
   * The name a module's default export has in its file (`export default Foo`), or
   * {@link OBJECT_DEFAULT} for an object literal (`export default { get, set }`).
   */
  defaultExport?(file: string): string | null;
  /**
   * Modules whose names file `from` sees without importing them, as if it imported all of
   * them (pytest: the `conftest.py` files of a test's folder and the folders above).
   */
  implicitWildcards?(from: string): ModuleRef[];
}

/**
 * The default export of a module that is an object literal (`export default { getAdapter: …,
 * extend }`): its members are the module's own top-level names, so `adapters.getAdapter()`
 * after `import adapters from "./adapters.js"` is looked up in that module.
 */
export const OBJECT_DEFAULT = "{}";

/** A resolution to nothing in the project. */
export function externalResolution(pkg: string, names: string[] = []): Resolution {
  return { resolved: null, targets: [], external: true, package: pkg, names, bindings: [] };
}

/** A resolution that found nothing, but is not external either (`./missing`). */
export function unresolved(names: string[] = []): Resolution {
  return { resolved: null, targets: [], external: false, package: null, names, bindings: [] };
}

/** The folder of a project-relative path ("" for the root). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** The last segment of a path. */
export function baseOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Joins and normalizes path segments; null when `..` climbs above the root. */
export function joinPath(...parts: string[]): string | null {
  const out: string[] = [];
  for (const part of parts) {
    for (const seg of part.split("/")) {
      if (seg === "" || seg === ".") continue;
      if (seg === "..") {
        if (out.length === 0) return null;
        out.pop();
      } else out.push(seg);
    }
  }
  return out.join("/");
}

/** The names an import record shows, aliases included (`f as g`). */
export function displayNames(imp: ImportRecord): string[] {
  return imp.names.map((n) => (n.alias && n.alias !== n.name ? `${n.name} as ${n.alias}` : n.name));
}

/** A module made of one file. */
export function fileModule(path: string): ModuleRef {
  return { files: [path] };
}
