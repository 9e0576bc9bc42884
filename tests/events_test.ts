/**
 * Event streams held by clients that do not read (issue 31): a stream whose client leaves too
 * many bytes unread is dropped and its connection cut while a reading one goes on receiving,
 * and past the cap of open streams a new subscriber takes the place of the one most behind
 * (else the oldest) — 256 subscribers that never read no longer keep out a real one (before,
 * it got 503). Nothing here is timed.
 */

import assert from "node:assert/strict";
import { createEventHub, sseResponse } from "../src/http/events.ts";
import { startServer } from "../src/http/serve.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";
import { poll, post, startIndexed } from "./surfaces_helpers.ts";

const enc = new TextEncoder();

/** Opens `/tools/stream` on a raw connection that will never be read; resolves once sent. */
async function nonReader(port: number): Promise<Deno.TcpConn> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  await c.write(enc.encode(
    `GET /tools/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`,
  ));
  return c;
}

/** Reads `conn` to its end (the server closing it), which closes it; resolves with the bytes read. */
async function readToEnd(conn: Deno.TcpConn): Promise<number> {
  let n = 0;
  try {
    for await (const c of conn.readable) n += c.byteLength;
  } catch {
    // reset by the server: also an end
  }
  return n;
}

/** Reads an SSE body until an event of `name` whose data matches `data`; resolves with it. */
async function untilEvent(
  body: ReadableStream<Uint8Array>,
  name: string,
  data: RegExp,
): Promise<string> {
  const dec = new TextDecoder();
  let text = "";
  for await (const chunk of body) {
    text += dec.decode(chunk, { stream: true });
    for (const block of text.split("\n\n")) {
      if (block.includes(`event: ${name}\n`) && data.test(block)) return block;
    }
  }
  throw new Error(`the stream ended without ${name} ${data}:\n${text.slice(-2000)}`);
}

Deno.test("event streams: a client that does not read is dropped and cut; one that reads goes on", async () => {
  const hub = createEventHub(256, () => {});
  const limits = { maxUnsentBytes: 256 * 1024, maxStreams: 16 };
  const server = await startServer({
    hostname: "127.0.0.1",
    port: 0,
    label: "bridge",
    build: () => () => sseResponse(hub, null, 60_000, limits),
  });
  const port = Number(new URL(server.url).port);
  try {
    const stalled = await nonReader(port);
    const reader = await fetch(server.url);
    const dec = new TextDecoder();
    let last = -1;
    const reading = (async () => {
      for await (const chunk of reader.body!) {
        for (const m of dec.decode(chunk, { stream: true }).matchAll(/"i":(\d+)/g)) {
          last = Number(m[1]);
        }
      }
    })().catch(() => {});
    await poll("both streams open", () => Promise.resolve(hub.subscribers() === 2));
    // Events until the stream nobody reads is dropped: far more than the kernel's buffers
    // and the bound hold for it.
    const pad = "x".repeat(1024);
    let i = 0;
    for (; i < 100_000 && hub.subscribers() > 1; i++) {
      hub.publish("tool.completed", { i, pad });
      if (i % 4 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    assert.equal(hub.subscribers(), 1, "the stream that is not read was not dropped");
    // Its connection is cut: reading it now ends (it would hang were it kept open).
    await readToEnd(stalled);
    // The reader still gets what comes next.
    const after = i + 10;
    hub.publish("tool.completed", { i: after, pad });
    await poll("the reader's next event", () => Promise.resolve(last === after));
    hub.close();
    await reading;
  } finally {
    hub.close();
    await server.shutdown();
  }
});

Deno.test("event streams: 256 subscribers that never read, then a real one gets its events (bridge)", async () => {
  const root = await makeProject({ "app/main.py": "def build():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const child = await startIndexed(["serve"], root, indexDir);
  const idle: Deno.TcpConn[] = [];
  try {
    for (let i = 0; i < 256; i++) idle.push(await nonReader(child.port));
    // Every place is taken once the last of them has its stream (its first bytes came).
    const lastOne = idle[255];
    await lastOne.read(new Uint8Array(64));

    const res = await fetch(`${child.url}/tools/stream`);
    assert.equal(res.status, 200, "a real subscriber was refused");
    const call = await post(`${child.url}/tools/invoke`, {
      tool_name: "search_symbols",
      arguments: { query: "build" },
    });
    assert.equal(call.json.success, true);
    const requestId = String(call.json.request_id);
    const event = await untilEvent(res.body!, "tool.completed", new RegExp(requestId));
    assert.match(event, /"tool_name":"search_symbols"/);
    // The stream that gave its place (the oldest) was told so before its connection ended.
    const first = idle[0];
    const text = await (async () => {
      let t = "";
      const dec = new TextDecoder();
      for await (const c of first.readable) {
        t += dec.decode(c, { stream: true });
        if (t.includes("event: dropped")) break;
      }
      return t;
    })();
    assert.match(text, /event: dropped\ndata: .*reconnect with Last-Event-ID/);
  } finally {
    for (const c of idle) {
      try {
        c.close();
      } catch {
        // closed above or by the server
      }
    }
    await child.stop();
    await cleanup(root, indexDir);
  }
});
