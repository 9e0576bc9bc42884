/**
 * Admission of tool calls: a few run at once, the others wait their turn without taking the
 * event loop. With 50 clients searching, a server that starts all 50 interleaves their steps,
 * and every other request (`/health` included) waits behind all of them; with a few admitted
 * at a time it waits behind those few, and throughput is the same (the work is on one core
 * either way).
 *
 * Calls come in two weights ({@link callWeight}), each with places of its own: a light call
 * (a symbol look-up, a file outline, a search) never waits behind a heavy one (quality of a
 * whole tree, validation of a large body, a context of 32,000 tokens), which run one per two
 * cores at a time. Within a weight, each client (a connection; calls that name none share one
 * queue) has its own queue and clients take turns: a batch of 100 calls or 100 calls of one
 * client are admitted one by one, and another client's call starts after at most one of them.
 * What waits is bounded per client and in all: past a bound a call is refused at once with
 * `busy` and a sentence saying to retry, instead of piling up memory.
 *
 * A light call that runs longer than its lane's `releaseAfterMs` gives its place up (it keeps
 * running): an unexpectedly long one never holds short calls back for long. A heavy call holds
 * its place until it ends or its time limit passes (its signal aborts): heavy work that piled
 * up past the places is what filled the memory (100 whole-tree analyses at once: 1.8 GiB).
 *
 * A freed place passes to the next waiting call at once while the event loop has been held
 * for less than `sliceMs`; past that, on a later turn of the loop (a timer), so that what
 * already waits for the loop (`/health`, read from its socket; the next requests) runs in
 * between. Handed over always at once, 50 queued searches ran back to back; always through a
 * timer, each short call paid the timer's millisecond or two. While calls pass at once, a
 * timer marks the loop's next turn and starts a new slice there: a search awaits its worker,
 * so the loop turns within each call, and only a loop really held (calls run back to back on
 * it) waits for a timer. Counted from handovers alone, a slice ended 10 ms after the last
 * timer's however often the loop turned, and under 50 hybrid clients 40–65 % of handovers
 * went through a timer of 3–11 ms each: 12–17 % of the four places stood idle.
 *
 * @module
 */

import { CodectxError } from "../errors.ts";

/** How much a call weighs: light calls and heavy calls have places of their own. */
export type CallWeight = "light" | "heavy";

/** Who asks for a call and how much it weighs (see {@link Admission.run}). */
export interface AdmitOptions {
  /** The client: its calls wait in a queue of their own, and clients take turns. */
  client?: string;
  /** Default `light`. */
  weight?: CallWeight;
  /** Aborted while the call waits: it leaves the queue, unstarted, with the signal's reason. */
  signal?: AbortSignal;
  /**
   * When the call must have started (epoch ms): still waiting then, it leaves the queue with
   * `busy` and a retry — it never ran, so "narrow the request" (a timeout's advice) is wrong.
   */
  deadline?: number;
}

/** The places of one weight. */
export interface LaneOptions {
  /** Calls that run at once. */
  slots: number;
  /** After this long a running call no longer counts against the slots. */
  releaseAfterMs: number;
  /** Calls one client may have waiting; the next is refused with `busy`. */
  maxWaitingPerClient: number;
  /** Calls all clients together may have waiting; the next is refused with `busy`. */
  maxWaiting: number;
}

/** Options of {@link Admission}. */
export interface AdmissionOptions {
  /** Light calls that run at once (default 4). */
  slots?: number;
  /** After this long a running light call no longer counts (default 1,000 ms). */
  releaseAfterMs?: number;
  /** The light lane's other limits (defaults in {@link LIGHT_LANE}). */
  light?: Partial<LaneOptions>;
  /** The heavy lane's limits (defaults in {@link HEAVY_LANE}). */
  heavy?: Partial<LaneOptions>;
  /**
   * How long calls may follow each other without the event loop turning (default 10 ms; 0:
   * every freed place passes on a later turn).
   */
  sliceMs?: number;
  /** Milliseconds now (default `performance.now`; tests move it by hand). */
  now?: () => number;
}

/** Defaults of the light lane: many short calls, a deep queue (each holds a few bytes). */
export const LIGHT_LANE: LaneOptions = {
  slots: 4,
  releaseAfterMs: 1_000,
  maxWaitingPerClient: 256,
  maxWaiting: 2_048,
};

/**
 * Defaults of the heavy lane: one at once per two cores (each keeps analysis workers busy,
 * and the server's thread does its share: reading files, counting tokens — the other core
 * stays for it and the light calls), held until done or past the call's limit; a client's
 * queue is as deep as a few limits' worth of such calls.
 */
export const HEAVY_LANE: LaneOptions = {
  slots: Math.max(1, Math.floor((navigator.hardwareConcurrency ?? 2) / 2)),
  releaseAfterMs: Infinity,
  maxWaitingPerClient: 32,
  maxWaiting: 256,
};

/** A call waiting for a place. */
interface Waiter {
  client: string;
  start: () => void;
}

/** The places of one weight: calls running, and per client the calls waiting, in turn. */
class Lane {
  running = 0;
  waiting = 0;
  /** Waiting calls by client; the map's order is the clients' turn (first = next). */
  readonly queues = new Map<string, Waiter[]>();

  constructor(readonly name: CallWeight, readonly opts: LaneOptions) {}

  /** The next call to start: the first waiting one of the client whose turn it is. */
  next(): Waiter | undefined {
    const first = this.queues.entries().next();
    if (first.done) return undefined;
    const [client, queue] = first.value;
    const w = queue.shift()!;
    // The client goes to the back of the turn, or leaves it with nothing left waiting.
    this.queues.delete(client);
    if (queue.length) this.queues.set(client, queue);
    this.waiting--;
    return w;
  }

  /** Takes a waiting call out (its wait was aborted). */
  remove(w: Waiter): boolean {
    const queue = this.queues.get(w.client);
    const at = queue?.indexOf(w) ?? -1;
    if (!queue || at < 0) return false;
    queue.splice(at, 1);
    if (queue.length === 0) this.queues.delete(w.client);
    this.waiting--;
    return true;
  }

  /** Why a new call of `client` cannot wait, or null when it may. */
  refusal(client: string): string | null {
    const mine = this.queues.get(client)?.length ?? 0;
    if (mine >= this.opts.maxWaitingPerClient) {
      return `${mine} ${this.name} calls of this client wait already; retry when some have answered`;
    }
    if (this.waiting >= this.opts.maxWaiting) {
      return `${this.waiting} ${this.name} calls wait already; retry in a few seconds`;
    }
    return null;
  }
}

/**
 * Places for tool calls by weight, shared fairly between clients.
 *
 * @example
 * ```ts
 * const admission = new Admission({ slots: 2 });
 * const answer = await admission.run(() => searchProject(project, "parse config"), {
 *   client: "connection 7",
 *   weight: "light",
 * });
 * ```
 */
export class Admission {
  /** Light calls that run at once. */
  readonly slots: number;
  private readonly sliceMs: number;
  private readonly lanes: Record<CallWeight, Lane>;
  private readonly now: () => number;
  /** When the event loop last turned under a handover (calls chained since then hold it). */
  private sliceStart = -Infinity;
  /** The timer that marks the loop's next turn while calls pass at once (see the module note). */
  private turnMark: ReturnType<typeof setTimeout> | undefined;

  constructor(opts: AdmissionOptions = {}) {
    const light = {
      ...LIGHT_LANE,
      ...opts.light,
      ...(opts.slots !== undefined ? { slots: opts.slots } : {}),
      ...(opts.releaseAfterMs !== undefined ? { releaseAfterMs: opts.releaseAfterMs } : {}),
    };
    const heavy = { ...HEAVY_LANE, ...opts.heavy };
    light.slots = Math.max(1, light.slots);
    heavy.slots = Math.max(1, heavy.slots);
    this.lanes = { light: new Lane("light", light), heavy: new Lane("heavy", heavy) };
    this.slots = light.slots;
    this.sliceMs = opts.sliceMs ?? 10;
    this.now = opts.now ?? (() => performance.now());
  }

  /** Calls holding a place now (both weights). */
  get active(): number {
    return this.lanes.light.running + this.lanes.heavy.running;
  }

  /** Calls of `weight` holding a place now. */
  activeOf(weight: CallWeight): number {
    return this.lanes[weight].running;
  }

  /** Calls waiting for a place (of one weight, or both). */
  get waiting(): number {
    return this.lanes.light.waiting + this.lanes.heavy.waiting;
  }

  /** Calls of `weight` waiting for a place. */
  waitingOf(weight: CallWeight): number {
    return this.lanes[weight].waiting;
  }

  /**
   * Runs `call` once a place of its weight is free and its client's turn has come; its result
   * or error is the caller's. Refused at once with `busy` when its client (or everyone) has too
   * many calls waiting; left unstarted when `signal` aborts while it waits.
   */
  async run<T>(call: () => Promise<T>, opts: AdmitOptions = {}): Promise<T> {
    const lane = this.lanes[opts.weight ?? "light"];
    opts.signal?.throwIfAborted();
    if (lane.running >= lane.opts.slots) await this.wait(lane, opts);
    else lane.running++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", release);
      this.pass(lane);
    };
    // Cleared when the call ends; while it runs it may keep the process alive.
    const timer = Number.isFinite(lane.opts.releaseAfterMs)
      ? setTimeout(release, lane.opts.releaseAfterMs)
      : undefined;
    // A call past its limit has been answered: its place goes to the next one.
    opts.signal?.addEventListener("abort", release, { once: true });
    try {
      return await call();
    } finally {
      release();
    }
  }

  /** Queues a call in `lane` until a place passes to it (or its wait ends unstarted). */
  private wait(lane: Lane, opts: AdmitOptions): Promise<void> {
    const { signal, deadline } = opts;
    const client = opts.client ?? "";
    const refusal = lane.refusal(client);
    if (refusal) throw new CodectxError("busy", `the server is busy: ${refusal}`);
    const since = Date.now();
    return new Promise<void>((resolve, reject) => {
      const leave = (err: unknown) => {
        if (!lane.remove(w)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        reject(err);
      };
      const onAbort = () => leave(signal!.reason);
      const w: Waiter = {
        client,
        start: () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const timer = deadline === undefined ? undefined : setTimeout(() =>
        leave(
          new CodectxError(
            "busy",
            `the server is busy: this call waited ${
              ((Date.now() - since) / 1000).toFixed(1)
            } s for one of ${lane.opts.slots} places of ${lane.name} calls (${lane.waiting} waiting) and did not start; retry in a while`,
          ),
        ), Math.max(0, deadline - Date.now()));
      let queue = lane.queues.get(client);
      if (!queue) lane.queues.set(client, queue = []);
      queue.push(w);
      lane.waiting++;
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * A place of `lane` is free: it passes to the next waiting call (`running` stays the same) at
   * once within the slice, else on a later turn of the event loop (see the module note). The
   * call is chosen when the place passes, not when it is freed: a place freed at once
   * meanwhile must not start a later call before the one whose turn is still due.
   */
  private pass(lane: Lane): void {
    if (lane.waiting === 0) {
      lane.running--;
      return;
    }
    if (this.now() - this.sliceStart < this.sliceMs) {
      this.markTurn();
      lane.next()!.start();
      return;
    }
    setTimeout(() => {
      this.sliceStart = this.now();
      const next = lane.next();
      if (next) next.start();
      else lane.running--;
    }, 0);
  }

  /** A new slice starts at the loop's next turn (one timer at a time; it keeps no process alive). */
  private markTurn(): void {
    if (this.turnMark !== undefined) return;
    this.turnMark = setTimeout(() => {
      this.turnMark = undefined;
      this.sliceStart = this.now();
    }, 0);
    Deno.unrefTimer(this.turnMark as unknown as number);
  }
}

/** Tools whose every call is heavy: work over the whole project. */
const HEAVY_TOOLS: ReadonlySet<string> = new Set([
  "analyze_quality",
  "index_project",
  "summarize_repo",
  "ask",
]);

/** Code past this many characters makes `validate_code` heavy (parsed and checked whole). */
const HEAVY_CODE_CHARS = 16_384;

/** A `get_context` budget past this many tokens makes it heavy (ranked, counted, packed). */
const HEAVY_CONTEXT_TOKENS = 8_000;

/**
 * The weight of a call of `tool` with (validated) `args`: heavy when it works over the whole
 * project or an input of unbounded size — a whole-tree analysis, an index run, a summary, an
 * answer; validation of a large body; a context of a large budget; a call graph walked deeper
 * than two hops; a scan of every text (`exact`/`regex` search); the whole dependency graph.
 *
 * @example
 * ```ts
 * callWeight("search_symbols", { query: "parse" }); // "light"
 * callWeight("get_context", { symbol_name: "Project", max_tokens: 32000 }); // "heavy"
 * ```
 */
export function callWeight(tool: string, args: Record<string, unknown>): CallWeight {
  if (HEAVY_TOOLS.has(tool)) return "heavy";
  const num = (v: unknown, d: number) => typeof v === "number" ? v : d;
  switch (tool) {
    case "validate_code":
      return typeof args.code === "string" && args.code.length > HEAVY_CODE_CHARS
        ? "heavy"
        : "light";
    case "get_context":
      return num(args.max_tokens, 0) > HEAVY_CONTEXT_TOKENS ? "heavy" : "light";
    case "get_call_graph":
      return num(args.depth, 1) > 2 ? "heavy" : "light";
    case "semantic_search":
      return args.mode === "regex" || args.mode === "exact" ? "heavy" : "light";
    case "get_dependencies":
      return args.file_path === undefined ? "heavy" : "light";
    default:
      return "light";
  }
}
