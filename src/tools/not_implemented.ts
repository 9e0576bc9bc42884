/** The answer of a tool whose handler has not landed yet. */

import { CodectxError } from "../errors.ts";

/** Fails with `not_implemented`. */
export function notImplemented(name: string): Promise<never> {
  return Promise.reject(new CodectxError("not_implemented", `${name}: not implemented yet`));
}
