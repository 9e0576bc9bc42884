/**
 * Process lifetime of a long-running surface: it stops on the first SIGINT or SIGTERM.
 *
 * @module
 */

/** Resolves on the first SIGINT or SIGTERM (and stops listening for them). */
export function untilSignal(): Promise<Deno.Signal> {
  return new Promise((resolve) => {
    const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
    const handlers = signals.map((sig) => {
      const h = () => {
        handlers.forEach(([s, fn]) => Deno.removeSignalListener(s, fn));
        resolve(sig);
      };
      return [sig, h] as const;
    });
    handlers.forEach(([s, fn]) => Deno.addSignalListener(s, fn));
  });
}
