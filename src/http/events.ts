/**
 * Server-sent events of the HTTP surfaces (`GET /tools/stream` of the bridge and of
 * `codectx web`): a hub that numbers events, keeps the last 256 for `Last-Event-ID` replay
 * and fans them out to open streams, and the stream response itself (with a `: keepalive`
 * comment every 15 s).
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
export function createEventHub(size = 256): EventHub {
  const ring: StreamEvent[] = [];
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
   * Batches (of up to {@link BATCH_EVENTS} events, shared by every stream) queued for one
   * stream that is not read; past it the stream is dropped.
   */
  maxQueued: number;
  /** Open streams; past it a new one is answered 503. */
  maxStreams: number;
}

/** Defaults of {@link StreamLimits}. */
export const STREAM_LIMITS: StreamLimits = { maxQueued: 64, maxStreams: 256 };

/**
 * An SSE response: replays after `lastEventId` (when given), then streams live events and
 * a keepalive comment every `keepaliveMs`, until the client goes away or the hub closes. A
 * client that stops reading is dropped once {@link StreamLimits.maxQueued} batches wait for
 * it (a final `dropped` event says so), and past {@link StreamLimits.maxStreams} open
 * streams a new one gets 503: memory does not grow with idle subscribers. Batches are
 * encoded once by the hub and shared by every stream.
 */
export function sseResponse(
  hub: EventHub,
  lastEventId: number | null,
  keepaliveMs = 15_000,
  limits: StreamLimits = STREAM_LIMITS,
): Response {
  if (hub.subscribers() >= limits.maxStreams) {
    return new Response(
      JSON.stringify({
        success: false,
        error: `${limits.maxStreams} event streams are open already; close one or retry later`,
        error_code: "busy",
      }),
      { status: 503, headers: { "Content-Type": "application/json; charset=utf-8" } },
    );
  }
  const enc = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      // The replay is bounded by the hub's ring: it counts on top of the allowance.
      let allowance = limits.maxQueued;
      // Batches of the hub (one encoding shared by every stream); a stream whose reader has
      // not taken `allowance` of them is dropped with a last event saying so.
      const deliver = (bytes: Uint8Array) => {
        if (!open) return;
        try {
          // desiredSize counts down below zero with each chunk the reader has not taken.
          if ((controller.desiredSize ?? 0) < -allowance) {
            controller.enqueue(enc.encode(
              `event: dropped\ndata: ${
                JSON.stringify({ reason: `more than ${limits.maxQueued} batches were not read` })
              }\n\n`,
            ));
            stop();
            return;
          }
          controller.enqueue(bytes);
        } catch {
          stop();
        }
      };
      // Replay and subscription happen in one synchronous step: no event falls between.
      const replay = lastEventId === null ? [] : hub.since(lastEventId);
      allowance += 1;
      deliver(enc.encode("retry: 3000\n: connected\n\n" + replay.map(formatEvent).join("")));
      const off = hub.subscribeBatches(deliver);
      const keepalive = enc.encode(": keepalive\n\n");
      const timer = setInterval(() => deliver(keepalive), keepaliveMs);
      const offClose = hub.onClose(() => stop());
      stop = () => {
        if (!open) return;
        open = false;
        off();
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
  });
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
