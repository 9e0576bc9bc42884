/**
 * Answer digests: a fixed set of tool calls on a project, each payload hashed (timings left
 * out), so that a change that must not change answers (a refactor) can be held to it — run
 * it before and after on the same index and compare the lines.
 *
 *   deno run -A bench/answer_digest.ts --path DIR [--index-dir DIR] [--embedder E] [--show]
 *
 * The calls: every mode of `semantic_search` over fixed questions and patterns,
 * `search_symbols`, and for the first symbols `summarize_repo` names (and for the files they
 * are in) `explain_symbol`, `find_references`, `get_call_graph` (depth 2), `get_context`,
 * `explain_file`, `get_dependencies`, plus `summarize_repo` and the whole dependency graph.
 * Prints one line per call (`tool args → sha256/12`) and a last line with the digest of all.
 * `--show` prints a call's payload beside its line (to see what differs).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { digest, stable } from "./payload_digest.ts";
import { createExecutor } from "../src/tools/executor.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    path: { type: "string" },
    "index-dir": { type: "string" },
    embedder: { type: "string", default: "codectx-code" },
    show: { type: "boolean", default: false },
  },
});
if (!values.path) {
  console.error("usage: deno run -A bench/answer_digest.ts --path DIR [--index-dir DIR]");
  Deno.exit(2);
}

const QUESTIONS = [
  "parse the configuration file",
  "retry a failed request",
  "read a file line by line",
  "compare two dates",
  "convert a string to an integer",
  "open a network connection with a timeout",
  "escape special characters in html",
  "sort a list in place",
  "compute a hash of the content",
  "where are errors logged",
];
const PATTERNS: Array<[string, "exact" | "regex"]> = [
  ["def __init__(self", "exact"],
  ["TODO", "exact"],
  ["raise \\w+Error\\(", "regex"],
  ["^import (os|sys)$", "regex"],
];

const ex = await createExecutor(values.path, {
  indexDir: values["index-dir"],
  embedder: values.embedder,
  timeoutMs: 0,
});
const lines: string[] = [];
async function call(tool: string, args: Record<string, unknown>): Promise<unknown> {
  const r = await ex.execute({ tool_name: tool, arguments: args }, { timeoutMs: 0 });
  const body = JSON.stringify(stable(r.success ? r.result_payload : { error: r.error }));
  const line = `${tool} ${JSON.stringify(args)} → ${await digest(body)}`;
  lines.push(line);
  console.log(values.show ? `${line}\n${body}` : line);
  return r.success ? r.result_payload : null;
}

try {
  // Indexed first (its own answer differs between a first and a later run: not digested).
  const indexed = await ex.execute({ tool_name: "index_project", arguments: {} }, { timeoutMs: 0 });
  if (!indexed.success) throw new Error(`index_project: ${indexed.error}`);
  await ex.service.vectorsReady();
  for (const q of QUESTIONS) {
    for (const mode of ["hybrid", "lexical", "dense"]) {
      await call("semantic_search", { query: q, mode, top_k: 10 });
    }
  }
  for (const [q, mode] of PATTERNS) await call("semantic_search", { query: q, mode, top_k: 20 });
  for (const q of ["parse", "Config", "read_file", "HTTPConnection", "sort"]) {
    await call("search_symbols", { query: q, limit: 20 });
  }
  const summary = await call("summarize_repo", {}) as { key_symbols?: { name: string }[] } | null;
  await call("get_dependencies", {});
  const names = (summary?.key_symbols ?? []).slice(0, 8).map((s) => s.name);
  const files = new Set<string>();
  for (const name of names) {
    const ex1 = await call("explain_symbol", { symbol_name: name }) as {
      symbol?: { file?: string };
    } | null;
    if (ex1?.symbol?.file) files.add(ex1.symbol.file);
    await call("find_references", { symbol_name: name });
    await call("get_call_graph", { symbol_name: name, depth: 2 });
    await call("get_context", { symbol_name: name, max_tokens: 1500 });
  }
  for (const f of [...files].slice(0, 5)) {
    await call("explain_file", { file_path: f });
    await call("get_dependencies", { file_path: f });
  }
  console.log(`all ${lines.length} calls → ${await digest(lines.join("\n"))}`);
} finally {
  await ex.close();
}
