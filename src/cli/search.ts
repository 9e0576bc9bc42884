/**
 * CLI commands of search (through the executor's `index_project` and `semantic_search`):
 * - `codectx search "query" [--top-k N] [--json] [--mode M] [--threshold T]
 *   [--path-prefix P] [--language L] [--embedder E] [--no-wait]`
 * - `codectx models pull <id>` (the one command that downloads) and `codectx models list`.
 *
 * @module
 */

import { errorMessage } from "../errors.ts";
import {
  EMBEDDER_CHOICES,
  localModels,
  modelsDir,
  pullModel,
  resolveEmbedder,
} from "../service/models.ts";
import { defined } from "../tools/executor.ts";
import { print } from "../tools/semantic_search/cli.ts";
import type { SemanticSearchPayload } from "../tools/semantic_search/schema.ts";
import { parse, runTool, UsageError } from "./args.ts";
import { emit } from "./tool_command.ts";
import { underOf } from "./under.ts";

const SEARCH_HELP = `Usage: codectx search "QUERY" [options]

Finds code by meaning (hybrid lexical + vector search): a line a hit (file:lines, symbol) and
its line that best matches the query. --mode exact or regex finds literal text (a message, an
import) and prints the matching lines, grouped by file.

Options:
  --top-k N          results (1-100, default 10; unasked, hits far weaker than the first
                     are left out)
  --mode M           hybrid (default), lexical, dense, exact or regex
  --scope S          code, docs, tests or all (default: code, then docs)
  --include-tests    also search test files
  --threshold T      minimum score in [0, 1]
  --path-prefix P    only files under P (or the file P; --file P is the same)
  --language L       only files of language L
  --embedder E       ${EMBEDDER_CHOICES.join(", ")} (default auto, or $CODECTX_EMBEDDER)
  --no-wait          answer at once, with the vectors computed so far
  --json             print the result as JSON
  --no-update        answer from the index as it is, without first reading edited files
  --path DIR         project root (default: current directory)
  --index-dir DIR    where the index lives
`;

const MODELS_HELP = `Usage: codectx models <pull ID | list>

  pull ID   download an ONNX sentence-embedding model (e.g. Xenova/all-MiniLM-L6-v2) from
            the Hugging Face hub into ${modelsDir()}; the only codectx command that uses
            the network. Use it with --embedder transformers:ID (auto picks it up).
  list      the local models, and what --embedder auto chooses
`;

function numberOption(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`${name} must be a number, got '${value}'`);
  return n;
}

const MODES = ["hybrid", "lexical", "dense", "exact", "regex"];

/**
 * `codectx search`: brings the index up to date, waits for vectors unless `--no-wait`, runs
 * `semantic_search` and prints the results.
 */
export async function cmdSearch(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    "top-k": { type: "string" },
    mode: { type: "string" },
    threshold: { type: "string" },
    "path-prefix": { type: "string" },
    file: { type: "string" },
    language: { type: "string" },
    embedder: { type: "string" },
    "no-wait": { type: "boolean" },
    scope: { type: "string" },
    "include-tests": { type: "boolean" },
    json: { type: "boolean" },
  }, 1);
  if (values.help) {
    console.log(SEARCH_HELP);
    return 0;
  }
  const query = positionals[0];
  if (query === undefined) {
    throw new UsageError('search needs a QUERY, e.g. codectx search "parse the config"');
  }
  const mode = values.mode as string | undefined;
  if (mode !== undefined && !MODES.includes(mode)) {
    throw new UsageError(`--mode must be one of ${MODES.join(", ")}, got '${mode}'`);
  }
  const call = defined({
    query,
    top_k: numberOption(values["top-k"], "--top-k"),
    threshold: numberOption(values.threshold, "--threshold"),
    // `--file` as refs and explain take it: the same narrowing (it failed as unknown).
    path_prefix: values["path-prefix"] ?? values.file,
    language: values.language,
    mode,
    scope: values.scope,
    include_tests: values["include-tests"] ? true : undefined,
  });
  const open = { embedder: values.embedder as string | undefined };
  const { payload, code } = await runTool(values, "semantic_search", call, {
    open,
    vectors: mode === undefined || mode === "hybrid" || mode === "dense",
  });
  if (code !== 0) return code;
  if (values.json) {
    console.log(JSON.stringify(payload, null, 2));
    return 0;
  }
  // A literal search of code only counts the test files' matches it left out (the tool does).
  const found = payload as SemanticSearchPayload;
  const root = (values.path as string | undefined) ?? ".";
  emit(print(found, { cut: values["top-k"] === undefined, under: underOf(found, root) }));
  return 0;
}

/** `codectx models pull <id>` / `codectx models list`. */
export async function cmdModels(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {}, 2);
  const [sub, id] = positionals;
  if (values.help || sub === undefined) {
    console.log(MODELS_HELP);
    return sub === undefined && !values.help ? 2 : 0;
  }
  if (sub === "list") {
    const models = localModels();
    console.log(`models in ${modelsDir()}:`);
    for (const m of models) console.log(`  ${m}`);
    if (models.length === 0) console.log("  (none)");
    const auto = await resolveEmbedder("auto");
    console.log(`--embedder auto uses: ${auto?.id ?? "none"}`);
    return 0;
  }
  if (sub !== "pull") throw new UsageError(`unknown models command '${sub}'; use pull or list`);
  if (!id) throw new UsageError("models pull needs a model id, e.g. Xenova/all-MiniLM-L6-v2");
  console.error(
    `codectx: downloading ${id} from the Hugging Face hub into ${modelsDir()} ` +
      "(this is the only codectx command that uses the network)",
  );
  let last = "";
  try {
    const folder = await pullModel(id, (p) => {
      const pct = p.total ? Math.floor((p.loaded / p.total) * 10) * 10 : 0;
      const line = `  ${p.file} ${pct}%`;
      if (line !== last) console.error(line);
      last = line;
    });
    console.log(`downloaded ${id} to ${folder}; use it with --embedder transformers:${id}`);
    return 0;
  } catch (err) {
    console.error(`codectx: could not download ${id}: ${errorMessage(err)}`);
    return 1;
  }
}
