/**
 * Import classification on real code: the share of import statements that resolve to a
 * project file or are marked external, per language, and the imports marked external
 * although a project file matches them (an independent check by path suffix). Then the
 * latency of `find_references` for a common name on the Python standard library.
 *
 * Corpora: the machine's Python standard library (site-packages excluded), a Go tree
 * (Debian's `golang-github-spf13-cobra-dev` and `golang-github-sirupsen-logrus-dev`,
 * extracted without installing) and a TypeScript project (the `rxjs@7` npm tarball's
 * `src/`). Missing corpora are fetched into `--cache` (default `$TMPDIR/codectx-bench`).
 *
 * Run: `deno run -A bench/imports.ts [--python DIR] [--go DIR] [--ts DIR] [--name NAME]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { loadGraph } from "../src/graph/graph.ts";
import { findReferences } from "../src/graph/references.ts";
import { Project } from "../src/project/project.ts";

const { values } = parseArgs({
  options: {
    python: { type: "string" },
    go: { type: "string" },
    ts: { type: "string" },
    cache: { type: "string" },
    name: { type: "string", default: "join" },
    runs: { type: "string", default: "30" },
    only: { type: "string" },
  },
});
const cache = values.cache ?? `${Deno.env.get("TMPDIR") ?? "/tmp"}/codectx-bench`;

async function sh(cmd: string, cwd: string): Promise<void> {
  const out = await new Deno.Command("sh", {
    args: ["-c", cmd],
    cwd,
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (!out.success) throw new Error(`${cmd}: ${new TextDecoder().decode(out.stderr)}`);
}

async function exists(p: string): Promise<boolean> {
  return await Deno.stat(p).then(() => true, () => false);
}

async function pythonStdlib(): Promise<string> {
  if (values.python) return values.python;
  const out = await new Deno.Command("python3", {
    args: ["-c", 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

async function goTree(): Promise<string> {
  if (values.go) return values.go;
  const dir = `${cache}/go`;
  const root = `${dir}/usr/share/gocode/src`;
  if (!(await exists(root))) {
    await Deno.mkdir(dir, { recursive: true });
    await sh(
      'apt-get download golang-github-spf13-cobra-dev golang-github-sirupsen-logrus-dev && for d in *.deb; do dpkg -x "$d" .; done',
      dir,
    );
  }
  return root;
}

async function tsTree(): Promise<string> {
  if (values.ts) return values.ts;
  const dir = `${cache}/rxjs`;
  if (!(await exists(`${dir}/package/src`))) {
    await Deno.mkdir(dir, { recursive: true });
    await sh("npm pack rxjs@7.8.2 --silent && tar xzf rxjs-7.8.2.tgz", dir);
  }
  return `${dir}/package/src`;
}

interface Row {
  language: string;
  imports: number;
  resolved: number;
  external: number;
  unresolved: number;
  wronglyExternal: number;
  examples: string[];
}

/** Whether an external import looks like a project file (by path suffix, per language). */
function projectFileFor(language: string, module: string, files: Set<string>, dirs: Set<string>) {
  const ends = (suffix: string) => {
    for (const f of files) if (f === suffix || f.endsWith("/" + suffix)) return true;
    return false;
  };
  if (language === "python") {
    if (module.startsWith(".")) return false;
    const path = module.replaceAll(".", "/");
    return files.has(`${path}.py`) || files.has(`${path}/__init__.py`);
  }
  if (language === "go") {
    const segs = module.split("/");
    if (segs.length < 2 || !segs[0].includes(".")) return false;
    const tail = segs.slice(-2).join("/");
    for (const d of dirs) if (d === tail || d.endsWith("/" + tail)) return true;
    return false;
  }
  if (/^(typescript|tsx|javascript)$/.test(language)) {
    if (/^[a-z]+:/.test(module)) return false;
    return ["", ".ts", ".tsx", ".js", "/index.ts", "/index.js"].some((e) => ends(module + e));
  }
  return false;
}

async function classify(label: string, root: string, exclude: string[] = []) {
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-bench-imports-" });
  const project = await Project.open(root, { indexDir, exclude });
  try {
    const t0 = performance.now();
    const report = await project.reindex();
    const indexMs = performance.now() - t0;
    const t1 = performance.now();
    const graph = await loadGraph(project);
    const loadMs = performance.now() - t1;
    const files = new Set(graph.files.map((f) => f.path));
    const dirs = new Set([...files].map((f) => f.slice(0, Math.max(0, f.lastIndexOf("/")))));
    const rows = new Map<string, Row>();
    for (const f of graph.files) {
      for (const i of f.imports) {
        let row = rows.get(f.language);
        if (!row) {
          rows.set(
            f.language,
            row = {
              language: f.language,
              imports: 0,
              resolved: 0,
              external: 0,
              unresolved: 0,
              wronglyExternal: 0,
              examples: [],
            },
          );
        }
        row.imports++;
        if (i.resolved !== null) row.resolved++;
        else if (i.external) {
          row.external++;
          if (projectFileFor(f.language, i.record.module, files, dirs)) {
            row.wronglyExternal++;
            if (row.examples.length < 3) {
              row.examples.push(`${f.path}:${i.record.line} ${i.record.module}`);
            }
          }
        } else {
          row.unresolved++;
          if (row.examples.length < 3) {
            row.examples.push(`unresolved ${f.path}:${i.record.line} ${i.record.module}`);
          }
        }
      }
    }
    console.log(
      `\n${label}: ${report.files} files indexed in ${
        (indexMs / 1000).toFixed(1)
      } s, graph loaded in ${loadMs.toFixed(0)} ms`,
    );
    for (const r of rows.values()) {
      if (r.imports < 5) continue;
      const share = (r.resolved + r.external) / r.imports;
      console.log(
        `  ${r.language.padEnd(11)} ${String(r.imports).padStart(6)} imports: ${
          (100 * r.resolved / r.imports).toFixed(1)
        }% project, ${
          (100 * r.external / r.imports).toFixed(1)
        }% external, ${r.unresolved} unresolved` +
          ` → classified ${(100 * share).toFixed(2)}% ${
            share >= 0.98 ? "(≥ 98% ✓)" : "(< 98% ✗)"
          };` +
          ` project files marked external: ${r.wronglyExternal}`,
      );
      for (const e of r.examples) console.log(`      e.g. ${e}`);
    }
    return { project, graph, indexDir };
  } catch (err) {
    project.close();
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
    throw err;
  }
}

const only = values.only?.split(",");
const stdlib = await pythonStdlib();
const py = only && !only.includes("python")
  ? null
  : await classify(`Python standard library (${stdlib})`, stdlib, ["site-packages/"]);

// find_references latency for a common name, on the loaded graph (cold first call apart).
if (py) {
  const name = values.name!;
  const runs = Number(values.runs);
  const t0 = performance.now();
  const first = findReferences(py.graph, name);
  const cold = performance.now() - t0;
  const times: number[] = [];
  const occurrences = py.graph.occurrences(name).length;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    findReferences(py.graph, name);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) =>
    times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(
    `\nfind_references('${name}') on the standard library: ${first.definitions.length} definitions, ${first.total} references` +
      ` among ${occurrences} occurrences of the name; first call ${
        cold.toFixed(0)
      } ms (name index + resolution),` +
      ` then p50 ${p(0.5)} ms, p90 ${p(0.9)} ms over ${runs} runs`,
  );
  // Through the tool as a client calls it (wire shapes, context lines), p50.
  const { createExecutor } = await import("../src/tools/executor.ts");
  const ex = await createExecutor(py.project);
  const tool: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await ex.execute({ tool_name: "find_references", arguments: { symbol_name: name } });
    if (!r.success) throw new Error(r.error);
    tool.push(r.execution_time_ms);
  }
  tool.sort((a, b) => a - b);
  console.log(
    `find_references tool call (executor): p50 ${tool[Math.floor(runs / 2)].toFixed(1)} ms`,
  );
  py.project.close();
  await Deno.remove(py.indexDir, { recursive: true }).catch(() => {});
}

const others: Array<[string, string, () => Promise<string>]> = [
  ["go", "Go (cobra + logrus)", goTree],
  ["ts", "TypeScript (rxjs 7 src)", tsTree],
];
for (const [id, label, tree] of others) {
  if (only && !only.includes(id)) continue;
  const root = await tree();
  const r = await classify(`${label} (${root})`, root);
  r.project.close();
  await Deno.remove(r.indexDir, { recursive: true }).catch(() => {});
}
