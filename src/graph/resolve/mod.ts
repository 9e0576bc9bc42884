/**
 * The import resolvers, one per language family, by language id.
 *
 * @module
 */

import { cResolver } from "./c.ts";
import { csharpResolver } from "./csharp.ts";
import { goResolver } from "./go.ts";
import { jsResolver } from "./js.ts";
import { jvmResolver } from "./jvm.ts";
import { phpResolver } from "./php.ts";
import { pythonResolver } from "./python.ts";
import { rubyResolver } from "./ruby.ts";
import { rustResolver } from "./rust.ts";
import { luaResolver, shellResolver, swiftResolver } from "./script.ts";
import type { Resolver } from "./types.ts";

/** Every resolver; adding a language family means adding one here. */
export const RESOLVERS: readonly Resolver[] = [
  pythonResolver,
  jsResolver,
  goResolver,
  rustResolver,
  jvmResolver,
  cResolver,
  csharpResolver,
  rubyResolver,
  phpResolver,
  swiftResolver,
  luaResolver,
  shellResolver,
];

const BY_LANGUAGE = new Map<string, Resolver>(
  RESOLVERS.flatMap((r) => r.languages.map((l) => [l, r] as const)),
);

/** The resolver of a language, or undefined (text formats). */
export function resolverFor(language: string): Resolver | undefined {
  return BY_LANGUAGE.get(language);
}
