/**
 * Local ONNX models for the `transformers:` embedder: where they live, which are present,
 * and `pullModel`, the one code path that downloads (used only by `codectx models pull`).
 *
 * @module
 */

import { defaultIndexHome } from "../store/home.ts";
import { importOptional, TRANSFORMERS } from "./optional_packages.ts";

/** A download's progress event, as transformers.js reports it. */
type ProgressCallback = (event: unknown) => void;

/** A model, a tokenizer or a config transformers.js loads (`AutoModel` etc.). */
interface Pretrained {
  from_pretrained(
    id: string,
    opts: { progress_callback: ProgressCallback; dtype?: string },
  ): Promise<{ dispose?(): Promise<unknown> }>;
}

/**
 * What codectx uses of `@huggingface/transformers`, typed here: the package is fetched on
 * first use (see `optional_packages.ts`), so no module may name it for its types.
 */
export interface Transformers {
  env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    useFSCache: boolean;
    cacheDir: string;
    localModelPath: string;
  };
  pipeline(
    task: "feature-extraction",
    model: string,
    opts: { dtype: string; local_files_only: boolean },
  ): Promise<FeatureExtractor>;
  AutoConfig: Pretrained;
  AutoTokenizer: Pretrained;
  AutoModel: Pretrained;
}

/** A feature-extraction pipeline: texts to one pooled vector each (`data` is n × `dims[1]`). */
export interface FeatureExtractor {
  (
    texts: string[],
    opts: { pooling: "mean"; normalize: boolean },
  ): Promise<{ dims: number[]; data: Float32Array }>;
  dispose(): Promise<unknown>;
}

/** The model folder: `$CODECTX_MODELS`, else `<codectx home>/models`. */
export function modelsDir(): string {
  return Deno.env.get("CODECTX_MODELS") || `${defaultIndexHome()}/models`;
}

function isDir(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The folder of a `transformers:` argument: a path (`/…`, `./…`) or `<models dir>/<id>`. */
export function locateModel(arg: string): { folder: string } {
  if (arg.startsWith("/") || arg.startsWith(".")) {
    const folder = arg.startsWith("/") ? arg : `${Deno.cwd()}/${arg}`;
    return { folder: folder.replace(/\/+$/, "") };
  }
  return { folder: `${modelsDir()}/${arg}` };
}

/** The ONNX file of a model folder and the transformers.js dtype that names it. */
export function onnxFile(folder: string): { file: string; dtype: "fp32" | "q8" } | null {
  if (isFile(`${folder}/onnx/model.onnx`)) return { file: "model.onnx", dtype: "fp32" };
  if (isFile(`${folder}/onnx/model_quantized.onnx`)) {
    return { file: "model_quantized.onnx", dtype: "q8" };
  }
  return null;
}

/** Why a model folder cannot be loaded, or null when it can. */
export function checkModelFolder(folder: string, arg: string): string | null {
  if (!isDir(folder)) {
    return `model '${arg}' is not in ${folder}; download it with \`codectx models pull ${arg}\` ` +
      "or pass a folder holding config.json, tokenizer.json and onnx/model.onnx";
  }
  for (const f of ["config.json", "tokenizer.json"]) {
    if (!isFile(`${folder}/${f}`)) return `model folder ${folder} has no ${f}`;
  }
  if (!onnxFile(folder)) return `model folder ${folder} has no onnx/model.onnx`;
  return null;
}

/**
 * Model ids present in the model folder (`id` or `owner/id`), sorted; the one named in
 * `<models dir>/default` first.
 */
export function localModels(dir = modelsDir()): string[] {
  const found: string[] = [];
  const visit = (rel: string, depth: number) => {
    const abs = rel ? `${dir}/${rel}` : dir;
    if (rel && checkModelFolder(abs, rel) === null) {
      found.push(rel);
      return;
    }
    if (depth >= 2) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(abs)];
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory && !e.name.startsWith(".")) {
        visit(rel ? `${rel}/${e.name}` : e.name, depth + 1);
      }
    }
  };
  visit("", 0);
  found.sort();
  let preferred = "";
  try {
    preferred = Deno.readTextFileSync(`${dir}/default`).trim();
  } catch {
    // no default chosen
  }
  const i = found.indexOf(preferred);
  if (i > 0) found.unshift(...found.splice(i, 1));
  return found;
}

/** Progress of a download. */
export interface PullProgress {
  file: string;
  loaded: number;
  total: number;
}

/**
 * Downloads a sentence-embedding model (ONNX, transformers.js layout) from the Hugging Face
 * hub into the model folder. The only function of codectx that reaches the network.
 *
 * @example
 * ```ts
 * const folder = await pullModel("Xenova/all-MiniLM-L6-v2");
 * // then: --embedder transformers:Xenova/all-MiniLM-L6-v2 (or auto)
 * ```
 */
export async function pullModel(
  id: string,
  onProgress: (p: PullProgress) => void = () => {},
): Promise<string> {
  if (!/^[\w.-]+(?:\/[\w.-]+)?$/.test(id)) {
    throw new Error(`'${id}' is not a model id like owner/name`);
  }
  const dir = modelsDir();
  await Deno.mkdir(dir, { recursive: true });
  const tf = await importOptional<Transformers>(TRANSFORMERS, TRANSFORMERS.packages[0]);
  tf.env.allowRemoteModels = true;
  tf.env.allowLocalModels = true;
  tf.env.useFSCache = true;
  tf.env.cacheDir = `${dir}/`;
  tf.env.localModelPath = `${dir}/`;
  const progress_callback = (p: unknown) => {
    const e = p as { status?: string; file?: string; loaded?: number; total?: number };
    if (e.status === "progress" && e.file) {
      onProgress({ file: e.file, loaded: e.loaded ?? 0, total: e.total ?? 0 });
    }
  };
  await tf.AutoConfig.from_pretrained(id, { progress_callback });
  await tf.AutoTokenizer.from_pretrained(id, { progress_callback });
  const model = await tf.AutoModel.from_pretrained(id, { dtype: "fp32", progress_callback });
  await model.dispose?.();
  const folder = `${dir}/${id}`;
  const problem = checkModelFolder(folder, id);
  if (problem) throw new Error(`downloaded ${id}, but ${problem}`);
  return folder;
}
