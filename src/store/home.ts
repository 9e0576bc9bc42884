/**
 * Where indexes live: one folder per project root under a home folder shared by every
 * project (and by the downloaded embedding models).
 *
 * @module
 */

import { sha256Hex } from "../util/hash.ts";

/** Default index folder: `$CODECTX_HOME`, `$XDG_CACHE_HOME/codectx` or `~/.cache/codectx`. */
export function defaultIndexHome(): string {
  const env = (k: string) => Deno.env.get(k);
  const home = env("CODECTX_HOME");
  if (home) return home;
  const xdg = env("XDG_CACHE_HOME");
  if (xdg) return `${xdg}/codectx`;
  return `${env("HOME") ?? "."}/.cache/codectx`;
}

/** The index folder of one project root: `<home>/<basename>-<hash of real path>`. */
export async function indexDirFor(root: string, home = defaultIndexHome()): Promise<string> {
  const digest = await sha256Hex(new TextEncoder().encode(root));
  const base = root.split("/").filter(Boolean).pop() ?? "root";
  return `${home}/${base.replace(/[^\w.-]/g, "_")}-${digest.slice(0, 12)}`;
}
