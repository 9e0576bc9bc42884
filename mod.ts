/**
 * codectx in-process API: the same executor and tools as the CLI, the bridge, REST and MCP,
 * called from TypeScript. Every function takes a project root (a folder path) or an
 * {@linkcode Executor}; given a path it opens the project, runs the tool and closes it
 * again. Results use the wire (snake_case) shapes of the tools.
 * A failed tool call throws a {@linkcode CodectxError} with the tool's code and message.
 * Importing this module has no side effects; it needs Deno KV (`--unstable-kv`, or
 * `"unstable": ["kv"]` in the importer's `deno.json`) and fails at import with one line saying
 * so when it is missing.
 *
 * @example
 * ```ts
 * import { createExecutor } from "@codectx/codectx";
 * const ex = await createExecutor("./my-repo", { indexDir: "/tmp/my-repo-index" });
 * const r = await ex.execute({ tool_name: "explain_file", arguments: { file_path: "src/app.ts" } });
 * console.log(r.success ? r.result_payload.symbols : r.error);
 * await ex.close();
 * ```
 *
 * @module
 */

import { CodectxError } from "./src/errors.ts";
import { createExecutor as openExecutor, defined } from "./src/tools/executor.ts";
import { requireKv } from "./src/util/kv_check.ts";

// Without Deno KV nothing here can work: say at import what to add, in one line, rather than
// with Deno's error from deep inside the first call.
requireKv();

export { CodectxError, type ErrorCode, HTTP_STATUS } from "./src/errors.ts";
export type { ExecutorEvent, ToolCall, ToolResult } from "./src/tools/executor.ts";
export { describeTools, TOOL_NAMES, type ToolDescription } from "./src/tools/registry.ts";
export { VERSION } from "./src/version.ts";

import type { ExecutorEvent, ToolCall, ToolResult } from "./src/tools/executor.ts";

/** How a project is opened: where its index lives, how it is parsed and embedded. */
export interface ExecutorOptions {
  /** Index folder (default: one folder per root under `$CODECTX_HOME` or `~/.cache/codectx`). */
  indexDir?: string;
  /** Parsing workers (default: one per core). */
  workers?: number;
  /** Extra ignore patterns (gitignore syntax), on top of `.gitignore` and `.codectxignore`. */
  exclude?: string[];
  /**
   * Embedder of the vectors: `auto` (default, or `$CODECTX_EMBEDDER`), `codectx-code`,
   * `transformers:<model-id-or-folder>`, `use-lite`, `none`.
   */
  embedder?: string;
  /** Memory an indexing run may use, in MiB (default 1024); past it the run stops. */
  maxMemoryMiB?: number;
  /** Time limit of one call in milliseconds (default 30,000). */
  timeoutMs?: number;
}

/** Options of one call. */
export interface CallOptions {
  /** An id that the call's events carry (default: a new one). */
  requestId?: string;
  /** Who asks, for events and logs (default `mod`). */
  source?: string;
  /** This call's time limit in milliseconds instead of the executor's; `0`: none. */
  timeoutMs?: number;
}

/** Runs the tools against one open project; what every surface of codectx calls. */
export interface Executor {
  /** Runs one tool: validates its arguments, applies the time limit, never throws. */
  execute(call: ToolCall, meta?: CallOptions): Promise<ToolResult>;
  /** Calls `fn` when a tool starts and ends; returns the function that unsubscribes. */
  onEvent(fn: (e: ExecutorEvent) => void): () => void;
  /** Closes the project (its index store and background work). */
  close(): Promise<void>;
}

/**
 * Opens the project at `root` (a folder) and returns its executor; close it when done.
 *
 * @example
 * ```ts
 * import { createExecutor } from "@codectx/codectx";
 * const ex = await createExecutor("./my-repo");
 * const r = await ex.execute({ tool_name: "search_symbols", arguments: { query: "parse" } });
 * if (r.success) console.log(r.result_payload.symbols);
 * await ex.close();
 * ```
 */
export async function createExecutor(root: string, opts: ExecutorOptions = {}): Promise<Executor> {
  return await openExecutor(root, opts);
}

/** What {@linkcode indexProject} returns: the run's counts and the index state after it. */
export interface IndexSummary {
  /** Files in the index. */
  files: number;
  /** Search chunks in the index. */
  chunks: number;
  /** Symbols (definitions) in the index. */
  symbols: number;
  /** Files added, modified or deleted since the last run. */
  changed: number;
  /** Files new since the last run. */
  added: number;
  /** Files whose content changed. */
  modified: number;
  /** Files gone. */
  deleted: number;
  /** Files parsed by this run. */
  parsed: number;
  /** Files in a known language left out (too large, minified, binary, unreadable). */
  skipped: number;
  /** The first 100 of them, each with its reason. */
  skipped_files: Array<{ file: string; reason: string; detail?: string }>;
  /** Paths the walk left out (ignored, not a source file…), counted by reason. */
  walk_skips: Record<string, number>;
  /** Highest resident memory seen during the run, in MiB. */
  peak_memory_mib?: number;
  /** Files per language. */
  languages: Record<string, number>;
  /** Files that failed to parse, with the reason. */
  errors: Array<{ file: string; error: string }>;
  /** The index generation after the run. */
  generation: number;
  /** How long the run took. */
  elapsed_ms: number;
  /** `ready` once an index is complete. */
  state: "empty" | "indexing" | "ready";
}

/** Where a function runs: a project root or an executor. */
export type Target = string | Executor;

/** Options for opening a project from a path (ignored for an executor). */
export type OpenOptions = ExecutorOptions;

/** Runs one tool on `target` and returns its payload, or throws its error. */
async function call(
  target: Target,
  toolName: string,
  args: Record<string, unknown>,
  opts: OpenOptions = {},
): Promise<Record<string, unknown>> {
  const executor = typeof target === "string" ? await openExecutor(target, opts) : target;
  try {
    const r = await executor.execute({ tool_name: toolName, arguments: args }, { source: "mod" });
    if (!r.success) {
      throw new CodectxError(r.error_code ?? "internal", r.error ?? `${toolName} failed`);
    }
    return r.result_payload;
  } finally {
    // An executor handed in stays open: its owner closes it.
    if (typeof target === "string") await executor.close();
  }
}

/**
 * Indexes a project (incremental; `force` re-parses everything) and reports the counts.
 *
 * @example
 * ```ts
 * import { indexProject } from "@codectx/codectx";
 * const r = await indexProject("./my-repo", { indexDir: "/tmp/my-repo-index" });
 * console.log(`${r.files} files, ${r.chunks} chunks, ${r.symbols} symbols`);
 * ```
 */
export async function indexProject(
  root: Target,
  opts: OpenOptions & { force?: boolean } = {},
): Promise<IndexSummary> {
  const { force, ...open } = opts;
  return await call(root, "index_project", defined({ force }), open) as unknown as IndexSummary;
}

/** A search result: a ranked snippet with its file, lines, score and symbol. */
export interface SearchHit {
  /** File, relative to the project root. */
  file: string;
  /** First line of the snippet (1-based). */
  line: number;
  /** Last line of the snippet. */
  end_line: number;
  /** Fused score; higher ranks first. */
  score: number;
  /** The code (or text) of the hit. */
  snippet: string;
  /** Language id of the file. */
  language: string;
  /** The symbol the snippet belongs to, if any. */
  symbol: string | null;
  /** That symbol's kind (`function`, `method`, `class`…). */
  kind: string | null;
}

/**
 * Hybrid (lexical + vector) search: ranked snippets for a query in plain words or code.
 * Lexical search answers as soon as the index exists; vectors fill in behind it.
 *
 * @example
 * ```ts
 * import { hybridSearch } from "@codectx/codectx";
 * const hits = await hybridSearch("./my-repo", "parse the config file", { top_k: 5 });
 * for (const h of hits) console.log(`${h.file}:${h.line} ${h.score.toFixed(3)}`);
 * ```
 */
export async function hybridSearch(
  target: Target,
  query: string,
  opts: OpenOptions & { top_k?: number; threshold?: number; path_prefix?: string } = {},
): Promise<SearchHit[]> {
  const { top_k, threshold, path_prefix, ...open } = opts;
  const payload = await call(
    target,
    "semantic_search",
    defined({ query, top_k, threshold, path_prefix, mode: "hybrid" }),
    open,
  );
  return (payload.snippets ?? []) as SearchHit[];
}

/** What {@linkcode buildContext} returns (the `get_context` tool's payload). */
export interface ContextWindow {
  /** The symbol the window is for (qualified). */
  symbol: string;
  /** The window as Markdown. */
  text: string;
  /** Its size in cl100k tokens (at most `max_tokens`). */
  tokens: number;
  /** Each piece of code in the window: where it is and why it was chosen. */
  sources: Array<{ file: string; line: number; end_line: number; reason: string }>;
  /** Whether something was left out to fit the budget. */
  truncated: boolean;
}

/**
 * A context window for a symbol: its code and the code around it that matters most, within
 * a token budget (counted with a BPE tokenizer; `tokens <= max_tokens` always holds).
 *
 * @example
 * ```ts
 * import { buildContext } from "@codectx/codectx";
 * const ctx = await buildContext("./my-repo", "parse_config", { max_tokens: 1500 });
 * console.log(ctx.tokens, ctx.text);
 * ```
 */
export async function buildContext(
  target: Target,
  symbol: string,
  opts: OpenOptions & { max_tokens?: number; file_path?: string } = {},
): Promise<ContextWindow> {
  const { max_tokens, file_path, ...open } = opts;
  return await call(
    target,
    "get_context",
    defined({ symbol_name: symbol, max_tokens, file_path }),
    open,
  ) as unknown as ContextWindow;
}

/** What {@linkcode analyzeQuality} returns (the `analyze_quality` tool's payload). */
export interface QualityReport {
  /** The folder or file analyzed, relative to the root (`.` for the root). */
  path: string;
  /** Maintainability index on radon's 0–100 scale. */
  maintainability_index: number;
  /** Per-file metrics (loc, sloc, complexity, maintainability index, rank). */
  files: Array<Record<string, unknown>>;
  /** Security findings (bandit's test ids for Python). */
  bandit_issues: Array<Record<string, unknown>>;
}

/**
 * Quality of a folder or file: maintainability index, per-file metrics and security
 * findings. A folder path is the project root; a file path is analyzed within its folder
 * (or within `opts.root`). The numbers follow radon (`mi`, 0–100, ranks A/B/C) and the
 * findings carry bandit's test ids for Python.
 *
 * @example
 * ```ts
 * import { analyzeQuality } from "@codectx/codectx";
 * const q = await analyzeQuality("./my-repo");
 * console.log(q.maintainability_index, q.bandit_issues.length);
 * ```
 */
export async function analyzeQuality(
  path: Target,
  opts: OpenOptions & { root?: string } = {},
): Promise<QualityReport> {
  const { root, ...open } = opts;
  if (typeof path !== "string") {
    return await call(path, "analyze_quality", {}, open) as unknown as QualityReport;
  }
  const real = await Deno.realPath(path).catch(() => {
    throw new CodectxError("not_found", `path '${path}' does not exist`);
  });
  const isDir = (await Deno.stat(real)).isDirectory;
  const projectRoot = root ?? (isDir ? real : real.slice(0, real.lastIndexOf("/")) || "/");
  const rel = real === projectRoot ? undefined : await relativeInside(projectRoot, real);
  return await call(
    projectRoot,
    "analyze_quality",
    defined({ path: rel }),
    open,
  ) as unknown as QualityReport;
}

async function relativeInside(root: string, real: string): Promise<string> {
  const r = await Deno.realPath(root);
  if (!real.startsWith(r + "/")) {
    throw new CodectxError("outside_root", `'${real}' is not inside the root '${r}'`);
  }
  return real.slice(r.length + 1);
}

/** What to read a change from: one of a diff, a git revision or symbols (default: base HEAD). */
export interface ImpactChange {
  /** A unified diff, already applied to the project or about to be. */
  diff?: string;
  /** A git revision: the working tree (staged and unstaged) against it. */
  base?: string;
  /** Names of symbols about to change. */
  symbols?: string[];
  /** Hops through callers and references (1–6, default 3). */
  depth?: number;
  /** Count test files among the impacted (default true). */
  include_tests?: boolean;
  /** Most impacted definitions answered (default 200). */
  max_results?: number;
}

/** What {@linkcode getImpact} answers (the `get_impact` payload; fields in wire shape). */
export interface ImpactReport {
  /** `diff`, `base` or `symbols`. */
  source: string;
  /** The changed definitions: `{qualified_name, kind, file, line, change, signature_changed, …}`. */
  changed: Array<Record<string, unknown>>;
  /** Definitions that reach them: `{qualified_name, file, line, hop, resolution, path, …}`. */
  impacted: Array<Record<string, unknown>>;
  /** Files with a reference on the way, with their nearest hop. */
  impacted_files: Array<Record<string, unknown>>;
  /** Test files and test functions that reach the change. */
  tests_to_run: { files: string[]; functions: Array<Record<string, unknown>> };
  /** Likely breaks (deleted-but-referenced first), public API touched, counts by hop. */
  risk: Record<string, unknown>;
}

/**
 * What a change touches: its changed definitions, everything that reaches them hop by hop,
 * the files, the tests to run and the likely breaks (the `get_impact` tool).
 *
 * @example
 * ```ts
 * import { getImpact } from "@codectx/codectx";
 * const r = await getImpact("./my-repo", { base: "HEAD~1" });
 * console.log(r.tests_to_run.files);
 * ```
 */
export async function getImpact(
  target: Target,
  change: ImpactChange = {},
  opts: OpenOptions = {},
): Promise<ImpactReport> {
  return await call(target, "get_impact", defined({ ...change }), opts) as unknown as ImpactReport;
}
