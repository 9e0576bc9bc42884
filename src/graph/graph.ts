/**
 * The project's code graph, built at load from the per-file graph parts that indexing
 * stored, and cached per index generation: every import resolved by its language's
 * resolver, who imports whom, and an index of every name's occurrences. Parts of files
 * that did not change between generations are reused, not read again.
 *
 * @module
 */

import type { Generation, LoadedIndex, Project } from "../project/project.ts";
import { Memo, slot } from "../util/memo.ts";
import type { Store } from "../store/kv.ts";
import type { ImportRecord, SymbolRecord } from "../types.ts";
import {
  decodeFacts,
  EMPTY_PART,
  GRAPH_PART,
  type GraphPart,
  refCount,
  refNameId,
  type StoredPart,
} from "../facts/codec.ts";
import { resolverFor } from "./resolve/mod.ts";
import type {
  Binding,
  FamilyResolver,
  ModuleRef,
  ProjectView,
  Resolution,
  Resolver,
} from "./resolve/types.ts";
import { dirOf } from "./resolve/types.ts";
import { readProjectFileSync } from "../index/safe_read.ts";
import { eachGraphPart, MANY_PARTS } from "./parts_file.ts";

/** One import with where it leads. */
export interface ResolvedImport extends Resolution {
  /** The record as extracted. */
  record: ImportRecord;
}

/** A file of the graph (its imports, and what they bind, resolved when first asked). */
export interface GraphFile {
  /** Position in {@link CodeGraph.files}. */
  id: number;
  path: string;
  language: string;
  part: GraphPart;
  symbols: readonly SymbolRecord[];
  resolver: Resolver | null;
  readonly imports: ResolvedImport[];
  /** Local names bound by imports (wildcards apart). */
  readonly env: Map<string, Binding[]>;
  readonly wildcards: ModuleRef[];
  /** Local names bound by imports of external modules: never project symbols. */
  readonly externalNames: Set<string>;
  /** Top-level symbols by name (namespaces do not count as a level). */
  top: Map<string, SymbolRecord[]>;
}

/** The code graph of one index generation. */
export interface CodeGraph {
  generation: number;
  root: string;
  files: GraphFile[];
  byPath: Map<string, GraphFile>;
  /** Files whose imports lead to a file (reverse edges; every file's imports resolved). */
  readonly importedBy: Map<string, Set<string>>;
  /** The family resolver of a resolver (prepared when first asked). */
  familyOf(resolver: Resolver): FamilyResolver;
  /** How many files' imports are resolved so far (a file's when first asked). */
  readonly linked: number;
  /** Every symbol with its file, by name (made on first use). */
  readonly symbolsByName: Map<string, SymbolRecord[]>;
  /** The symbols of each file, made when a file is first asked. */
  readonly symbolsByFile: ReadonlyMap<string, readonly SymbolRecord[]>;
  /** The index's look-up of symbols by a field, without making every record. */
  readonly symbolsBy?: LoadedIndex["symbolsBy"];
  /** The symbols named `name`, as {@link symbolsByName} lists them (without making them all). */
  symbolsNamed(name: string): readonly SymbolRecord[];
  /** Occurrences of each name: `file id * 2^22 + reference index`. */
  occurrences(name: string): readonly number[];
  view: ProjectView;
  /** What is built over this graph (name resolver, call index, symbol table, line reader). */
  readonly memo: Memo<CodeGraph>;
}

/** `obj.name = …` at the start of a signature: group 1 is the property's name. */
const PROPERTY_ASSIGNED = /^[\w$]+(?:\.[\w$]+)*\.([\w$]+)\s*=(?!=)/;

/** Bits of an occurrence code that hold the reference index. */
export const OCC_SHIFT = 2 ** 22;

/** A generation's code graph, and the decoded graph parts it carries to the next generation. */
interface Built {
  graph: Promise<CodeGraph>;
  parts: Map<string, GraphPart>;
}

/** The code graph a generation holds (the parts of unchanged files are not decoded again). */
const GRAPH = slot<Generation, Built>("code graph", ({ project, index }, previous) => {
  const parts = previous?.parts ?? new Map<string, GraphPart>();
  return { graph: build(project.root, project.store, index, parts), parts };
});

/**
 * The code graph of a project's current index, built once per index generation.
 *
 * @example
 * ```ts
 * const graph = await loadGraph(project);
 * graph.byPath.get("app/main.py")?.imports.map((i) => i.resolved);
 * ```
 */
export async function loadGraph(project: Project): Promise<CodeGraph> {
  const index = await project.index();
  const built = index.memo.get(GRAPH);
  try {
    return await built.graph;
  } catch (err) {
    index.memo.forget(GRAPH);
    throw err;
  }
}

async function build(
  root: string,
  store: Store,
  index: LoadedIndex,
  parts: Map<string, GraphPart>,
): Promise<CodeGraph> {
  const entries = [...index.files.values()].filter((f) => !f.skipped);
  const wanted = new Set(entries.map((f) => f.blob));
  await fillParts(store, new Set([...wanted].filter((k) => !parts.has(k))), parts);
  for (const k of [...parts.keys()]) if (!wanted.has(k)) parts.delete(k);

  // A file's imports are resolved when first asked (what a name means there, who it
  // imports): a command asks about one name, and resolving every file's imports was the
  // most of a fresh `explain` or `refs` (issue 34). `importedBy` asks them all.
  const families = new Map<Resolver, FamilyResolver>();
  let linked = 0;
  const linkOf = (f: GraphFile): Links => {
    linked++;
    return link(f, familyOf);
  };
  const familyOf = (resolver: Resolver): FamilyResolver => {
    let family = families.get(resolver);
    if (!family) families.set(resolver, family = resolver.prepare(view));
    return family;
  };
  const files: GraphFile[] = entries.map((e, id) => {
    // A file's symbol records and top-level names are made when it is first asked (a
    // command asks a few files; making them for every file was a tenth of a fresh `explain`).
    let symbols: readonly SymbolRecord[] | null = null;
    let top: Map<string, SymbolRecord[]> | null = null;
    let links: Links | null = null;
    const file: GraphFile = {
      id,
      path: e.path,
      language: e.language,
      part: parts.get(e.blob) ?? EMPTY_PART,
      get symbols() {
        return symbols ??= index.symbolsByFile.get(e.path) ?? [];
      },
      resolver: resolverFor(e.language) ?? null,
      get imports() {
        return (links ??= linkOf(file)).imports;
      },
      get env() {
        return (links ??= linkOf(file)).env;
      },
      get wildcards() {
        return (links ??= linkOf(file)).wildcards;
      },
      get externalNames() {
        return (links ??= linkOf(file)).externalNames;
      },
      get top() {
        return top ??= topLevel(this.symbols);
      },
    };
    return file;
  });
  const byPath = new Map(files.map((f) => [f.path, f]));
  const view = projectView(root, files, byPath);

  let importedBy: Map<string, Set<string>> | null = null;
  const importers = () => {
    if (importedBy) return importedBy;
    importedBy = new Map<string, Set<string>>();
    for (const f of files) {
      for (const i of f.imports) {
        for (const t of i.targets) {
          if (t === f.path) continue;
          let set = importedBy.get(t);
          if (!set) importedBy.set(t, set = new Set());
          set.add(f.path);
        }
      }
    }
    return importedBy;
  };

  let byName: Map<string, SymbolRecord[]> | null = null;
  const symbolsByName = () => {
    if (byName) return byName;
    byName = new Map<string, SymbolRecord[]>();
    for (const s of index.symbols) {
      const list = byName.get(s.name);
      if (list) list.push(s);
      else byName.set(s.name, [s]);
    }
    return byName;
  };

  // The first names asked are found by a scan of the files' name tables; the index of every
  // name is built once a process asks for more (a command asks a few: the index was an
  // eighth of a fresh `refs`).
  let occ: Map<string, number[]> | null = null;
  const scanned = new Map<string, number[]>();
  const occurrences = (name: string): readonly number[] => {
    if (occ) return occ.get(name) ?? [];
    const hit = scanned.get(name);
    if (hit) return hit;
    if (scanned.size < SCANNED_NAMES) {
      const list = occurrencesOf(files, name);
      scanned.set(name, list);
      return list;
    }
    scanned.clear();
    occ = occurrenceIndex(files);
    return occ.get(name) ?? [];
  };

  let memo: Memo<CodeGraph> | null = null;
  const graph: CodeGraph = {
    generation: index.generation,
    root,
    files,
    byPath,
    get importedBy() {
      return importers();
    },
    familyOf,
    get linked() {
      return linked;
    },
    get symbolsByName() {
      return symbolsByName();
    },
    symbolsByFile: index.symbolsByFile,
    symbolsBy: index.symbolsBy,
    symbolsNamed: (name) =>
      byName || !index.symbolsBy
        ? symbolsByName().get(name) ?? []
        : index.symbolsBy("name", "exact", exactName, name),
    occurrences,
    view,
    get memo() {
      return memo ??= new Memo(graph);
    },
  };
  return graph;
}

/** What a file's imports resolve to. */
type Links = Pick<GraphFile, "imports" | "env" | "wildcards" | "externalNames">;

/** Resolves the imports of `f` with its family's resolver. */
function link(f: GraphFile, familyOf: (r: Resolver) => FamilyResolver): Links {
  const out: Links = { imports: [], env: new Map(), wildcards: [], externalNames: new Set() };
  if (!f.resolver) return out;
  const family = familyOf(f.resolver);
  out.wildcards.push(...family.implicitWildcards?.(f.path) ?? []);
  for (const record of f.part.imports) {
    let res: Resolution;
    try {
      res = family.resolve(record, f.path);
    } catch {
      res = {
        resolved: null,
        targets: [],
        external: false,
        package: null,
        names: [],
        bindings: [],
      };
    }
    out.imports.push({ ...res, record });
    for (const b of res.bindings) {
      if (b.kind === "wildcard") out.wildcards.push(b.module);
      else {
        const list = out.env.get(b.local) ?? [];
        list.push(b);
        out.env.set(b.local, list);
      }
    }
    if (res.external) { for (const n of boundNames(record, res.names)) out.externalNames.add(n); }
  }
  return out;
}

/**
 * Names an import of an external module makes local (enough to rule them out): the record's,
 * and the resolver's reading of the statement (`fs` of Rust's `use std::fs::{self, ReadDir}`).
 */
function boundNames(record: ImportRecord, resolved: readonly string[]): string[] {
  const out: string[] = [];
  for (const n of resolved) if (n !== "*") out.push(n.split(" as ").at(-1)!);
  if (record.alias) out.push(record.alias);
  for (const n of record.names) if (n.name !== "*") out.push(n.alias ?? n.name);
  if (record.names.length === 0 && !record.alias) {
    const segs = record.module.replace(/^[<"@./]+|[>"]$/g, "").split(/[./:\\]+/).filter(Boolean);
    if (segs.length) out.push(segs[0], segs[segs.length - 1].replace(/\.\w+$/, ""));
  }
  return out;
}

const exactName = (name: string) => name;

/** Names whose occurrences are scanned for before every name's are indexed. */
const SCANNED_NAMES = 32;

/** The occurrences of one name, as {@link occurrenceIndex} lists them. */
function occurrencesOf(files: readonly GraphFile[], name: string): number[] {
  const out: number[] = [];
  for (const f of files) {
    const part = f.part;
    const id = part.nameId(name);
    if (id < 0) continue;
    // The rows of a part from graph.bin are read here, for the files that name it only.
    const rows = { refs: part.refs };
    const n = refCount(rows);
    const base = f.id * OCC_SHIFT;
    for (let i = 0; i < n; i++) if (refNameId(rows, i) === id) out.push(base + i);
  }
  return out;
}

function occurrenceIndex(files: readonly GraphFile[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const f of files) {
    const part = f.part;
    const rows = { refs: part.refs };
    const n = refCount(rows);
    if (n === 0) continue;
    // Per name id of this file, the list it goes to.
    const lists: (number[] | undefined)[] = new Array(part.names.length);
    const base = f.id * OCC_SHIFT;
    for (let i = 0; i < n; i++) {
      const id = refNameId(rows, i);
      let list = lists[id];
      if (!list) {
        const name = part.names[id];
        list = out.get(name);
        if (!list) out.set(name, list = []);
        lists[id] = list;
      }
      list.push(base + i);
    }
  }
  return out;
}

/**
 * Symbols whose enclosing definitions are only namespaces, by name. A function assigned to
 * a property (`res.vary = function`, `View.prototype.resolve = function resolve`) binds no
 * name in the file: a bare `vary` there is something else (`var vary = require("vary")`).
 */
function topLevel(symbols: readonly SymbolRecord[]): Map<string, SymbolRecord[]> {
  const kinds = new Map<string, string>();
  for (const s of symbols) kinds.set(s.qualifiedName, s.kind);
  const out = new Map<string, SymbolRecord[]>();
  for (const s of symbols) {
    if (s.parent === null && PROPERTY_ASSIGNED.exec(s.signature)?.[1] === s.name) continue;
    let p = s.parent;
    while (p !== null && kinds.get(p) === "namespace") {
      const dot = p.lastIndexOf(".");
      p = dot < 0 ? null : p.slice(0, dot);
    }
    if (p !== null) continue;
    const list = out.get(s.name);
    if (list) list.push(s);
    else out.set(s.name, [s]);
  }
  return out;
}

function projectView(
  root: string,
  files: readonly GraphFile[],
  byPath: ReadonlyMap<string, GraphFile>,
): ProjectView {
  const paths = files.map((f) => f.path);
  const dirs = new Set<string>([""]);
  const inDir = new Map<string, string[]>();
  for (const p of paths) {
    const d = dirOf(p);
    const list = inDir.get(d);
    if (list) list.push(p);
    else inDir.set(d, [p]);
    for (let x = d; x !== "" && !dirs.has(x); x = dirOf(x)) dirs.add(x);
  }
  const texts = new Map<string, string | null>();
  return {
    root,
    has: (p) => byPath.has(p),
    isDir: (p) => dirs.has(p),
    filesIn: (d) => inDir.get(d) ?? [],
    files: () => paths,
    languageOf: (p) => byPath.get(p)?.language,
    packageOf: (p) => byPath.get(p)?.part.package,
    symbolsOf: (p) => byPath.get(p)?.symbols ?? [],
    readText(p) {
      let t = texts.get(p);
      if (t === undefined) {
        try {
          t = new TextDecoder().decode(readProjectFileSync(root, p));
        } catch {
          t = null;
        }
        texts.set(p, t);
      }
      return t;
    },
    existsOnDisk(p) {
      try {
        Deno.statSync(`${root}/${p}`);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/**
 * Loads graph parts into `cache`: when many are needed, through `graph.bin` (a process's
 * first build, nothing cached yet, writes the file again when it lacked any or held many
 * others, for the next process); a few one by one from the store.
 */
async function fillParts(store: Store, need: Set<string>, cache: Map<string, GraphPart>) {
  if (need.size === 0) return;
  if (need.size > MANY_PARTS) {
    await eachGraphPart(store, need, cache.size === 0, (k, part) => cache.set(k, part));
    return;
  }
  for (const k of need) {
    const v = await store.readBlob<StoredPart>(GRAPH_PART, k);
    if (v) cache.set(k, decodeFacts(v));
  }
}
