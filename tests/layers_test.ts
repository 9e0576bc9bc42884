/**
 * The layering of the code, checked: every import of `src/`, `cli.ts` and `mod.ts` points
 * down the house that `src/README.md` draws (faces → surfaces → tools → service → context →
 * graph/search/analysis → project → index → parse/store → kernel), faces and surfaces never reach a
 * domain but through the executor, only surfaces know HTTP and MCP, and no two folders
 * import each other, directly or round a cycle. Type-only imports count: a type is an arrow
 * too.
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

/** Each unit of the house and its rank: an import must go to a lower rank. */
const RANK: Record<string, number> = {
  "cli.ts": 10,
  "mod.ts": 9,
  cli: 9,
  bridge: 8,
  web: 8,
  mcp: 8,
  http: 7,
  tools: 6,
  service: 5,
  context: 4,
  graph: 3,
  search: 3,
  analysis: 3,
  // The read model: an open project and its loaded generation (over the index it reads).
  project: 2.5,
  index: 2,
  parse: 1,
  store: 1,
  facts: 0.5,
  kernel: 0,
};

/** Units a face or a surface must not import: they reach them through the executor. */
const DOMAINS = new Set([
  "context",
  "graph",
  "search",
  "analysis",
  "project",
  "index",
  "parse",
  "store",
  "facts",
]);
/** Units that are faces or surfaces. */
const OUTER = new Set(["cli.ts", "mod.ts", "cli", "bridge", "web", "mcp", "http"]);
/** Transport libraries: only surfaces (and faces) may import them. */
const TRANSPORTS = [/^hono(\/|$)/, /^@modelcontextprotocol\//];

/** The unit a repository path belongs to, or null for files outside the house (data). */
function unitOf(path: string): string | null {
  if (path === "cli.ts" || path === "mod.ts") return path;
  const m = /^src\/([^/]+)(\/)?/.exec(path);
  if (!m) return null;
  if (!m[2]) return "kernel"; // src/types.ts, src/errors.ts, src/version.ts
  return m[1] === "util" ? "kernel" : m[1];
}

/** Every .ts/.js file of the house, relative to the repository. */
async function sources(): Promise<string[]> {
  const out = ["cli.ts", "mod.ts"];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${ROOT}/${dir}`)) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(rel);
      else if (/\.(ts|js)$/.test(e.name)) out.push(rel);
    }
  };
  await walk("src");
  return out.sort();
}

/** What a file imports: relative targets as repository paths, bare ones as written. */
function importsOf(
  file: string,
  text: string,
  /** Count a worker module started by `new URL(…, import.meta.url)` as an import. */
  workers = true,
): { local: string[]; bare: string[] } {
  const code = text.replace(/^\s*(\/\/|\*|\/\*).*$/gm, "");
  const specs: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    ...(workers ? [/\bnew URL\(\s*["'](\.[^"']+\.(?:ts|js))["']\s*,\s*import\.meta\.url/g] : []),
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) specs.push(m[1]);
  const local: string[] = [];
  const bare: string[] = [];
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
  for (const spec of specs) {
    if (!spec.startsWith(".")) {
      bare.push(spec.replace(/^npm:\/?/, ""));
      continue;
    }
    const parts = dir ? dir.split("/") : [];
    for (const p of spec.split("/")) {
      if (p === "..") parts.pop();
      else if (p !== ".") parts.push(p);
    }
    local.push(parts.join("/"));
  }
  return { local, bare };
}

/** Folder-level edges with one example import each. */
async function graph(): Promise<{ edges: Map<string, Map<string, string>>; bare: string[] }> {
  const edges = new Map<string, Map<string, string>>();
  const bareFindings: string[] = [];
  for (const file of await sources()) {
    const from = unitOf(file)!;
    const { local, bare } = importsOf(file, await Deno.readTextFile(`${ROOT}/${file}`));
    for (const target of local) {
      const to = unitOf(target);
      if (to === null || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${file} → ${target}`);
    }
    if (!OUTER.has(from) && bare.some((b) => TRANSPORTS.some((re) => re.test(b)))) {
      bareFindings.push(`${file} (${from}) imports a transport: ${bare.join(", ")}`);
    }
  }
  return { edges, bare: bareFindings };
}

Deno.test("layers: every folder of src/ has a place in the house", async () => {
  const folders: string[] = [];
  for await (const e of Deno.readDir(`${ROOT}/src`)) if (e.isDirectory) folders.push(e.name);
  const unplaced = folders.filter((f) => !(f in RANK) && f !== "util");
  assert.deepEqual(unplaced, [], "add the folder to the house (RANK here and src/README.md)");
  const readme = await Deno.readTextFile(`${ROOT}/src/README.md`);
  const unnamed = folders.filter((f) => !readme.includes(`${f}/`));
  assert.deepEqual(unnamed, [], "src/README.md must name every folder of src/");
});

Deno.test("layers: imports point down; faces and surfaces reach no domain; no cycles", async () => {
  const { edges, bare } = await graph();
  assert.ok((edges.get("cli")?.size ?? 0) > 0, "the import scan found the CLI's imports");
  const up: string[] = [];
  const intoDomain: string[] = [];
  for (const [from, tos] of edges) {
    for (const [to, example] of tos) {
      if (!(RANK[from] > RANK[to])) up.push(`${from} → ${to}: ${example}`);
      if (OUTER.has(from) && DOMAINS.has(to)) intoDomain.push(`${from} → ${to}: ${example}`);
    }
  }
  assert.deepEqual(up, [], "an import points up or sideways");
  assert.deepEqual(intoDomain, [], "a face or surface imports a domain (call a tool instead)");
  assert.deepEqual(bare, [], "only surfaces know HTTP and MCP");

  // No cycle between folders (ranks already forbid one; this names it if ranks change).
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "open") {
      cycles.push([...path.slice(path.indexOf(node)), node].join(" → "));
      return;
    }
    state.set(node, "open");
    for (const next of edges.get(node)?.keys() ?? []) visit(next, [...path, node]);
    state.set(node, "done");
  };
  for (const node of edges.keys()) visit(node, []);
  assert.deepEqual(cycles, []);
});

/**
 * Circles among the files of one folder still to be broken (issue 36), each as its files in
 * order; a new circle fails the test, and so does one listed here that is gone.
 */
const KNOWN_FILE_CIRCLES: string[] = [];

Deno.test("layers: no circle of imports among the files of one folder", async () => {
  const files = await sources();
  const dirOf = (f: string) => f.includes("/") ? f.slice(0, f.lastIndexOf("/")) : "";
  const next = new Map<string, string[]>();
  for (const file of files) {
    // A worker started from a module may import it back: another thread, not a circle.
    const { local } = importsOf(file, await Deno.readTextFile(`${ROOT}/${file}`), false);
    next.set(file, [...new Set(local.filter((t) => dirOf(t) === dirOf(file) && t !== file))]);
  }
  // Tarjan's strongly connected components: each component of two or more files is a circle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!next.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    for (let w = stack.pop()!;; w = stack.pop()!) {
      onStack.delete(w);
      part.push(w);
      if (w === v) break;
    }
    if (part.length > 1) circles.push(part.sort().join(" → "));
  };
  for (const f of files) if (!index.has(f)) connect(f);
  assert.deepEqual(circles.sort(), [...KNOWN_FILE_CIRCLES].sort());
});

Deno.test("layers: the scanner sees every kind of import", () => {
  const text = [
    'import { a } from "../project/project.ts";',
    'import type {\n  B,\n} from "./b.ts";',
    'export { c } from "../util/hash.ts";',
    'import "../parse/side_effect.ts";',
    'const w = new Worker(new URL("./worker.ts", import.meta.url).href);',
    'const m = await import("../store/kv.ts");',
    'import { Hono } from "hono";',
    '// import { gone } from "../context/commented.ts";',
  ].join("\n");
  const { local, bare } = importsOf("src/search/x.ts", text);
  assert.deepEqual(local.sort(), [
    "src/parse/side_effect.ts",
    "src/project/project.ts",
    "src/search/b.ts",
    "src/search/worker.ts",
    "src/store/kv.ts",
    "src/util/hash.ts",
  ]);
  assert.deepEqual(bare, ["hono"]);
  assert.equal(unitOf("src/util/hash.ts"), "kernel");
  assert.equal(unitOf("src/types.ts"), "kernel");
  assert.equal(unitOf("model/codectx-code/manifest.json"), null);
});

Deno.test("layers: a tool's renderer and printer are strings from its payload", async () => {
  // `tools/<name>/render.ts` and `cli.ts` run in the surfaces (MCP's text, the CLI's lines):
  // they read the tool's payload and import only tools/ and the kernel — no domain, no
  // transport, no console or argv of their own.
  const found: string[] = [];
  for (const file of await sources()) {
    if (!/^src\/tools\/[^/]+\/(render|cli|call_tree)\.ts$/.test(file)) continue;
    const text = await Deno.readTextFile(`${ROOT}/${file}`);
    const { local, bare } = importsOf(file, text);
    for (const target of local) {
      const unit = unitOf(target);
      if (unit !== "tools" && unit !== "kernel") found.push(`${file} → ${target}`);
    }
    for (const b of bare) found.push(`${file} → ${b}`);
    if (/\bconsole\.|\bDeno\.(args|stdout|stderr|exit)\b/.test(text)) {
      found.push(`${file} prints or reads argv itself`);
    }
  }
  assert.deepEqual(found, []);
});
