/**
 * Hardening: what an outsider's request, a changed file or a failing disk must not do —
 * freeze the server's thread, outlive a call's time limit, read outside the root, hang
 * indexing, crash the process or lose the index. Real servers on ephemeral ports, real
 * workers, real files (FIFOs, symlinks, a full file system).
 */

import assert from "node:assert/strict";
import { Node } from "web-tree-sitter";
import { analyzeSource } from "../src/analysis/analyze.ts";
import { createAnalysisPool } from "../src/analysis/pool.ts";
import { EMPTY_VIEW } from "../src/analysis/project_view.ts";
import { bracketDepth, MAX_BRACKET_DEPTH } from "../src/analysis/syntax.ts";
import { MAX_TREE_DEPTH } from "../src/analysis/tree_walk.ts";
import { validateCode } from "../src/analysis/validate.ts";
import { createBridgeApp } from "../src/bridge/app.ts";
import { createEventHub, sseResponse } from "../src/http/events.ts";
import { startServer } from "../src/http/serve.ts";
import { ingest } from "../src/index/ingest.ts";
import { walk } from "../src/index/walker.ts";
import { Store } from "../src/store/kv.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { cleanup, CLI, makeProject, tempIndexDir } from "./helpers.ts";
import { MCP_INITIALIZE, poll, rawHttp, startMcpStdio } from "./surfaces_helpers.ts";

/** Sends a request head on an open connection and reads until the server closes it. */
async function rawHttpOn(conn: Deno.Conn, head: string): Promise<string> {
  const dec = new TextDecoder();
  let text = "";
  try {
    await conn.write(new TextEncoder().encode(head.replaceAll("\n", "\r\n") + "\r\n\r\n"));
  } catch {
    // the server may have answered and closed before the request was written
  }
  const buf = new Uint8Array(4096);
  const guard = setTimeout(() => conn.close(), 60_000); // a bound for the test, not a figure
  try {
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += dec.decode(buf.subarray(0, n));
    }
  } catch {
    // reset after the answer (or closed by the guard)
  } finally {
    clearTimeout(guard);
    try {
      conn.close();
    } catch {
      // closed by the guard
    }
  }
  return text;
}

/** Nested calls with keyword arguments: `y = f(a=f(a=…1…))`. */
function nestedKeywordCalls(n: number): string {
  return "y = " + "f(a=".repeat(n) + "1" + ")".repeat(n) + "\n";
}

/** Counts reads of `Node.parent` while `fn` runs. */
async function countParentReads(fn: () => Promise<unknown>): Promise<number> {
  const desc = Object.getOwnPropertyDescriptor(Node.prototype, "parent")!;
  let reads = 0;
  Object.defineProperty(Node.prototype, "parent", {
    ...desc,
    get(this: Node) {
      reads++;
      return desc.get!.call(this);
    },
  });
  try {
    await fn();
  } finally {
    Object.defineProperty(Node.prototype, "parent", desc);
  }
  return reads;
}

Deno.test("analysis reads no parent chains: nested calls, strings and keywords", async () => {
  const inputs = [
    nestedKeywordCalls(120),
    "x = " + '"a" + '.repeat(300) + '"b"\n',
    "q = " + '("select " + '.repeat(120) + "x" + ")".repeat(120) + "\n",
    "password = 'hunter2'\nd['token'] = 'abc'\nif user == 'admin': pass\n",
  ];
  for (const code of inputs) {
    const reads = await countParentReads(async () => {
      await validateCode({ code, language: "python" }, EMPTY_VIEW);
      await analyzeSource("a.py", code, "python");
    });
    // A few per syntax error at most; before, one per keyword and several per string.
    assert.ok(reads <= 40, `Node.parent read ${reads} times for ${code.slice(0, 30)}…`);
  }
});

Deno.test("code nested past the depth limit is refused with a sentence naming it", async () => {
  const deep = "x = " + "[".repeat(MAX_TREE_DEPTH) + "]".repeat(MAX_TREE_DEPTH) + "\n";
  await assert.rejects(
    validateCode({ code: deep, language: "python" }, EMPTY_VIEW),
    (err: Error & { code?: string }) =>
      err.code === "invalid_argument" && err.message.includes(`${MAX_TREE_DEPTH} syntax levels`),
  );
  const a = await analyzeSource("deep.py", deep, "python");
  assert.equal(a.tooDeep, true);
  assert.equal(a.metrics, null);
  // Hand-written nesting is far from it.
  const fine = "x = " + "[".repeat(60) + "]".repeat(60) + "\n";
  assert.equal((await validateCode({ code: fine, language: "python" }, EMPTY_VIEW)).valid, true);
});

Deno.test("brackets nested or left open past the limit are refused before parsing", async () => {
  const root = await makeProject({ "app.py": "def main():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const executor = await createExecutor(root, { indexDir });
  try {
    for (
      const code of [
        "x = " + "(".repeat(50_000),
        "y = " + "f(a=".repeat(300) + "1" + ")".repeat(300),
        ")]}".repeat(100_000),
      ]
    ) {
      const r = await executor.execute({
        tool_name: "validate_code",
        arguments: { code, language: "python" },
      });
      assert.equal(r.success, false);
      assert.equal(r.error_code, "invalid_argument");
      assert.match(
        r.error ?? "",
        new RegExp(`more than ${MAX_BRACKET_DEPTH} levels of brackets, or closes more than`),
      );
    }
    // Brackets inside strings and comments do not count; ordinary nesting passes.
    const fine = `s = "${"(".repeat(500)}"  # ${"[".repeat(500)}\nx = ${"[".repeat(60)}${
      "]".repeat(60)
    }\n`;
    assert.equal(bracketDepth(fine), 60);
    const ok = await executor.execute({
      tool_name: "validate_code",
      arguments: { code: fine, language: "python", mode: "explain" },
    });
    assert.equal(ok.success, true, ok.error ?? "");
    const a = await analyzeSource("open.py", "x = " + "(".repeat(50_000), "python");
    assert.equal(a.tooDeep, true);
    assert.equal(a.tooDeepBy, "brackets");
  } finally {
    await executor.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("a slow validate_code runs off the server's thread and is stopped at its limit", async () => {
  const root = await makeProject({ "app.py": "def main():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const executor = await createExecutor(root, { indexDir, timeoutMs: 2_000 });
  const hub = createEventHub();
  const server = await startServer({
    hostname: "127.0.0.1",
    port: 0,
    label: "bridge",
    build: (port) =>
      createBridgeApp({
        executor,
        hub,
        safety: { hostname: "127.0.0.1", port: () => port, maxBody: 4_194_304 },
      }).fetch,
  });
  try {
    await executor.service.start({ watch: false, log: () => {} });
    // 1 MB of calls that security rules flag (40,000 lines): under every limit, and seconds
    // of parsing and analysis; it ran on the server's thread before analysis moved to
    // workers.
    const code = "import os\n" + "os.system(eval(input()))\n".repeat(40_000);
    let invokeDone = false;
    const invoke = fetch(`${server.url}/tools/invoke`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ tool_name: "validate_code", arguments: { code, language: "python" } }),
    }).then(async (r) => {
      invokeDone = true;
      return { status: r.status, body: await r.json() };
    });
    // The server's own routes answer while the call runs.
    await new Promise((r) => setTimeout(r, 300));
    const health = await fetch(`${server.url}/health`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    if (invokeDone) {
      const early = await invoke;
      assert.fail(
        `the call ended before /health was asked; make it slower: ${early.status} ${
          JSON.stringify(early.body).slice(0, 300)
        }`,
      );
    }
    const answer = await invoke;
    assert.equal(answer.body.success, false, JSON.stringify(answer.body).slice(0, 300));
    assert.equal(answer.body.error_code, "timeout");
    // The worker was stopped and replaced: the next call works.
    // (Its own limit: starting a worker and loading a grammar may take seconds on a busy machine.)
    const next = await executor.execute({
      tool_name: "validate_code",
      arguments: { code: "import os\nos.system('ls')\n", language: "python" },
    }, { timeoutMs: 60_000 });
    assert.equal(next.success, true, next.error ?? "");
  } finally {
    hub.close();
    await server.shutdown();
    await executor.close();
    await cleanup(root, indexDir);
  }
});

/** Runs a shell script in a private mount namespace (as root, or as a user with userns). */
async function inMountNamespace(script: string): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command("unshare", {
    args: ["-rm", "sh", "-c", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

Deno.test("a full disk fails the run with one line, keeps the last index, and the next run completes", async () => {
  const files: Record<string, string> = {};
  for (let i = 1; i <= 5; i++) files[`m${i}.py`] = `def small_fn_${i}():\n    return ${i}\n`;
  const root = await makeProject(files);
  const mnt = await Deno.makeTempDir({ prefix: "codectx-full-" });
  const idx = `${mnt}/idx`;
  const cli = (args: string) =>
    `"${Deno.execPath()}" run -A "${
      new URL("../cli.ts", import.meta.url).pathname
    }" ${args} --path "${root}" --index-dir "${idx}"`;
  // 400 files of 300 functions: their blobs need far more than the 3 MB file system.
  const big = `for i in $(seq 1 400); do j=0; while [ $j -lt 300 ]; do ` +
    `echo "def g_\${i}_\${j}(a, b):\\n    return a + b * $j  # padding $i $j $RANDOM$RANDOM"; ` +
    `j=$((j+1)); done > "${root}/big_$i.py"; done`;
  const script = [
    `mount -t tmpfs -o size=3m tmpfs "${mnt}" || exit 97`,
    `${cli("index")} >/dev/null 2>&1; echo "rc1=$?"`,
    big,
    `${cli("index")} 2>&1; echo "rc2=$?"`,
    `${cli("search small_fn_3 --no-wait")} 2>/dev/null; echo "rc3=$?"`,
    // The user frees space (here: the file system grows) and indexes again.
    `mount -o remount,size=8m "${mnt}"; rm -f "${root}"/big_*.py`,
    `echo 'def after_full():\n    return 0' > "${root}/after.py"`,
    `${cli("index")} >/dev/null 2>&1; echo "rc4=$?"`,
    `${cli("search after_full --no-wait")} 2>/dev/null; echo "rc5=$?"`,
  ].join("\n");
  try {
    const { code, out } = await inMountNamespace(script);
    assert.notEqual(code, 97, `no small file system could be mounted here:\n${out}`);
    assert.match(out, /rc1=0/);
    assert.match(out, /disk full: free space under \S+ and index again/);
    assert.match(out, /rc2=1/);
    assert.doesNotMatch(out, /^\s+at /m, `a stack trace was printed:\n${out.slice(0, 2000)}`);
    assert.doesNotMatch(out, /Uncaught/);
    // The last good index still answers, and the next run completes.
    assert.match(out, /small_fn_3[\s\S]*rc3=0/);
    assert.match(out, /rc4=0/);
    assert.match(out, /after_full[\s\S]*rc5=0/);
  } finally {
    await cleanup(root, mnt);
  }
});

/** Settles with `what` timed out after `ms`, so that a hang fails the test instead of stalling it. */
function guard<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} hung (${ms / 1000} s)`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

Deno.test("files swapped after the walk: a FIFO is skipped, a symlink out of the root is not read", async () => {
  const SECRET = "OUTSIDE_ROOT_SECRET_91c2";
  const root = await makeProject({
    "a.py": "def keep_a():\n    return 1\n",
    "b.py": "def swapped_b():\n    return 2\n",
    "c.py": "def swapped_c():\n    return 3\n",
  });
  const outside = await Deno.makeTempDir({ prefix: "codectx-outside-" });
  await Deno.writeTextFile(`${outside}/secret.py`, `def ${SECRET}():\n    return 0\n`);
  const indexDir = await tempIndexDir();
  const store = await Store.open(indexDir);
  try {
    const entries = await walk(root);
    assert.equal(entries.length, 3);
    // Between the walk and the read: b.py becomes a FIFO, c.py a link out of the root.
    await Deno.remove(`${root}/b.py`);
    const mk = await new Deno.Command("mkfifo", { args: [`${root}/b.py`] }).output();
    assert.equal(mk.code, 0);
    await Deno.remove(`${root}/c.py`);
    await Deno.symlink(`${outside}/secret.py`, `${root}/c.py`);
    const got = await guard(ingest(entries, new Map(), store, { workers: 0 }), 20_000, "ingest");
    const byPath = new Map(got.files.map((f) => [f.path, f]));
    assert.equal(byPath.get("a.py")?.skipped, undefined);
    assert.equal(byPath.get("b.py")?.skipped, "unreadable");
    assert.equal(byPath.get("c.py")?.skipped, "unreadable");
    const symbols = await store.readAllBlobs<Array<{ name: string }>>(
      "symbols",
      new Set(got.files.map((f) => f.blob).filter(Boolean)),
    );
    assert.doesNotMatch(JSON.stringify([...symbols.values()]), new RegExp(SECRET));
  } finally {
    store.close();
    await cleanup(root, outside, indexDir);
  }
});

Deno.test("answers read live files through the same checks: a swapped file leaks nothing", async () => {
  const SECRET = "OUTSIDE_ROOT_SECRET_4d7e";
  const root = await makeProject({
    "app.py": 'def handler(x):\n    """Handles x."""\n    return helper(x)\n\n\n' +
      "def helper(y):\n    return y + 1\n",
  });
  const outside = await Deno.makeTempDir({ prefix: "codectx-outside-" });
  const lines = Array.from({ length: 12 }, (_, i) => `# ${SECRET} line ${i}`).join("\n");
  await Deno.writeTextFile(`${outside}/secret.py`, lines + "\n");
  const indexDir = await tempIndexDir();
  const executor = await createExecutor(root, { indexDir });
  try {
    await executor.service.start({ watch: false, log: () => {} });
    // After indexing, app.py becomes a link to a file outside the root.
    await Deno.remove(`${root}/app.py`);
    await Deno.symlink(`${outside}/secret.py`, `${root}/app.py`);
    for (
      const call of [
        { tool_name: "explain_symbol", arguments: { symbol_name: "handler" } },
        { tool_name: "get_context", arguments: { symbol_name: "handler" } },
        { tool_name: "explain_file", arguments: { file_path: "app.py" } },
      ]
    ) {
      const r = await executor.execute(call);
      assert.doesNotMatch(JSON.stringify(r), new RegExp(SECRET), `${call.tool_name} leaked`);
    }
    // And a FIFO in its place does not hang the answer.
    await Deno.remove(`${root}/app.py`);
    await new Deno.Command("mkfifo", { args: [`${root}/app.py`] }).output();
    const r = await guard(
      executor.execute({ tool_name: "explain_symbol", arguments: { symbol_name: "handler" } }),
      20_000,
      "explain_symbol on a FIFO",
    );
    assert.doesNotMatch(JSON.stringify(r), new RegExp(SECRET));
  } finally {
    await executor.close();
    await cleanup(root, outside, indexDir);
  }
});

Deno.test("the HTTP edge: bad Host, another site, more connections than descriptors", async () => {
  const root = await makeProject({ "a.py": "def alpha():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  // A low descriptor limit: 400 open connections exhaust it.
  const proc = new Deno.Command("sh", {
    args: [
      "-c",
      `ulimit -n 256; exec "${Deno.execPath()}" run -A "${CLI}" serve --port 0 --no-watch ` +
      `--path "${root}" --index-dir "${indexDir}"`,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  const reading = (async () => {
    const dec = new TextDecoder();
    for await (const c of proc.stderr) log += dec.decode(c, { stream: true });
  })();
  try {
    const port = await poll("the announcement", () => {
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
      return Promise.resolve(m ? Number(m[1]) : null);
    });
    const base = `http://127.0.0.1:${port}`;
    await poll("the index", async () => {
      const r = await fetch(`${base}/health`);
      return (await r.json()).index?.state === "ready";
    });
    // A Host that is no URL: a JSON 403, no stack trace.
    const bad = await rawHttp(
      port,
      `GET /health HTTP/1.1\nHost: 127.0.0.1:99999999\nConnection: close`,
    );
    assert.match(bad, /^HTTP\/1\.1 403/);
    assert.match(bad, /"code":"forbidden"/);
    // A page of another site (no Origin on a simple GET) runs nothing.
    const cross = await fetch(`${base}/tools/list`, {
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    assert.equal(cross.status, 403);
    await cross.body?.cancel();
    const same = await fetch(`${base}/tools/list`, {
      headers: { "Sec-Fetch-Site": "same-origin" },
    });
    assert.equal(same.status, 200);
    await same.body?.cancel();
    // 400 connections under a limit of 256 descriptors: the connection cap (the descriptor
    // limit less a reserve) answers the ones over it 503 instead of running out; the server
    // survives and answers again once they are closed.
    const conns: Deno.Conn[] = [];
    for (let i = 0; i < 400; i++) {
      try {
        conns.push(await Deno.connect({ hostname: "127.0.0.1", port }));
      } catch {
        break; // refused by the kernel's backlog
      }
    }
    // Each asks for /health: some are answered, the ones over the cap get a 503 (or, past
    // the refusals in progress, are closed unanswered).
    const answers = await Promise.all(
      conns.map((c) =>
        rawHttpOn(c, `GET /health HTTP/1.1\nHost: 127.0.0.1:${port}\nConnection: close`)
      ),
    );
    const statuses = answers.map((a) => /^HTTP\/1\.1 (\d+)/.exec(a)?.[1] ?? "none");
    assert.ok(statuses.includes("200"), statuses.join(" "));
    assert.ok(statuses.includes("503"), statuses.join(" "));
    assert.match(
      answers.find((a) => a.startsWith("HTTP/1.1 503"))!,
      /connections are open already; retry in a moment/,
    );
    const health = await poll("/health after 400 connections", async () => {
      const r = await fetch(`${base}/health`);
      await r.body?.cancel();
      return r.status === 200;
    }).catch((err) => {
      throw new Error(`${err.message}\nserver log:\n${log}`);
    });
    assert.equal(health, true);
    assert.doesNotMatch(log, /Uncaught|^\s+at /m, log);
  } finally {
    try {
      proc.kill("SIGTERM");
    } catch {
      // gone
    }
    await proc.status;
    await reading;
    await cleanup(root, indexDir);
  }
});

Deno.test("event streams: a subscriber that does not read is dropped; streams are capped", async () => {
  const hub = createEventHub();
  const limits = { maxUnsentBytes: 1 << 20, maxStreams: 3 };
  const server = await startServer({
    hostname: "127.0.0.1",
    port: 0,
    label: "bridge",
    build: () => () => sseResponse(hub, null, 60_000, limits),
  });
  try {
    const first = await fetch(server.url);
    const idle = await fetch(server.url); // never read
    const reader = await fetch(server.url);
    // Past the cap a new stream takes the place of the oldest (none is behind yet), which
    // ends with a `dropped` event (tests/events_test.ts has the rest of the cap).
    const fourth = await fetch(server.url);
    assert.equal(fourth.status, 200);
    assert.match(await first.text(), /event: dropped\ndata: .*reconnect with Last-Event-ID/);
    await fourth.body?.cancel();
    let received = 0;
    const reading = (async () => {
      const dec = new TextDecoder();
      try {
        for await (const chunk of reader.body!) {
          received += (dec.decode(chunk).match(/^event: tool\.completed$/gm) ?? []).length;
        }
      } catch {
        // the stream ends when the hub closes
      }
    })();
    const pad = "x".repeat(1024);
    // 40 MB of events: more than the socket buffers take for the client that never reads.
    for (let i = 0; i < 40_000 && hub.subscribers() > 1; i++) {
      hub.publish("tool.completed", { i, pad });
      if (i % 4 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    assert.equal(hub.subscribers(), 1, "the stream that is not read was not dropped");
    hub.close();
    await reading;
    assert.ok(received > 0);
    await idle.body?.cancel();
  } finally {
    hub.close();
    await server.shutdown();
  }
});

Deno.test("MCP stdio: garbage, oversized and invalid lines get JSON-RPC errors; the server goes on", async () => {
  const root = await makeProject({ "a.py": "def alpha():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const mcp = startMcpStdio(root, indexDir);
  try {
    await mcp.send("this is not json");
    const huge = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"validate_code",` +
      `"arguments":{"code":"${"x".repeat(11 * 1024 * 1024)}"}}}`;
    await mcp.send(huge);
    await mcp.send('{"foo":1}');
    await mcp.send('{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"x":1}}');
    await mcp.send(JSON.stringify(MCP_INITIALIZE));
    await poll("five answers", () => Promise.resolve(mcp.lines.length >= 5 ? true : null));
    const answers = mcp.lines.map((l) => JSON.parse(l));
    assert.equal(answers[0].error.code, -32700);
    assert.equal(answers[1].id, 7);
    assert.equal(answers[1].error.code, -32600);
    assert.match(answers[1].error.message, /larger than 10485760 bytes/);
    assert.equal(answers[2].error.code, -32600);
    // Malformed params of a request the SDK checks itself: -32602 naming the fields.
    const bad = answers.find((a) => a.id === 9);
    assert.equal(bad.error.code, -32602);
    assert.match(bad.error.message, /initialize has invalid params \(params\.protocolVersion/);
    const init = answers.find((a) => a.id === 1);
    assert.equal(init.result.serverInfo.name, "codectx");
  } finally {
    await mcp.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("a second process on an index being built answers busy with a sentence, not internal", async () => {
  const root = await makeProject({ "a.py": "def alpha():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  // Another process holds the writer lease of an index that has no generation yet.
  const holder = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const { Store } = await import(${
        JSON.stringify(new URL("../src/store/kv.ts", import.meta.url).href)
      });
       const s = await Store.open(${JSON.stringify(indexDir)});
       console.log(await s.acquireLease() ? "held" : "refused");
       for await (const _ of Deno.stdin.readable) { /* until the test closes stdin */ }
       await s.releaseLease(); s.close();`,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const out = holder.stdout.getReader();
  const first = new TextDecoder().decode((await out.read()).value);
  assert.match(first, /held/);
  const executor = await createExecutor(root, { indexDir });
  try {
    const r = await executor.execute({
      tool_name: "search_symbols",
      arguments: { query: "alpha" },
    });
    assert.equal(r.success, false);
    assert.equal(r.error_code, "busy", r.error ?? "");
    assert.match(r.error ?? "", /another codectx process \(pid \d+\) is indexing this project/);
    // Once the other process is done, the same executor indexes and answers.
    await holder.stdin.close();
    await holder.status;
    const after = await executor.execute({
      tool_name: "search_symbols",
      arguments: { query: "alpha" },
    });
    assert.equal(after.success, true, after.error ?? "");
  } finally {
    await holder.stdin.close().catch(() => {});
    await out.cancel().catch(() => {});
    await holder.status;
    await executor.close();
    await cleanup(root, indexDir);
  }
});

/** A child process that opens the store, runs `script` on it, prints "ready" and waits. */
function storeHolder(indexDir: string, script: string): {
  proc: Deno.ChildProcess;
  ready: Promise<string>;
  stop: () => Promise<void>;
} {
  const proc = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const { Store } = await import(${
        JSON.stringify(new URL("../src/store/kv.ts", import.meta.url).href)
      });
       const s = await Store.open(${JSON.stringify(indexDir)});
       ${script}
       console.log("ready");
       for await (const _ of Deno.stdin.readable) { /* until the test closes stdin */ }
       s.close();`,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const out = proc.stdout.getReader();
  const ready = out.read().then((r) => new TextDecoder().decode(r.value));
  return {
    proc,
    ready,
    stop: async () => {
      await proc.stdin.close().catch(() => {});
      await out.cancel().catch(() => {});
      await proc.status;
    },
  };
}

Deno.test("the writer lease: busy (not internal) while held, taken over from a reused pid", async () => {
  const root = await makeProject({ "a.py": "def alpha():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const first = await createExecutor(root, { indexDir });
  assert.equal((await first.execute({ tool_name: "index_project", arguments: {} })).success, true);
  await first.close();
  const holder = storeHolder(indexDir, "await s.acquireLease();");
  try {
    assert.match(await holder.ready, /ready/);
    // A tool call that must write answers busy (503), not internal (500).
    const executor = await createExecutor(root, { indexDir });
    try {
      const r = await executor.execute({ tool_name: "index_project", arguments: { force: true } });
      assert.equal(r.success, false);
      assert.equal(r.error_code, "busy", r.error ?? "");
      assert.match(r.error ?? "", /another codectx process \(pid \d+\) is indexing/);
    } finally {
      await executor.close();
    }
    const store0 = await Store.open(indexDir);
    try {
      await assert.rejects(
        store0.holdLease(),
        (err: Error & { code?: string }) =>
          err.code === "busy" &&
          /another codectx process \(pid \d+\) is indexing/.test(err.message),
      );
    } finally {
      store0.close();
    }
    // The holder's pid with another start time is another process (the pid was reused).
    const store = await Store.open(indexDir);
    try {
      const lease = (await store.kv.get<{ pid: number; start: number }>(["lease"])).value!;
      assert.equal(lease.pid, holder.proc.pid);
      assert.equal(await store.acquireLease(), false);
      await store.kv.set(["lease"], { ...lease, start: lease.start + 1 });
      assert.equal(await store.acquireLease(), true);
      await store.releaseLease();
    } finally {
      store.close();
    }
  } finally {
    await holder.stop();
    await cleanup(root, indexDir);
  }
});

Deno.test("GC keeps the blobs of a generation a live process pinned, and drops them once it is gone", async () => {
  const root = await makeProject({ "a.py": "def one():\n    return 1\n" });
  const indexDir = await tempIndexDir();
  const index = async () => {
    const executor = await createExecutor(root, { indexDir });
    try {
      const r = await executor.execute({ tool_name: "index_project", arguments: {} });
      assert.equal(r.success, true, r.error ?? "");
    } finally {
      await executor.close();
    }
  };
  await index();
  // A reader (another process) serves generation 1: it read the manifest and keeps going.
  const reader = storeHolder(indexDir, "await s.readCurrent();");
  try {
    assert.match(await reader.ready, /ready/);
    const store = await Store.open(indexDir);
    const gen1 = (await store.readCurrent())!;
    const blob1 = gen1.files.find((f) => f.path === "a.py")!.blob;
    store.close();
    // Two more generations, each with other content: gen 1 is neither current nor previous.
    for (const body of ["def two():\n    return 2\n", "def three():\n    return 3\n"]) {
      await Deno.writeTextFile(`${root}/a.py`, body);
      await index();
    }
    const after = await Store.open(indexDir);
    try {
      assert.equal(await after.currentGeneration(), 3);
      assert.equal(await after.hasBlob(blob1), true, "a pinned generation lost its blobs");
      assert.notEqual(await after.readBlob("symbols", blob1), null);
    } finally {
      after.close();
    }
  } finally {
    await reader.stop();
  }
  // The reader is gone: the next commit collects generation 1.
  await Deno.writeTextFile(`${root}/a.py`, "def four():\n    return 4\n");
  await index();
  const last = await Store.open(indexDir);
  try {
    const gens: unknown[] = [];
    for await (const e of last.kv.list({ prefix: ["gen"] })) {
      if (e.key[2] === "n") gens.push(e.key[1]);
    }
    assert.deepEqual(gens, [3, 4]);
  } finally {
    last.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("analysis pool: a small job never waits behind large ones", async () => {
  const pool = createAnalysisPool(2);
  try {
    const big = "import os\n" + "os.system(eval(input()))\n".repeat(8_000);
    let bigDone = 0;
    const bigs = [1, 2].map(() =>
      pool.analyze("big.py", big, "python").then(() => {
        bigDone++;
      })
    );
    const small = await pool.analyze("small.py", "import pickle\n", "python");
    assert.equal(small.issues[0]?.test_id, "B403");
    // Before, both workers took a large job and the small one waited for one to end.
    assert.equal(bigDone, 0, "the small job waited for a large one");
    await Promise.all(bigs);
  } finally {
    pool.close();
  }
});

Deno.test("analysis pool: an idle worker ends (its memory with it) and the next job starts one", async () => {
  const pool = createAnalysisPool(1, { idleMs: 200 });
  try {
    const first = await pool.analyze("a.py", "import pickle\n", "python");
    assert.equal(first.issues[0]?.test_id, "B403");
    assert.equal(pool.workers(), 1);
    await poll("the idle worker to end", () => Promise.resolve(pool.workers() === 0));
    const next = await pool.analyze("b.py", "import pickle\n", "python");
    assert.equal(next.issues[0]?.test_id, "B403");
    // A worker that read a large input is replaced at once.
    await pool.analyze("big.py", "x = 1\n".repeat(20_000), "python");
    assert.equal(pool.workers(), 0);
  } finally {
    pool.close();
  }
});

/**
 * What a pool of one does when a job passes its limit, run in a process of its own (the test
 * runner's parallel files would add their threads in this one). It samples the threads that
 * run workers (Deno names them `worker-N`, N one per worker) and their CPU time (clock ticks,
 * from /proc/self/task/N/stat), summed per worker: a thread a worker's runtime starts carries
 * its name (seen under load), and is that worker's, not another. `beside` is the most CPU a
 * worker used after another worker appeared — a job run on beside its replacement, not a
 * thread's exit (a thread that is ending still shows for a moment while the next one starts).
 * Prints `{ started, threads, beside, code, next }`: the workers the pool started, and the
 * workers seen.
 */
const LIMIT_SCRIPT = `
import { createAnalysisPool } from ${
  JSON.stringify(new URL("../src/analysis/pool.ts", import.meta.url).href)
};
const workerTicks = () => {
  const out = new Map();
  for (const t of Deno.readDirSync("/proc/self/task")) {
    try {
      const dir = "/proc/self/task/" + t.name;
      const name = Deno.readTextFileSync(dir + "/comm").trim();
      if (!name.startsWith("worker-")) continue;
      const f = Deno.readTextFileSync(dir + "/stat").split(") ")[1].split(" ");
      // Per worker: its threads summed (one its runtime starts carries the worker's name).
      out.set(name, (out.get(name) ?? 0) + Number(f[11]) + Number(f[12]));
    } catch {
      // the thread ended
    }
  }
  return out;
};
const before = workerTicks().size;
const pool = createAnalysisPool(1);
await pool.analyze("warm.py", "import pickle\\n", "python"); // the worker is up
const big = "import os\\n" + "os.system(eval(input()))\\n".repeat(20_000);
let code = "";
const seen = new Map(); // worker -> { others: ticks of every other worker then, last: ticks }
const sample = () => {
  const now = workerTicks();
  for (const [id, ticks] of now) {
    if (!seen.has(id)) seen.set(id, { others: new Map([...now].filter(([o]) => o !== id)) });
    seen.get(id).last = ticks;
  }
};
sample();
const sampling = setInterval(sample, 10);
try {
  await pool.analyze("big.py", big, "python", { timeoutMs: 50 });
} catch (err) {
  code = err.code ?? String(err);
}
const next = await pool.analyze("small.py", "import pickle\\n", "python");
clearInterval(sampling);
sample();
pool.close();
let beside = 0;
for (const { others } of seen.values()) {
  for (const [o, then] of others) beside = Math.max(beside, seen.get(o).last - then);
}
console.log(JSON.stringify({
  started: pool.started(),
  threads: seen.size - before,
  beside,
  code,
  next: next.issues[0]?.test_id,
}));
`;

Deno.test({
  name:
    "analysis pool: a job past its limit is answered at once; its worker is not doubled while it runs on",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "codectx-pool-" });
    try {
      const script = `${dir}/limit.ts`;
      await Deno.writeTextFile(script, LIMIT_SCRIPT);
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-lock", script],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const err = new TextDecoder().decode(out.stderr);
      assert.ok(out.success, err);
      const r = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
      assert.equal(r.code, "timeout");
      assert.equal(r.next, "B403");
      // The busy worker is not run beside a second one: the old one stops at its stop flag
      // before the next job starts a new one, so no worker thread works on once another has
      // appeared (at most 2 ticks, 20 ms: a thread's exit, not a job).
      assert.equal(r.started, 2, "the worker past its limit is replaced");
      assert.ok(r.threads >= 2, `${r.threads} workers seen`);
      assert.ok(r.beside <= 2, `a worker ran on ${r.beside * 10} ms beside its replacement`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
