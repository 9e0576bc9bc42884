/**
 * Unresolved imports in Go: a path that is neither the standard library's, the project's
 * own module's nor (when go.mod declares any) a declared module's.
 *
 * @module
 */

import type { Node } from "npm:web-tree-sitter@0.25.10";
import { cLikeString } from "./literals.ts";
import { GO_STD } from "./names/go.ts";
import { type Context, report } from "./unresolved_context.ts";

/** Reads one import spec: binds its package name in `ctx` and reports an unknown path. */
export function goImport(node: Node, ctx: Context): void {
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
