/**
 * `find_references` and incoming calls against the TypeScript compiler as the oracle.
 *
 * On a real TypeScript code base that codectx was not written against (the `rxjs@7` npm
 * tarball's `src/`, fetched into `--cache` when `--ts` is not given), 40 exported
 * symbols are picked evenly from the compiler's list of exports (functions, classes,
 * constants, interfaces, type aliases). For each one the `typescript` package's
 * LanguageService `findReferences` gives the reference locations (those inside comments
 * are left out: codectx counts code only) and its call hierarchy gives the incoming calls;
 * codectx answers the same through its index. Printed: precision and recall of reference
 * locations (`file:line:column`) and of incoming calls (`file:line` of each call),
 * micro-averaged over the symbols, with the worst symbols listed.
 *
 * Run: `deno run -A bench/refs_vs_tsc.ts [--ts DIR] [--symbols 40] [--verbose]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import ts from "npm:typescript@5.9.3";
import { callGraph } from "../src/graph/calls.ts";
import { loadGraph } from "../src/graph/graph.ts";
import { findSymbols } from "../src/graph/lookup.ts";
import { referencesOf } from "../src/graph/references.ts";
import { Project } from "../src/project/project.ts";

const { values } = parseArgs({
  options: {
    ts: { type: "string" },
    cache: { type: "string" },
    symbols: { type: "string", default: "40" },
    verbose: { type: "boolean" },
  },
});
const cache = values.cache ?? `${Deno.env.get("TMPDIR") ?? "/tmp"}/codectx-bench`;

async function corpus(): Promise<string> {
  if (values.ts) return await Deno.realPath(values.ts);
  const dir = `${cache}/rxjs`;
  if (!(await Deno.stat(`${dir}/package/src`).then(() => true, () => false))) {
    await Deno.mkdir(dir, { recursive: true });
    const out = await new Deno.Command("sh", {
      args: ["-c", "npm pack rxjs@7.8.2 --silent && tar xzf rxjs-7.8.2.tgz"],
      cwd: dir,
    }).output();
    if (!out.success) throw new Error("npm pack rxjs@7.8.2 failed");
  }
  return await Deno.realPath(`${dir}/package/src`);
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of Deno.readDirSync(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory && e.name !== "node_modules") walk(p, out);
    else if (e.isFile && /\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

const root = await corpus();
const files = walk(root).sort();
const texts = new Map(files.map((f) => [f, Deno.readTextFileSync(f)]));
const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  skipLibCheck: true,
  lib: ["lib.es2020.d.ts", "lib.dom.d.ts"],
};
const host: ts.LanguageServiceHost = {
  getScriptFileNames: () => files,
  getScriptVersion: () => "1",
  getScriptSnapshot: (f) => {
    const t = texts.get(f) ?? ts.sys.readFile(f);
    return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: (f) => texts.has(f) || ts.sys.fileExists(f),
  readFile: (f) => texts.get(f) ?? ts.sys.readFile(f),
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const ls = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = ls.getProgram()!;
const checker = program.getTypeChecker();
const rel = (f: string) => f.slice(root.length + 1);

/** Comment ranges of a file, for leaving out references the compiler finds in JSDoc. */
const commentCache = new Map<string, Array<[number, number]>>();
function inComment(file: string, pos: number): boolean {
  let ranges = commentCache.get(file);
  if (!ranges) {
    ranges = [];
    const scanner = ts.createScanner(
      ts.ScriptTarget.Latest,
      false,
      ts.LanguageVariant.Standard,
      texts.get(file),
    );
    for (let k = scanner.scan(); k !== ts.SyntaxKind.EndOfFileToken; k = scanner.scan()) {
      if (
        k === ts.SyntaxKind.SingleLineCommentTrivia || k === ts.SyntaxKind.MultiLineCommentTrivia
      ) {
        ranges.push([scanner.getTokenStart(), scanner.getTokenEnd()]);
      }
    }
    commentCache.set(file, ranges);
  }
  return ranges.some(([a, b]) => pos >= a && pos < b);
}

function lineCol(file: string, pos: number): [number, number] {
  const sf = program.getSourceFile(file)!;
  const lc = sf.getLineAndCharacterOfPosition(pos);
  return [lc.line + 1, lc.character + 1];
}

// The candidates: exports declared in their own file, by kind.
interface Candidate {
  file: string;
  name: string;
  kind: string;
  pos: number;
}
const KINDS: Array<[ts.SymbolFlags, string]> = [
  [ts.SymbolFlags.Function, "function"],
  [ts.SymbolFlags.Class, "class"],
  [ts.SymbolFlags.Interface, "interface"],
  [ts.SymbolFlags.TypeAlias, "type"],
  [ts.SymbolFlags.BlockScopedVariable, "const"],
];
const candidates: Candidate[] = [];
for (const file of files) {
  const sf = program.getSourceFile(file);
  if (!sf || file.endsWith(".d.ts")) continue;
  const moduleSymbol = checker.getSymbolAtLocation(sf);
  if (!moduleSymbol) continue;
  for (const sym of checker.getExportsOfModule(moduleSymbol)) {
    const decl = sym.declarations?.find((d) => d.getSourceFile() === sf);
    const kind = KINDS.find(([flag]) => sym.flags & flag)?.[1];
    if (!decl || !kind || sym.name === "default") continue;
    const nameNode = (decl as ts.NamedDeclaration).name;
    if (!nameNode || !ts.isIdentifier(nameNode)) continue;
    candidates.push({ file, name: sym.name, kind, pos: nameNode.getStart(sf) });
  }
}
const want = Number(values.symbols);
const picked = Array.from(
  { length: Math.min(want, candidates.length) },
  (_, i) => candidates[Math.floor((i * candidates.length) / Math.min(want, candidates.length))],
);

// codectx: index the same tree.
const indexDir = await Deno.makeTempDir({ prefix: "codectx-bench-tsc-" });
const project = await Project.open(root, { indexDir });
await project.reindex();
const graph = await loadGraph(project);

let refTp = 0, refOurs = 0, refOracle = 0;
let callTp = 0, callOurs = 0, callOracle = 0;
const rows: Array<{ name: string; p: number; r: number; missed: string[]; extra: string[] }> = [];
for (const c of picked) {
  // The oracle: reference locations, comments excluded.
  const oracle = new Set<string>();
  for (const group of ls.findReferences(c.file, c.pos) ?? []) {
    for (const ref of group.references) {
      if (!texts.has(ref.fileName) || inComment(ref.fileName, ref.textSpan.start)) continue;
      const [line, col] = lineCol(ref.fileName, ref.textSpan.start);
      oracle.add(`${rel(ref.fileName)}:${line}:${col}`);
    }
  }
  // The oracle: incoming calls (`file:line` of each call).
  const oracleCalls = new Set<string>();
  const items = ls.prepareCallHierarchy(c.file, c.pos);
  for (const item of items ? (Array.isArray(items) ? items : [items]) : []) {
    for (const inc of ls.provideCallHierarchyIncomingCalls(item.file, item.selectionSpan.start)) {
      for (const span of inc.fromSpans) {
        if (!texts.has(inc.from.file)) continue;
        oracleCalls.add(`${rel(inc.from.file)}:${lineCol(inc.from.file, span.start)[0]}`);
      }
    }
  }
  // codectx.
  const defs = findSymbols(graph, c.name, rel(c.file));
  const ours = new Set(referencesOf(graph, defs).map((r) => `${r.file}:${r.line}:${r.column}`));
  const ourCalls = new Set<string>();
  for (const d of defs) {
    for (const e of callGraph(graph, d, 1).edges) {
      if (e.to === d.qualifiedName) ourCalls.add(`${e.file}:${e.line}`);
    }
  }
  const tp = [...ours].filter((x) => oracle.has(x)).length;
  refTp += tp;
  refOurs += ours.size;
  refOracle += oracle.size;
  if (c.kind === "function" || c.kind === "class") {
    callTp += [...ourCalls].filter((x) => oracleCalls.has(x)).length;
    callOurs += ourCalls.size;
    callOracle += oracleCalls.size;
  }
  rows.push({
    name: `${c.kind} ${c.name} (${rel(c.file)})`,
    p: ours.size ? tp / ours.size : 1,
    r: oracle.size ? tp / oracle.size : 1,
    missed: [...oracle].filter((x) => !ours.has(x)),
    extra: [...ours].filter((x) => !oracle.has(x)),
  });
}
project.close();
await Deno.remove(indexDir, { recursive: true }).catch(() => {});

const pct = (a: number, b: number) => (b === 0 ? "n/a" : (a / b).toFixed(3));
console.log(
  `corpus: ${root} (${files.length} .ts files); ${picked.length} exported symbols of ${candidates.length} (${
    KINDS.map(([, k]) => `${k} ${picked.filter((p) => p.kind === k).length}`).join(", ")
  })`,
);
console.log(
  `references: precision ${pct(refTp, refOurs)}, recall ${
    pct(refTp, refOracle)
  } (${refTp} common, ${refOurs} codectx, ${refOracle} tsc)`,
);
console.log(
  `incoming calls: precision ${pct(callTp, callOurs)}, recall ${
    pct(callTp, callOracle)
  } (${callTp} common, ${callOurs} codectx, ${callOracle} tsc)`,
);
rows.sort((a, b) => a.p + a.r - (b.p + b.r));
for (const r of rows.slice(0, values.verbose ? rows.length : 5)) {
  if (r.p === 1 && r.r === 1) continue;
  console.log(`  ${r.name}: precision ${r.p.toFixed(2)}, recall ${r.r.toFixed(2)}`);
  if (values.verbose) {
    for (const m of r.missed.slice(0, 6)) console.log(`      missed ${m}`);
    for (const x of r.extra.slice(0, 6)) console.log(`      extra  ${x}`);
  }
}
