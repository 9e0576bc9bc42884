/**
 * Resolving an `--embedder` choice to a provider: `auto` takes a local transformers model
 * when one is present, else `codectx-code`, else `use-lite`.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";
import {
  type Embedder,
  EMBEDDER_CHOICES,
  type EmbedderProvider,
  type ResolvedEmbedder,
} from "./embedder.ts";
import { codectxCodeProvider } from "./embedders/codectx_code.ts";
import { transformersProvider } from "./embedders/transformers.ts";
import { useLiteProvider } from "./embedders/use_lite.ts";
import { localModels } from "./models.ts";

/** Providers by name. */
export const PROVIDERS: Readonly<Record<string, EmbedderProvider>> = {
  "use-lite": useLiteProvider,
  "codectx-code": codectxCodeProvider,
  transformers: transformersProvider,
};

/** Splits `transformers:<arg>` / `use-lite` into provider name and argument. */
export function parseEmbedderSpec(spec: string): { name: string; arg: string } {
  const i = spec.indexOf(":");
  return i < 0 ? { name: spec, arg: "" } : { name: spec.slice(0, i), arg: spec.slice(i + 1) };
}

/**
 * Resolves an embedder choice; null for `none`. Throws `invalid_argument` for an unknown
 * choice or a model that is not there.
 *
 * @example
 * ```ts
 * const r = await resolveEmbedder("auto"); // codectx-code unless a local transformers model is present
 * ```
 */
export async function resolveEmbedder(spec: string): Promise<ResolvedEmbedder | null> {
  const s = spec.trim() || "auto";
  if (s === "none") return null;
  if (s === "auto") {
    for (const id of localModels()) {
      if ((await transformersProvider.check(id)) === null) {
        return await resolved(transformersProvider, id);
      }
    }
    if ((await codectxCodeProvider.check("")) === null) {
      return await resolved(codectxCodeProvider, "");
    }
    return await resolved(useLiteProvider, "");
  }
  const { name, arg } = parseEmbedderSpec(s);
  const provider = PROVIDERS[name];
  if (!provider || (name === "transformers" && !arg)) {
    throw new CodectxError(
      "invalid_argument",
      `unknown embedder '${spec}'; choose one of ${EMBEDDER_CHOICES.join(", ")}`,
    );
  }
  const problem = await provider.check(arg);
  if (problem) throw new CodectxError("invalid_argument", problem);
  return await resolved(provider, arg);
}

const inProcess = new Map<string, Promise<Embedder>>();

/**
 * The model of `choice` loaded in this thread, once per process (queries are embedded
 * here; so are documents of models that cannot run in a worker).
 */
export function inProcessEmbedder(choice: ResolvedEmbedder): Promise<Embedder> {
  let e = inProcess.get(choice.id);
  if (!e) {
    e = choice.provider.load(choice.arg);
    inProcess.set(choice.id, e);
    e.catch(() => inProcess.delete(choice.id));
  }
  return e;
}

async function resolved(provider: EmbedderProvider, arg: string): Promise<ResolvedEmbedder> {
  return { provider, arg, id: await provider.id(arg) };
}
