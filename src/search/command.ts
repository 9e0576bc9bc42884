/**
 * CLI commands of search:
 * - `codectx search "query" [--top-k N] [--json] [--mode M] [--threshold T]
 *   [--path-prefix P] [--language L] [--embedder E] [--no-wait]`
 * - `codectx models pull <id>` (the one command that downloads) and `codectx models list`.
 *
 * @module
 */

import { parse, UsageError } from "../cli/args.ts";
import { CodectxError, errorMessage } from "../errors.ts";
import { Project } from "../index/project.ts";
import { EMBEDDER_CHOICES } from "./embedder.ts";
import { type SearchMode, searchProject } from "./hybrid.ts";
import { localModels, modelsDir, pullModel } from "./models.ts";
import { resolveEmbedder } from "./providers.ts";

const SEARCH_HELP = `Usage: codectx search "QUERY" [options]

Finds code by meaning (hybrid lexical + vector search) and prints ranked snippets.

Options:
  --top-k N          results (1-100, default 10)
  --mode M           hybrid (default), lexical or dense
  --threshold T      minimum score in [0, 1]
  --path-prefix P    only files under P
  --language L       only files of language L
  --embedder E       ${EMBEDDER_CHOICES.join(", ")} (default auto, or $CODECTX_EMBEDDER)
  --no-wait          answer at once, with the vectors computed so far
  --json             print the result as JSON
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

/**
 * `codectx search`: indexes (incrementally), waits for vectors unless `--no-wait`, prints
 * results.
 */
export async function cmdSearch(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    "top-k": { type: "string" },
    mode: { type: "string" },
    threshold: { type: "string" },
    "path-prefix": { type: "string" },
    language: { type: "string" },
    embedder: { type: "string" },
    "no-wait": { type: "boolean" },
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
  if (mode !== undefined && !["hybrid", "lexical", "dense"].includes(mode)) {
    throw new UsageError(`--mode must be hybrid, lexical or dense, got '${mode}'`);
  }
  let project: Project;
  try {
    project = await Project.open((values.path as string | undefined) ?? Deno.cwd(), {
      indexDir: values["index-dir"] as string | undefined,
      embedder: values.embedder as string | undefined,
    });
  } catch (err) {
    if (err instanceof CodectxError && err.code === "invalid_argument") {
      throw new UsageError(err.message);
    }
    throw err;
  }
  try {
    try {
      await project.reindex();
    } catch (err) {
      // Another process is indexing: search the index it last committed.
      if ((await project.store.currentGeneration()) === null) throw err;
    }
    const wait = !values["no-wait"] && mode !== "lexical";
    let stopProgress = () => {};
    if (wait) {
      const p = project.vectorProgress();
      if (p.state !== "off" && p.state !== "complete") {
        console.error(
          `codectx: computing vectors (${p.embedder}); the first time takes a while, later runs reuse them; --no-wait answers at once`,
        );
        let last = 0;
        stopProgress = project.listen((e) => {
          if (e.type !== "progress" || e.progress.phase !== "embed") return;
          const now = performance.now();
          if (now - last < 2000) return;
          last = now;
          console.error(`  vectors ${e.progress.filesDone}/${e.progress.filesTotal}`);
        });
      }
    }
    const result = await searchProject(project, query, {
      top_k: numberOption(values["top-k"], "--top-k"),
      threshold: numberOption(values.threshold, "--threshold"),
      path_prefix: values["path-prefix"] as string | undefined,
      language: values.language as string | undefined,
      mode: mode as SearchMode | undefined,
      wait_for_vectors: wait,
    });
    stopProgress();
    if (values.json) {
      console.log(JSON.stringify(result, null, 2));
      return 0;
    }
    if (result.snippets.length === 0) console.log("no results");
    result.snippets.forEach((s, i) => {
      const what = s.symbol ? `${s.kind ?? "symbol"} ${s.symbol}` : "";
      console.log(
        `${String(i + 1).padStart(2)}. ${
          s.score.toFixed(3)
        }  ${s.file}:${s.line}-${s.end_line}  ${what}`,
      );
      for (const line of s.snippet.split("\n").slice(0, 6)) console.log(`      ${line}`);
    });
    const v = result.vectors;
    if (v.state !== "complete" && v.state !== "off" && result.mode !== "lexical") {
      console.error(
        `codectx: vectors ${v.done}/${v.total} (${v.embedder}, ${v.state}${
          v.error ? `: ${v.error}` : ""
        }); results are partly lexical`,
      );
    }
    return 0;
  } catch (err) {
    if (err instanceof CodectxError && err.code === "invalid_argument") {
      throw new UsageError(err.message);
    }
    throw err;
  } finally {
    project.close();
  }
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
