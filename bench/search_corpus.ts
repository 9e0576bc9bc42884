/**
 * Evaluation corpora for the search benches, from code codectx did not write and its model
 * is not trained on (outside `TRAINING-SOURCES.md`): the machine's Python standard library
 * and the TypeScript sources of the npm package `rxjs@7.8.2`.
 *
 * Each corpus is a copy of the sources with the doc comments of documented functions and
 * methods removed; each removed doc's first sentence becomes a query whose answer is that
 * function. Built once into `$CODECTX_BENCH_DIR` (default `/tmp/codectx-bench`).
 *
 * @module
 */

import { parseSource } from "../src/parse/parser.ts";
import { firstSentence } from "../src/search/embedder.ts";
import { textHash } from "../src/search/vector_store.ts";
import type { SymbolRecord } from "../src/types.ts";

/** One query and where its answer is. */
export interface EvalQuery {
  query: string;
  file: string;
  /** The answer's name line (1-based) and qualified name. */
  line: number;
  symbol: string;
  /** `dev` (tuning) or `test` (reported). */
  split: "dev" | "test";
}

/** A prepared corpus. */
export interface Corpus {
  name: string;
  language: string;
  root: string;
  queries: EvalQuery[];
}

/** Where benches keep their corpora and indexes. */
export const BENCH_DIR = Deno.env.get("CODECTX_BENCH_DIR") ?? "/tmp/codectx-bench-search";

/** The Python standard library of the machine's `python3`. */
export async function pythonStdlib(): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

async function* walkFiles(dir: string, rel = ""): AsyncGenerator<string> {
  for await (const e of Deno.readDir(rel ? `${dir}/${rel}` : dir)) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) {
      if (e.name === "site-packages" || e.name === "__pycache__" || e.name === "node_modules") {
        continue;
      }
      yield* walkFiles(dir, p);
    } else if (e.isFile) yield p;
  }
}

const TEST_PATH = /(^|\/)(tests?|idle_test|__tests__|spec)\//;
const LEFT_OUT = /^(idlelib|tkinter|distutils|lib2to3|pydoc_data|turtledemo|ensurepip|msilib)\//;

/** Cleans a doc's first sentence into a query; null when too short to be one. */
function toQuery(doc: string): string | null {
  // The description only: block tags (`@param`, `@deprecated`…) end it.
  const text = doc.split(/(?:^|\n)\s*@[a-zA-Z]/)[0];
  const s = firstSentence(
    text.replace(/\{@link\s+([^}|\s]+)[^}]*\}/g, "$1").replace(/[`*]/g, ""),
    240,
  ).replace(/[.:]$/, "").trim();
  if (s.split(/\s+/).length < 4 || /^(deprecated|internal|todo|see )/i.test(s)) return null;
  return s;
}

/** Blanks the docstring of a Python function (keeping line numbers); false when it has none. */
function stripPythonDoc(lines: string[], sym: SymbolRecord): boolean {
  let j = sym.line - 1;
  let depth = 0;
  for (let guard = 0; j < lines.length && guard < 40; guard++, j++) {
    const code = lines[j].replace(/#.*$/, "");
    for (const ch of code) {
      if ("([{".includes(ch)) depth++;
      else if (")]}".includes(ch)) depth--;
    }
    if (depth <= 0 && /:\s*$/.test(code)) break;
    if (depth <= 0 && /:\s*\S/.test(code) && !/[([{,]\s*$/.test(code)) return false; // one-liner
  }
  let k = j + 1;
  while (k < lines.length && lines[k].trim() === "") k++;
  const m = /^(\s*)[rRuU]?("""|''')/.exec(lines[k] ?? "");
  if (!m) return false;
  const quote = m[2];
  let end = k;
  if (!lines[k].slice(m[0].length).includes(quote)) {
    end = k + 1;
    while (end < lines.length && !lines[end].includes(quote)) end++;
    if (end >= lines.length) return false;
  }
  lines[k] = `${m[1]}pass`;
  for (let x = k + 1; x <= end; x++) lines[x] = "";
  return true;
}

/** Blanks the doc comment above a TS/JS definition. */
function stripLeadingComment(lines: string[], sym: SymbolRecord): boolean {
  let i = sym.startLine - 2;
  let any = false;
  while (i >= 0 && /^\s*(\/\*\*|\*|\*\/|\/\/)/.test(lines[i])) {
    lines[i] = "";
    any = true;
    i--;
  }
  return any;
}

async function buildCorpus(
  name: string,
  language: string,
  source: string,
  accept: (rel: string) => boolean,
  extToLang: (rel: string) => string | null,
): Promise<Corpus> {
  const dir = `${BENCH_DIR}/${name}`;
  const root = `${dir}/src`;
  const qFile = `${dir}/queries.json`;
  try {
    const queries = JSON.parse(await Deno.readTextFile(qFile)) as EvalQuery[];
    return { name, language, root, queries };
  } catch {
    // not built yet
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(root, { recursive: true });
  const found: Array<Omit<EvalQuery, "split">> = [];
  for await (const rel of walkFiles(source)) {
    if (!accept(rel)) continue;
    const lang = extToLang(rel);
    if (!lang) continue;
    const text = await Deno.readTextFile(`${source}/${rel}`).catch(() => null);
    if (text === null || text.length > 1_000_000) continue;
    const parsed = await parseSource(rel, text, lang);
    const lines = text.split("\n");
    const picked: Array<{ sym: SymbolRecord; query: string }> = [];
    for (const sym of parsed.symbols) {
      if ((sym.kind !== "function" && sym.kind !== "method") || !sym.doc) continue;
      const query = toQuery(sym.doc);
      const ok = lang === "python" ? stripPythonDoc(lines, sym) : stripLeadingComment(lines, sym);
      if (ok && query && !TEST_PATH.test(rel)) picked.push({ sym, query });
    }
    const stripped = lines.join("\n");
    await Deno.mkdir(`${root}/${rel}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${rel}`, stripped);
    for (const { sym, query } of picked) {
      // The answer must not still hold its doc (overloads, odd layouts): drop such queries.
      if (stripped.includes(query.slice(0, 40))) continue;
      found.push({ query, file: rel, line: sym.line, symbol: sym.qualifiedName });
    }
  }
  // A query text that names several functions is ambiguous: keep only unique ones.
  const count = new Map<string, number>();
  for (const q of found) {
    count.set(q.query.toLowerCase(), (count.get(q.query.toLowerCase()) ?? 0) + 1);
  }
  const unique = found.filter((q) => count.get(q.query.toLowerCase()) === 1);
  // A fixed pseudo-random order; alternate dev / test.
  unique.sort((a, b) => textHash(a.file + a.query) < textHash(b.file + b.query) ? -1 : 1);
  const queries: EvalQuery[] = unique.map((q, i) => ({ ...q, split: i % 2 ? "test" : "dev" }));
  await Deno.writeTextFile(qFile, JSON.stringify(queries, null, 1));
  return { name, language, root, queries };
}

/** The Python standard library corpus (`site-packages`, tests and GUI/legacy packages excluded). */
export async function pythonCorpus(): Promise<Corpus> {
  const std = await pythonStdlib();
  return await buildCorpus(
    "py-stdlib",
    "python",
    std,
    // Left out, to keep the time USE-lite takes to embed the corpus within an hour on a
    // shared machine: the test suites (40% of the code; no query targets them) and the GUI
    // and legacy packages.
    (rel) => rel.endsWith(".py") && !TEST_PATH.test(rel) && !LEFT_OUT.test(rel),
    () => "python",
  );
}

/** The TypeScript corpus: `rxjs@7.8.2`'s `src/` from the npm registry. */
export async function typescriptCorpus(): Promise<Corpus> {
  const dir = `${BENCH_DIR}/pkg-rxjs`;
  const pkg = `${dir}/package/src`;
  try {
    await Deno.stat(pkg);
  } catch {
    await Deno.mkdir(dir, { recursive: true });
    const pack = await new Deno.Command("npm", {
      args: ["pack", "rxjs@7.8.2", "--silent"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!pack.success) throw new Error(new TextDecoder().decode(pack.stderr));
    const tar = await new Deno.Command("tar", { args: ["xzf", "rxjs-7.8.2.tgz"], cwd: dir })
      .output();
    if (!tar.success) throw new Error("could not unpack rxjs-7.8.2.tgz");
  }
  return await buildCorpus(
    "ts-rxjs",
    "typescript",
    pkg,
    (rel) => rel.endsWith(".ts") && !rel.endsWith(".d.ts"),
    () => "typescript",
  );
}

/** Corpora by name. */
export const CORPORA: Record<string, () => Promise<Corpus>> = {
  python: pythonCorpus,
  typescript: typescriptCorpus,
};
