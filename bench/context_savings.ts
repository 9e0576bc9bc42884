/**
 * What `get_context` saves, and what `summarize_repo` costs, on a real code base (by
 * default the machine's Python standard library, `site-packages/` excluded).
 *
 * - For 20 functions and methods (chosen by a hash of their names among those with at
 *   least two callees): tokens of `get_context` at 2,000 vs tokens of the whole files that
 *   hold the symbol and its direct callees.
 * - `summarize_repo`: first call on a freshly opened project (index load, reference graph,
 *   ranking, manifests) and the cached call.
 *
 * Usage: `deno run -A bench/context_savings.ts [ROOT] [--index-dir DIR] [--symbols N]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { graphFor } from "../src/context/graph.ts";
import { summarizeRepo } from "../src/context/summary.ts";
import { ENCODING, tokenCounter } from "../src/context/tokens.ts";
import { buildContextWindow } from "../src/context/window.ts";
import { Project } from "../src/project/project.ts";
import type { SymbolRecord } from "../src/types.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: {
    "index-dir": { type: "string" },
    symbols: { type: "string" },
    "max-tokens": { type: "string" },
  },
  allowPositionals: true,
});

async function pythonStdlib(): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

/** FNV-1a: a stable pick that does not favour any name. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const root = positionals[0] ?? await pythonStdlib();
const count = Number(values.symbols ?? 20);
const maxTokens = Number(values["max-tokens"] ?? 2000);
const indexDir = values["index-dir"] as string | undefined;
const opts = { indexDir, exclude: ["site-packages/"] };

// Build (or update) the index first, in its own project, so the timings below start from
// a committed index like a server that was started earlier.
{
  const p = await Project.open(root, opts);
  const t0 = performance.now();
  const r = await p.reindex();
  console.log(
    `index: ${r.files} files, ${r.symbols} symbols, ${r.chunks} chunks (${r.parsed} parsed) in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s`,
  );
  p.close();
}

const project = await Project.open(root, opts);
const t0 = performance.now();
const summary = await summarizeRepo(project);
const cold = performance.now() - t0;
const t1 = performance.now();
await summarizeRepo(project);
const cached = performance.now() - t1;
console.log(
  `summarize_repo: cold ${(cold / 1000).toFixed(2)} s, cached ${cached.toFixed(1)} ms ` +
    `(${summary.files} files, ${summary.keySymbols.length} key symbols, text ${summary.tokens} tokens)`,
);

const index = await project.index();
const graph = await graphFor(project, index);
const counter = await tokenCounter();
const callees = (s: SymbolRecord) => {
  const out = new Set<SymbolRecord>();
  for (const u of graph.usedBy(s)) if (u.kind === "call" && u.to !== s) out.add(u.to);
  return out;
};
const auxiliary = /(^|\/)(tests?|idlelib|lib2to3\/tests)\//;
const picks = index.symbols
  .filter((s) =>
    (s.kind === "function" || s.kind === "method") && !auxiliary.test(s.file) &&
    s.endLine - s.startLine >= 8 && callees(s).size >= 2
  )
  .sort((a, b) => fnv(`${a.file}:${a.qualifiedName}`) - fnv(`${b.file}:${b.qualifiedName}`))
  .slice(0, count);

const fileTokens = new Map<string, number>();
async function tokensOfFile(file: string): Promise<number> {
  let n = fileTokens.get(file);
  if (n === undefined) {
    n = counter.count(await Deno.readTextFile(`${project.root}/${file}`));
    fileTokens.set(file, n);
  }
  return n;
}

console.log(
  `\n| symbol | file | files | whole files (tokens) | get_context (tokens) | ratio | ms |`,
);
console.log(`|---|---|---|---|---|---|---|`);
const ratios: number[] = [];
let sumFiles = 0;
let sumContext = 0;
for (const s of picks) {
  const files = new Set([s.file, ...[...callees(s)].map((c) => c.file)]);
  let whole = 0;
  for (const f of files) whole += await tokensOfFile(f);
  const t = performance.now();
  const w = await buildContextWindow(project, {
    symbolName: s.qualifiedName,
    filePath: s.file,
    maxTokens,
  });
  const ms = performance.now() - t;
  const ratio = whole / w.tokens;
  ratios.push(ratio);
  sumFiles += whole;
  sumContext += w.tokens;
  console.log(
    `| ${s.qualifiedName} | ${s.file}:${s.line} | ${files.size} | ${whole} | ${w.tokens} | ${
      ratio.toFixed(1)
    }× | ${ms.toFixed(0)} |`,
  );
}
ratios.sort((a, b) => a - b);
const median = ratios.length ? ratios[Math.floor(ratios.length / 2)] : 0;
console.log(
  `\n${picks.length} symbols (${ENCODING}): whole files ${sumFiles} tokens, get_context at ${maxTokens} ` +
    `${sumContext} tokens; overall ${(sumFiles / Math.max(1, sumContext)).toFixed(1)}× fewer, ` +
    `median ${median.toFixed(1)}×, min ${ratios[0]?.toFixed(1)}×, max ${
      ratios[ratios.length - 1]?.toFixed(1)
    }×`,
);
project.close();
