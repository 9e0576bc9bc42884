/**
 * Rust imports: `mod x;` declarations (`x.rs` or `x/mod.rs` beside the declaring file,
 * or in its own folder when it is no `mod.rs`), `use` trees with `crate::`, `super::`,
 * `self::`, workspace crates (by their `Cargo.toml` name) and the standard library
 * (`std`, `core`, `alloc`).
 *
 * @module
 */

import type { ImportRecord } from "../../types.ts";
import {
  type Binding,
  dirOf,
  externalResolution,
  type FamilyResolver,
  joinPath,
  type ModuleRef,
  type ProjectView,
  type Resolution,
  type Resolver,
  unresolved,
} from "./types.ts";

const STD = new Set(["std", "core", "alloc", "proc_macro", "test"]);

/** The Rust resolver. */
export const rustResolver: Resolver = {
  languages: ["rust"],
  scoping: "imports",
  implicitThis: false,
  prepare(project) {
    return new RustFamily(project);
  },
};

/** One path of a `use` tree: `a::b::c as d`, `a::b::*`. */
export interface UsePath {
  segments: string[];
  alias: string | null;
  glob: boolean;
}

/**
 * Expands a `use` tree into its paths.
 *
 * @example
 * ```ts
 * expandUse("crate::a::{b, c as d, e::*}").map((p) => p.segments.join("::"));
 * // ["crate::a::b", "crate::a::c", "crate::a::e"]
 * ```
 */
export function expandUse(text: string): UsePath[] {
  const tokens = text.replace(/\s+/g, " ").match(/::|[{},*]|\bas\b|[^\s:{},*]+/g) ?? [];
  let i = 0;
  const out: UsePath[] = [];
  const tree = (prefix: string[]) => {
    const segs = [...prefix];
    while (i < tokens.length) {
      const t = tokens[i];
      if (t === "::") {
        i++;
      } else if (t === "{") {
        i++;
        while (i < tokens.length && tokens[i] !== "}") {
          tree(segs);
          if (tokens[i] === ",") i++;
        }
        i++;
        return;
      } else if (t === "*") {
        i++;
        out.push({ segments: segs, alias: null, glob: true });
        return;
      } else if (t === "," || t === "}") {
        break;
      } else if (t === "as") {
        const alias = tokens[i + 1] ?? null;
        i += 2;
        out.push({ segments: segs, alias, glob: false });
        return;
      } else {
        segs.push(t);
        i++;
      }
    }
    if (segs.length > prefix.length) out.push({ segments: segs, alias: null, glob: false });
  };
  while (i < tokens.length) {
    tree([]);
    if (tokens[i] === "," || tokens[i] === "}") i++;
  }
  return out.map((p) =>
    p.segments[p.segments.length - 1] === "self" && p.segments.length > 1
      ? { ...p, segments: p.segments.slice(0, -1) }
      : p
  );
}

/** The `path`s of a manifest's `[lib]` (kind "lib") or `[[bin]]` (kind "bin") tables. */
function targetPaths(manifest: string, kind: "lib" | "bin"): string[] {
  const header = kind === "lib" ? /^\s*\[lib\]\s*$/ : /^\s*\[\[bin\]\]\s*$/;
  const out: string[] = [];
  let inside = false;
  for (const line of manifest.split("\n")) {
    if (/^\s*\[/.test(line)) {
      inside = header.test(line);
      continue;
    }
    const m = inside ? /^\s*path\s*=\s*"([^"]+)"/.exec(line) : null;
    if (m) out.push(m[1]);
  }
  return out;
}

class RustFamily implements FamilyResolver {
  /** Crate name → root file. */
  private readonly crates = new Map<string, string>();
  /** Crate root files, longest folder first. */
  private readonly roots: string[] = [];

  constructor(private readonly project: ProjectView) {
    for (const f of project.files()) {
      if (/(^|\/)(lib|main)\.rs$/.test(f)) {
        const dir = dirOf(f);
        if (
          dir === "src" || dir.endsWith("/src") || project.has(joinPath(dir, "Cargo.toml") ?? "")
        ) {
          this.roots.push(f);
        }
      }
      if (f === "Cargo.toml" || f.endsWith("/Cargo.toml")) {
        const manifest = project.readText(f) ?? "";
        const name = /^\s*\[package\][^[]*?^\s*name\s*=\s*"([^"]+)"/m.exec(manifest);
        const dir = dirOf(f);
        // `[lib]` and `[[bin]]` may set their root file (`path = "crates/core/main.rs"`).
        const lib = targetPaths(manifest, "lib").map((p) => joinPath(dir, p)!);
        const bins = targetPaths(manifest, "bin").map((p) => joinPath(dir, p)!);
        for (const r of [...lib, ...bins]) {
          if (project.has(r) && !this.roots.includes(r)) this.roots.push(r);
        }
        const root = [
          ...lib,
          ...["src/lib.rs", "src/main.rs", "lib.rs"].map((r) => joinPath(dir, r)!),
          ...bins,
        ].find((r) => project.has(r));
        if (name && root) this.crates.set(name[1].replaceAll("-", "_"), root);
      }
    }
    // lib.rs before main.rs in the same folder; deeper folders first.
    this.roots.sort((a, b) => dirOf(b).length - dirOf(a).length || (a.endsWith("lib.rs") ? -1 : 1));
  }

  /** The folder that holds the children of a module file. */
  private childDir(file: string): string {
    return /(^|\/)(mod|lib|main)\.rs$/.test(file) ? dirOf(file) : file.slice(0, -3);
  }

  private moduleOf(file: string): ModuleRef {
    return { files: [file], dir: this.childDir(file) };
  }

  private crateRootOf(file: string): string | null {
    for (const r of this.roots) {
      const d = dirOf(r);
      if (d === "" || file === r || file.startsWith(d + "/")) return r;
    }
    return null;
  }

  submodule(module: ModuleRef, name: string): ModuleRef | null {
    if (module.dir === undefined) return null;
    for (const p of [`${name}.rs`, `${name}/mod.rs`]) {
      const f = joinPath(module.dir, p);
      if (f !== null && this.project.has(f)) return this.moduleOf(f);
    }
    return null;
  }

  private parentOf(file: string): ModuleRef | null {
    const root = this.crateRootOf(file);
    if (root === file) return null;
    const container = /(^|\/)mod\.rs$/.test(file) ? dirOf(dirOf(file)) : dirOf(file);
    if (root && container === dirOf(root)) return this.moduleOf(root);
    for (const p of [`${container}.rs`, `${container}/mod.rs`]) {
      if (this.project.has(p)) return this.moduleOf(p);
    }
    return root ? this.moduleOf(root) : null;
  }

  pathHead(head: string, from: string): ModuleRef | null {
    if (head === "crate") {
      const root = this.crateRootOf(from);
      return root ? this.moduleOf(root) : null;
    }
    if (head === "self") return this.moduleOf(from);
    if (head === "super") return this.parentOf(from);
    const krate = this.crates.get(head);
    return krate ? this.moduleOf(krate) : null;
  }

  resolve(imp: ImportRecord, from: string): Resolution {
    const text = imp.module.trim();
    if (imp.kind === "mod") {
      const m = this.submodule(this.moduleOf(from), text);
      if (!m) return unresolved([text]);
      return {
        resolved: m.files[0],
        targets: m.files,
        external: false,
        package: null,
        names: [text],
        bindings: [{ local: text, kind: "module", module: m }],
      };
    }
    const paths = imp.kind === "extern"
      ? [{ segments: [text], alias: imp.alias ?? null, glob: false }]
      : expandUse(text.replace(/^::/, ""));
    const names = paths.map((p) =>
      p.glob ? "*" : (p.alias ? `${p.segments.at(-1)} as ${p.alias}` : p.segments.at(-1) ?? "")
    );
    const targets: string[] = [];
    const bindings: Binding[] = [];
    let resolved: string | null = null;
    let external: string | null = null;
    let missing = false;
    const inline = this.inlineDepth(from, imp.line);
    for (const p of paths) {
      const r = this.walk(p, from, inline);
      if (r === "external") {
        external ??= p.segments[0] === "" ? text : (STD.has(p.segments[0]) ? "std" : p.segments[0]);
        continue;
      }
      if (!r) {
        missing = true;
        continue;
      }
      const { module, rest } = r;
      resolved ??= module.files[0] ?? null;
      for (const f of module.files) if (!targets.includes(f)) targets.push(f);
      const last = p.segments[p.segments.length - 1];
      if (p.glob) bindings.push({ local: "*", kind: "wildcard", module });
      else if (rest.length === 0) bindings.push({ local: p.alias ?? last, kind: "module", module });
      else if (rest.length === 1) {
        bindings.push({ local: p.alias ?? last, kind: "name", module, name: rest[0] });
      } else {
        bindings.push({
          local: p.alias ?? last,
          kind: "member",
          module,
          owner: rest[rest.length - 2],
          name: last,
        });
      }
    }
    if (resolved === null) {
      if (external !== null && !missing) return externalResolution(external, names);
      return unresolved(names);
    }
    return { resolved, targets, external: false, package: null, names, bindings };
  }

  /**
   * How many inline modules (`mod tests { … }`) of file `from` enclose `line`: a `super`
   * written there climbs them before it leaves the file.
   */
  private inlineDepth(from: string, line: number): number {
    return this.project.symbolsOf(from).filter((s) =>
      s.kind === "module" && s.startLine < line && line <= s.endLine
    ).length;
  }

  /**
   * Follows a path's modules; the segments left over are items of the last module. `inline`
   * inline modules enclose the `use`: as many `super`s stay in the file (an inline module's
   * items are the file's, here).
   */
  private walk(
    p: UsePath,
    from: string,
    inline = 0,
  ): { module: ModuleRef; rest: string[] } | null | "external" {
    const segs = p.segments;
    if (segs.length === 0) return null;
    let i = 0;
    let module: ModuleRef | null;
    const head = segs[0];
    if (head === "crate" || head === "self" || head === "super") {
      let up = inline;
      module = head === "super" && up > 0 ? (up--, this.moduleOf(from)) : this.pathHead(head, from);
      i = 1;
      while (module && segs[i] === "super") {
        if (up > 0) up--;
        else module = this.parentOf(module.files[0]);
        i++;
      }
    } else if (STD.has(head)) {
      return "external";
    } else if (this.crates.has(head)) {
      module = this.pathHead(head, from);
      i = 1;
    } else {
      // 2018 paths may start at a module of the current one, or (2015) of the crate root.
      const here = this.submodule(this.moduleOf(from), head);
      const root = this.crateRootOf(from);
      const top = here ?? (root ? this.submodule(this.moduleOf(root), head) : null);
      if (!top) {
        if (
          root && this.project.symbolsOf(root).some((s) => s.name === head && s.parent === null)
        ) {
          return { module: this.moduleOf(root), rest: segs };
        }
        return "external";
      }
      module = top;
      i = 1;
    }
    if (!module) return null;
    while (i < segs.length) {
      const next = this.submodule(module, segs[i]);
      if (!next) break;
      module = next;
      i++;
    }
    return { module, rest: segs.slice(i) };
  }
}
