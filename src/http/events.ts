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
  /** How many subscribers are listening. */
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
  const closers = new Set<() => void>();
  let next = 1;
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
      return e;
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
      return subs.size;
    },
    close() {
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

const formattedEvents = new WeakMap<StreamEvent, string>();

/** {@link formatEvent}, once per event however many streams send it. */
function formatted(e: StreamEvent): string {
  let text = formattedEvents.get(e);
  if (text === undefined) formattedEvents.set(e, text = formatEvent(e));
  return text;
}

/** Longest wait of a live event before its stream writes it (ms). */
export const FLUSH_MS = 250;

/** Limits of the event streams. */
export interface StreamLimits {
  /** Events queued for one stream that is not read; past it the stream is dropped. */
  maxQueued: number;
  /** Open streams; past it a new one is answered 503. */
  maxStreams: number;
}

/** Defaults of {@link StreamLimits}. */
export const STREAM_LIMITS: StreamLimits = { maxQueued: 64, maxStreams: 256 };

/**
 * An SSE response: replays after `lastEventId` (when given), then streams live events and
 * a keepalive comment every `keepaliveMs`, until the client goes away or the hub closes. A
 * client that stops reading is dropped once {@link StreamLimits.maxQueued} events wait for
 * it (a final `dropped` event says so), and past {@link StreamLimits.maxStreams} open
 * streams a new one gets 503: memory does not grow with idle subscribers.
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
      // Events are written in batches, one write per stream per FLUSH_MS at most: with
      // hundreds of streams, a write per event and stream would cost every request a
      // write per subscriber.
      let pending: string[] = [];
      let flushTimer: ReturnType<typeof setTimeout> | undefined;
      // The replay is bounded by the hub's ring: it counts on top of the allowance.
      let allowance = limits.maxQueued;
      const flush = () => {
        flushTimer = undefined;
        if (!open || pending.length === 0) return;
        const text = pending.join("");
        pending = [];
        try {
          // desiredSize counts down below zero with each batch the reader has not taken.
          if ((controller.desiredSize ?? 0) < -allowance) {
            controller.enqueue(enc.encode(
              `event: dropped\ndata: ${
                JSON.stringify({ reason: `more than ${limits.maxQueued} events were not read` })
              }\n\n`,
            ));
            stop();
            return;
          }
          controller.enqueue(enc.encode(text));
        } catch {
          stop();
        }
      };
      const send = (text: string) => {
        if (!open) return;
        pending.push(text);
        // A reader that takes nothing for long: drop it without waiting for the batch.
        if (pending.length > limits.maxQueued) return flush();
        flushTimer ??= setTimeout(flush, FLUSH_MS);
      };
      send("retry: 3000\n: connected\n\n");
      // Replay and subscription happen in one synchronous step: no event falls between.
      const replay = lastEventId === null ? [] : hub.since(lastEventId);
      allowance += replay.length + 1;
      for (const e of replay) send(formatEvent(e));
      flush();
      const off = hub.subscribe((e) => send(formatted(e)));
      const timer = setInterval(() => send(": keepalive\n\n"), keepaliveMs);
      const offClose = hub.onClose(() => stop());
      stop = () => {
        if (!open) return;
        flush();
        open = false;
        off();
        offClose();
        clearInterval(timer);
        clearTimeout(flushTimer);
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
