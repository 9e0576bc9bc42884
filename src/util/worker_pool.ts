/**
 * The one pool of codectx: module workers or `deno` child processes that answer jobs off the
 * calling thread, for parsing (the indexer and its lean processes), analysis, searches, regex
 * scans, embeddings and the lexical build. Each user says what its jobs are (the protocol,
 * affinity, what a member holds); the pool owns the mechanics they share:
 *
 * - members start on demand, up to `size` (one more while every started one is busy), and
 *   end after `idleMs` with nothing to do;
 * - answers are routed to their job by id; a member that dies fails its pending jobs with a
 *   message naming it, and the next job starts another — past `maxFailures` members that died
 *   before their first answer, the pool has failed: jobs run on the calling thread (`inline`)
 *   or are refused with that message;
 * - a member is replaced once it is through with an input past `recycle.inputBytes`, once its
 *   isolate holds more than `recycle.memory` (the worker reports it), or after a job that ran
 *   past its limit; `recycle()` replaces them all between jobs (indexing's memory budget);
 * - a job past its time limit (or whose call was aborted) is answered `timeout` at once, its
 *   stop flag raised; its member stays taken until the job comes back — Deno (2.9) does not stop
 *   a busy worker on `terminate()` (measured), so replacing it at once had abandoned jobs run on
 *   beside new workers — or until `abandonedMs`, and the members that run never outnumber
 *   `size`. A job that must truly end at its deadline runs under `util/bounded.ts` in its worker.
 *
 * @module
 */

import { CodectxError, type ErrorCode, errorCode, errorMessage } from "../errors.ts";
import { encodeFrame, type Frame, readFrames } from "./frames.ts";
import { trimNativeHeapSoon } from "./native_heap.ts";

/** What a member is: a module worker, or a `deno` process that reads and writes frames. */
export type MemberKind = { worker: URL } | { process: string[] };

/** A job's answer as the pool reads it from a member's message. */
export type Answer<Out> =
  & ({ id?: number; result: Out } | { id?: number; error: string; code?: ErrorCode })
  & { memory?: number };

/**
 * How jobs and answers look on the wire. The default is {@link serveJobs}'s: `{id, job, stop}`
 * out, `{id, result | error, memory?}` and `{id, started}` back. A process member sends and
 * reads frames (`frames.ts`).
 */
export interface Protocol<In, Out> {
  /** The message (a worker) or frame bytes (a process) of job `id`. */
  send(id: number, job: In, stop: Int32Array | null): unknown;
  /**
   * The answer a message carries (without `id`: the oldest job of its member), `"started"`
   * when the member began the job (its time limit starts then), or null for a message of the
   * user's own (given to `onMessage`).
   */
  read(message: unknown): Answer<Out> | { id: number; started: true } | null;
}

/** Options of {@link createPool}. */
export interface PoolOptions<In, Out, State> {
  /** Names the members in errors: `<name> worker failed: …`, `the <name> process failed: …`. */
  readonly name: string;
  readonly member: MemberKind;
  /** Most members alive at once (0: every job runs `inline`). */
  readonly size: number;
  /** Jobs one member is given at once (default: no limit; the rest wait in the pool's queue). */
  readonly perMember?: number;
  /** A member with nothing to do for this long ends (ms; default: never). */
  readonly idleMs?: number;
  /**
   * What a job needs warm in a member (a grammar): a member that already ran a job with the
   * same key is preferred while it is not far busier than the least busy one.
   */
  readonly affinity?: (job: In) => string | undefined;
  /** Buffers of a job to move to the member instead of copying them. */
  readonly transfer?: (job: In) => ArrayBuffer[];
  /** A job's input size: past `recycle.inputBytes` it takes at most all members but one. */
  readonly inputBytes?: (job: In) => number;
  /** When a member is replaced after a job (see the module doc). */
  readonly recycle?: { inputBytes?: number; memory?: number; afterTimeout?: boolean };
  /** Members that may die before their first answer before the pool fails (default 3). */
  readonly maxFailures?: number;
  /**
   * False: the first member that dies fails the pool (what it held — a loaded model — cannot
   * be given to another; the caller falls back).
   */
  readonly restart?: boolean;
  /** Runs a job on the calling thread when no member can (size 0, the pool failed). */
  readonly inline?: (job: In) => Promise<Out>;
  /** The error of a job past its limit; `cause` is the signal's reason when its call was aborted. */
  readonly expired?: (job: In, cause: unknown) => Error;
  /** How long a job past its limit may keep its member before that is ended (ms; default 120 s). */
  readonly abandonedMs?: number;
  /** What a job's limit allows on top while its member starts (loads its modules; ms). */
  readonly bootMs?: number;
  /** A raised flag per job, in shared memory, that the job reads to stop itself. */
  readonly stopFlag?: boolean;
  readonly protocol?: Protocol<In, Out>;
  /**
   * The job as the member it goes to is sent it (without what that member already holds:
   * a project view, file weights sent once per member and kept in its `state`).
   */
  readonly forMember?: (job: In, m: Member<State>) => In;
  /** A new member's state (what the user tracks it holds: views, a snapshot, a model). */
  readonly state?: () => State;
  /** Called when a member starts (to send it what it must hold), and on its own messages. */
  readonly onStart?: (m: Member<State>) => void;
  readonly onMessage?: (m: Member<State>, message: unknown) => void;
}

/** A started member, as its pool's user sees it. */
export interface Member<State> {
  /** Its number, 1…size, reused by the member that replaces it. */
  readonly slot: number;
  readonly state: State;
  /** Jobs sent and not answered by it (a job past its limit counts until it comes back). */
  readonly load: number;
  /** The child process of a process member (its pid and end). */
  readonly process?: { pid: number; status: Promise<Deno.CommandStatus> };
  /** Sends a message of the user's own (a snapshot, a model to load). */
  post(message: unknown, transfer?: ArrayBuffer[]): void;
}

/** Limits of one job. */
export interface JobLimits<State = unknown> {
  /** The call's signal: aborting it answers the job `timeout` at once. */
  signal?: AbortSignal;
  /** Time limit of the job in ms (none when absent or 0). */
  timeoutMs?: number;
  /** Only members this accepts take the job (those that hold what it needs). */
  only?: (m: Member<State>) => boolean;
}

/** Runs jobs on members; see the module doc. */
export interface Pool<In, Out, State = undefined> {
  run(job: In, limits?: JobLimits<State>): Promise<Out>;
  /** Starts a member now when none is alive (its modules load before the first job). */
  warm(): void;
  /** Waits for the jobs in flight and ends every member; later jobs start fresh ones. */
  recycle(): Promise<void>;
  /** The members alive now. */
  readonly members: readonly Member<State>[];
  /** Members started since the pool was made (a replaced one counts again). */
  readonly started: number;
  /** Why the pool runs no more jobs on members (null while it does). */
  readonly failure: string | null;
  /** Ends the members, refuses what waits; resolves when processes have exited. */
  close(): Promise<void>;
}

/** How many more queued jobs a warm member may have than the least busy one. */
const AFFINITY_SLACK = 2;
const ABANDONED_MS = 120_000;

interface Queued<In, Out, State> {
  job: In;
  limits: JobLimits<State>;
  resolve: (v: Out) => void;
  reject: (e: Error) => void;
}

interface Running<In, Out, State> extends Queued<In, Out, State> {
  answered: boolean;
  abandoned: boolean;
  timer?: ReturnType<typeof setTimeout>;
  stop: Int32Array | null;
  onAbort?: () => void;
}

interface Live<In, Out, State> extends Member<State> {
  running: Map<number, Running<In, Out, State>>;
  warm: Set<string>;
  replied: boolean;
  /** Takes no more jobs; ends once its jobs are back. */
  retiring: boolean;
  booting: boolean;
  idle?: ReturnType<typeof setTimeout>;
  end(kill: boolean): Promise<void>;
}

/** The envelope protocol of {@link serveJobs}. */
function envelopes<In, Out>(): Protocol<In, Out> {
  return {
    send: (id, job, stop) => (stop ? { id, job, stop } : { id, job }),
    read: (m) => m as Answer<Out> | { id: number; started: true },
  };
}

/**
 * A pool of members of `opts.member`, started on demand (see the module doc).
 *
 * @example
 * ```ts
 * const pool = createPool<string, number>({
 *   name: "length",
 *   member: { worker: new URL("./length_worker.ts", import.meta.url) },
 *   size: 2,
 * });
 * await pool.run("abc"); // 3
 * await pool.close();
 * ```
 */
export function createPool<In, Out, State = undefined>(
  opts: PoolOptions<In, Out, State>,
): Pool<In, Out, State> {
  const protocol = opts.protocol ?? envelopes<In, Out>();
  const perMember = opts.perMember ?? Infinity;
  const bigBytes = opts.recycle?.inputBytes ?? Infinity;
  const members: Live<In, Out, State>[] = [];
  const queue: Queued<In, Out, State>[] = [];
  const ending = new Set<Promise<void>>();
  let nextId = 0;
  let started = 0;
  let failures = 0;
  let failure: string | null = opts.size <= 0 ? `no ${opts.name} workers` : null;
  let closed = false;
  let restarting: Promise<void> | null = null;
  let drained: (() => void) | null = null;
  const noun = "worker" in opts.member ? `${opts.name} worker` : `the ${opts.name} process`;
  const closedError = () => new CodectxError("internal", `${opts.name} pool closed`);
  const expired = opts.expired ??
    ((_job: In, cause: unknown) =>
      cause instanceof Error
        ? cause
        : new CodectxError("timeout", `the ${opts.name} job passed its time limit`));
  const isBig = (job: In) => (opts.inputBytes?.(job) ?? 0) > bigBytes;
  const inFlight = () => members.reduce((n, m) => n + m.running.size, 0);

  const end = (m: Live<In, Out, State>, kill: boolean) => {
    const at = members.indexOf(m);
    if (at === -1) return;
    members.splice(at, 1);
    clearTimeout(m.idle);
    for (const r of m.running.values()) {
      clearTimeout(r.timer);
      settle(r, closedError());
    }
    m.running.clear();
    if (inFlight() === 0) drained?.();
    const done = m.end(kill).finally(() => ending.delete(done));
    ending.add(done);
  };

  const settle = (r: Running<In, Out, State>, err: Error | null, result?: Out) => {
    if (r.answered) return;
    r.answered = true;
    if (r.onAbort) r.limits.signal?.removeEventListener("abort", r.onAbort);
    if (err) r.reject(err);
    else r.resolve(result as Out);
  };

  const fail = (m: Live<In, Out, State>, why: string) => {
    if (!members.includes(m)) return;
    const message = `${noun} failed: ${why}`;
    if (opts.restart === false || (!m.replied && ++failures >= (opts.maxFailures ?? 3))) {
      failure = message;
    }
    for (const r of m.running.values()) settle(r, new Error(message));
    end(m, true);
    if (failure) flush();
    else pump();
  };

  /** Jobs that wait when the pool can no longer run them: here, or refused. */
  const flush = () => {
    for (const q of queue.splice(0)) {
      if (opts.inline && !closed) opts.inline(q.job).then(q.resolve, q.reject);
      else q.reject(closed ? closedError() : new Error(failure ?? ""));
    }
  };

  const idle = (m: Live<In, Out, State>) => {
    if (m.running.size > 0) return;
    if (m.retiring) return end(m, false);
    if (opts.idleMs === undefined) return;
    clearTimeout(m.idle);
    m.idle = setTimeout(() => {
      if (m.running.size === 0) end(m, false);
    }, opts.idleMs);
    Deno.unrefTimer(m.idle as unknown as number);
  };

  const answer = (m: Live<In, Out, State>, message: unknown) => {
    const a = protocol.read(message);
    if (a === null) return opts.onMessage?.(m, message);
    const id = a.id ?? m.running.keys().next().value;
    const r = id === undefined ? undefined : m.running.get(id);
    if (!r) return;
    if ("started" in a) {
      m.booting = false;
      if (r.limits.timeoutMs && !r.abandoned) arm(m, r, r.limits.timeoutMs);
      return;
    }
    m.running.delete(id!);
    clearTimeout(r.timer);
    m.replied = true;
    m.booting = false;
    if ("error" in a) {
      settle(
        r,
        a.code ? new CodectxError(a.code, a.error) : new Error(a.error || `${noun} failed`),
      );
    } else settle(r, null, a.result);
    const rc = opts.recycle;
    if (
      (r.abandoned && rc?.afterTimeout) || isBig(r.job) ||
      (rc?.memory !== undefined && (a.memory ?? 0) > rc.memory)
    ) m.retiring = true;
    idle(m);
    if (inFlight() === 0) drained?.();
    pump();
  };

  const arm = (m: Live<In, Out, State>, r: Running<In, Out, State>, ms: number) => {
    clearTimeout(r.timer);
    r.timer = setTimeout(() => stop(m, r, undefined), ms);
  };

  /** A job past its limit: answered now, its member held until it is back (see module doc). */
  const stop = (m: Live<In, Out, State>, r: Running<In, Out, State>, cause: unknown) => {
    settle(r, expired(r.job, cause));
    if (r.abandoned) return;
    r.abandoned = true;
    raiseStopFlag(r.stop);
    clearTimeout(r.timer);
    r.timer = setTimeout(() => {
      end(m, true);
      pump();
    }, opts.abandonedMs ?? ABANDONED_MS);
    Deno.unrefTimer(r.timer as unknown as number);
  };

  const start = (): Live<In, Out, State> | null => {
    const used = new Set(members.map((m) => m.slot));
    let slot = 1;
    while (used.has(slot)) slot++;
    const running = new Map<number, Running<In, Out, State>>();
    const m: Live<In, Out, State> = {
      slot,
      state: opts.state?.() as State,
      running,
      warm: new Set(),
      replied: false,
      retiring: false,
      booting: true,
      get load() {
        return running.size;
      },
      post: () => {},
      end: () => Promise.resolve(),
    };
    const hooks: Hooks = { message: (msg) => answer(m, msg), fail: (why) => fail(m, why) };
    try {
      Object.assign(
        m,
        "worker" in opts.member
          ? startWorker(opts.member.worker, hooks)
          : startProcess(opts.member.process, hooks),
      );
    } catch (err) {
      // Nothing of this kind can start here (a binary without the module): no retries.
      failure = `${noun} could not start: ${err instanceof Error ? err.message : err}`;
      return null;
    }
    members.push(m);
    started++;
    opts.onStart?.(m);
    return m;
  };

  /** The member a job goes to (one more is started while every started one is busy). */
  const pick = (job: In, only: JobLimits<State>["only"]): Live<In, Out, State> | undefined => {
    const can = (m: Live<In, Out, State>) =>
      !m.retiring && m.running.size < perMember && (only?.(m) ?? true);
    let best: Live<In, Out, State> | undefined;
    for (const m of members) if (can(m) && (!best || m.load < best.load)) best = m;
    if ((!best || best.load > 0) && members.length < opts.size && !failure) {
      const fresh = start();
      if (fresh && can(fresh)) best = fresh;
    }
    const key = opts.affinity?.(job);
    if (key === undefined || !best) return best;
    let warm: Live<In, Out, State> | undefined;
    for (const m of members) {
      if (can(m) && m.warm.has(key) && (!warm || m.load < warm.load)) warm = m;
    }
    if (warm && warm.load <= best.load + AFFINITY_SLACK) best = warm;
    best.warm.add(key);
    return best;
  };

  const dispatch = (m: Live<In, Out, State>, q: Queued<In, Out, State>) => {
    clearTimeout(m.idle);
    const sent = opts.forMember?.(q.job, m) ?? q.job;
    const id = nextId++;
    const stopFlag = opts.stopFlag ? newStopFlag() : null;
    const r: Running<In, Out, State> = { ...q, answered: false, abandoned: false, stop: stopFlag };
    m.running.set(id, r);
    const { signal, timeoutMs } = q.limits;
    if (signal) {
      r.onAbort = () => stop(m, r, signal.reason);
      signal.addEventListener("abort", r.onAbort, { once: true });
    }
    if (timeoutMs) arm(m, r, timeoutMs + (m.booting ? opts.bootMs ?? 0 : 0));
    m.post(protocol.send(id, sent, stopFlag), opts.transfer?.(sent));
  };

  const pump = () => {
    if (closed || restarting) return;
    if (failure) return flush();
    for (let i = 0; i < queue.length;) {
      const q = queue[i];
      // Large inputs take at most all members but one: a small call never waits (and runs
      // out its time limit) behind a row of large ones.
      if (
        opts.size > 1 && isBig(q.job) &&
        members.filter((m) => [...m.running.values()].some((r) => isBig(r.job))).length >=
          opts.size - 1
      ) {
        i++;
        continue;
      }
      const m = pick(q.job, q.limits.only);
      if (!m) {
        if (failure) return flush();
        i++;
        continue;
      }
      queue.splice(i, 1);
      if (q.limits.signal?.aborted) q.reject(expired(q.job, q.limits.signal.reason));
      else dispatch(m, q);
    }
  };

  return {
    async run(job, limits = {}) {
      while (restarting) await restarting;
      if (closed) throw closedError();
      if (failure) {
        if (opts.inline) return await opts.inline(job);
        throw new Error(failure);
      }
      return await new Promise<Out>((resolve, reject) => {
        const q: Queued<In, Out, State> = { job, limits, resolve, reject };
        queue.push(q);
        // A call that ends while its job waits takes the job out of the queue.
        limits.signal?.addEventListener("abort", () => {
          const at = queue.indexOf(q);
          if (at === -1) return;
          queue.splice(at, 1);
          reject(expired(job, limits.signal!.reason));
        }, { once: true });
        pump();
      });
    },
    warm() {
      if (!closed && !failure && members.length === 0) start();
    },
    recycle() {
      restarting ??= (async () => {
        if (inFlight() > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = null;
        for (const m of [...members]) end(m, false);
        await Promise.all(ending);
      })().finally(() => {
        restarting = null;
        pump();
      });
      return restarting;
    },
    get members() {
      return members;
    },
    get started() {
      return started;
    },
    get failure() {
      return failure;
    },
    async close() {
      closed = true;
      for (const m of [...members]) end(m, m.running.size > 0);
      flush();
      await Promise.all(ending);
    },
  };
}

type Hooks = { message(m: unknown): void; fail(why: string): void };
type Started = Pick<Live<never, never, never>, "post" | "end" | "process">;

/** A module worker whose messages go to `hooks`. */
function startWorker(url: URL, hooks: Hooks): Started {
  const w = new Worker(url, { type: "module" });
  w.onmessage = (e) => hooks.message(e.data);
  w.onerror = (e) => {
    e.preventDefault();
    hooks.fail(e.message);
  };
  return {
    post: (message, transfer = []) => w.postMessage(message, transfer),
    end() {
      w.onmessage = null;
      w.onerror = null;
      w.terminate();
      // Its thread frees its isolate as it exits: give those pages back after it.
      trimNativeHeapSoon();
      return Promise.resolve();
    },
  };
}

const decoder = new TextDecoder();

/**
 * A `deno` child process that reads frames (`frames.ts`) on stdin and writes frames on stdout
 * (each a message to `hooks`); it ends when its stdin closes, or is killed.
 */
function startProcess(args: string[], hooks: Hooks): Started {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdin = child.stdin.getWriter();
  let stderrTail = "";
  let closing = false;
  const fail = (why: string) => {
    if (closing) return;
    const tail = stderrTail.trim();
    hooks.fail(`${why}${tail ? `: ${tail}` : ""}`);
  };
  const reading = (async () => {
    for await (const frame of readFrames(child.stdout)) hooks.message(frame);
  })().catch((err) => fail(String(err)));
  const stderr = (async () => {
    for await (const chunk of child.stderr) {
      stderrTail = (stderrTail + decoder.decode(chunk)).slice(-2000);
    }
  })();
  const status = child.status.then((s) => fail(`it exited with code ${s.code}`));
  const done = Promise.allSettled([reading, stderr, status]);
  return {
    process: { pid: child.pid, status: child.status },
    post(bytes) {
      stdin.write(bytes as Uint8Array).catch((err) => fail(`writing to it failed: ${err}`));
    },
    async end(kill) {
      closing = true;
      await stdin.close().catch(() => {});
      if (kill) {
        try {
          child.kill();
        } catch {
          // Already gone.
        }
      }
      await done;
    },
  };
}

/** A job's stop flag, lowered; `null` where shared memory is not available. */
export function newStopFlag(): Int32Array | null {
  return typeof SharedArrayBuffer === "function"
    ? new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT))
    : null;
}

/** Raises a flag: the job that holds it stops at its next check (`analysis/stop_flag.ts`). */
export function raiseStopFlag(f: Int32Array | null): void {
  if (f) Atomics.store(f, 0, 1);
}

/**
 * The protocol of a process member: a job is written as one frame (`frame` makes its header
 * and payload), and each frame read back is an answer that `answer` decodes.
 */
export function frameProtocol<In, Out>(
  frame: (id: number, job: In) => { header: unknown; payload?: Uint8Array },
  answer: (frame: Frame<{ id: number }>) => Answer<Out>,
): Protocol<In, Out> {
  return {
    send(id, job) {
      const { header, payload } = frame(id, job);
      return encodeFrame(header, payload);
    },
    read: (m) => answer(m as Frame<{ id: number }>),
  };
}

/**
 * A pool made while someone holds it: `hold()` on open, the returned release on close; the
 * pool closes with its last holder. What process-wide pools (the tools' analysis, the scans)
 * are kept by.
 *
 * @example
 * ```ts
 * const scans = heldPool(() => createPool({ name: "scan", member, size: 2 }));
 * const release = scans.hold();
 * await scans.get().run(job);
 * release();
 * ```
 */
export function heldPool<P extends { close(): unknown }>(make: () => P) {
  let pool: P | null = null;
  let holders = 0;
  return {
    /** The pool (made on first use). */
    get: (): P => (pool ??= make()),
    get held(): boolean {
      return holders > 0;
    },
    hold(): () => void {
      holders++;
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        if (--holders === 0 && pool) {
          pool.close();
          pool = null;
        }
      };
    },
  };
}

/**
 * The buffers of `views` that hold nothing but that view, each once: what a job or a result
 * can move to another thread instead of copying (a view into a larger buffer is copied).
 *
 * @example
 * ```ts
 * wholeBuffers([new Uint8Array(4), new Uint8Array(8).subarray(2)]).length; // 1
 * ```
 */
export function wholeBuffers(views: Iterable<Uint8Array>): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const v of views) {
    if (
      v.buffer instanceof ArrayBuffer && v.byteOffset === 0 &&
      v.byteLength === v.buffer.byteLength
    ) out.add(v.buffer);
  }
  return [...out];
}

/** The part of a worker's global scope that {@link serveJobs} uses. */
export interface JobScope {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
}

/** What {@link serveJobs} adds to its answers. */
export interface ServeOptions {
  /** Say when a job begins (the pool starts its time limit then, not while modules load). */
  started?: boolean;
  /** Report the isolate's memory after each job (heap and external: the pool's `recycle.memory`). */
  memory?: boolean;
}

/**
 * Answers a pool's jobs inside a worker module: each job goes to `handle` (with its stop flag
 * when the pool gives one), and its result (or the code and message of what it threw) goes
 * back to the pool; `transfer` names the result's buffers to move to the pool instead of
 * copying them.
 *
 * @example
 * ```ts
 * /// <reference lib="deno.worker" />
 * serveJobs(self, (text: string) => text.length);
 * ```
 */
export function serveJobs<In, Out>(
  scope: JobScope,
  handle: (job: In, stop: Int32Array | null) => Out | Promise<Out>,
  transfer?: (result: Out) => ArrayBuffer[],
  opts: ServeOptions = {},
): void {
  scope.onmessage = async (e: MessageEvent<{ id: number; job: In; stop?: Int32Array }>) => {
    const { id, job, stop } = e.data;
    if (opts.started) scope.postMessage({ id, started: true });
    let reply: Answer<Out>;
    let moved: ArrayBuffer[] = [];
    try {
      const result = await handle(job, stop ?? null);
      reply = { id, result };
      if (transfer) moved = transfer(result);
    } catch (err) {
      reply = { id, error: errorMessage(err), code: errorCode(err) };
    }
    if (opts.memory) {
      const m = Deno.memoryUsage();
      reply.memory = m.heapUsed + m.external;
    }
    scope.postMessage(reply, moved);
  };
}
