/**
 * `find_references` and callers (`get_call_graph`) against language servers no one here
 * wrote, driven over their own protocol (LSP on stdio, `bench/lsp_client.ts`): pyright for
 * Python, typescript-language-server (the TypeScript LanguageService) for JavaScript and
 * TypeScript, gopls for Go. For Rust, with no language server here, a labelled set
 * (`bench/labels/rust_refs.json`: symbol, file, line of each reference and, for functions
 * and methods, of each call, checked by reading the code) over real crates.
 *
 * Real code is fetched at run time by `bench/sources.ts` (npm tarballs via `npm pack`, Debian
 * packages via `apt-get download` + `dpkg -x`); nothing of it is committed. The corpora and
 * the server that answers for each are in `bench/refs_corpora.ts`. Per repository,
 * symbols (functions, methods, classes, types, top-level constants and variables) are
 * taken from the server's document symbols and sampled with a fixed seed. codectx answers
 * through its tools (`index_project`, `find_references`, `get_call_graph`) on the same tree.
 *
 * The figures are definitions-independent: a sampled symbol whose definition codectx does
 * not find at the server's file and line is counted as a definition miss and left out of the
 * reference and caller figures (those misses are for the definitions bench).
 * References compare `file:line:column`; callers compare the call site's `file:line`.
 * References the server finds in comments (JSDoc `{@link x}`) are left out: codectx counts
 * code only. codectx's answer is what it presents as resolved: references and call edges with
 * `resolution: "name"` (matched by name only) are counted apart, not as answers.
 * Repositories marked held-out (click, urfave/cli, got, ripgrep) are never tuned on and are
 * printed separately.
 *
 * Needs: `npm install --prefix /tmp/oracles pyright typescript-language-server typescript@5.9.3`
 * (or `--oracles DIR`), `gopls` and `go` (Debian `apt-get install gopls golang-go`).
 *
 * Run: `deno run -A bench/refs_vs_lsp.ts [--lang python,go,javascript,typescript,rust]
 *   [--symbols 30] [--seed 13] [--repo NAME] [--verbose] [--misses 5]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createExecutor, type Executor } from "../mod.ts";
import type { AbsSpot, DocSymbol, LspClient } from "./lsp_client.ts";
import { deb, debSource } from "./sources.ts";
import { rng } from "./sample.ts";
import { CORPORA, type Corpus, EXT, LANGUAGE_ID, server, walk } from "./refs_corpora.ts";

const { values } = parseArgs({
  options: {
    lang: { type: "string", default: "python,go,javascript,typescript,rust" },
    symbols: { type: "string", default: "30" },
    seed: { type: "string", default: "13" },
    repo: { type: "string" },
    oracles: { type: "string", default: "/tmp/oracles" },
    verbose: { type: "boolean" },
    "lsp-log": { type: "boolean" },
    misses: { type: "string", default: "5" },
  },
});
/** How many missed and extra sites `--verbose` prints per symbol. */
const MISSES = Number(values.misses);

// ---------------------------------------------------------------------------------------
// Sampling

// LSP SymbolKind numbers.
const CALLABLE = new Set([6, 12]); // method, function
const TYPES = new Set([5, 10, 11, 23]); // class, enum, interface, struct
const VALUES = new Set([13, 14]); // variable, constant (top level only)

interface Sampled {
  file: string; // absolute
  rel: string;
  sym: DocSymbol;
  /** Name codectx is asked for (container chain + name). */
  query: string;
  callable: boolean;
}

/** Go's document symbols name methods `(*T).M` or `(T).M`; split them. */
function normalize(s: DocSymbol): DocSymbol {
  const m = /^\(\*?(\w+)\)\.(\w+)$/.exec(s.name);
  return m ? { ...s, name: m[2], containers: [m[1]] } : s;
}

async function sample(lsp: LspClient, c: Corpus, root: string, files: string[]) {
  const pool: Sampled[] = [];
  for (const file of files) {
    lsp.open(file, LANGUAGE_ID[c.lang]);
    let syms: DocSymbol[];
    try {
      syms = await lsp.documentSymbols(file);
    } catch {
      continue;
    }
    for (const raw of syms) {
      const s = normalize(raw);
      if (!/^[A-Za-z_$][\w$]*$/.test(s.name) || /^__\w+__$/.test(s.name)) continue;
      if (s.containers.some((n) => !/^[A-Za-z_$][\w$]*$/.test(n))) continue;
      const ok = CALLABLE.has(s.kind) || TYPES.has(s.kind) ||
        (VALUES.has(s.kind) && s.containers.length === 0);
      if (!ok) continue;
      pool.push({
        file,
        rel: file.slice(root.length + 1),
        sym: s,
        query: [...s.containers, s.name].join("."),
        callable: CALLABLE.has(s.kind),
      });
    }
  }
  const next = rng(Number(values.seed));
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return { picked: pool.slice(0, Number(values.symbols)), poolSize: pool.length };
}

// ---------------------------------------------------------------------------------------
// codectx

async function call(ex: Executor, tool: string, args: Record<string, unknown>) {
  const r = await ex.execute({ tool_name: tool, arguments: args }, {
    source: "bench",
    timeoutMs: 0,
  });
  return r.success ? r.result_payload : null;
}

interface Wire {
  file: string;
  line: number;
  column?: number;
  call_file?: string;
  call_line?: number;
  resolved?: boolean;
}

/** codectx's answer for one symbol, or why it has none. */
async function ours(ex: Executor, s: Sampled) {
  const line = s.sym.line0 + 1;
  let refs = await call(ex, "find_references", {
    symbol_name: s.query,
    file_path: s.rel,
    limit: 2000,
  });
  let defs = (refs?.definitions ?? []) as Wire[];
  if (!defs.some((d) => d.file === s.rel && d.line === line) && s.query !== s.sym.name) {
    refs = await call(ex, "find_references", {
      symbol_name: s.sym.name,
      file_path: s.rel,
      limit: 2000,
    });
    defs = (refs?.definitions ?? []) as Wire[];
  }
  const def = defs.find((d) => d.file === s.rel && d.line === line);
  if (!refs || !def) {
    return { miss: defs.length ? `found ${defs.map((d) => `${d.file}:${d.line}`)}` : "not found" };
  }
  // What codectx presents as resolved: name-only matches are candidates, not answers.
  const all = refs.references as Array<Wire & { resolution?: string }>;
  const references = new Set(
    all.filter((r) => r.resolution !== "name").map((r) => `${r.file}:${r.line}:${r.column}`),
  );
  const nameOnly = all.length - references.size;
  const callers = new Set<string>();
  if (s.callable) {
    const g = await call(ex, "get_call_graph", {
      symbol_name: (refs.symbol as string) ?? s.query,
      file_path: s.rel,
    });
    // Every call site is an edge (callers lists each calling function once).
    const edges = (g?.edges ?? []) as Array<Wire & { to: string }>;
    for (const e of edges) {
      if (e.to === g?.symbol && e.resolved !== false) callers.add(`${e.file}:${e.line}`);
    }
  }
  return { references, callers, nameOnly, ambiguous: defs.length > 1 };
}

// ---------------------------------------------------------------------------------------
// Comparison

interface Tally {
  refTp: number;
  refOurs: number;
  refOracle: number;
  callTp: number;
  callOurs: number;
  callOracle: number;
  symbols: number;
  defMiss: number;
  callSymbols: number;
  /** References codectx matched by name only (left out of its answer). */
  nameOnly: number;
}
const zero = (): Tally => ({
  refTp: 0,
  refOurs: 0,
  refOracle: 0,
  callTp: 0,
  callOurs: 0,
  callOracle: 0,
  symbols: 0,
  defMiss: 0,
  callSymbols: 0,
  nameOnly: 0,
});

function add(t: Tally, u: Tally): void {
  for (const k of Object.keys(t) as Array<keyof Tally>) t[k] += u[k];
}

/** Lines of failing cases, for the hand-off. */
const cases: string[] = [];

function compare(
  label: string,
  tally: Tally,
  oracle: Set<string>,
  mine: Set<string>,
  kind: "refs" | "callers",
) {
  let tp = 0;
  for (const x of mine) if (oracle.has(x)) tp++;
  if (kind === "refs") {
    tally.refTp += tp;
    tally.refOurs += mine.size;
    tally.refOracle += oracle.size;
  } else {
    tally.callTp += tp;
    tally.callOurs += mine.size;
    tally.callOracle += oracle.size;
  }
  const missed = [...oracle].filter((x) => !mine.has(x));
  const extra = [...mine].filter((x) => !oracle.has(x));
  if (missed.length || extra.length) {
    cases.push(
      `${label} ${kind}: server ${oracle.size}, codectx ${mine.size}, common ${tp}` +
        (missed.length ? `; missed ${missed.slice(0, MISSES).join(" ")}` : "") +
        (extra.length ? `; extra ${extra.slice(0, MISSES).join(" ")}` : ""),
    );
  }
}

async function openCodectx(root: string): Promise<{ ex: Executor; indexDir: string }> {
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-bench-lsp-" });
  const ex = await createExecutor(root, { indexDir, embedder: "none" });
  await call(ex, "index_project", {});
  return { ex, indexDir };
}

async function runLsp(c: Corpus): Promise<Tally> {
  const t = zero();
  const { root: rawRoot, env } = await c.fetch();
  const root = await Deno.realPath(rawRoot);
  const files = walk(root, EXT[c.lang]);
  const { ex, indexDir } = await openCodectx(root);
  const lsp = await server(c, root, env, { oracles: values.oracles, verbose: values["lsp-log"] });
  try {
    const { picked, poolSize } = await sample(lsp, c, root, files);
    await lsp.idle(60_000);
    const rel = (p: string) => p.startsWith(root + "/") ? p.slice(root.length + 1) : null;
    const keys = (spots: AbsSpot[], withColumn: boolean) =>
      new Set(
        spots.flatMap((s) => {
          const r = rel(s.path);
          return r === null ? [] : [withColumn ? `${r}:${s.line}:${s.column}` : `${r}:${s.line}`];
        }),
      );
    for (const s of picked) {
      const label = `[${c.lang}/${c.name}] ${s.query} (${s.rel}:${s.sym.line0 + 1})`;
      const mine = await ours(ex, s);
      if ("miss" in mine) {
        t.defMiss++;
        cases.push(`${label} definition: codectx ${mine.miss}`);
        continue;
      }
      t.symbols++;
      t.nameOnly += mine.nameOnly;
      const found = await settled(() => lsp.references(s.file, s.sym.line0, s.sym.char0));
      const refs = keys(found.filter((x) => !inComment(x, c.lang)), true);
      compare(label, t, refs, mine.references, "refs");
      if (s.callable) {
        let inc = await settled(() =>
          lsp.incomingCalls(s.file, s.sym.line0, s.sym.char0).catch(() => null)
        );
        // gopls 0.5 lists every reference inside a function as an incoming call, a function
        // passed as a value (`MatchAll(OnlyValidArgs)`) included, and the TypeScript service
        // counts `this.refetch.bind(this)` and `{ refetch: this.refetch }`: keep the calls.
        if (inc && c.lang !== "python") inc = inc.filter((x) => calledAt(x, s.sym.name));
        if (inc !== null) {
          t.callSymbols++;
          compare(label, t, keys(inc, false), mine.callers, "callers");
        }
      }
    }
    console.error(
      `${c.lang}/${c.name}: ${files.length} files, ${poolSize} symbols, ${picked.length} sampled`,
    );
  } finally {
    await lsp.close();
    await ex.close();
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
  return t;
}

/**
 * A server's answer once it holds still: asked again until two answers in a row agree (at
 * most 4 times); the count of changed answers is printed. gopls's answer still differs between
 * runs on urfave/cli (16, 17 or 18 incoming call sites for one symbol — the call in a test
 * file's table-driven loop is there or not — while codectx's stays at 16): the held-out Go
 * callers figure moves with the oracle, not with codectx.
 */
async function settled<T extends AbsSpot[] | null>(ask: () => Promise<T>): Promise<T> {
  const key = (x: T) =>
    x === null ? "null" : x.map((p) => `${p.path}:${p.line}:${p.column}`).sort().join(" ");
  let last = await ask();
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const next = await ask();
    if (key(next) === key(last)) return next;
    unsettled++;
    last = next;
  }
  return last;
}
/** How many times a server's second answer differed from its first. */
let unsettled = 0;

const sourceLines = new Map<string, string[]>();

/**
 * Comments and strings of each language; strings are matched only so that a comment
 * marker inside one is not taken for a comment.
 */
const COMMENT_OR_STRING: Record<Corpus["lang"], RegExp> = {
  python: /(#[^\n]*)|"""[\s\S]*?"""|'\'\'[\s\S]*?'\'\'|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g,
  go: /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|`[^`]*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g,
  javascript:
    /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g,
  typescript:
    /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g,
  rust: /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|"(?:\\.|[^"\\])*"/g,
};
const commentLines = new Map<string, Array<[number, number]>>();

/**
 * Whether a spot is inside a comment (JSDoc `{@link x}` is a reference to the compiler;
 * codectx counts code only, as its tool says).
 */
function inComment(spot: AbsSpot, lang: Corpus["lang"]): boolean {
  let ranges = commentLines.get(spot.path);
  if (!ranges) {
    ranges = [];
    const text = Deno.readTextFileSync(spot.path);
    const lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
    for (const m of text.matchAll(COMMENT_OR_STRING[lang])) {
      if (m[1] !== undefined) ranges.push([m.index!, m.index! + m[0].length]);
    }
    commentLines.set(spot.path, ranges);
    sourceStarts.set(spot.path, lineStarts);
  }
  const at = (sourceStarts.get(spot.path)?.[spot.line - 1] ?? 0) + spot.column - 1;
  return ranges.some(([a, b]) => at >= a && at < b);
}
const sourceStarts = new Map<string, number[]>();

/** Whether the name at `spot` is called there (`name(`, `name?.(`, `name[T](`, `name<T>(`). */
function calledAt(spot: AbsSpot, name: string): boolean {
  let lines = sourceLines.get(spot.path);
  if (!lines) sourceLines.set(spot.path, lines = Deno.readTextFileSync(spot.path).split("\n"));
  const rest = (lines[spot.line - 1] ?? "").slice(spot.column - 1);
  if (!rest.startsWith(name)) return false;
  return /^\s*(\?\.)?(\[[^\]]*\]|<[^>]*>)?\s*\(/.test(rest.slice(name.length));
}

// ---------------------------------------------------------------------------------------
// Rust: the labelled set

interface RustLabels {
  crates: Record<
    string,
    { source: "deb" | "deb-src"; package: string; path: string; heldOut: boolean }
  >;
  symbols: Array<{
    crate: string;
    symbol: string;
    /** Definition, `file:line`. */
    definition: string;
    /** Every reference (definition included), `file:line` (one per line per use). */
    references: string[];
    /** Functions and methods: the references that call it, `file:line`. */
    calls?: string[];
  }>;
}

async function runRust(heldOut: boolean, names: string[]): Promise<Tally> {
  const t = zero();
  const labels: RustLabels = JSON.parse(
    await Deno.readTextFile(new URL("./labels/rust_refs.json", import.meta.url)),
  );
  for (const [crate, info] of Object.entries(labels.crates)) {
    if (info.heldOut !== heldOut || (values.repo && values.repo !== crate)) continue;
    const unpacked = info.source === "deb"
      ? await deb(info.package)
      : await debSource(info.package);
    const root = await Deno.realPath(`${unpacked}/${info.path}`);
    names.push(`${crate} (labels)`);
    const { ex, indexDir } = await openCodectx(root);
    try {
      for (const l of labels.symbols.filter((s) => s.crate === crate)) {
        const [file, line] = l.definition.split(":");
        const s: Sampled = {
          file: `${root}/${file}`,
          rel: file,
          sym: {
            name: l.symbol.split(".").at(-1)!,
            kind: 12,
            containers: [],
            line0: +line - 1,
            char0: 0,
          },
          query: l.symbol,
          callable: l.calls !== undefined,
        };
        const label = `[rust/${crate}] ${l.symbol} (${l.definition})`;
        const mine = await ours(ex, s);
        if ("miss" in mine) {
          t.defMiss++;
          cases.push(`${label} definition: codectx ${mine.miss}`);
          continue;
        }
        t.symbols++;
        t.nameOnly += mine.nameOnly;
        const lines = new Set([...mine.references].map((k) => k.replace(/:\d+$/, "")));
        compare(label, t, new Set(l.references), lines, "refs");
        if (l.calls) {
          t.callSymbols++;
          compare(label, t, new Set(l.calls), mine.callers, "callers");
        }
      }
    } finally {
      await ex.close();
      await Deno.remove(indexDir, { recursive: true }).catch(() => {});
    }
  }
  return t;
}

// ---------------------------------------------------------------------------------------
// Main

const langs = values.lang.split(",");
const pct = (a: number, b: number) => (b === 0 ? "n/a" : (a / b).toFixed(3));
const rows: string[] = [];
for (const lang of langs) {
  // Tuned repositories make one row per language; each held-out one its own row.
  const groups: Array<{ heldOut: boolean; corpora: Corpus[] }> = [
    { heldOut: false, corpora: CORPORA.filter((c) => c.lang === lang && !c.heldOut) },
    ...CORPORA.filter((c) => c.lang === lang && c.heldOut).map((c) => ({
      heldOut: true,
      corpora: [c],
    })),
  ];
  if (lang === "rust") groups.push({ heldOut: true, corpora: [] });
  for (const { heldOut, corpora } of groups) {
    const total = zero();
    const names: string[] = [];
    if (lang === "rust") {
      add(total, await runRust(heldOut, names));
    } else {
      for (const c of corpora) {
        if (values.repo && values.repo !== c.name) continue;
        try {
          add(total, await runLsp(c));
          names.push(c.name);
        } catch (e) {
          console.error(`${lang}/${c.name}: skipped: ${(e as Error).message}`);
        }
      }
    }
    if (total.symbols + total.defMiss === 0) continue;
    rows.push(
      `${lang.padEnd(10)} ${heldOut ? "held-out" : "tuned   "} [${
        names.join(", ")
      }] symbols ${total.symbols} (+${total.defMiss} definition misses) | references P ${
        pct(total.refTp, total.refOurs)
      } R ${
        pct(total.refTp, total.refOracle)
      } (${total.refTp}/${total.refOurs}/${total.refOracle}) | callers P ${
        pct(total.callTp, total.callOurs)
      } R ${
        pct(total.callTp, total.callOracle)
      } (${total.callTp}/${total.callOurs}/${total.callOracle}, ${total.callSymbols} functions) | name-only refs left out ${total.nameOnly}`,
    );
    console.log(rows.at(-1));
  }
}
if (values.verbose) { for (const c of cases) console.log(`  ${c}`); }
console.log(`load average: ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
console.log(`server answers that changed when asked again: ${unsettled}`);
console.log("figures: common/codectx/server; callers compare call-site file:line");
