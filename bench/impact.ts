/**
 * `get_impact` held against a whole-word oracle, and its time on this repository.
 *
 *   deno run -A bench/impact.ts [--per 12] [--only click,rxjs] [--self-only]
 *
 * On five real projects of five languages (click: Python, cobra: Go, regex: Rust, moment:
 * JavaScript, rxjs: TypeScript; fetched by `sources.ts`, nothing committed), seeded changes to
 * functions and methods whose name is defined once in the project and is a compound of at
 * least 8 characters (so that the whole-word oracle can judge it) — a signature change (a
 * parameter added), a deletion, a body edit (a line added), in turn — are sent as diffs about
 * to be applied. The oracle of each: the definitions that hold a whole-word occurrence of the
 * name outside the definition itself (comment lines left out). Impacted-symbols recall and
 * precision at hop 1 are counted over all changes; disagreements are printed.
 *
 * Then `codectx impact --base HEAD~20` on this repository, once indexed: the command's wall
 * time (a fresh process: start, the index check, the tool) and the tool's own time in an open
 * executor, with the machine's load average beside them.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { loadGraph } from "../src/graph/graph.ts";
import { isTestFile } from "../src/index/test_files.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { innermost } from "../src/tools/get_impact/changes.ts";
import type { GetImpactPayload } from "../src/tools/get_impact/schema.ts";
import type { Project as Indexed } from "../src/project/project.ts";
import type { SymbolRecord } from "../src/types.ts";
import { CORPORA } from "./refs_corpora.ts";
import { deb } from "./sources.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    per: { type: "string", default: "12" },
    only: { type: "string" },
    "self-only": { type: "boolean" },
  },
});
const PER = Number(values.per);
const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

interface Project {
  lang: string;
  name: string;
  root: () => Promise<string>;
}

const corpus = (name: string) => {
  const c = CORPORA.find((x) => x.name === name)!;
  return { lang: c.lang, name, root: async () => (await c.fetch()).root };
};

const PROJECTS: Project[] = [
  corpus("click"),
  corpus("cobra"),
  {
    lang: "rust",
    name: "regex",
    root: async () => `${await deb("librust-regex-dev")}/usr/share/cargo/registry/regex-1.7.1`,
  },
  corpus("moment"),
  corpus("rxjs"),
];

const COMMENT = /^\s*(#|\/\/|\/\*|\*|--)/;
/** A compound name of at least 8 characters (`parseConfig`, `parse_config`, `ISO_8601`). */
const DISTINCT = /^(?=.{8,})[\w$]*(?:[a-z0-9][A-Z]|_)[\w$]*$/;
type Kind = "signature" | "deletion" | "body";
const KINDS: Kind[] = ["signature", "deletion", "body"];

/** A diff that changes `s` in `lines` (its file's text) the way `kind` says. */
function seed(s: SymbolRecord, lines: string[], kind: Kind): string | null {
  const at = s.line - 1;
  const head = `--- a/${s.file}\n+++ b/${s.file}\n`;
  if (kind === "signature") {
    const old = lines[at];
    const i = old.indexOf(`${s.name}(`);
    if (i < 0) return null;
    const open = i + s.name.length + 1;
    const extra = old[open] === ")" ? "extra_arg" : "extra_arg, ";
    const now = old.slice(0, open) + extra + old.slice(open);
    return `${head}@@ -${at + 1},1 +${at + 1},1 @@\n-${old}\n+${now}\n`;
  }
  if (kind === "deletion") {
    const from = s.startLine - 1;
    const body = lines.slice(from, s.endLine);
    return `${head}@@ -${from + 1},${body.length} +${from},0 @@\n${
      body.map((l) => `-${l}`).join("\n")
    }\n`;
  }
  // A line added after the first line of the body (a comment in the language's syntax).
  if (s.endLine <= s.line) return null;
  const mark = s.language === "python" ? "#" : "//";
  const indent = /^\s*/.exec(lines[at + 1] ?? "")?.[0] ?? "    ";
  return `${head}@@ -${at + 1},0 +${at + 2},1 @@\n+${indent}${mark} edited by bench/impact.ts\n`;
}

interface Tally {
  changes: number;
  oracle: number;
  ours: number;
  both: number;
  missed: string[];
  extra: string[];
}

async function measure(p: Project, total: Tally): Promise<void> {
  const root = await p.root();
  const indexDir = await Deno.makeTempDir({ prefix: `codectx-impact-${p.name}-` });
  const ex = await createExecutor(root, { indexDir, embedder: "none" });
  try {
    await ex.execute({ tool_name: "index_project", arguments: {} }, { timeoutMs: 0 });
    // The bench reads the graph the tool reads, for the oracle's enclosing definitions.
    const graph = await loadGraph((ex.service as unknown as { project: Indexed }).project);
    const texts = new Map<string, string[]>();
    const text = async (file: string) => {
      let t = texts.get(file);
      if (!t) texts.set(file, t = (await Deno.readTextFile(`${root}/${file}`)).split("\n"));
      return t;
    };
    // Functions and methods defined once, used somewhere else by name.
    const candidates: Array<{ s: SymbolRecord; oracle: Set<string> }> = [];
    for (const f of graph.files) {
      for (const s of f.symbols) {
        if (s.kind !== "function" && s.kind !== "method") continue;
        // A whole-word oracle judges only names that are no ordinary word: `delete` or
        // `timestamp` also name a Map's method or a parameter, which the oracle would count.
        if (!DISTINCT.test(s.name) || isTestFile(s.file)) continue;
        if ((graph.symbolsByName.get(s.name) ?? []).length !== 1) continue;
        candidates.push({ s, oracle: new Set() });
      }
    }
    candidates.sort((a, b) => a.s.file.localeCompare(b.s.file) || a.s.line - b.s.line);
    const word = (name: string) => new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
    const chosen: typeof candidates = [];
    for (const c of candidates) {
      const re = word(c.s.name);
      for (const f of graph.files) {
        const lines = await text(f.path);
        lines.forEach((l, i) => {
          if (!re.test(l) || COMMENT.test(l)) return;
          const line = i + 1;
          if (f.path === c.s.file && line >= c.s.startLine && line <= c.s.endLine) return;
          const where = innermost(f.symbols, line);
          if (where) c.oracle.add(`${f.path}:${where.qualifiedName}`);
        });
      }
      if (c.oracle.size > 0 && c.oracle.size <= 40) chosen.push(c);
    }
    const step = Math.max(1, Math.floor(chosen.length / PER));
    const sample = chosen.filter((_, i) => i % step === 0).slice(0, PER);
    const t: Tally = { changes: 0, oracle: 0, ours: 0, both: 0, missed: [], extra: [] };
    for (const [i, c] of sample.entries()) {
      const kind = KINDS[i % KINDS.length];
      const diff = seed(c.s, await text(c.s.file), kind) ??
        seed(c.s, await text(c.s.file), "deletion")!;
      const r = await ex.execute({
        tool_name: "get_impact",
        arguments: { diff, depth: 1, max_results: 5000 },
      }, { timeoutMs: 0 });
      if (!r.success) {
        console.log(`  ${p.name} ${kind} ${c.s.qualifiedName}: ${r.error}`);
        continue;
      }
      const pay = r.result_payload as GetImpactPayload;
      const ours = new Set(
        pay.impacted.filter((x) => x.hop === 1).map((x) => `${x.file}:${x.qualified_name}`),
      );
      t.changes++;
      t.oracle += c.oracle.size;
      t.ours += ours.size;
      for (const o of c.oracle) {
        if (ours.has(o)) t.both++;
        else t.missed.push(`${kind} ${c.s.qualifiedName} → ${o}`);
      }
      for (const o of ours) {
        if (!c.oracle.has(o)) t.extra.push(`${kind} ${c.s.qualifiedName} → ${o}`);
      }
    }
    const rec = t.oracle ? t.both / t.oracle : 1;
    const prec = t.ours ? t.both / t.ours : 1;
    console.log(
      `${p.lang.padEnd(10)} ${
        p.name.padEnd(8)
      } changes ${t.changes}  oracle ${t.oracle}  ours ${t.ours}  ` +
        `recall ${rec.toFixed(3)}  precision ${prec.toFixed(3)}`,
    );
    for (const m of t.missed.slice(0, 5)) console.log(`    missed ${m}`);
    for (const m of t.extra.slice(0, 5)) console.log(`    extra  ${m}`);
    total.changes += t.changes;
    total.oracle += t.oracle;
    total.ours += t.ours;
    total.both += t.both;
  } finally {
    await ex.close();
    await Deno.remove(indexDir, { recursive: true });
  }
}

async function loadAverage(): Promise<string> {
  return (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
}

/** `codectx impact --base HEAD~20` on this repository, once indexed. */
async function self(): Promise<void> {
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-impact-self-" });
  const cli = (args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${REPO}/cli.ts`, ...args, "--path", REPO, "--index-dir", indexDir],
      env: { CODECTX_EMBEDDER: "none" },
      stdout: "piped",
      stderr: "piped",
    }).output();
  try {
    await cli(["index"]);
    const walls: number[] = [];
    let head = "";
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const out = await cli(["impact", "--base", "HEAD~20"]);
      walls.push(performance.now() - t0);
      head = new TextDecoder().decode(out.stdout).split("\n")[0];
    }
    const ex = await createExecutor(REPO, { indexDir, embedder: "none" });
    const tool: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await ex.execute({ tool_name: "get_impact", arguments: { base: "HEAD~20" } }, {
        timeoutMs: 0,
      });
      tool.push(performance.now() - t0);
    }
    await ex.close();
    const ms = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(2)).join(", ");
    console.log(`\nthis repository: ${head}`);
    console.log(`  codectx impact --base HEAD~20 (fresh process each): ${ms(walls)} s`);
    console.log(`  get_impact in an open executor (first, then warm): ${ms(tool)} s`);
    console.log(`  load average: ${await loadAverage()} (2 cores)`);
  } finally {
    await Deno.remove(indexDir, { recursive: true });
  }
}

if (!values["self-only"]) {
  const only = values.only?.split(",");
  const total: Tally = { changes: 0, oracle: 0, ours: 0, both: 0, missed: [], extra: [] };
  for (const p of PROJECTS) if (!only || only.includes(p.name)) await measure(p, total);
  console.log(
    `\nall: ${total.changes} changes, hop-1 recall ${(total.both / total.oracle).toFixed(3)}, ` +
      `precision ${
        (total.both / total.ours).toFixed(3)
      } (oracle ${total.oracle}, ours ${total.ours})`,
  );
}
await self();
