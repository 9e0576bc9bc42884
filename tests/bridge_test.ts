/**
 * The bridge (`codectx serve`), tested over HTTP against the real CLI in a child process:
 * every endpoint and kind, bad requests, path safety, CORS, Host, token, body limit, the
 * event stream, background indexing and the watcher. Plus unit tests of the pieces.
 */

import assert from "node:assert/strict";
import { KINDS } from "../src/bridge/protocol.ts";
import { createEventHub, sseResponse } from "../src/http/events.ts";
import { parseSize, serverConfig } from "../src/cli/server_options.ts";
import { hostAllowed, isLoopback, originAllowed } from "../src/http/safety.ts";
import { relevantPath } from "../src/service/watch.ts";
import { TOOL_NAMES } from "../src/tools/registry.ts";
import {
  type Answer,
  arr,
  fixtureCopy,
  http,
  obj,
  poll,
  post,
  rawHttp,
  rawStatus,
  readEvents,
  runCli,
  SECRET_MARKER,
  startCli,
  TOOL_CASES,
} from "./surfaces_helpers.ts";

/** Texts that must never appear in an answer. */
const FORBIDDEN = [SECRET_MARKER, "leaked_outside_fn", "root:x:0:0"];

Deno.test("bridge: endpoints, kinds, bad requests, path safety, CORS and Host over HTTP", async (t) => {
  const fx = await fixtureCopy();
  const srv = await startCli("serve", [
    "--port",
    "0",
    "--path",
    fx.root,
    "--index-dir",
    fx.indexDir,
    "--no-watch",
  ]);
  const seen: string[] = [];
  const keep = (a: Answer) => {
    seen.push(a.text);
    return a;
  };
  const request = async (body: unknown, headers: Record<string, string> = {}) =>
    keep(await post(`${srv.url}/request`, body, headers));
  const invoke = async (body: unknown) => keep(await post(`${srv.url}/tools/invoke`, body));
  /** A valid request after a bad one is still answered. */
  const stillServing = async () => {
    const a = await request({ kind: "explain_file", params: { file_path: "app/utils.py" } });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.json.success, true);
  };

  try {
    await t.step("GET / is the capabilities manifest", async () => {
      const a = keep(await http(`${srv.url}/`));
      assert.equal(a.status, 200);
      assert.equal(a.json.name, "codectx");
      assert.equal(a.json.protocol, "codectx-bridge/1");
      assert.equal(a.json.project_root, fx.root);
      assert.deepEqual(a.json.kinds, [...KINDS]);
      assert.equal(arr(a.json.kinds).length, 12);
      assert.deepEqual(a.json.tools, [...TOOL_NAMES]);
      const paths = arr(a.json.endpoints).map((e) => obj(e).path);
      for (const p of ["/", "/health", "/request", "/tools/invoke", "/tools/list"]) {
        assert.ok(paths.includes(p), p);
      }
    });

    await t.step("GET /health reports the index, ready after the background run", async () => {
      const first = keep(await http(`${srv.url}/health`));
      assert.equal(first.status, 200);
      assert.equal(first.json.status, "ok");
      assert.ok(["empty", "indexing", "ready"].includes(String(obj(first.json.index).state)));
      const ready = await poll("index ready", async () => {
        const a = await http(`${srv.url}/health`);
        return obj(a.json.index).state === "ready" ? a : null;
      });
      const index = obj(ready.json.index);
      assert.ok(Number(index.files) >= 9, JSON.stringify(index));
      assert.ok(Number(index.symbols) >= 15, JSON.stringify(index));
      assert.ok(Number(index.chunks) > 0);
      assert.equal(typeof index.vectors, "number");
      assert.equal(typeof index.vectors_total, "number");
      assert.ok(
        ["off", "idle", "embedding", "complete", "error"].includes(String(index.vectors_state)),
        JSON.stringify(index),
      );
      assert.equal(typeof index.last_indexed_at, "string");
      assert.equal(ready.json.project_root, fx.root);
      assert.equal(typeof ready.json.uptime_s, "number");
      assert.equal(typeof ready.json.version, "string");
    });

    await t.step(
      "GET /tools/list gives every tool with input and output JSON Schemas",
      async () => {
        const a = keep(await http(`${srv.url}/tools/list`));
        assert.equal(a.status, 200);
        const tools = arr(a.json.tools).map(obj);
        assert.deepEqual(tools.map((x) => x.name), [...TOOL_NAMES]);
        for (const tool of tools) {
          assert.equal(obj(tool.input_schema).type, "object", String(tool.name));
          assert.equal(obj(tool.output_schema).type, "object", String(tool.name));
          assert.ok(String(tool.description).length > 10);
        }
        const explain = tools.find((x) => x.name === "explain_file");
        assert.deepEqual(obj(explain?.input_schema).required, ["file_path"]);
      },
    );

    await t.step("POST /tools/invoke runs a tool and generates a request_id", async () => {
      const a = await invoke({
        tool_name: "explain_file",
        arguments: { file_path: "app/main.py" },
      });
      assert.equal(a.status, 200, a.text);
      assert.equal(a.json.tool_name, "explain_file");
      assert.equal(a.json.success, true);
      assert.match(String(a.json.request_id), /^[0-9a-f-]{36}$/);
      assert.equal(typeof a.json.execution_time_ms, "number");
      assert.equal(a.json.error, undefined);
      const payload = obj(a.json.result_payload);
      assert.equal(payload.file, "app/main.py");
      assert.equal(payload.language, "python");
      const names = arr(payload.symbols).map((s) => obj(s).name);
      for (const n of ["Greeter", "greet", "main"]) assert.ok(names.includes(n), n);

      const s = await invoke({ tool_name: "search_symbols", arguments: { query: "Router" } });
      assert.equal(s.status, 200);
      const first = obj(arr(obj(s.json.result_payload).symbols)[0]);
      assert.equal(first.name, "Router");
      assert.equal(first.file, "web/server.ts");
    });

    await t.step("POST /tools/invoke: every tool answers its real payload", async () => {
      for (const name of TOOL_NAMES) {
        const a = await invoke({ tool_name: name, arguments: TOOL_CASES[name].args });
        assert.equal(a.status, 200, `${name}: ${a.text}`);
        assert.equal(a.json.success, true, name);
        TOOL_CASES[name].check(obj(a.json.result_payload), name);
      }
    });

    await t.step(
      "POST /request answers all 12 kinds; a tool kind's data is its payload",
      async () => {
        for (const kind of KINDS) {
          const requestId = `req-${kind}`;
          const tool = TOOL_CASES[kind];
          const params = kind === "invoke_tool"
            ? { tool_name: "search_symbols", arguments: { query: "Vector" } }
            : tool?.args ?? {};
          const a = await request({ kind, params, request_id: requestId, source: "test" });
          assert.equal(a.status, 200, `${kind}: ${a.text}`);
          assert.equal(a.json.request_id, requestId, kind);
          assert.equal(typeof a.json.elapsed_ms, "number", kind);
          assert.equal(a.json.success, true, kind);
          assert.equal(a.json.error, "", kind);
          if (tool) tool.check(obj(a.json.data), kind);
        }
        // Every other kind is the tool of its name, so its payload was checked above.
        assert.deepEqual(KINDS.filter((k) => !TOOL_CASES[k]), [
          "list_capabilities",
          "invoke_tool",
          "list_tools",
        ]);
        const caps = await request({ kind: "list_capabilities" });
        assert.equal(obj(caps.json.data).protocol, "codectx-bridge/1");
        const list = await request({ kind: "list_tools", params: {} });
        assert.deepEqual(arr(obj(list.json.data).tools).map((x) => obj(x).name), [...TOOL_NAMES]);
        const inv = await request({
          kind: "invoke_tool",
          params: { tool_name: "search_symbols", arguments: { query: "Vector" } },
        });
        const data = obj(inv.json.data);
        assert.equal(data.tool_name, "search_symbols");
        assert.equal(data.success, true);
        assert.equal(data.request_id, inv.json.request_id);
        assert.equal(obj(arr(obj(data.result_payload).symbols)[0]).file, "pkg/mathx/mathx.go");
        const file = await request({
          kind: "explain_file",
          params: { file_path: "web/server.ts" },
        });
        assert.equal(obj(file.json.data).file, "web/server.ts", "data is the tool's payload");
      },
    );

    await t.step("request_id is generated when absent", async () => {
      const a = await request({ kind: "list_capabilities" });
      assert.match(String(a.json.request_id), /^[0-9a-f-]{36}$/);
    });

    await t.step("index_project through invoke_tool", async () => {
      const a = await request({ kind: "invoke_tool", params: { tool_name: "index_project" } });
      assert.equal(a.status, 200, a.text);
      const payload = obj(obj(a.json.data).result_payload);
      assert.ok(Number(payload.files) >= 9);
      assert.equal(payload.changed, 0);
      assert.equal(payload.state, "ready");
    });

    await t.step(
      "bad requests answer 400 with success:false, and the server keeps serving",
      async () => {
        const cases: Array<[string, () => Promise<Answer>, RegExp]> = [
          ["malformed JSON", () => request('{"kind": "explain_file",'), /not valid JSON/],
          ["empty body", () => request(""), /empty/],
          ["array body", () => request([1, 2]), /must be a JSON object.*an array/],
          ["string body", () => request('"hello"'), /must be a JSON object.*a string/],
          ["missing kind", () => request({ params: {} }), /kind is missing; valid kinds: /],
          ["kind not a string", () => request({ kind: 7 }), /kind must be a string/],
          [
            "unknown kind",
            () => request({ kind: "frobnicate" }),
            /unknown kind 'frobnicate'; valid kinds: semantic_search, .*list_tools/,
          ],
          [
            "params not an object",
            () => request({ kind: "explain_file", params: [1] }),
            /params must be a JSON object/,
          ],
          [
            "request_id not a string",
            () => request({ kind: "list_tools", request_id: 5 }),
            /request_id must be a string/,
          ],
          [
            "unknown tool via invoke_tool",
            () => request({ kind: "invoke_tool", params: { tool_name: "rm_rf", arguments: {} } }),
            /unknown tool 'rm_rf'; valid tools: semantic_search/,
          ],
          [
            "missing tool_name",
            () => request({ kind: "invoke_tool", params: { arguments: {} } }),
            /tool_name is missing/,
          ],
          [
            "wrong argument type",
            () => request({ kind: "explain_file", params: { file_path: 5 } }),
            /file_path/,
          ],
          [
            "missing required argument",
            () => request({ kind: "explain_file", params: {} }),
            /file_path/,
          ],
          [
            "unknown argument",
            () => request({ kind: "explain_file", params: { file_path: "a.py", bogus: 1 } }),
            /unknown argument 'bogus'/,
          ],
          [
            // zod's record check threw a TypeError on this key (an internal 500 before).
            "params with a null `constructor` key",
            () =>
              request({
                kind: "get_dependencies",
                params: { file_path: "app/main.py", constructor: null },
              }),
            /unknown argument 'constructor'/,
          ],
        ];
        for (const [name, send, message] of cases) {
          const a = await send();
          assert.equal(a.status, 400, `${name}: ${a.status} ${a.text}`);
          assert.equal(a.json.success, false, name);
          assert.match(String(a.json.error), message, name);
          assert.equal(typeof a.json.request_id, "string", name);
          assert.deepEqual(a.json.data !== undefined, true, name);
          await stillServing();
        }
        const echoed = await request({ kind: "nope", request_id: "keep-me" });
        assert.equal(echoed.json.request_id, "keep-me");

        const tools: Array<[string, unknown, RegExp]> = [
          ["malformed JSON", "{", /not valid JSON/],
          ["not an object", "[]", /must be a JSON object/],
          [
            "unknown tool",
            { tool_name: "nope", arguments: {} },
            /unknown tool 'nope'; valid tools:/,
          ],
          ["missing tool", { arguments: {} }, /tool_name is missing/],
          [
            "wrong argument type",
            { tool_name: "search_symbols", arguments: { query: 42 } },
            /query/,
          ],
          [
            "arguments not an object",
            { tool_name: "search_symbols", arguments: "Greeter" },
            /must be a JSON object/,
          ],
        ];
        for (const [name, body, message] of tools) {
          const a = await invoke(body);
          assert.equal(a.status, 400, `${name}: ${a.text}`);
          assert.equal(a.json.success, false, name);
          assert.match(String(a.json.error), message, name);
          assert.deepEqual(a.json.result_payload, {}, name);
          assert.equal(typeof a.json.tool_name, "string", name);
          await stillServing();
        }
      },
    );

    await t.step("unknown paths answer 404 with the error body", async () => {
      for (
        const [method, path] of [["GET", "/nope"], ["POST", "/tools/nope"], ["GET", "/request"]]
      ) {
        const a = keep(await http(`${srv.url}${path}`, { method }));
        assert.equal(a.status, 404, `${method} ${path}`);
        assert.equal(a.json.success, false);
        assert.match(String(a.json.error), /no endpoint/);
        await stillServing();
      }
    });

    await t.step("a body over 1 MiB answers 413 (declared or streamed)", async () => {
      const big = JSON.stringify({
        kind: "validate_code",
        params: { code: "x".repeat(1_100_000) },
      });
      const a = await request(big);
      assert.equal(a.status, 413, a.text.slice(0, 200));
      assert.equal(a.json.success, false);
      assert.match(String(a.json.error), /larger than 1048576 bytes/);
      await stillServing();
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 20) return controller.close();
          sent++;
          controller.enqueue(chunk);
        },
      });
      const b = keep(
        await http(`${srv.url}/tools/invoke`, {
          method: "POST",
          body: stream,
          headers: { "Content-Type": "application/json" },
        }),
      );
      assert.equal(b.status, 413, b.text.slice(0, 200));
      assert.equal(b.json.success, false);
      await stillServing();
    });

    await t.step("paths outside the root answer 400 and leak nothing", async () => {
      const paths = [
        "../../etc/passwd",
        "/etc/passwd",
        fx.secretFile,
        "app/escape.py",
        "linked_out/secret.py",
        "app/../../outside/secret.py",
        "web/../../../../../../etc/passwd",
      ];
      for (const p of paths) {
        const a = await request({ kind: "explain_file", params: { file_path: p } });
        assert.equal(a.status, 400, `${p}: ${a.text}`);
        assert.equal(a.json.success, false);
        assert.equal(a.json.error_code, "outside_root", p);
        assert.match(String(a.json.error), /outside the project root/);
        const b = await invoke({ tool_name: "explain_file", arguments: { file_path: p } });
        assert.equal(b.status, 400, p);
        const c = await invoke({
          tool_name: "search_symbols",
          arguments: { query: "leaked", path_prefix: p },
        });
        assert.equal(c.status, 400, p);
        await stillServing();
      }
      const s = await invoke({
        tool_name: "search_symbols",
        arguments: { query: "leaked_outside" },
      });
      assert.equal(obj(s.json.result_payload).total, 0, "the symlinked file was not indexed");
    });

    await t.step(
      "CORS: evil origins get 403 without ACAO; editors and localhost are reflected",
      async () => {
        for (const origin of ["https://evil.example", "null", "http://localhost.evil.example"]) {
          const get = keep(await http(`${srv.url}/health`, { headers: { Origin: origin } }));
          assert.equal(get.status, 403, origin);
          assert.equal(get.headers.get("access-control-allow-origin"), null, origin);
          assert.match(String(get.json.error), /not allowed/);
          const postA = await request({ kind: "list_tools" }, { Origin: origin });
          assert.equal(postA.status, 403, origin);
          assert.equal(postA.headers.get("access-control-allow-origin"), null);
          const pre = keep(
            await http(`${srv.url}/request`, {
              method: "OPTIONS",
              headers: { Origin: origin, "Access-Control-Request-Method": "POST" },
            }),
          );
          assert.equal(pre.status, 403);
          assert.equal(pre.headers.get("access-control-allow-origin"), null);
          await stillServing();
        }
        for (
          const origin of [
            "vscode-webview://1a2b3c",
            "http://localhost:3000",
            "http://127.0.0.1:8080",
            "chrome-extension://abcdef",
          ]
        ) {
          const a = keep(await http(`${srv.url}/health`, { headers: { Origin: origin } }));
          assert.equal(a.status, 200, origin);
          assert.equal(a.headers.get("access-control-allow-origin"), origin);
          const pre = keep(
            await http(`${srv.url}/request`, {
              method: "OPTIONS",
              headers: {
                Origin: origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
              },
            }),
          );
          assert.equal(pre.status, 204, origin);
          assert.equal(pre.headers.get("access-control-allow-origin"), origin);
          assert.match(pre.headers.get("access-control-allow-methods") ?? "", /POST/);
          assert.match(pre.headers.get("access-control-allow-headers") ?? "", /Content-Type/i);
          const p = await request({ kind: "list_capabilities" }, { Origin: origin });
          assert.equal(p.status, 200);
          assert.equal(p.headers.get("access-control-allow-origin"), origin);
        }
        const plain = keep(await http(`${srv.url}/health`));
        assert.equal(plain.headers.get("access-control-allow-origin"), null);
        const preflightAnyPath = keep(await http(`${srv.url}/anything`, { method: "OPTIONS" }));
        assert.equal(preflightAnyPath.status, 204);
      },
    );

    await t.step("Host: a foreign Host header answers 403 on a loopback bind", async () => {
      const evil = await rawHttp(
        srv.port,
        `GET /health HTTP/1.1\nHost: evil.example\nConnection: close`,
      );
      assert.equal(rawStatus(evil), 403, evil);
      assert.ok(!evil.includes("project_root"));
      const wrongPort = await rawHttp(
        srv.port,
        `GET /health HTTP/1.1\nHost: 127.0.0.1:1\nConnection: close`,
      );
      assert.equal(rawStatus(wrongPort), 403);
      for (const host of [`localhost:${srv.port}`, `127.0.0.1:${srv.port}`]) {
        const ok = await rawHttp(
          srv.port,
          `GET /health HTTP/1.1\nHost: ${host}\nConnection: close`,
        );
        assert.equal(rawStatus(ok), 200, host);
      }
      await stillServing();
    });

    await t.step(
      "GET /tools/stream streams tool events with ids, and replays after Last-Event-ID",
      async () => {
        const ctrl = new AbortController();
        const res = await fetch(`${srv.url}/tools/stream`, { signal: ctrl.signal });
        assert.equal(res.status, 200);
        assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
        const reading = readEvents(
          res.body!,
          (events) =>
            events.some((e) => e.event === "tool.completed" && e.data.request_id === "sse-1"),
        );
        // The stream is open once its headers arrived; this call's events go to it.
        const a = await request({
          kind: "explain_file",
          params: { file_path: "app/models.py" },
          request_id: "sse-1",
          source: "sse-test",
        });
        assert.equal(a.status, 200);
        const { events, raw } = await reading;
        ctrl.abort();
        assert.match(raw, /^retry: \d+\n: connected\n\n/);
        const started = events.find((e) =>
          e.event === "tool.started" && e.data.request_id === "sse-1"
        );
        const completed = events.find((e) =>
          e.event === "tool.completed" && e.data.request_id === "sse-1"
        );
        assert.ok(started && completed, raw);
        assert.equal(started.data.tool_name, "explain_file");
        assert.equal(started.data.source, "sse-test");
        assert.equal(typeof started.data.ts, "string");
        assert.equal(completed.data.success, true);
        assert.equal(typeof completed.data.execution_time_ms, "number");
        assert.ok(Number(completed.id) > Number(started.id));

        const replay = await fetch(`${srv.url}/tools/stream`, {
          headers: { "Last-Event-ID": String(started.id) },
        });
        const again = await readEvents(
          replay.body!,
          (evs) => evs.some((e) => e.id === completed.id),
        );
        assert.equal(again.events[0].id, String(Number(started.id) + 1));
        assert.ok(again.events.every((e) => Number(e.id) > Number(started.id)));
        const replayed = again.events.find((e) => e.id === completed.id);
        assert.equal(replayed?.data.request_id, "sse-1");

        const failed = await fetch(`${srv.url}/tools/stream`, {
          headers: { "Last-Event-ID": String(completed.id) },
        });
        const failReading = readEvents(
          failed.body!,
          (evs) => evs.some((e) => e.event === "tool.completed" && e.data.request_id === "sse-2"),
        );
        await request({ kind: "explain_file", params: { file_path: 1 }, request_id: "sse-2" });
        const f = (await failReading).events.find((e) =>
          e.event === "tool.completed" && e.data.request_id === "sse-2"
        );
        assert.equal(f?.data.success, false);
        assert.match(String(f?.data.error), /file_path/);
      },
    );

    await t.step("no answer carried a byte of a file outside the root", () => {
      assert.ok(seen.length > 50);
      for (const text of seen) {
        for (const bad of FORBIDDEN) assert.ok(!text.includes(bad), `leaked ${bad}: ${text}`);
      }
    });
  } finally {
    const status = await srv.stop();
    await fx.cleanup();
    assert.equal(status.signal ?? null, null, `exit by signal: ${srv.stderr()}`);
  }
});

Deno.test("bridge: answers at once, tool calls wait for the background index, watcher keeps it fresh", async (t) => {
  const fx = await fixtureCopy();
  const srv = await startCli("serve", [
    "--port",
    "0",
    "--path",
    fx.root,
    "--index-dir",
    fx.indexDir,
  ]);
  const find = async (query: string) => {
    const a = await post(`${srv.url}/tools/invoke`, {
      tool_name: "search_symbols",
      arguments: { query },
    });
    assert.equal(a.status, 200, a.text);
    return arr(obj(a.json.result_payload).symbols).map(obj);
  };
  try {
    await t.step("health answers while the index builds; a tool call waits for it", async () => {
      const h = await http(`${srv.url}/health`);
      assert.equal(h.status, 200);
      const state = String(obj(h.json.index).state);
      assert.ok(["empty", "indexing", "ready"].includes(state), state);
      const hits = await find("Greeter");
      assert.equal(hits[0]?.name, "Greeter", "answered from the built index, not from nothing");
      const after = await http(`${srv.url}/health`);
      assert.equal(obj(after.json.index).state, "ready");
    });

    await t.step("the event ring replays index.progress and index.completed", async () => {
      const res = await fetch(`${srv.url}/tools/stream`, { headers: { "Last-Event-ID": "0" } });
      const { events } = await readEvents(
        res.body!,
        (evs) => evs.some((e) => e.event === "index.completed"),
      );
      const progress = events.filter((e) => e.event === "index.progress");
      assert.ok(progress.length > 0);
      assert.deepEqual(Object.keys(progress[0].data).sort(), [
        "files_done",
        "files_total",
        "phase",
      ]);
      const done = events.find((e) => e.event === "index.completed")!;
      assert.ok(Number(done.data.files) >= 9);
      assert.ok(Number(done.data.symbols) >= 15);
      assert.equal(typeof done.data.chunks, "number");
      assert.equal(typeof done.data.elapsed_ms, "number");
      assert.equal(events[0].id, "1");
    });

    await t.step("an added function is found through the server a few seconds later", async () => {
      const t0 = Date.now();
      await Deno.writeTextFile(
        `${fx.root}/app/utils.py`,
        `\n\ndef freshly_added_helper(value):\n    """Added while the server runs."""\n    return value\n`,
        { append: true },
      );
      const hits = await poll("freshly_added_helper", async () => {
        const h = await find("freshly_added_helper");
        return h.length ? h : null;
      }, 30_000);
      assert.equal(hits[0].name, "freshly_added_helper");
      assert.equal(hits[0].file, "app/utils.py");
      console.log(`  (found ${Date.now() - t0} ms after the save)`);
    });

    await t.step("a new file is indexed and a deleted one drops out", async () => {
      await Deno.writeTextFile(`${fx.root}/web/extra.ts`, "export class BrandNewWidget {}\n");
      await poll("BrandNewWidget", async () => (await find("BrandNewWidget")).length > 0, 30_000);
      await Deno.remove(`${fx.root}/web/extra.ts`);
      await poll(
        "BrandNewWidget gone",
        async () => (await find("BrandNewWidget")).length === 0,
        30_000,
      );
    });

    await t.step("files written into skipped folders stay out of the index", async () => {
      await Deno.mkdir(`${fx.root}/node_modules/pkg`, { recursive: true });
      await Deno.writeTextFile(`${fx.root}/node_modules/pkg/index.ts`, "export class Hidden {}\n");
      // A later real change is picked up, and the skipped file never is.
      await Deno.writeTextFile(`${fx.root}/app/later.py`, "def later_marker():\n    pass\n");
      await poll("later_marker", async () => (await find("later_marker")).length > 0, 30_000);
      assert.equal((await find("Hidden")).length, 0);
    });
  } finally {
    await srv.stop();
    await fx.cleanup();
  }
});

Deno.test("bridge: a non-loopback bind needs a token; requests without the bearer get 401", async (t) => {
  const fx = await fixtureCopy();
  try {
    await t.step("--host 0.0.0.0 without a token refuses to start", async () => {
      const r = await runCli(
        [
          "serve",
          "--host",
          "0.0.0.0",
          "--port",
          "0",
          "--path",
          fx.root,
          "--index-dir",
          fx.indexDir,
        ],
        { CODECTX_TOKEN: "" },
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--token/);
      assert.match(r.stderr, /CODECTX_TOKEN/);
    });

    await t.step("with --token every request but OPTIONS needs Authorization: Bearer", async () => {
      const srv = await startCli("serve", [
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--token",
        "s3cret-t0ken",
        "--path",
        fx.root,
        "--index-dir",
        fx.indexDir,
        "--no-watch",
      ]);
      try {
        const base = `http://127.0.0.1:${srv.port}`;
        const none = await http(`${base}/health`);
        assert.equal(none.status, 401);
        assert.equal(none.json.success, false);
        assert.match(none.headers.get("www-authenticate") ?? "", /Bearer/);
        assert.ok(!none.text.includes("project_root"));
        const wrong = await http(`${base}/health`, {
          headers: { Authorization: "Bearer nope" },
        });
        assert.equal(wrong.status, 401);
        const postNone = await post(`${base}/request`, { kind: "list_tools" });
        assert.equal(postNone.status, 401);
        const pre = await http(`${base}/request`, {
          method: "OPTIONS",
          headers: { Origin: "http://localhost:3000", "Access-Control-Request-Method": "POST" },
        });
        assert.equal(pre.status, 204);
        const ok = await http(`${base}/health`, {
          headers: { Authorization: "Bearer s3cret-t0ken" },
        });
        assert.equal(ok.status, 200);
        const call = await post(`${base}/request`, { kind: "list_tools" }, {
          Authorization: "Bearer s3cret-t0ken",
        });
        assert.equal(call.status, 200);
        assert.equal(call.json.success, true);
      } finally {
        await srv.stop();
      }
    });

    await t.step("CODECTX_TOKEN works like --token (also on loopback)", async () => {
      const srv = await startCli(
        "serve",
        ["--port", "0", "--path", fx.root, "--index-dir", fx.indexDir, "--no-watch"],
        { CODECTX_TOKEN: "env-token-123" },
      );
      try {
        assert.equal((await http(`${srv.url}/`)).status, 401);
        const ok = await http(`${srv.url}/`, {
          headers: { Authorization: "Bearer env-token-123" },
        });
        assert.equal(ok.status, 200);
      } finally {
        await srv.stop();
      }
    });
  } finally {
    await fx.cleanup();
  }
});

Deno.test("bridge: --max-body and --allow-origin", async () => {
  const fx = await fixtureCopy();
  const srv = await startCli("serve", [
    "--port",
    "0",
    "--path",
    fx.root,
    "--index-dir",
    fx.indexDir,
    "--no-watch",
    "--max-body",
    "2k",
    "--allow-origin",
    "https://app.example,https://other.example",
    "--allow-origin",
    "https://third.example",
  ]);
  try {
    const big = await post(`${srv.url}/request`, {
      kind: "validate_code",
      params: { code: "x".repeat(3000) },
    });
    assert.equal(big.status, 413);
    assert.match(String(big.json.error), /larger than 2048 bytes/);
    const small = await post(`${srv.url}/request`, { kind: "list_capabilities" });
    assert.equal(small.status, 200);
    for (
      const origin of ["https://app.example", "https://other.example", "https://third.example"]
    ) {
      const a = await http(`${srv.url}/health`, { headers: { Origin: origin } });
      assert.equal(a.status, 200, origin);
      assert.equal(a.headers.get("access-control-allow-origin"), origin);
    }
    const evil = await http(`${srv.url}/health`, { headers: { Origin: "https://evil.example" } });
    assert.equal(evil.status, 403);
  } finally {
    await srv.stop();
    await fx.cleanup();
  }
});

Deno.test("http safety: origins, hosts, loopback and options", () => {
  for (
    const o of [
      "vscode-webview://abc",
      "vscode-file://vscode-app",
      "chrome-extension://id",
      "moz-extension://id",
      "http://localhost",
      "http://localhost:3000",
      "https://127.0.0.1:8443",
    ]
  ) assert.ok(originAllowed(o), o);
  for (
    const o of [
      "https://evil.example",
      "null",
      "",
      "file://",
      "http://localhost.evil.example",
      "http://127.0.0.1.evil.example",
      "ftp://localhost",
    ]
  ) assert.ok(!originAllowed(o), o);
  assert.ok(originAllowed("https://app.example", ["https://app.example/"]));
  assert.ok(originAllowed("https://anything.example", ["*"]));

  assert.ok(hostAllowed("localhost:8080", "127.0.0.1", 8080));
  assert.ok(hostAllowed("127.0.0.1:8080", "127.0.0.1", 8080));
  assert.ok(hostAllowed("[::1]:8080", "::1", 8080));
  assert.ok(!hostAllowed("evil.example:8080", "127.0.0.1", 8080));
  assert.ok(!hostAllowed("localhost:8081", "127.0.0.1", 8080));
  assert.ok(!hostAllowed(null, "127.0.0.1", 8080));
  assert.ok(hostAllowed("localhost", "127.0.0.1", 80));

  assert.ok(isLoopback("127.0.0.1") && isLoopback("::1") && isLoopback("localhost"));
  assert.ok(!isLoopback("0.0.0.0") && !isLoopback("192.168.1.4"));

  assert.equal(parseSize("2k"), 2048);
  assert.equal(parseSize("1MiB"), 1_048_576);
  assert.equal(parseSize("12"), 12);
  assert.equal(parseSize("lots"), null);

  const env = () => undefined;
  assert.deepEqual(serverConfig({}, 24842, env), {
    host: "127.0.0.1",
    port: 24842,
    token: undefined,
    allowOrigins: [],
    maxBody: 1_048_576,
    watch: true,
  });
  assert.throws(() => serverConfig({ host: "0.0.0.0" }, 1, env), /--token/);
  assert.equal(serverConfig({ host: "0.0.0.0", token: "t" }, 1, env).token, "t");
  assert.equal(serverConfig({ host: "0.0.0.0" }, 1, () => "from-env").token, "from-env");
  assert.throws(() => serverConfig({ port: "70000" }, 1, env), /--port/);
  assert.throws(() => serverConfig({ "max-body": "-1" }, 1, env), /--max-body/);
  assert.deepEqual(serverConfig({ "max-connections": "64" }, 1, env).limits, {
    maxConnections: 64,
  });
  assert.throws(() => serverConfig({ "max-connections": "0" }, 1, env), /--max-connections/);

  const skip = new Set(["node_modules", ".git"]);
  assert.ok(relevantPath("/r", "/r/src/a.ts", skip));
  assert.ok(!relevantPath("/r", "/r/node_modules/x/a.ts", skip));
  assert.ok(!relevantPath("/r", "/r/.git/index", skip));
  assert.ok(!relevantPath("/r", "/rx/a.ts", skip));
  assert.ok(!relevantPath("/r", "/r/.idx/data.kv", skip, ["/r/.idx"]));
});

Deno.test("event hub: a ring of 256 for Last-Event-ID, keepalive comments", async () => {
  const hub = createEventHub();
  for (let i = 1; i <= 300; i++) hub.publish("tool.started", { n: i });
  const all = hub.since(0);
  assert.equal(all.length, 256);
  assert.equal(all[0].id, 45);
  assert.equal(all.at(-1)?.id, 300);
  assert.deepEqual(hub.since(298).map((e) => e.id), [299, 300]);
  assert.equal(hub.since(300).length, 0);
  assert.equal(hub.since(9999).length, 256, "an id from an earlier server replays the ring");

  const res = sseResponse(hub, 297, 20);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let text = "";
  while (!text.includes(": keepalive")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += dec.decode(value);
  }
  assert.match(text, /id: 298\nevent: tool.started\ndata: \{"n":298\}/);
  assert.match(text, /id: 300\n/);
  assert.ok(!text.includes("id: 297\n"));
  hub.publish("index.completed", { files: 1 });
  let more = "";
  while (!more.includes("id: 301")) {
    const { value, done } = await reader.read();
    if (done) break;
    more += dec.decode(value);
  }
  assert.match(more, /event: index.completed/);
  hub.close();
  // The stream ends once the hub closes (a hang here is the failure).
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    // drain what was queued before the close
  }
});
