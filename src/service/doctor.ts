/**
 * `codectx doctor`: checks that this machine can run codectx — the Deno runtime, every
 * tree-sitter grammar with its query files (parsing and analysis), the shipped `codectx-code` model and its checksum,
 * and the index folder (writable, Deno KV opens there, free space) — and says what to do
 * about each problem.
 *
 * @module
 */

import { statfs } from "node:fs/promises";
import { analysisGrammar } from "../analysis/grammar.ts";
import { loadGrammar } from "../parse/grammars.ts";
import { LANGUAGES } from "../parse/languages.ts";
import { checkCodectxCode, loadCodectxCode, MODEL_DIR } from "../search/codectx_code.ts";
import { defaultIndexHome } from "../store/home.ts";
import { errorMessage } from "../errors.ts";

/** The Deno release codectx is tested with (CI and the README's install line). */
export const TESTED_DENO = "2.9.6";

/** Free space under which indexing may fail (a large repository's index is a few 100 MB). */
const MIN_FREE_BYTES = 200 * 2 ** 20;
/** Free space under which a warning is given. */
const LOW_FREE_BYTES = 1024 * 2 ** 20;

/** One check's outcome. */
export interface DoctorCheck {
  /** What was checked: `deno`, `grammars`, `model`, `index folder`, `free space`. */
  readonly name: string;
  /** `ok`, `warn` (works, but see `fix`) or `fail` (codectx will not work until fixed). */
  readonly status: "ok" | "warn" | "fail";
  /** What was found. */
  readonly detail: string;
  /** What to do, for `warn` and `fail`. */
  readonly fix?: string;
}

/** Where to look; defaults are what codectx itself uses. */
export interface DoctorOptions {
  /** The index folder (default: `$CODECTX_HOME`, `$XDG_CACHE_HOME/codectx`, `~/.cache/codectx`). */
  readonly indexDir?: string;
  /** The model folder (default: the shipped `model/codectx-code/`). */
  readonly modelDir?: URL;
  /** The runtime version (default: this one's). */
  readonly denoVersion?: string;
}

/** `[major, minor, patch]` of `x.y.z`. */
function parts(version: string): number[] {
  return version.split(/[.+-]/).slice(0, 3).map((p) => Number.parseInt(p, 10) || 0);
}

/** Negative when `a` is older than `b`. */
function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

function checkDeno(version: string): DoctorCheck {
  const upgrade = `npm install -g deno@${TESTED_DENO} (or deno upgrade --version ${TESTED_DENO})`;
  if (parts(version)[0] !== 2) {
    return {
      name: "deno",
      status: "fail",
      detail: `Deno ${version}; codectx needs Deno 2`,
      fix: upgrade,
    };
  }
  if (compareVersions(version, TESTED_DENO) < 0) {
    return {
      name: "deno",
      status: "warn",
      detail: `Deno ${version}, older than ${TESTED_DENO}, the release codectx is tested with`,
      fix: upgrade,
    };
  }
  return { name: "deno", status: "ok", detail: `Deno ${version} (tested with ${TESTED_DENO})` };
}

async function checkGrammars(): Promise<DoctorCheck> {
  const ids = LANGUAGES.filter((l) => l.grammar).map((l) => l.id);
  const failed: string[] = [];
  for (const id of ids) {
    try {
      await loadGrammar(id);
      // The analysis queries (metrics, security rules, name checks) of the same grammar.
      await analysisGrammar(id);
    } catch (err) {
      failed.push(`${id} (${errorMessage(err)})`);
    }
  }
  if (failed.length === 0) {
    return {
      name: "grammars",
      status: "ok",
      detail: `${ids.length} load with their queries: ${ids.join(", ")}`,
    };
  }
  return {
    name: "grammars",
    status: "fail",
    detail: `${failed.length} of ${ids.length} do not load: ${failed.join("; ")}`,
    fix:
      "run 'deno install' in the codectx folder (it fetches tree-sitter-wasms and web-tree-sitter)",
  };
}

async function checkModel(dir: URL): Promise<DoctorCheck> {
  const missing = await checkCodectxCode(dir);
  if (missing) {
    return {
      name: "model",
      status: "fail",
      detail: missing,
      fix:
        "restore model/codectx-code/ from the repository (git checkout -- model/codectx-code), or pass --embedder use-lite",
    };
  }
  try {
    const model = await loadCodectxCode(dir, { verify: true });
    return { name: "model", status: "ok", detail: `${model.id}, checksum matches its manifest` };
  } catch (err) {
    return {
      name: "model",
      status: "fail",
      detail: errorMessage(err),
      fix: "restore model/codectx-code/ from the repository (git checkout -- model/codectx-code)",
    };
  }
}

async function checkIndexDir(dir: string): Promise<DoctorCheck> {
  const fix =
    `make ${dir} a writable folder (mkdir -p, chmod u+w), or point codectx elsewhere with --index-dir DIR or CODECTX_HOME=DIR`;
  let probe = "";
  try {
    await Deno.mkdir(dir, { recursive: true });
    probe = await Deno.makeTempDir({ dir, prefix: ".doctor-" });
    const kv = await Deno.openKv(`${probe}/check.kv`);
    try {
      await kv.set(["doctor"], 1);
      if ((await kv.get(["doctor"])).value !== 1) throw new Error("Deno KV read back nothing");
    } finally {
      kv.close();
    }
    return { name: "index folder", status: "ok", detail: `${dir}: writable, Deno KV opens` };
  } catch (err) {
    return { name: "index folder", status: "fail", detail: `${dir}: ${errorMessage(err)}`, fix };
  } finally {
    if (probe) await Deno.remove(probe, { recursive: true }).catch(() => {});
  }
}

async function checkFreeSpace(dir: string): Promise<DoctorCheck> {
  let at = dir;
  // The nearest folder that exists (the index folder may not).
  while (!(await Deno.stat(at).then(() => true, () => false)) && at.includes("/")) {
    at = at.slice(0, at.lastIndexOf("/")) || "/";
  }
  try {
    const fs = await statfs(at);
    const free = Number(fs.bavail) * Number(fs.bsize);
    const mib = `${Math.round(free / 2 ** 20).toLocaleString("en-US")} MiB free at ${at}`;
    const fix = "free space there, or index elsewhere with --index-dir DIR or CODECTX_HOME=DIR";
    if (free < MIN_FREE_BYTES) return { name: "free space", status: "fail", detail: mib, fix };
    if (free < LOW_FREE_BYTES) return { name: "free space", status: "warn", detail: mib, fix };
    return { name: "free space", status: "ok", detail: mib };
  } catch (err) {
    return { name: "free space", status: "warn", detail: `${at}: ${errorMessage(err)}` };
  }
}

/**
 * Runs every check, in order, calling `onCheck` as each one ends (a check of the grammars
 * takes seconds).
 *
 * @example
 * ```ts
 * const checks = await runDoctor({}, (c) => console.log(c.status, c.name, c.detail));
 * const ok = checks.every((c) => c.status !== "fail");
 * ```
 */
export async function runDoctor(
  opts: DoctorOptions = {},
  onCheck: (check: DoctorCheck) => void = () => {},
): Promise<DoctorCheck[]> {
  const indexDir = opts.indexDir ?? defaultIndexHome();
  const out: DoctorCheck[] = [];
  const add = (check: DoctorCheck) => {
    out.push(check);
    onCheck(check);
  };
  add(checkDeno(opts.denoVersion ?? Deno.version.deno));
  add(await checkGrammars());
  add(await checkModel(opts.modelDir ?? MODEL_DIR));
  add(await checkIndexDir(indexDir));
  add(await checkFreeSpace(indexDir));
  return out;
}
