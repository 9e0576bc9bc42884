/** The codectx version, from deno.json. */

import meta from "../deno.json" with { type: "json" };

/** Semantic version of this build. */
export const VERSION: string = meta.version;
