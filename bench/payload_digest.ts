/**
 * A tool payload's digest for before/after comparisons (`answer_digest.ts`, `literal_cost.ts`):
 * the payload without what changes from run to run, hashed.
 *
 * @module
 */

/** A payload without what changes from run to run. */
export function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      // Timings, and how many vectors the model made in this process (the cache has the rest).
      if (/(_ms|_at|^took|^elapsed|^uptime|^embedded$)/.test(k)) continue;
      out[k] = stable(x);
    }
    return out;
  }
  return v;
}

/** The first 6 bytes of `text`'s SHA-256, in hex. */
export async function digest(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const h = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...h.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
