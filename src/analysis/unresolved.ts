/**
 * Names a snippet calls or imports that exist nowhere: not in the snippet, not in the
 * project's index, not among the language's builtins and standard library, not in a
 * declared dependency. This is how a hallucinated API shows (`os.path.joinpath`,
 * `import reqeusts`). Each comes with near names from the project and the libraries.
 *
 * Checked for Python, JavaScript/TypeScript and Go; for other languages the builtins are
 * not known well enough to tell a missing name from a library one, and nothing is
 * reported.
 *
 * @module
 */

import type { Node } from "web-tree-sitter";
import { editDistance } from "../tools/suggest.ts";
import type { AnalysisGrammar } from "./grammar.ts";
import { cLikeString } from "./literals.ts";
import { GO_BUILTINS, GO_STD } from "./names/go.ts";
import { JS_GLOBALS, NODE_MODULES } from "./names/javascript.ts";
import PYTHON from "./names/python.json" with { type: "json" };
import { PYTHON_PLATFORM_NAMES } from "./names/python_platform.ts";
import { family, type ProjectView } from "./project_view.ts";

/** A name that resolves nowhere. */
export interface Unresolved {
  name: string;
  line: number;
  column: number;
  /** `call` (a function), `member` (a module's attribute), `import` (a module or name). */
  kind: "call" | "member" | "import";
  suggestions: string[];
}

const PY_BUILTINS: ReadonlySet<string> = new Set(PYTHON.builtins);
const PY_MODULES: ReadonlySet<string> = new Set(PYTHON.modules);
const PY_MEMBERS: Readonly<Record<string, string[]>> = PYTHON.members;
const PY_SUBMODULES: Readonly<Record<string, string[]>> = PYTHON.submodules;

/** A module a name is bound to by an import. */
interface Binding {
  /** `python`: dotted module; `javascript`: specifier; `go`: import path. */
  module: string;
  /** The imported name inside the module (`from m import x` → `x`), "" for the module. */
  member: string;
}

interface Context {
  language: string;
  view: ProjectView;
  /** Directory of the snippet's file, project-relative ("" for the root). */
  dir: string;
  binds: Set<string>;
  imported: Map<string, Binding>;
  /** A `from m import *` makes any free name possibly defined. */
  starImport: boolean;
  out: Unresolved[];
}

/**
 * The unresolved names of a parsed snippet.
 *
 * @example
 * ```ts
 * const u = await unresolvedSymbols(g, tree.rootNode, EMPTY_VIEW, "app.py");
 * u.map((x) => x.name); // ["os.path.joinpath"]
 * ```
 */
export async function unresolvedSymbols(
  g: AnalysisGrammar,
  root: Node,
  view: ProjectView,
  filePath?: string,
): Promise<Unresolved[]> {
  if (!g.resolve) return [];
  const ctx: Context = {
    language: g.id,
    view,
    dir: filePath && filePath.includes("/") ? filePath.slice(0, filePath.lastIndexOf("/")) : "",
    binds: new Set(),
    imported: new Map(),
    starImport: false,
    out: [],
  };
  const calls: Node[] = [];
  const members: Node[] = [];
  const imports: Node[] = [];
  for (const m of g.resolve.matches(root)) {
    for (const c of m.captures) {
      switch (c.name) {
        case "bind":
          ctx.binds.add(c.node.text);
          break;
        case "bind.all":
          for (const id of identifiers(c.node)) ctx.binds.add(id);
          break;
        case "call":
          calls.push(c.node);
          break;
        case "member":
          members.push(c.node);
          break;
        case "import":
          imports.push(c.node);
          break;
      }
    }
  }
  const fam = family(g.id);
  for (const node of imports) {
    if (fam === "python") pythonImport(node, ctx);
    else if (fam === "javascript") await jsImport(node, ctx);
    else if (fam === "go") goImport(node, ctx);
  }
  const seen = new Set<string>();
  if (!ctx.starImport) { for (const node of calls) checkCall(node, ctx, seen); }
  for (const node of members) await checkMember(node, ctx, seen);
  ctx.out.sort((a, b) => a.line - b.line || a.column - b.column);
  return ctx.out;
}

function identifiers(n: Node): string[] {
  if (n.childCount === 0) return /identifier/.test(n.type) ? [n.text] : [];
  return n.descendantsOfType([
    "identifier",
    "shorthand_property_identifier_pattern",
    "type_identifier",
    "field_identifier",
  ]).filter((x): x is Node => !!x).map((x) => x.text);
}

function report(
  ctx: Context,
  node: Node,
  name: string,
  kind: Unresolved["kind"],
  candidates: Iterable<string>,
): void {
  ctx.out.push({
    name,
    line: node.startPosition.row + 1,
    column: node.startPosition.column + 1,
    kind,
    suggestions: nearNames(name.split(/[./]/).pop() ?? name, candidates, name),
  });
}

/**
 * Up to three names close to `wanted` (edit distance within a third of its length, or a
 * different case), closest first.
 */
export function nearNames(wanted: string, candidates: Iterable<string>, exclude = ""): string[] {
  const max = Math.max(1, Math.floor(wanted.length / 3));
  const scored: Array<[number, string]> = [];
  const lower = wanted.toLowerCase();
  for (const c of new Set(candidates)) {
    if (c === wanted || c === exclude || !c) continue;
    const d = c.toLowerCase() === lower ? 0.5 : editDistance(wanted, c, max);
    if (d <= max) scored.push([d, c]);
  }
  return scored.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1])).slice(0, 3).map((
    [, c],
  ) => c);
}

// ---------------------------------------------------------------------------- Python

function pythonImport(node: Node, ctx: Context): void {
  const line = node;
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
  const module = moduleNode?.text ?? "";
  if (node.namedChildren.some((c) => c?.type === "wildcard_import")) ctx.starImport = true;
  for (const { name, alias } of names) ctx.imported.set(alias ?? name, { module, member: name });
  if (
    !moduleNode || moduleNode.type === "relative_import" || module === "__future__" ||
    module.split(".").some((p) => p.startsWith("_"))
  ) return;
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
  void line;
}

function pythonModuleExists(dotted: string, ctx: Context): boolean {
  const top = dotted.split(".")[0];
  if (ctx.view.pythonModules.has(dotted)) return true;
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

/** Names defined by a module, when known: a stdlib list, or a project file's symbols. */
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

// ------------------------------------------------------------------------ JavaScript

const JS_EXTENSIONS = [
  "",
  ".ts",
  ".tsx",
  ".js",
  ".jsx",
  ".mjs",
  ".cjs",
  ".mts",
  ".cts",
  ".d.ts",
  "/index.ts",
  "/index.tsx",
  "/index.js",
  "/index.jsx",
  "/mod.ts",
];

function normalizePath(path: string): string | null {
  const out: string[] = [];
  for (const p of path.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") {
      if (!out.length) return null;
      out.pop();
    } else out.push(p);
  }
  return out.join("/");
}

/** The project file a relative specifier names, or null. */
function jsResolve(spec: string, ctx: Context): string | null {
  const base = spec.startsWith("/") ? spec.slice(1) : `${ctx.dir ? ctx.dir + "/" : ""}${spec}`;
  const path = normalizePath(base);
  if (path === null) return null;
  const stem = path.replace(/\.(js|jsx|mjs|cjs)$/, "");
  for (const ext of JS_EXTENSIONS) {
    for (const p of [path + ext, stem + ext]) if (ctx.view.files.has(p)) return p;
  }
  return null;
}

/** The package of a bare specifier: `@scope/name` or `name`. */
function packageOf(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

async function jsImport(node: Node, ctx: Context): Promise<void> {
  let specNode: Node | null;
  if (node.type === "import_statement") specNode = node.childForFieldName("source");
  else specNode = node.childForFieldName("arguments")?.namedChild(0) ?? null;
  const spec = cLikeString(specNode?.text ?? "") ?? "";
  if (!spec || !specNode) return;
  const bindings: Array<{ local: string; member: string; node: Node }> = [];
  if (node.type === "import_statement") {
    const clause = node.namedChildren.find((c) => c?.type === "import_clause");
    for (const part of clause?.namedChildren ?? []) {
      if (!part) continue;
      if (part.type === "identifier") bindings.push({ local: part.text, member: "", node: part });
      else if (part.type === "namespace_import") {
        const id = part.namedChildren.find((c) => c?.type === "identifier");
        if (id) bindings.push({ local: id.text, member: "", node: id });
      } else if (part.type === "named_imports") {
        for (const s of part.namedChildren) {
          if (s?.type !== "import_specifier") continue;
          const name = s.childForFieldName("name")!;
          const alias = s.childForFieldName("alias");
          bindings.push({ local: (alias ?? name).text, member: name.text, node: name });
        }
      }
    }
  } else {
    const decl = node.parent;
    const target = decl?.type === "variable_declarator" ? decl.childForFieldName("name") : null;
    if (target?.type === "identifier") {
      bindings.push({ local: target.text, member: "", node: target });
    }
  }
  for (const b of bindings) ctx.imported.set(b.local, { module: spec, member: b.member });

  if (spec.startsWith(".") || spec.startsWith("/")) {
    const file = jsResolve(spec, ctx);
    if (!file) {
      const wanted = spec.split("/").pop() ?? spec;
      report(
        ctx,
        specNode,
        spec,
        "import",
        [...ctx.view.files].map((f) => f.split("/").pop()!.replace(/\.\w+$/, "")),
      );
      void wanted;
      return;
    }
    const names = ctx.view.topLevelNames(file);
    if (!names) return;
    for (const b of bindings) {
      if (b.member && b.member !== "default" && !names.has(b.member)) {
        report(ctx, b.node, b.member, "import", names);
      }
    }
    return;
  }
  if (/^(npm|jsr|https?|data|file|blob):/.test(spec)) return;
  const bare = spec.startsWith("node:") ? spec.slice(5) : spec;
  if (spec.startsWith("node:") || NODE_MODULES.has(bare)) {
    if (!NODE_MODULES.has(bare)) {
      report(ctx, specNode, spec, "import", [...NODE_MODULES].map((m) => `node:${m}`));
      return;
    }
    const exports = await nodeExports(bare);
    for (const b of bindings) {
      if (b.member && b.member !== "default" && exports && !exports.has(b.member)) {
        report(ctx, b.node, `${bare}.${b.member}`, "import", exports);
      }
    }
    return;
  }
  const deps = ctx.view.dependencies.javascript;
  if (deps.has(spec) || deps.has(packageOf(spec)) || [...deps].some((d) => spec.startsWith(d))) {
    return;
  }
  report(ctx, specNode, packageOf(spec), "import", [...deps, ...NODE_MODULES]);
}

const nodeExportCache = new Map<string, Promise<Set<string> | null>>();

/** Export names of a Node core module, read from Deno's own implementation. */
function nodeExports(module: string): Promise<Set<string> | null> {
  let p = nodeExportCache.get(module);
  if (!p) {
    p = import(`node:${module}`).then(
      (m: Record<string, unknown>) => {
        const names = new Set(Object.keys(m));
        const def = m.default;
        if (def && (typeof def === "object" || typeof def === "function")) {
          for (const k of Object.keys(def)) names.add(k);
        }
        return names;
      },
      () => null,
    );
    nodeExportCache.set(module, p);
  }
  return p;
}

// -------------------------------------------------------------------------------- Go

function goImport(node: Node, ctx: Context): void {
  const pathNode = node.childForFieldName("path");
  const path = cLikeString(pathNode?.text ?? "") ?? "";
  if (!path || !pathNode) return;
  const alias = node.childForFieldName("name")?.text;
  const pkg = alias && alias !== "_" && alias !== "."
    ? alias
    : path.split("/").filter((p) => !/^v\d+$/.test(p)).pop()!;
  ctx.imported.set(pkg, { module: path, member: "" });
  const first = path.split("/")[0];
  if (GO_STD.has(path)) return;
  const mod = ctx.view.goModule;
  if (mod && (path === mod || path.startsWith(mod + "/"))) return;
  if (first.includes(".")) {
    const deps = ctx.view.dependencies.go;
    // Without a go.mod nothing says which modules are declared.
    if (!mod || deps.size === 0 || [...deps].some((d) => path === d || path.startsWith(d + "/"))) {
      return;
    }
    report(ctx, pathNode, path, "import", deps);
    return;
  }
  report(ctx, pathNode, path, "import", GO_STD);
}

// ----------------------------------------------------------------------------- Calls

function builtinsOf(language: string): ReadonlySet<string> {
  const fam = family(language);
  if (fam === "python") return PY_BUILTINS;
  if (fam === "javascript") return JS_GLOBALS;
  if (fam === "go") return GO_BUILTINS;
  return new Set();
}

function checkCall(node: Node, ctx: Context, seen: Set<string>): void {
  const name = node.text;
  if (seen.has(name)) return;
  seen.add(name);
  const builtins = builtinsOf(ctx.language);
  if (ctx.binds.has(name) || builtins.has(name) || ctx.imported.has(name)) return;
  const project = ctx.view.symbolNames(ctx.language);
  if (project.has(name)) return;
  report(ctx, node, name, "call", [...ctx.binds, ...builtins, ...project, ...ctx.imported.keys()]);
}

/** A dotted callee on an imported module: the attribute must exist in the module. */
async function checkMember(node: Node, ctx: Context, seen: Set<string>): Promise<void> {
  const dotted = node.text.replace(/\s+/g, "");
  if (!/^[\w$]+(\.[\w$]+)+$/.test(dotted) || seen.has(dotted)) return;
  seen.add(dotted);
  const [head, ...rest] = dotted.split(".");
  const binding = ctx.imported.get(head);
  // A name the snippet also binds itself (a parameter called `types`) may not be the module.
  if (!binding || ctx.binds.has(head)) return;
  const fam = family(ctx.language);
  if (fam === "python") {
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
    return;
  }
  if (fam === "javascript" && !binding.member) {
    const spec = binding.module;
    let names: ReadonlySet<string> | null | undefined = null;
    if (spec.startsWith(".") || spec.startsWith("/")) {
      const file = jsResolve(spec, ctx);
      names = file ? ctx.view.topLevelNames(file) : null;
    } else {
      const bare = spec.startsWith("node:") ? spec.slice(5) : spec;
      if (NODE_MODULES.has(bare)) names = await nodeExports(bare);
    }
    if (names && !names.has(rest[0])) report(ctx, node, `${head}.${rest[0]}`, "member", names);
  }
}
