/**
 * Right on the projects people open (issue 32): real projects, unpacked at run time from
 * Debian packages and npm tarballs, each asked the questions an assistant asks — where is X
 * defined, who calls F, what imports module M, references of X, explain F, the context of
 * F, a summary, a question in plain words — through the tools (`explain_symbol`,
 * `get_call_graph`, `get_dependencies`, `find_references`, `get_context`, `summarize_repo`,
 * `ask`). Each answer is held to a key taken from an oracle no one here wrote (jedi for
 * Python, the TypeScript LanguageService for TypeScript and JavaScript, gopls for Go) or, for
 * Rust and Java (no language server here), labelled by reading the code; the keys are data
 * in `bench/labels/answers.json` and are never made from codectx's answers. It prints right
 * / partly / wrong per project and lists every answer that is not right.
 *
 * A third of the projects is held out (`held_out: true`): never looked at while fixing,
 * run once at the end (`--held-out`). None of the projects is in `TRAINING-SOURCES.md`, nor
 * in the tuning or held-out sets of `bench/search_vs_bm25.ts` (checked at start).
 *
 * Run: `deno run -A bench/answers.ts [--held-out | --all] [--project NAME] [--verbose]`
 *
 * How a kind is scored (R: recall of the key's sites, P: precision of codectx's):
 * - `where`: right when the definition answered is the key's file and line; partly when the
 *   key is among the candidates (another of the name was picked) or the file is right.
 * - `callers`, `refs`, `imports`: sets of `file:line` (files for imports); codectx's answer
 *   is what it presents as resolved (`resolution: "name"` left out). Right at R ≥ .9 and
 *   P ≥ .9; partly at R ≥ .5, or P ≥ .9 with something found; wrong below.
 * - `explain`: right when the definition is the key's and its project callees (resolved)
 *   hold R ≥ .8 and P ≥ .8 of the key's; partly when only the definition is right.
 * - `context` (1,500 tokens): right when the text holds the definition and every `must`
 *   line of the key; partly when it holds the definition.
 * - `summary`: right when the intro holds the key's sentence, every runtime dependency of
 *   the key is listed as runtime and none of `not_runtime` is; partly when one of the two.
 * - `ask`: right when the first source is in one of the key's files (and is code); partly
 *   when one of the first three is.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createExecutor, type Executor } from "../src/tools/executor.ts";
import { type Origin, originRoot } from "./answers_origin.ts";
import { HELD_OUT } from "./search_vs_bm25.ts";
import { EVAL_SOURCES, MODEL_SOURCES } from "../model/sources.ts";

const { values } = parseArgs({
  options: {
    "held-out": { type: "boolean" },
    all: { type: "boolean" },
    project: { type: "string" },
    verbose: { type: "boolean" },
    labels: { type: "string", default: new URL("./labels/answers.json", import.meta.url).pathname },
  },
});

type Question =
  | { id: string; kind: "where"; symbol: string; key: { file: string; line: number } }
  | {
    id: string;
    kind: "callers" | "refs";
    symbol: string;
    file?: string;
    key: { sites: string[] };
  }
  | { id: string; kind: "imports"; file: string; key: { files: string[] } }
  | {
    id: string;
    kind: "explain";
    symbol: string;
    file?: string;
    key: { file: string; line: number; callees: string[] };
  }
  | {
    id: string;
    kind: "context";
    symbol: string;
    file?: string;
    key: { file: string; line: number; must: string[] };
  }
  | {
    id: string;
    kind: "summary";
    key: { intro: string; runtime: string[]; not_runtime: string[] };
  }
  | { id: string; kind: "ask"; question: string; key: { files: string[] } };

interface Project {
  name: string;
  language: string;
  held_out: boolean;
  origin: Origin;
  /** How the keys were made (oracle, version, what was read). */
  oracle: string;
  questions: Question[];
}

type Verdict = "right" | "partly" | "wrong";
type Payload = Record<string, unknown>;

interface Graded {
  id: string;
  kind: string;
  verdict: Verdict;
  why: string;
}

const labels = JSON.parse(await Deno.readTextFile(values.labels!)) as { projects: Project[] };

/** The projects must be outside the model's sources and the search sets. */
function checkSources(projects: Project[]): void {
  const bare = (n: string) => n.replace(/@[^@]*$/, "");
  const banned = new Set([...MODEL_SOURCES, ...EVAL_SOURCES, ...HELD_OUT].map((s) => bare(s.name)));
  for (const p of projects) {
    if (banned.has(bare(p.origin.name))) {
      throw new Error(`${p.name}: ${p.origin.name} is a training or search-set source`);
    }
  }
}

/** Unpacks a project (cached) and returns the folder to index. */
async function fetchProject(p: Project): Promise<string> {
  const o = p.origin;
  const { root, unpacked } = await originRoot(o);
  if (!o.extra) return root;
  // A copy with the extra files beside it.
  const copy = `${unpacked}/../answers-root`;
  if (!(await Deno.stat(copy).catch(() => null))) {
    await Deno.mkdir(copy, { recursive: true });
    await sh(`cp -r '${root}'/. '${copy}'/`);
    for (const [to, from] of Object.entries(o.extra)) {
      await sh(
        from.endsWith(".gz")
          ? `gunzip -c '${unpacked}/${from}' > '${copy}/${to}'`
          : `cp '${unpacked}/${from}' '${copy}/${to}'`,
      );
    }
  }
  return await Deno.realPath(copy);
}

async function sh(cmd: string): Promise<void> {
  const out = await new Deno.Command("sh", { args: ["-c", cmd], stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd}: ${new TextDecoder().decode(out.stderr)}`);
}

async function call(ex: Executor, tool: string, args: Payload): Promise<Payload | string> {
  const r = await ex.execute({ tool_name: tool, arguments: args });
  return r.success ? r.result_payload as Payload : `error: ${r.error}`;
}

function list(v: unknown): Payload[] {
  return Array.isArray(v) ? v as Payload[] : [];
}

/** Recall of `key` and precision of `found`, and what each side lacks. */
function compare(key: string[], found: string[]) {
  const k = new Set(key);
  const f = new Set(found);
  const hit = [...f].filter((x) => k.has(x));
  return {
    r: k.size ? hit.length / k.size : f.size ? 0 : 1,
    p: f.size ? hit.length / f.size : k.size ? 0 : 1,
    missed: [...k].filter((x) => !f.has(x)),
    extra: [...f].filter((x) => !k.has(x)),
  };
}

function setVerdict(key: string[], found: string[]): [Verdict, string] {
  const c = compare(key, found);
  const v: Verdict = c.r >= 0.9 && c.p >= 0.9
    ? "right"
    : c.r >= 0.5 || (c.p >= 0.9 && found.length > 0)
    ? "partly"
    : "wrong";
  const show = (xs: string[]) => xs.slice(0, 6).join(", ") + (xs.length > 6 ? ", …" : "");
  return [
    v,
    `R ${c.r.toFixed(2)} P ${c.p.toFixed(2)}` +
    (c.missed.length ? `; missed ${show(c.missed)}` : "") +
    (c.extra.length ? `; extra ${show(c.extra)}` : ""),
  ];
}

/** Whether the payload's definition is the key's. */
function sameDef(sym: Payload | undefined, key: { file: string; line: number }): boolean {
  return !!sym && sym.file === key.file && sym.line === key.line;
}

async function grade(ex: Executor, q: Question): Promise<Graded> {
  const out = (verdict: Verdict, why: string): Graded => ({ id: q.id, kind: q.kind, verdict, why });
  const file = "file" in q && q.file ? { file_path: q.file } : {};
  switch (q.kind) {
    case "where": {
      const p = await call(ex, "explain_symbol", { symbol_name: q.symbol });
      if (typeof p === "string") return out("wrong", p);
      const s = p.symbol as Payload;
      if (sameDef(s, q.key)) return out("right", "");
      const got = `${s.file}:${s.line}`;
      if (list(p.candidates).some((c) => sameDef(c, q.key))) {
        return out("partly", `picked ${got}; the key is among the candidates`);
      }
      return out(s.file === q.key.file ? "partly" : "wrong", `answered ${got}`);
    }
    case "callers": {
      const p = await call(ex, "get_call_graph", { symbol_name: q.symbol, ...file });
      if (typeof p === "string") return out(q.key.sites.length ? "wrong" : "right", p);
      const root = (p.definition as Payload).qualified_name;
      const sites = list(p.edges).filter((e) => e.to === root && e.resolution !== "name")
        .map((e) => `${e.file}:${e.line}`);
      const [v, why] = setVerdict(q.key.sites, sites);
      return out(v, why);
    }
    case "refs": {
      const p = await call(ex, "find_references", { symbol_name: q.symbol, ...file, limit: 1000 });
      if (typeof p === "string") return out("wrong", p);
      const sites = list(p.references).filter((r) =>
        r.kind !== "definition" && r.resolution !== "name"
      ).map((r) => `${r.file}:${r.line}`);
      const [v, why] = setVerdict(q.key.sites, sites);
      return out(v, why);
    }
    case "imports": {
      const p = await call(ex, "get_dependencies", { file_path: q.file });
      if (typeof p === "string") return out("wrong", p);
      const [v, why] = setVerdict(q.key.files, (p.imported_by as string[]) ?? []);
      return out(v, why);
    }
    case "explain": {
      const p = await call(ex, "explain_symbol", { symbol_name: q.symbol, ...file });
      if (typeof p === "string") return out("wrong", p);
      if (!sameDef(p.symbol as Payload, q.key)) {
        const s = p.symbol as Payload;
        return out("wrong", `answered ${s.file}:${s.line}`);
      }
      const callees = list(p.callees).filter((c) => c.resolution !== "name").map((c) =>
        String(c.name)
      );
      const c = compare(q.key.callees, callees);
      if (c.r >= 0.8 && c.p >= 0.8) return out("right", "");
      return out(
        "partly",
        `callees R ${c.r.toFixed(2)} P ${c.p.toFixed(2)}; missed ${c.missed.join(", ")}; extra ${
          c.extra.join(", ")
        }`,
      );
    }
    case "context": {
      const p = await call(ex, "get_context", { symbol_name: q.symbol, ...file, max_tokens: 1500 });
      if (typeof p === "string") return out("wrong", p);
      const text = String(p.text);
      const def = String(p.file) === q.key.file && p.line === q.key.line;
      if (!def) return out("wrong", `context of ${p.file}:${p.line}`);
      const missing = q.key.must.filter((m) => !text.includes(m));
      return missing.length ? out("partly", `missing ${missing.join(" | ")}`) : out("right", "");
    }
    case "summary": {
      const p = await call(ex, "summarize_repo", {});
      if (typeof p === "string") return out("wrong", p);
      const intro = String(p.readme ?? "").includes(q.key.intro);
      const runtime = new Set(
        list(p.dependencies).filter((d) => d.scope === "runtime").map((d) => String(d.name)),
      );
      const depsOk = q.key.runtime.every((d) => runtime.has(d)) &&
        !q.key.not_runtime.some((d) => runtime.has(d));
      const why = `${intro ? "" : `intro was '${String(p.readme).slice(0, 80)}'; `}` +
        `${depsOk ? "" : `runtime deps [${[...runtime].join(", ")}]`}`;
      return out(intro && depsOk ? "right" : intro || depsOk ? "partly" : "wrong", why);
    }
    case "ask": {
      const p = await call(ex, "ask", { question: q.question });
      if (typeof p === "string") return out("wrong", p);
      const files = list(p.sources).map((s) => String(s.file));
      const inKey = (f: string) => q.key.files.includes(f);
      if (files.length && inKey(files[0])) return out("right", "");
      return out(
        files.slice(0, 3).some(inKey) ? "partly" : "wrong",
        `sources ${files.slice(0, 3).join(", ")}`,
      );
    }
  }
}

const chosen = labels.projects.filter((p) =>
  values.project
    ? p.name === values.project
    : values.all
    ? true
    : values["held-out"]
    ? p.held_out
    : !p.held_out
);
checkSources(labels.projects);

const totals: Record<Verdict, number> = { right: 0, partly: 0, wrong: 0 };
const notRight: string[] = [];
console.log(`| project | language | part | right | partly | wrong |`);
console.log(`|---|---|---|---|---|---|`);
for (const p of chosen) {
  const root = await fetchProject(p);
  const indexDir = await Deno.makeTempDir({ prefix: `codectx-answers-${p.name}-` });
  const ex = await createExecutor(root, { indexDir });
  try {
    await call(ex, "index_project", {});
    await ex.service.vectorsReady();
    const counts: Record<Verdict, number> = { right: 0, partly: 0, wrong: 0 };
    for (const q of p.questions) {
      const g = await grade(ex, q);
      counts[g.verdict]++;
      totals[g.verdict]++;
      if (g.verdict !== "right" || values.verbose) {
        notRight.push(`${p.name} ${g.id} (${g.kind}): ${g.verdict.toUpperCase()} ${g.why}`);
      }
    }
    console.log(
      `| ${p.name} | ${p.language} | ${
        p.held_out ? "held-out" : "tuned"
      } | ${counts.right} | ${counts.partly} | ${counts.wrong} |`,
    );
  } finally {
    await ex.close();
    await Deno.remove(indexDir, { recursive: true });
  }
}
const n = totals.right + totals.partly + totals.wrong;
console.log(
  `\n${totals.right}/${n} right (${(100 * totals.right / Math.max(1, n)).toFixed(1)} %), ` +
    `${totals.partly} partly, ${totals.wrong} wrong`,
);
if (notRight.length) console.log(`\n${notRight.join("\n")}`);
