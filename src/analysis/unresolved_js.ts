/**
 * Unresolved names in JavaScript and TypeScript: a relative import naming no project file
 * or a name the file does not export; a `node:` module that does not exist or lacks the
 * imported name; a bare package that no manifest declares; a member a known module lacks
 * (`fs.readFileSynk`). Node's module exports are read from Deno's own implementation.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import { cLikeString } from "./literals.ts";
import { NODE_MODULES } from "./names/javascript.ts";
import { type Binding, type Context, report } from "./unresolved_context.ts";

/** What a specifier may omit, tried in this order. */
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

/**
 * Reads an `import` statement or a `require(…)` call: binds its names in `ctx` and
 * reports a module or imported name that exists nowhere.
 */
export async function jsImport(node: Node, ctx: Context): Promise<void> {
  let specNode: Node | null;
  if (node.type === "import_statement") specNode = node.childForFieldName("source");
  else specNode = node.childForFieldName("arguments")?.namedChild(0) ?? null;
  const spec = cLikeString(specNode?.text ?? "") ?? "";
  if (!spec || !specNode) return;
  const bindings = importBindings(node);
  for (const b of bindings) ctx.imported.set(b.local, { module: spec, member: b.member });

  if (spec.startsWith(".") || spec.startsWith("/")) {
    const file = jsResolve(spec, ctx);
    if (!file) {
      report(
        ctx,
        specNode,
        spec,
        "import",
        [...ctx.view.files].map((f) => f.split("/").pop()!.replace(/\.\w+$/, "")),
      );
      return;
    }
    const names = ctx.view.topLevelNames(file);
    // `export * from "./x"` re-exports names not listed here: say nothing.
    if (!names || names.has("*")) return;
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

/**
 * Checks `head.member` (`node`), where `head` is a whole module bound by an import: the
 * module, when its exports are known (a project file, a Node module), must export it.
 */
export async function jsMember(
  node: Node,
  ctx: Context,
  binding: Binding,
  head: string,
  member: string,
): Promise<void> {
  if (binding.member) return;
  const spec = binding.module;
  let names: ReadonlySet<string> | null | undefined = null;
  if (spec.startsWith(".") || spec.startsWith("/")) {
    const file = jsResolve(spec, ctx);
    names = file ? ctx.view.topLevelNames(file) : null;
  } else {
    const bare = spec.startsWith("node:") ? spec.slice(5) : spec;
    if (NODE_MODULES.has(bare)) names = await nodeExports(bare);
  }
  if (names && !names.has(member) && !names.has("*")) {
    report(ctx, node, `${head}.${member}`, "member", names);
  }
}

/** The local names an import binds: default, namespace, named (with aliases), `const x = require(…)`. */
function importBindings(node: Node): Array<{ local: string; member: string; node: Node }> {
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
  return bindings;
}

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
