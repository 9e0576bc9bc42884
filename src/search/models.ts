/**
 * Local ONNX models for the `transformers:` embedder: where they live, which are present,
 * and `pullModel`, the one code path that downloads (used only by `codectx models pull`).
 *
 * @module
 */

import { defaultIndexHome } from "../store/home.ts";

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
  const tf = await import("npm:@huggingface/transformers@3.8.1");
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
  await model.dispose();
  const folder = `${dir}/${id}`;
  const problem = checkModelFolder(folder, id);
  if (problem) throw new Error(`downloaded ${id}, but ${problem}`);
  return folder;
}
