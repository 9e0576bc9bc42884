/**
 * Admission of tool calls: at most a few run at once, the others wait their turn (first
 * come, first served) without taking the event loop. With 50 clients searching, a server
 * that starts all 50 interleaves their steps, and every other request (`/health` included)
 * waits behind all of them; with a few admitted at a time it waits behind those few, and
 * throughput is the same (the work is on one core either way).
 *
 * A call that runs longer than `releaseAfterMs` gives its place up (it keeps running): an
 * index or a whole-tree analysis never holds short calls back for long.
 *
 * A freed place passes to the next waiting call at once while the event loop has been held
 * for less than `sliceMs`; past that, on a later turn of the loop (a timer), so that what
 * already waits for the loop (`/health`, read from its socket; the next requests) runs in
 * between. Handed over always at once, 50 queued searches ran back to back; always through a
 * timer, each short call paid the timer's millisecond or two.
 *
 * @module
 */

/** Options of {@link Admission}. */
export interface AdmissionOptions {
  /** Calls that run at once (default 4). */
  slots?: number;
  /** After this long a running call no longer counts against the slots (default 1,000 ms). */
  releaseAfterMs?: number;
  /**
   * How long calls may follow each other without the event loop turning (default 10 ms; 0:
   * every freed place passes on a later turn).
   */
  sliceMs?: number;
}

/**
 * A first-come, first-served limit on calls running at once.
 *
 * @example
 * ```ts
 * const admission = new Admission({ slots: 2 });
 * const answer = await admission.run(() => searchProject(project, "parse config"));
 * ```
 */
export class Admission {
  readonly slots: number;
  private readonly releaseAfterMs: number;
  private readonly sliceMs: number;
  private running = 0;
  private readonly queue: Array<() => void> = [];
  /** When the event loop last turned under a handover (calls chained since then hold it). */
  private sliceStart = -Infinity;

  constructor(opts: AdmissionOptions = {}) {
    this.slots = Math.max(1, opts.slots ?? 4);
    this.releaseAfterMs = opts.releaseAfterMs ?? 1000;
    this.sliceMs = opts.sliceMs ?? 10;
  }

  /** Calls holding a place now. */
  get active(): number {
    return this.running;
  }

  /** Calls waiting for a place. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Runs `call` once a place is free; its result or error is the caller's. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) {
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.running++;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      // The place passes to the longest waiting caller (`running` stays the same): at once
      // within the slice, else on a later turn of the event loop (see the module note). The
      // caller is taken when the place passes, not when it is freed: a place freed at once
      // meanwhile must not start a later caller before the one whose turn is still due.
      if (this.queue.length === 0) this.running--;
      else if (performance.now() - this.sliceStart < this.sliceMs) this.queue.shift()!();
      else {
        setTimeout(() => {
          this.sliceStart = performance.now();
          const next = this.queue.shift();
          if (next) next();
          else this.running--;
        }, 0);
      }
    };
    // Cleared when the call ends; while it runs it may keep the process alive.
    const timer = setTimeout(release, this.releaseAfterMs);
    try {
      return await call();
    } finally {
      release();
    }
  }
}
