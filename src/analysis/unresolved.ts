/**
 * Names a snippet calls or imports that exist nowhere: not in the snippet, not in the
 * project's index, not among the language's builtins and standard library, not in a
 * declared dependency. This is how a hallucinated API shows (`os.path.joinpath`,
 * `import reqeusts`). Each comes with near names from the project and the libraries.
 *
 * Checked for Python, JavaScript/TypeScript and Go; for other languages the builtins are
 * not known well enough to tell a missing name from a library one, and nothing is
 * reported. This module collects the snippet's names (`resolve/<lang>.scm`) and checks
 * free calls and Go package members; each language's imports (and Python's and
 * JavaScript's module members) are read by its own module (`unresolved_python.ts`,
 * `unresolved_js.ts`, `unresolved_go.ts`).
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import type { AnalysisGrammar } from "./grammar.ts";
import { GO_BUILTINS, goStdMembers } from "./names/go.ts";
import { JS_GLOBALS } from "./names/javascript.ts";
import { family, type ProjectView } from "./project_view.ts";
import { editDistance } from "../util/suggest.ts";
import {
  type Binding,
  type Context,
  nearNames,
  report,
  type Unresolved,
} from "./unresolved_context.ts";
import { goImport } from "./unresolved_go.ts";
import { jsImport, jsMember } from "./unresolved_js.ts";
import { PY_BUILTINS, pythonImport, pythonMember } from "./unresolved_python.ts";
import { STOPPABLE, stopPoint } from "./stop_flag.ts";

export type { Unresolved } from "./unresolved_context.ts";

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
  const found = g.resolve.matches(root, STOPPABLE);
  stopPoint();
  for (const m of found) {
    for (const c of m.captures) {
      switch (c.name) {
        case "bind":
          ctx.binds.add(c.node.text);
          break;
        case "bind.all":
          // `const http = require("http")` binds the import, read with the imports.
          if (isRequireBinding(c.node)) break;
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

/** The name of `const x = require("m")`: the import's own binding, not the snippet's. */
function isRequireBinding(n: Node): boolean {
  const decl = n.parent;
  if (decl?.type !== "variable_declarator" || n.type !== "identifier") return false;
  if (decl.childForFieldName("name")?.startIndex !== n.startIndex) return false;
  const value = decl.childForFieldName("value");
  return value?.type === "call_expression" &&
    value.childForFieldName("function")?.text === "require";
}

/**
 * The names a subtree binds: its identifiers, except those of the value it is given (Go's
 * `var t = template.FuncMap{"trim": strings.TrimSpace}` binds `t`, not `strings`).
 */
function identifiers(n: Node): string[] {
  if (n.childCount === 0) return /identifier/.test(n.type) ? [n.text] : [];
  const value = n.childForFieldName("value");
  return n.descendantsOfType([
    "identifier",
    "shorthand_property_identifier_pattern",
    "type_identifier",
    "field_identifier",
  ]).filter((x): x is Node =>
    !!x && !(value && x.startIndex >= value.startIndex && x.endIndex <= value.endIndex)
  ).map((x) => x.text);
}

function builtinsOf(language: string): ReadonlySet<string> {
  const fam = family(language);
  if (fam === "python") return PY_BUILTINS;
  if (fam === "javascript") return JS_GLOBALS;
  if (fam === "go") return GO_BUILTINS;
  return new Set();
}

/** A free call: the name must be bound, imported, a builtin or a project symbol. */
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
  if (fam === "python") pythonMember(node, ctx, binding, rest);
  else if (fam === "javascript") await jsMember(node, ctx, binding, head, rest[0]);
  else if (fam === "go") goMember(node, ctx, binding, rest[0]);
}

/**
 * A member of an imported Go package (`fmt.Sprintf`, `doc.GenMarkdown`), reported only where
 * the answer is certain: an unexported name is never reachable from another package; a
 * project package's members are the package-level names of its folder's files; a standard
 * package's are Go's API list (`names/go.json`), and a name it lacks is reported only when it
 * is one edit from a name it has (a later release may add names, hardly a near-misspelling
 * of an old one). Other packages (dependencies, `C`) are not looked into.
 */
function goMember(node: Node, ctx: Context, binding: Binding, name: string): void {
  const path = binding.module;
  const std = goStdMembers(path);
  const known = std ?? goProjectPackage(ctx, path);
  if (!known || !name) return;
  const exported = /^\p{Lu}/u.test(name);
  if (exported && known.has(name)) return;
  if (exported && std) {
    const lower = name.toLowerCase();
    const near = nearNames(name, std).some((n) =>
      n.toLowerCase() === lower || editDistance(n, name, 1) <= 1
    );
    if (!near) return;
  }
  report(ctx, node, `${path}.${name}`, "member", known);
}

/**
 * The package-level names of the project's Go package at import `path` (a folder of the
 * module go.mod declares), or undefined when the project holds no Go file there.
 */
function goProjectPackage(ctx: Context, path: string): ReadonlySet<string> | undefined {
  const mod = ctx.view.goModule;
  if (!mod || (path !== mod && !path.startsWith(`${mod}/`))) return undefined;
  const dir = path === mod ? "" : path.slice(mod.length + 1);
  const names = new Set<string>();
  let found = false;
  for (const f of ctx.view.files) {
    const slash = f.lastIndexOf("/");
    if ((slash < 0 ? "" : f.slice(0, slash)) !== dir) continue;
    if (!f.endsWith(".go") || f.endsWith("_test.go")) continue;
    found = true;
    for (const n of ctx.view.topLevelNames(f) ?? []) names.add(n);
  }
  return found ? names : undefined;
}
