/**
 * Unresolved names in Python: an imported module that is neither the project's, the
 * standard library's nor a declared dependency's (`import reqeusts`); a name imported
 * from a module that does not define it (`from os import pathx`); an attribute a known
 * module lacks (`os.path.joinpath`).
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import PYTHON from "./names/python.json" with { type: "json" };
import { PYTHON_PLATFORM_NAMES } from "./names/python_platform.ts";
import { type Binding, type Context, report } from "./unresolved_context.ts";

/** Python's builtin names. */
export const PY_BUILTINS: ReadonlySet<string> = new Set(PYTHON.builtins);
const PY_MODULES: ReadonlySet<string> = new Set(PYTHON.modules);
const PY_MEMBERS: Readonly<Record<string, string[]>> = PYTHON.members;
const PY_SUBMODULES: Readonly<Record<string, string[]>> = PYTHON.submodules;
/**
 * Modules outside the standard library that type checkers know with no install: typeshed
 * ships `typing_extensions` among the standard library's stubs, and typed code imports it
 * (often under `if TYPE_CHECKING:`) without declaring it. Its names are not listed.
 */
const TYPESHED_STDLIB: ReadonlySet<string> = new Set(["typing_extensions"]);

/**
 * Reads an `import` or `from … import` statement: binds its names in `ctx` and reports a
 * module or imported name that exists nowhere.
 */
export function pythonImport(node: Node, ctx: Context): void {
  const names: Array<{ name: string; alias: string | null; node: Node }> = [];
  for (const n of node.childrenForFieldName("name")) {
    if (!n) continue;
    if (n.type === "aliased_import") {
      const nameNode = n.childForFieldName("name")!;
      names.push({
        name: nameNode.text,
        alias: n.childForFieldName("alias")?.text ?? null,
        node: n,
      });
    } else names.push({ name: n.text, alias: null, node: n });
  }
  if (node.type === "import_statement") {
    for (const { name, alias, node: n } of names) {
      const top = name.split(".")[0];
      ctx.imported.set(alias ?? top, { module: alias ? name : top, member: "" });
      if (name.split(".").some((p) => p.startsWith("_"))) continue;
      if (!pythonModuleExists(name, ctx)) {
        report(ctx, n, name, "import", pythonModuleCandidates(ctx));
      }
    }
    return;
  }
  const moduleNode = node.childForFieldName("module_name");
  let module = moduleNode?.text ?? "";
  if (node.namedChildren.some((c) => c?.type === "wildcard_import")) ctx.starImport = true;
  if (moduleNode?.type === "relative_import") {
    // `from .globals import x` is checked as the project module it names.
    const absolute = relativeModule(module, ctx);
    if (absolute === null) {
      report(ctx, moduleNode, module, "import", siblingModules(ctx));
      return;
    }
    if (absolute !== undefined) module = absolute;
  }
  for (const { name, alias } of names) ctx.imported.set(alias ?? name, { module, member: name });
  // A private library module's names are not listed: say nothing (a project's are known).
  const isPrivate = module.split(".").some((p) => p.startsWith("_")) &&
    !ctx.view.pythonModules.has(module);
  if (!moduleNode || module.startsWith(".") || module === "__future__" || isPrivate) return;
  if (!pythonModuleExists(module, ctx)) {
    report(ctx, moduleNode, module, "import", pythonModuleCandidates(ctx));
    return;
  }
  // `from m import x`: x must be in m (when m's names are known) or a submodule.
  for (const { name, node: n } of names) {
    if (name === "*" || name.startsWith("_")) continue;
    const known = pythonModuleNames(module, ctx);
    const sub = `${module}.${name}`;
    if (!known || known.has(name) || ctx.view.pythonModules.has(sub) || isStdlibSubmodule(sub)) {
      continue;
    }
    report(ctx, n, `${module}.${name}`, "import", known);
  }
}

/**
 * The dotted project module a relative import names from the snippet's folder
 * (`from ..utils import x` in `pkg/sub/a.py` → `pkg.utils`); `null` when no project file
 * is that module; `undefined` when it cannot be told (no file path, above the root, a
 * folder without `__init__.py`).
 */
function relativeModule(written: string, ctx: Context): string | null | undefined {
  if (!ctx.dir) return undefined;
  const dots = written.length - written.replace(/^\.+/, "").length;
  const dir = ctx.dir.split("/");
  if (dots - 1 > dir.length) return undefined;
  const base = dir.slice(0, dir.length - (dots - 1));
  const rest = written.slice(dots).split(".").filter(Boolean);
  const path = [...base, ...rest].join("/");
  const files = ctx.view.files;
  if (rest.length === 0) return files.has(`${path}/__init__.py`) ? base.join(".") : undefined;
  if ([".py", ".pyi", "/__init__.py", "/__init__.pyi"].some((e) => files.has(path + e))) {
    return [...base, ...rest].join(".");
  }
  // A folder of modules without `__init__.py` (a namespace package) is still a module.
  const prefix = `${path}/`;
  for (const f of files) if (f.startsWith(prefix)) return undefined;
  return null;
}

/** Module names next to the snippet's file, for suggestions. */
function siblingModules(ctx: Context): string[] {
  const prefix = ctx.dir ? `${ctx.dir}/` : "";
  const out: string[] = [];
  for (const f of ctx.view.files) {
    if (f.startsWith(prefix) && f.endsWith(".py")) out.push(f.slice(prefix.length, -3));
  }
  return out;
}

/**
 * Checks `head.rest…` (`node`), where `head` is bound to `binding` by an import: walks
 * down the modules whose names are known and reports the first part that is missing.
 */
export function pythonMember(node: Node, ctx: Context, binding: Binding, rest: string[]): void {
  const base = binding.member ? `${binding.module}.${binding.member}` : binding.module;
  // Walk down known modules: os → os.path → join.
  let module = base;
  for (const part of rest) {
    const names = pythonModuleNames(module, ctx);
    // Private names are not in the lists: say nothing about them.
    if (!names || part.startsWith("_")) return;
    if (!names.has(part)) {
      report(ctx, node, `${module}.${part}`, "member", names);
      return;
    }
    // Go on only into a module whose names are known; an attribute ends the check.
    const next = `${module}.${part}`;
    if (!PY_MEMBERS[next] && !ctx.view.pythonModules.has(next)) return;
    module = next;
  }
}

function pythonModuleExists(dotted: string, ctx: Context): boolean {
  const top = dotted.split(".")[0];
  if (ctx.view.pythonModules.has(dotted) || TYPESHED_STDLIB.has(dotted)) return true;
  if (PY_MODULES.has(top)) return dotted === top || isStdlibSubmodule(dotted);
  if (ctx.view.dependencies.python.has(top)) return true;
  for (const m of ctx.view.pythonModules.keys()) if (m.split(".")[0] === top) return true;
  return false;
}

/** `os.path`, `xml.etree.ElementTree`: a package's submodule (or `os.path`-like alias). */
function isStdlibSubmodule(dotted: string): boolean {
  if (PY_MEMBERS[dotted]) return true;
  const parent = dotted.slice(0, dotted.lastIndexOf("."));
  const last = dotted.slice(dotted.lastIndexOf(".") + 1);
  return (PY_SUBMODULES[parent] ?? []).includes(last);
}

function pythonModuleCandidates(ctx: Context): string[] {
  return [
    ...PY_MODULES,
    ...ctx.view.dependencies.python,
    ...[...ctx.view.pythonModules.keys()].map((m) => m.split(".")[0]),
  ];
}

/**
 * Names a module defines, when known: a stdlib list, or a project file's symbols and the
 * names its imports bind (a package's `__init__.py` re-exports from its submodules).
 */
function pythonModuleNames(module: string, ctx: Context): ReadonlySet<string> | undefined {
  if (PY_MEMBERS[module]) {
    return new Set([
      ...PY_MEMBERS[module],
      ...(PY_SUBMODULES[module] ?? []),
      ...(PYTHON_PLATFORM_NAMES[module] ?? []),
    ]);
  }
  const path = ctx.view.pythonModules.get(module);
  if (path) {
    const names = new Set(ctx.view.topLevelNames(path) ?? []);
    // `from .core import *` takes in names not listed here: say nothing.
    if (names.has("*")) return undefined;
    // Submodules of a package are importable names too.
    const prefix = path.endsWith("/__init__.py") ? path.slice(0, -"__init__.py".length) : null;
    if (prefix) {
      for (const f of ctx.view.files) {
        if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split(/[/.]/)[0]);
      }
    }
    return names;
  }
  return undefined;
}
