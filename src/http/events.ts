/**
 * Server-sent events of the HTTP surfaces (`GET /tools/stream` of the bridge and of
 * `codectx web`): a hub that numbers events, keeps the last 256 for `Last-Event-ID` replay
 * and fans them out to open streams, and the stream response itself (with a `: keepalive`
 * comment every 15 s).
 *
 * Streams are a bounded resource held by clients that may not read: one whose unsent bytes
 * pass {@link StreamLimits.maxUnsentBytes} is dropped, and past {@link StreamLimits.maxStreams}
 * a new stream takes the place of the one most behind (else the oldest), which ends with a
 * `dropped` event — a client that reads reconnects by itself (`retry: 3000`) and resumes with
 * `Last-Event-ID`; one that does not read never holds the places of those that do. (Before:
 * a client that never read was dropped only after ~7 MB — 4 MB taken by the kernel's socket
 * buffers, then 64 batches — which at a few events per tool call is hours; 256 of them held
 * every place and a real subscriber got 503.)
 *
 * @module
 */

import type { Executor } from "../tools/executor.ts";

/** One numbered event. */
export interface StreamEvent {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

/** An open event stream, as the hub's limits see it. */
export interface OpenStream {
  /** When it opened (`performance.now()`). */
  readonly openedAt: number;
  /** Bytes made for it that its client has not taken yet. */
  unsent(): number;
  /** Ends it with a last `dropped` event giving `reason`. */
  drop(reason: string): void;
}

/** Numbers, remembers and fans out events. */
export interface EventHub {
  publish(event: string, data: Record<string, unknown>): StreamEvent;
  /** Remembered events after `lastId` (all remembered ones when `lastId` is unknown). */
  since(lastId: number): StreamEvent[];
  subscribe(fn: (e: StreamEvent) => void): () => void;
  /**
   * Receives events in batches already in the SSE wire format: one encoding per batch for
   * every stream, at most every {@link FLUSH_MS} (or every {@link BATCH_EVENTS} events).
   */
  subscribeBatches(fn: (bytes: Uint8Array) => void): () => void;
  /** How many subscribers are listening (per event and per batch). */
  subscribers(): number;
  /** Adds an open stream to those the limits choose from; returns the removal. */
  track(stream: OpenStream): () => void;
  /** The open streams. */
  streams(): Iterable<OpenStream>;
  /**
   * Notes a stream dropped for `why` (a short phrase): the first of each kind is logged,
   * later ones are counted into a line at most once a minute.
   */
  noteDrop(why: string): void;
  /** Ends every open stream. */
  close(): void;
  onClose(fn: () => void): () => void;
}

/**
 * A hub with a ring of `size` events.
 *
 * @example
 * ```ts
 * const hub = createEventHub();
 * hub.publish("tool.started", { tool_name: "explain_file" });
 * hub.since(0); // [{ id: 1, event: "tool.started", data: {...} }]
 * ```
 */
export function createEventHub(
  size = 256,
  log: (line: string) => void = (line) => console.error(line),
): EventHub {
  const ring: StreamEvent[] = [];
  const open = new Set<OpenStream>();
  const drops = new Map<string, { count: number; logged: number; at: number }>();
  const subs = new Set<(e: StreamEvent) => void>();
  const batchSubs = new Set<(bytes: Uint8Array) => void>();
  const closers = new Set<() => void>();
  const enc = new TextEncoder();
  let pending: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let next = 1;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const bytes = enc.encode(pending.join(""));
    pending = [];
    for (const fn of [...batchSubs]) {
      try {
        fn(bytes);
      } catch {
        // a stream that failed is dropped by its own cancel
      }
    }
  };
  return {
    publish(event, data) {
      const e = { id: next++, event, data };
      ring.push(e);
      if (ring.length > size) ring.shift();
      for (const fn of subs) {
        try {
          fn(e);
        } catch {
          // a stream that failed is dropped by its own cancel
        }
      }
      if (batchSubs.size) {
        pending.push(formatEvent(e));
        if (pending.length >= BATCH_EVENTS) flush();
        else timer ??= setTimeout(flush, FLUSH_MS);
      }
      return e;
    },
    subscribeBatches(fn) {
      // What is pending goes to the streams already open: a new one replays it from the ring.
      flush();
      batchSubs.add(fn);
      return () => {
        batchSubs.delete(fn);
        if (batchSubs.size === 0) flush();
      };
    },
    since(lastId) {
      // An id from the future comes from an earlier server: replay what we have.
      if (lastId >= next) return [...ring];
      return ring.filter((e) => e.id > lastId);
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
    subscribers() {
      return subs.size + batchSubs.size;
    },
    track(stream) {
      open.add(stream);
      return () => open.delete(stream);
    },
    streams() {
      return open;
    },
    noteDrop(why) {
      const d = drops.get(why) ?? { count: 0, logged: 0, at: -Infinity };
      drops.set(why, d);
      d.count++;
      const now = performance.now();
      if (d.logged > 0 && now - d.at < 60_000) return;
      log(
        d.logged === 0
          ? `codectx: dropped an event stream: ${why} (further ones are counted once a minute)`
          : `codectx: dropped ${d.count - d.logged} more event streams: ${why}`,
      );
      d.logged = d.count;
      d.at = now;
    },
    close() {
      flush();
      for (const fn of [...closers]) fn();
      closers.clear();
    },
    onClose(fn) {
      closers.add(fn);
      return () => closers.delete(fn);
    },
  };
}

/**
 * Feeds a hub from an executor: its tool events and its service's index events.
 * Returns the function that stops feeding.
 */
export function connectHub(hub: EventHub, executor: Executor): () => void {
  const offTools = executor.onEvent((e) => {
    const { type, ...data } = e;
    hub.publish(type, data);
  });
  const offIndex = executor.service.subscribe((e) => {
    if (e.type === "progress") {
      hub.publish("index.progress", {
        phase: e.progress.phase,
        files_done: e.progress.filesDone,
        files_total: e.progress.filesTotal,
      });
    } else {
      hub.publish("index.completed", {
        files: e.report.files,
        chunks: e.report.chunks,
        symbols: e.report.symbols,
        changed: e.report.changed,
        elapsed_ms: e.report.elapsedMs,
      });
    }
  });
  return () => {
    offTools();
    offIndex();
  };
}

/** One event in the SSE wire format. */
export function formatEvent(e: StreamEvent): string {
  return `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** Longest wait of a live event before the streams write it (ms). */
export const FLUSH_MS = 250;

/** Events in one batch at most: a burst is written without waiting for the timer. */
export const BATCH_EVENTS = 64;

/** Limits of the event streams. */
export interface StreamLimits {
  /**
   * Bytes made for one stream that its client has not taken (beyond what the kernel's socket
   * buffers hold); past it the stream is dropped.
   */
  maxUnsentBytes: number;
  /** Open streams; past it a new one takes the place of the one most behind, else the oldest. */
  maxStreams: number;
}

/** Defaults of {@link StreamLimits}: 1 MiB unsent, 256 streams. */
export const STREAM_LIMITS: StreamLimits = { maxUnsentBytes: 1 << 20, maxStreams: 256 };

/**
 * The stream that gives its place to a new one: the one with the most bytes its client has
 * not taken, else (no stream is behind: each client has taken all it was sent, or nothing
 * was sent) the oldest.
 */
function giveWay(streams: Iterable<OpenStream>): OpenStream | null {
  let behind: OpenStream | null = null;
  let most = 0;
  let oldest: OpenStream | null = null;
  for (const s of streams) {
    const unsent = s.unsent();
    if (unsent > most) [behind, most] = [s, unsent];
    if (!oldest || s.openedAt < oldest.openedAt) oldest = s;
  }
  return behind ?? oldest;
}

/**
 * An SSE response: replays after `lastEventId` (when given), then streams live events and
 * a keepalive comment every `keepaliveMs`, until the client goes away or the hub closes. A
 * client that stops reading is dropped once {@link StreamLimits.maxUnsentBytes} wait for it
 * (a final `dropped` event says so), and past {@link StreamLimits.maxStreams} open streams a
 * new one takes the place of the stream most behind, else of the oldest (see the module
 * note): memory does not grow with idle subscribers, and they do not keep out those that
 * read. Batches are encoded once by the hub and shared by every stream.
 */
export function sseResponse(
  hub: EventHub,
  lastEventId: number | null,
  keepaliveMs = 15_000,
  limits: StreamLimits = STREAM_LIMITS,
): Response {
  while (hub.subscribers() >= limits.maxStreams) {
    const victim = giveWay(hub.streams());
    if (!victim) {
      return new Response(
        JSON.stringify({
          success: false,
          error: `${limits.maxStreams} event streams are open already; close one or retry later`,
          error_code: "busy",
        }),
        { status: 503, headers: { "Content-Type": "application/json; charset=utf-8" } },
      );
    }
    const behind = victim.unsent() > 0;
    victim.drop(
      `${limits.maxStreams} event streams are open and a new client asked for one; ` +
        "reconnect with Last-Event-ID to resume",
    );
    hub.noteDrop(
      behind
        ? "a new stream took the place of one whose client was not reading"
        : `a new stream took the place of the oldest (${limits.maxStreams} streams open)`,
    );
  }
  const enc = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      // With a byte-length strategy of high-water mark 0, desiredSize is minus the bytes the
      // reader (the listener, which reads only once the socket took the last chunk) has not
      // taken.
      const unsent = () => Math.max(0, -(controller.desiredSize ?? 0));
      const handle: OpenStream = {
        openedAt: performance.now(),
        unsent,
        drop(reason) {
          if (!open) return;
          // A client that is behind would read the last event only after all the rest (if
          // ever): its stream ends in an error, which drops what waits for it at once and
          // has the listener cut the connection. One that has taken everything reads why.
          const last = `event: dropped\ndata: ${JSON.stringify({ reason })}\n\n`;
          if (unsent() > 0) controller.error(new Error(reason));
          else controller.enqueue(enc.encode(last));
          stop();
        },
      };
      // Batches of the hub (one encoding shared by every stream); a stream whose reader has
      // left more than the bound untaken is dropped. The replay is bounded by the hub's ring:
      // it counts on top of the bound.
      let allowance = limits.maxUnsentBytes;
      const deliver = (bytes: Uint8Array) => {
        if (!open) return;
        if (unsent() + bytes.byteLength > allowance) {
          hub.noteDrop(`its client left more than ${limits.maxUnsentBytes} bytes unread`);
          handle.drop(`more than ${limits.maxUnsentBytes} bytes were not read`);
          return;
        }
        try {
          controller.enqueue(bytes);
        } catch {
          stop();
        }
      };
      // Replay and subscription happen in one synchronous step: no event falls between.
      const replay = lastEventId === null ? [] : hub.since(lastEventId);
      const first = enc.encode("retry: 3000\n: connected\n\n" + replay.map(formatEvent).join(""));
      allowance += first.byteLength;
      deliver(first);
      const off = hub.subscribeBatches(deliver);
      const untrack = hub.track(handle);
      const keepalive = enc.encode(": keepalive\n\n");
      const timer = setInterval(() => deliver(keepalive), keepaliveMs);
      const offClose = hub.onClose(() => stop());
      stop = () => {
        if (!open) return;
        open = false;
        off();
        untrack();
        offClose();
        clearInterval(timer);
        try {
          controller.close();
        } catch {
          // already closed or errored
        }
      };
    },
    cancel() {
      stop();
    },
  }, new ByteLengthQueuingStrategy({ highWaterMark: 0 }));
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}

/** Reads `Last-Event-ID` (header, or `last_event_id` query for plain EventSource clients). */
export function lastEventIdOf(req: Request): number | null {
  const raw = req.headers.get("last-event-id") ??
    new URL(req.url).searchParams.get("last_event_id");
  if (raw === null || !/^\d+$/.test(raw.trim())) return null;
  return Number(raw.trim());
}
