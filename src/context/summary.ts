/**
 * `summarize_repo`'s answer: size, languages, top-level folders and what they hold, entry
 * points, dependencies from manifests, the most central symbols (PageRank over references),
 * the README's first paragraph, and a Markdown rendering of it all within a token budget.
 * Computed once per index generation.
 *
 * @module
 */

import type { Generation, LoadedIndex, Project } from "../project/project.ts";
import { slot } from "../util/memo.ts";
import { type SymbolKind, type SymbolRecord, TYPE_KINDS } from "../types.ts";
import { type DeclaredEntry, type Dependency, isManifest, readManifest } from "./manifests.ts";
import { clampText, fitBudget } from "./pack.ts";
import { symbolRanks } from "./rank.ts";
import { isAuxiliary } from "../graph/lookup.ts";
import { fileClass } from "../search/scope.ts";
import { docSummary } from "./source.ts";
import { tokenCounter } from "./tokens.ts";
import { readProjectFile } from "../index/safe_read.ts";
import { isInternal } from "../parse/languages.ts";

/** Budget of the Markdown `text`. */
export const SUMMARY_TOKENS = 1500;

/** Language totals. */
export interface LanguageShare {
  language: string;
  files: number;
  lines: number;
  /** Share of all lines, 0–1. */
  share: number;
}

/** A top-level folder. */
export interface TopDir {
  path: string;
  files: number;
  lines: number;
  description: string;
}

/** What `summarize_repo` answers. */
export interface RepoSummary {
  /** The project folder's name. */
  name: string;
  /** The package or module name the root manifest declares, if any. */
  packageName: string | null;
  files: number;
  lines: number;
  languages: LanguageShare[];
  topDirs: TopDir[];
  entryPoints: DeclaredEntry[];
  dependencies: Dependency[];
  keySymbols: SymbolRecord[];
  readme: string;
  text: string;
  tokens: number;
  generation: number;
}

/** Folders never searched for manifests. */
const SKIP_DIRS = new Set(["node_modules", "vendor", "target", "dist", "build", "__pycache__"]);

/** Kinds a summary's key symbols may have: types, modules and what is called. */
const KEY_KINDS = new Set<SymbolKind>([
  ...TYPE_KINDS,
  "function",
  "method",
  "module",
  "namespace",
  "macro",
]);

const MAX_KEY_SYMBOLS = 20;
const MAX_ENTRY_POINTS = 40;
const MAX_DEPENDENCIES = 200;
const MAX_TOP_DIRS = 25;

/** What a folder of this name usually holds. */
const DIR_HINTS: Array<[RegExp, string]> = [
  [/^(tests?|__tests__|spec|specs|e2e|integration_tests)$/i, "tests"],
  [/^(docs?|documentation|man)$/i, "documentation"],
  [/^(src|lib|source|sources)$/i, "source code"],
  [/^(examples?|samples?|demos?)$/i, "examples"],
  [/^(scripts?|tools?|bin|utils?)$/i, "scripts and tools"],
  [/^(bench|benches|benchmarks?)$/i, "benchmarks"],
  [/^cmd$/i, "command mains"],
  [/^pkg$/i, "packages"],
  [/^internal$/i, "internal packages"],
  [/^(web|static|public|assets|www|ui|frontend)$/i, "web front end and assets"],
  [/^(\.github|\.gitlab|\.circleci|\.ci|ci)$/i, "CI configuration"],
  [/^(config|conf|configs|settings)$/i, "configuration"],
  [/^(migrations?|db)$/i, "database"],
  [/^(fixtures|testdata|test_data)$/i, "test data"],
  [/^(vendor|third_party|external|deps)$/i, "vendored code"],
  [/^(api|server|backend|app|apps|services?)$/i, "application code"],
];

const LANGUAGE_NAMES: Record<string, string> = {
  javascript: "JavaScript",
  typescript: "TypeScript",
  tsx: "TSX",
  csharp: "C#",
  cpp: "C++",
  php: "PHP",
  json: "JSON",
  yaml: "YAML",
  toml: "TOML",
};

/** `python` → `Python`, `csharp` → `C#`. */
export function languageName(l: string): string {
  return LANGUAGE_NAMES[l] ?? (l.charAt(0).toUpperCase() + l.slice(1));
}

const SUMMARY = slot<Generation, Promise<RepoSummary>>(
  "repository summary",
  ({ project, index }) => computeSummary(project, index),
);

/**
 * The repository summary of the current index, computed once per generation.
 *
 * @example
 * ```ts
 * const s = await summarizeRepo(project);
 * console.log(s.text); // Markdown, at most about 1,500 tokens
 * ```
 */
export async function summarizeRepo(project: Project): Promise<RepoSummary> {
  return await (await project.index()).memo.get(SUMMARY);
}

async function computeSummary(project: Project, index: LoadedIndex): Promise<RepoSummary> {
  const files = [...index.files.values()].filter((f) => !f.skipped);
  const totalLines = files.reduce((n, f) => n + f.lines, 0);

  const langs = new Map<string, { files: number; lines: number }>();
  for (const f of files) {
    const l = langs.get(f.language) ?? { files: 0, lines: 0 };
    l.files++;
    l.lines += f.lines;
    langs.set(f.language, l);
  }
  const languages = [...langs].map(([language, v]) => ({
    language,
    files: v.files,
    lines: v.lines,
    share: totalLines ? Math.round((v.lines / totalLines) * 1000) / 1000 : 0,
  })).sort((a, b) => b.lines - a.lines || b.files - a.files);

  const { rank } = await symbolRanks(project, index);
  const ranked = index.symbols.map((s, i) => ({ s, r: rank[i] }))
    .filter(({ s }) =>
      KEY_KINDS.has(s.kind) && !/(^|\.)_/.test(s.qualifiedName) && !isAuxiliary(s.file)
    )
    // What the code offers first (its public names), then what it keeps to itself.
    .map((x) => ({ ...x, internal: isInternal(x.s.language, x.s.name, x.s.signature) }))
    .sort((a, b) =>
      Number(a.internal) - Number(b.internal) || b.r - a.r ||
      a.s.file.localeCompare(b.s.file) || a.s.line - b.s.line
    );
  const keySymbols = ranked.slice(0, MAX_KEY_SYMBOLS).filter(({ r }) => r > 0).map(({ s }) => s);

  const [manifests, readme] = await Promise.all([
    readManifests(project.root, index),
    readmeParagraph(project.root, index),
  ]);
  const entryPoints = await findEntryPoints(index, manifests.entries);
  const topDirs = describeDirs(index, ranked.map(({ s }) => s));

  const summary: RepoSummary = {
    name: project.name,
    packageName: manifests.name ?? null,
    files: files.length,
    lines: totalLines,
    languages,
    topDirs,
    entryPoints,
    dependencies: manifests.dependencies.slice(0, MAX_DEPENDENCIES),
    keySymbols,
    readme,
    text: "",
    tokens: 0,
    generation: index.generation,
  };
  const counter = await tokenCounter();
  const lists = Math.max(
    topDirs.length,
    entryPoints.length,
    summary.dependencies.length,
    keySymbols.length,
    languages.length,
  );
  const fitted = fitBudget(0, lists, SUMMARY_TOKENS, counter, (n) => renderSummary(summary, n)) ??
    clampText(renderSummary(summary, 0), SUMMARY_TOKENS, counter);
  summary.text = fitted.text;
  summary.tokens = fitted.tokens;
  return summary;
}

/** Folders by first path segment, with a line on what each holds. */
function describeDirs(index: LoadedIndex, rankedSymbols: SymbolRecord[]): TopDir[] {
  const dirs = new Map<string, { files: number; lines: number; langs: Map<string, number> }>();
  for (const f of index.files.values()) {
    if (f.skipped) continue;
    const slash = f.path.indexOf("/");
    const dir = slash < 0 ? "." : f.path.slice(0, slash);
    const d = dirs.get(dir) ?? { files: 0, lines: 0, langs: new Map() };
    d.files++;
    d.lines += f.lines;
    d.langs.set(f.language, (d.langs.get(f.language) ?? 0) + 1);
    dirs.set(dir, d);
  }
  const keysByDir = new Map<string, string[]>();
  for (const s of rankedSymbols) {
    const slash = s.file.indexOf("/");
    const dir = slash < 0 ? "." : s.file.slice(0, slash);
    const list = keysByDir.get(dir) ?? [];
    if (list.length < 3 && !list.includes(s.name)) list.push(s.name);
    keysByDir.set(dir, list);
  }
  return [...dirs].sort((a, b) => b[1].files - a[1].files || a[0].localeCompare(b[0]))
    .slice(0, MAX_TOP_DIRS)
    .map(([path, d]) => {
      const hint = path === "." ? "top-level files" : DIR_HINTS.find(([re]) => re.test(path))?.[1];
      const langs = [...d.langs].sort((a, b) => b[1] - a[1]).slice(0, 2)
        .map(([l, n]) => `${n} ${languageName(l)}`).join(", ");
      const keys = keysByDir.get(path) ?? [];
      const parts = [
        hint,
        `${langs} file${d.files === 1 ? "" : "s"}`,
        keys.length ? `key: ${keys.join(", ")}` : "",
      ].filter(Boolean);
      return { path, files: d.files, lines: d.lines, description: parts.join("; ") };
    });
}

/** Manifests at the root and in folders up to two levels down that hold indexed files. */
async function readManifests(
  root: string,
  index: LoadedIndex,
): Promise<{ name?: string; dependencies: Dependency[]; entries: DeclaredEntry[] }> {
  const dirs = new Set<string>([""]);
  for (const path of index.files.keys()) {
    const parts = path.split("/");
    for (let d = 1; d < Math.min(parts.length, 3); d++) dirs.add(parts.slice(0, d).join("/"));
  }
  // Folders at the top hold manifests even when no file in them is indexed (`java/pom.xml`).
  try {
    for await (const e of Deno.readDir(root)) {
      if (e.isDirectory && !e.name.startsWith(".") && !SKIP_DIRS.has(e.name)) dirs.add(e.name);
    }
  } catch {
    // an unreadable root lists what the index knows
  }
  const exists = (p: string) => index.files.has(p);
  const found: string[] = [];
  for (const dir of [...dirs].sort()) {
    try {
      for await (const e of Deno.readDir(dir ? `${root}/${dir}` : root)) {
        if (e.isFile && isManifest(e.name)) found.push(dir ? `${dir}/${e.name}` : e.name);
      }
    } catch {
      // a folder that vanished since indexing
    }
  }
  const out: { name?: string; dependencies: Dependency[]; entries: DeclaredEntry[] } = {
    dependencies: [],
    entries: [],
  };
  const seen = new Set<string>();
  for (const path of found) {
    let text: string;
    try {
      text = new TextDecoder().decode(await readProjectFile(root, path, { maxBytes: 1 << 20 }));
    } catch {
      continue;
    }
    const info = readManifest(path, text, exists);
    if (!info) continue;
    if (!path.includes("/") && info.name && out.name === undefined) out.name = info.name;
    for (const d of info.dependencies) {
      const key = `${d.name}\0${d.scope}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.dependencies.push(d);
    }
    out.entries.push(...info.entries);
  }
  return out;
}

/** The first paragraph of prose in the root README (headings, badges and markup skipped). */
async function readmeParagraph(root: string, index: LoadedIndex): Promise<string> {
  let name = [...index.files.keys()].find((p) => /^readme(\.(md|markdown|rst|txt))?$/i.test(p));
  if (!name) {
    try {
      for await (const e of Deno.readDir(root)) {
        if (e.isFile && /^readme(\.(md|markdown|rst|txt))?$/i.test(e.name)) name = e.name;
      }
    } catch {
      return "";
    }
  }
  if (!name) return "";
  let text: string;
  try {
    text = new TextDecoder().decode(await readProjectFile(root, name));
  } catch {
    return "";
  }
  return firstParagraph(text);
}

/** A whole line that is one HTML paragraph of plain text (a centered tagline). */
const HTML_PARAGRAPH = /^<p(\s[^>]*)?>([^<>]+)<\/p>$/i;
/**
 * A line of links only, in a list or not: a table of contents, a row of badges, the links
 * to translations (`[[中文](…)] [[한국어](…)]`). What is left once the links are taken out
 * is brackets and separators.
 */
function linksOnly(line: string): boolean {
  let rest = line.replace(/^([-*+]|\d+\.)\s+/, "");
  if (!/\]\(/.test(rest)) return false;
  for (let before = ""; before !== rest;) {
    before = rest;
    rest = rest.replace(/!?\[[^\[\]]*\]\([^()]*\)/g, "");
  }
  return /^[\s[\]()|,·•/-]*$/.test(rest);
}

/**
 * The first paragraph of prose of a README text. A whole-line `<p>` of plain text counts
 * as one (axios's `<p align="center">Promise based HTTP client…</p>`); a line of links
 * only (a table of contents, translations) does not.
 */
export function firstParagraph(text: string): string {
  const lines = text.replace(/<!--[\s\S]*?-->/g, "").replace(/\r\n?/g, "\n").split("\n");
  const para: string[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (/^(```|~~~)/.test(t)) {
      inFence = !inFence;
      if (para.length) break;
      continue;
    }
    if (inFence) continue;
    const tagline = HTML_PARAGRAPH.exec(t)?.[2].trim() ?? "";
    if (para.length === 0 && tagline.split(/\s+/).length >= 3) return tagline;
    const skip = t === "" || linksOnly(t) || /^#/.test(t) || /^[=\-~^*+#`]{3,}$/.test(t) ||
      /^(\[!\[|!\[|<|\.\.\s|:\w+:|\|)/.test(t) || /^[=\-~^]{3,}$/.test(lines[i + 1]?.trim() ?? "");
    if (skip) {
      if (para.length) break;
      continue;
    }
    para.push(t);
  }
  const out = para.join(" ").replace(/\s+/g, " ").trim();
  return out.length > 700 ? out.slice(0, 700).replace(/\s+\S*$/, "") + " …" : out;
}

const SERVER =
  /\bDeno\.serve\(|\b(app|server|srv)\.listen\(|\bhttp\.ListenAndServe(TLS)?\(|\.serve_forever\(|\buvicorn\.run\(|\b(app|application)\.run\(|\bcreateServer\(|\bHttpServer\.create\(|\bSpringApplication\.run\(|#\[actix_web::main\]|\baxum::serve\(|\bwarp::serve\(/;
const MAIN_GUARD = /^if\s+__name__\s*==\s*['"]__main__['"]\s*:/m;
const CONVENTIONAL =
  /(^|\/)(__main__\.py|main\.(go|py|ts|js|rs|c|cc|cpp|kt|swift)|cli\.(ts|js|py)|manage\.py|app\.py|server\.(ts|js|py|go)|mod\.ts|index\.(ts|js))$/;

/** Entry points: declared ones, then main functions, `__main__` blocks, servers, usual names. */
async function findEntryPoints(
  index: LoadedIndex,
  declared: DeclaredEntry[],
): Promise<DeclaredEntry[]> {
  const out: DeclaredEntry[] = [];
  const seen = new Set<string>();
  const add = (file: string, kind: string) => {
    if (seen.has(file) || out.length >= MAX_ENTRY_POINTS) return;
    seen.add(file);
    out.push({ file, kind });
  };
  for (const e of declared) add(e.file, e.kind);
  for (const path of index.files.keys()) {
    if (path.endsWith("__main__.py") && !isAuxiliary(path)) add(path, "python __main__ module");
  }
  for (const s of index.symbols) {
    const callable = s.kind === "function" || (s.kind === "method" && s.parent !== null);
    if (s.name === "main" && callable && !isAuxiliary(s.file)) {
      add(s.file, s.kind === "method" ? "main method" : "main function");
    }
  }
  const guards: string[] = [];
  const servers: string[] = [];
  for (const c of await index.chunks()) {
    // A server started in a README's example starts nothing here.
    if (isAuxiliary(c.file) || fileClass(c.file, c.language) === "docs") continue;
    if (c.language === "python" && c.symbol === null && MAIN_GUARD.test(c.text)) {
      guards.push(c.file);
    }
    if (SERVER.test(c.text)) servers.push(c.file);
  }
  for (const f of servers) add(f, "server");
  for (const path of index.files.keys()) {
    if (CONVENTIONAL.test(path) && !path.includes("/")) add(path, "conventional name");
  }
  for (const f of guards) add(f, "python __main__ block");
  return out;
}

/** Markdown of the summary with at most `n` entries per list. */
function renderSummary(s: RepoSummary, n: number): string {
  const out: string[] = [
    `# ${s.name}${s.packageName && s.packageName !== s.name ? ` (${s.packageName})` : ""}`,
  ];
  if (s.readme) out.push("", s.readme);
  const langs = s.languages.slice(0, Math.max(n, 3))
    .map((l) => `${languageName(l.language)} ${Math.round(l.share * 100)}% (${l.files} files)`);
  out.push(
    "",
    `${s.files.toLocaleString("en-US")} files, ${s.lines.toLocaleString("en-US")} lines. ` +
      `Languages: ${langs.join(", ") || "none"}${
        s.languages.length > langs.length ? `, ${s.languages.length - langs.length} more` : ""
      }.`,
  );
  const list = <T>(title: string, items: T[], line: (t: T) => string) => {
    if (!items.length) return;
    out.push("", `## ${title}`, "");
    for (const it of items.slice(0, n)) out.push(`- ${line(it)}`);
    if (items.length > n) out.push(`- … ${items.length - n} more`);
  };
  list(
    "Layout",
    s.topDirs,
    (d) => `\`${d.path === "." ? "./" : d.path + "/"}\` — ${d.description}`,
  );
  list("Entry points", s.entryPoints, (e) => `\`${e.file}\` — ${e.kind}`);
  list(
    "Dependencies",
    s.dependencies,
    (d) => `${d.name}${d.version ? ` ${d.version}` : ""} (${d.scope}, ${d.manifest})`,
  );
  list("Key symbols", s.keySymbols, (k) => {
    const doc = docSummary(k.doc);
    return `\`${k.qualifiedName}\` (${k.kind}) — ${k.file}:${k.line}${doc ? ` — ${doc}` : ""}`;
  });
  return out.join("\n");
}
