/**
 * The REST API and web page (`codectx web`), tested over HTTP against the real CLI in a
 * child process: every endpoint, the `{"error": {"code", "message"}}` body with its status,
 * path safety, CORS and Host.
 */

import assert from "node:assert/strict";
import {
  type Answer,
  arr,
  fixtureCopy,
  http,
  type JsonObject,
  obj,
  poll,
  post,
  rawHttp,
  rawStatus,
  SECRET_MARKER,
  startCli,
  TOOL_CASES,
} from "./surfaces_helpers.ts";

/** A 200 answer whose body passes the tool's check (the endpoint really ran the tool). */
function assertTool(a: Answer, tool: string, body: JsonObject = a.json): void {
  assert.equal(a.status, 200, `${tool}: ${a.text}`);
  TOOL_CASES[tool].check(body, tool);
}

/** The REST error body, checked. */
function assertError(a: Answer, status: number, code: string, message?: RegExp): void {
  assert.equal(a.status, status, a.text);
  assert.deepEqual(Object.keys(a.json), ["error"], a.text);
  const e = obj(a.json.error);
  assert.equal(e.code, code, a.text);
  assert.equal(typeof e.message, "string");
  if (message) assert.match(String(e.message), message);
}

Deno.test("web: REST endpoints, page, errors and safety over HTTP", async (t) => {
  const fx = await fixtureCopy();
  // A file longer than explain_file answers (20,000 lines).
  await Deno.mkdir(`${fx.root}/data`);
  await Deno.writeTextFile(
    `${fx.root}/data/long_table.py`,
    Array.from({ length: 20_050 }, (_, i) => `ROW_${i} = ${i}`).join("\n") + "\n",
  );
  // A test file, so search's scope and include_tests have something to tell apart.
  await Deno.mkdir(`${fx.root}/tests`);
  await Deno.writeTextFile(
    `${fx.root}/tests/test_greeter.py`,
    'from app.main import Greeter\n\n\ndef test_greeter_says_zanzibar():\n    assert Greeter("zanzibar").greet\n',
  );
  const srv = await startCli("web", [
    "--port",
    "0",
    "--path",
    fx.root,
    "--index-dir",
    fx.indexDir,
    "--no-watch",
  ]);
  const seen: string[] = [];
  const get = async (path: string, init: RequestInit = {}) => {
    const a = await http(`${srv.url}${path}`, init);
    seen.push(a.text);
    return a;
  };
  const stillServing = async () => {
    const a = await get("/api/symbols?q=Greeter");
    assert.equal(a.status, 200);
  };
  try {
    await t.step("GET / serves the page, which loads its script and stylesheet", async () => {
      const page = await get("/");
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /text\/html/);
      assert.match(page.text, /<title>codectx<\/title>/);
      assert.match(page.text, /src="\/app.js"/);
      assert.match(page.headers.get("content-security-policy") ?? "", /default-src 'self'/);
      const js = await get("/app.js");
      assert.equal(js.status, 200);
      assert.match(js.headers.get("content-type") ?? "", /javascript/);
      // The page's script modules, read as the browser reads them: each import is served.
      const modules = new Map<string, string>();
      const pending = ["/app.js"];
      while (pending.length) {
        const path = pending.pop()!;
        if (modules.has(path)) continue;
        const m = await get(path);
        assert.equal(m.status, 200, path);
        modules.set(path, m.text);
        for (const [, dep] of m.text.matchAll(/^import [^"]*"\.(\/[\w.]+\.js)";$/gm)) {
          pending.push(dep);
        }
      }
      assert.ok(modules.size >= 10, [...modules.keys()].join());
      const all = [...modules.values()].join("\n");
      for (
        const endpoint of [
          "/health",
          "/api/search",
          "/api/symbol",
          "/api/references",
          "/api/file",
          "/api/deps",
          "/api/callgraph",
          "/api/quality",
          "/api/summary",
          "/api/ask",
          "/vendor/viz.js",
        ]
      ) {
        assert.ok(all.includes(`"${endpoint}"`), endpoint);
      }
      for (const sheet of page.text.matchAll(/href="(\/[\w.]+\.css)"/g)) {
        const css = await get(sheet[1]);
        assert.equal(css.status, 200, sheet[1]);
        assert.match(css.headers.get("content-type") ?? "", /text\/css/);
      }
      assert.match(page.text, /href="\/graph\.css"/);
    });

    await t.step("GET /health shows the project", async () => {
      const a = await poll("ready", async () => {
        const h = await get("/health");
        return obj(h.json.index).state === "ready" ? h : null;
      });
      assert.equal(a.json.status, "ok");
      assert.equal(typeof a.json.version, "string");
      const p = obj(a.json.project);
      assert.equal(p.root, fx.root);
      assert.equal(p.name, "project");
      assert.ok(Number(p.files) >= 9);
      assert.ok(Number(p.symbols) >= 15);
      assert.ok(Number(p.chunks) > 0);
      const langs = obj(p.languages);
      for (const l of ["python", "typescript", "go"]) assert.ok(Number(langs[l]) >= 1, l);
    });

    await t.step("GET /api/symbols: all, by name, by file, by kind, paged", async () => {
      const all = await get("/api/symbols");
      assert.equal(all.status, 200);
      const total = Number(all.json.total);
      assert.ok(total >= 15);
      assert.equal(arr(all.json.symbols).length, Math.min(50, total));
      const first = obj(arr(all.json.symbols)[0]);
      for (
        const k of [
          "name",
          "qualified_name",
          "kind",
          "file",
          "line",
          "end_line",
          "signature",
          "doc",
          "parent",
          "language",
        ]
      ) {
        assert.ok(k in first, k);
      }

      const paged = await get("/api/symbols?limit=5&offset=5");
      assert.equal(arr(paged.json.symbols).length, 5);
      assert.deepEqual(obj(arr(paged.json.symbols)[0]), obj(arr(all.json.symbols)[5]));

      const byName = await get("/api/symbols?q=slugify");
      assert.equal(obj(arr(byName.json.symbols)[0]).name, "slugify");
      assert.equal(obj(arr(byName.json.symbols)[0]).file, "app/utils.py");

      const byFile = await get("/api/symbols?file=web/server.ts");
      const names = arr(byFile.json.symbols).map((s) => obj(s).name);
      assert.ok(names.includes("Router") && names.includes("createServer"), names.join());
      assert.ok(arr(byFile.json.symbols).every((s) => obj(s).file === "web/server.ts"));

      const classes = await get("/api/symbols?kind=class");
      const kinds = new Set(arr(classes.json.symbols).map((s) => obj(s).kind));
      assert.deepEqual([...kinds], ["class"]);
      assert.ok(arr(classes.json.symbols).some((s) => obj(s).name === "Greeter"));

      const qAndKind = await get("/api/symbols?q=Repo&kind=class");
      assert.equal(obj(arr(qAndKind.json.symbols)[0]).name, "Repository");
    });

    await t.step("GET /tools/stream: tool events, as the bridge sends them", async () => {
      const ctl = new AbortController();
      const res = await fetch(`${srv.url}/tools/stream`, { signal: ctl.signal });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      // A tool call after the stream is open shows up on it.
      const call = get("/api/symbols?q=Greeter");
      while (!/event: tool\.completed/.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      await call;
      ctl.abort();
      await reader.cancel().catch(() => {});
      assert.match(text, /: connected/);
      assert.match(text, /event: tool\.started\ndata: \{[^\n]*"tool_name":"search_symbols"/);
    });

    await t.step("GET /api/symbols runs search_symbols", async () => {
      assertTool(await get("/api/symbols?q=Greeter"), "search_symbols");
    });

    await t.step("GET /api/search needs q; answers semantic_search's snippets", async () => {
      assertError(await get("/api/search"), 400, "invalid_argument", /q is required/);
      assertError(await get("/api/search?q=x&top_k=abc"), 400, "invalid_argument", /top_k/);
      assertError(await get("/api/search?q=x&top_k=1000"), 400, "invalid_argument", /top_k/);
      const { query, top_k } = TOOL_CASES.semantic_search.args;
      const a = await get(`/api/search?q=${encodeURIComponent(String(query))}&top_k=${top_k}`);
      assertTool(a, "semantic_search", { snippets: a.json.results });
      assert.equal(a.json.query, query);
      assert.equal(typeof a.json.took_ms, "number");
      await stillServing();
    });

    await t.step("GET /api/search: scope, include_tests, exact and regex modes", async () => {
      const files = (a: Answer) => arr(a.json.results).map((r) => String(obj(r).file));
      const plain = await get("/api/search?q=zanzibar&mode=lexical");
      assert.equal(plain.status, 200, plain.text);
      assert.ok(!files(plain).includes("tests/test_greeter.py"), "tests are left out by default");
      for (const q of ["include_tests=1", "scope=tests", "scope=all"]) {
        const a = await get(`/api/search?q=zanzibar&mode=lexical&${q}`);
        assert.ok(files(a).includes("tests/test_greeter.py"), `${q}: ${a.text}`);
      }
      const docs = await get("/api/search?q=fixture+project&scope=docs&mode=lexical");
      // Docs: Markdown and plain text of no language (go.mod is text since such files are read).
      assert.ok(files(docs).includes("README.md"), docs.text);
      assert.ok(files(docs).every((f) => !/\.(py|ts|go)$/.test(f)), docs.text);

      const exact = await get("/api/search?q=" + encodeURIComponent("def greet(") + "&mode=exact");
      assert.equal(exact.status, 200, exact.text);
      assert.equal(exact.json.mode, "exact");
      const hit = obj(arr(exact.json.results)[0]);
      assert.deepEqual([hit.file, hit.line, hit.column], ["app/main.py", 13, 5]);
      const regex = await get(
        "/api/search?q=" + encodeURIComponent("def (parse|slug)\\w+") + "&mode=regex",
      );
      assert.equal(regex.status, 200, regex.text);
      assert.deepEqual(
        arr(regex.json.results).map((r) => obj(r).symbol).sort(),
        ["parse_config", "slugify"],
      );
      assertError(
        await get("/api/search?q=" + encodeURIComponent("def (") + "&mode=regex"),
        400,
        "invalid_argument",
        /^q: query 'def \(' is not a valid regular expression/,
      );
      assertError(await get("/api/search?q=x&mode=fuzzy"), 400, "invalid_argument", /mode/);
      assertError(await get("/api/search?q=x&scope=src"), 400, "invalid_argument", /scope/);
      assertError(
        await get("/api/search?q=x&include_tests=maybe"),
        400,
        "invalid_argument",
        /include_tests must be 1, 0, true or false/,
      );
    });

    await t.step("GET /api/deps, /api/callgraph, /api/summary", async () => {
      assertTool(await get("/api/deps?file=app/main.py"), "get_dependencies");
      const graph = await get("/api/deps");
      assert.equal(graph.status, 200, graph.text);
      assert.ok(
        arr(graph.json.edges).map(obj).some((e) =>
          e.from === "app/main.py" && e.to === "app/utils.py"
        ),
        graph.text,
      );
      assertError(await get("/api/callgraph"), 400, "invalid_argument", /symbol is required/);
      assertError(
        await get("/api/callgraph?symbol=main&depth=9"),
        400,
        "invalid_argument",
        /depth/,
      );
      assertTool(await get("/api/callgraph?symbol=main&depth=2"), "get_call_graph");
      const sum = await get("/api/summary");
      assertTool(sum, "summarize_repo");
      assert.equal(sum.json.name, "project");
    });

    await t.step("POST /api/impact (a diff as text or JSON), GET /api/impact", async () => {
      const diff = String(TOOL_CASES.get_impact.args.diff);
      const text = await http(`${srv.url}/api/impact?depth=1`, {
        method: "POST",
        headers: { "Content-Type": "text/plain" },
        body: diff,
      });
      assertTool(text, "get_impact");
      assertTool(await post(`${srv.url}/api/impact`, { diff }), "get_impact");
      const named = await get("/api/impact?symbols=slugify");
      assert.equal(named.status, 200, named.text);
      assert.deepEqual(arr(named.json.impacted).map((x) => obj(x).qualified_name), ["main"]);
      // The fixture is no git work tree: a revision means nothing there.
      assertError(
        await get("/api/impact?base=HEAD~1"),
        400,
        "invalid_argument",
        /not inside a git work tree, so base 'HEAD~1' means nothing here/,
      );
      assertError(
        await post(`${srv.url}/api/impact`, {
          diff: "--- a/app/utils.py\n+++ b/app/utils.py\n@@ -1 +1 @@\n-x\n+y\n",
        }),
        400,
        "invalid_argument",
        /hunk 1 of 1 \(@@ -1 \+1 @@\) does not apply to app\/utils\.py/,
      );
    });

    await t.step("GET /api/symbol, /api/references, /api/file, /api/quality", async () => {
      assertTool(await get("/api/symbol?name=Greeter"), "explain_symbol");
      assertError(await get("/api/symbol"), 400, "invalid_argument", /name is required/);
      assertError(await get("/api/symbol?name=nope_not_here"), 404, "not_found");
      assertTool(await get("/api/references?symbol=slugify"), "find_references");
      assertError(await get("/api/references"), 400, "invalid_argument", /symbol is required/);
      const f = await get("/api/file?path=app/main.py");
      assertTool(f, "explain_file");
      assert.equal(f.json.file, "app/main.py");
      assertError(await get("/api/file"), 400, "invalid_argument", /path is required/);
      // The message names the parameter sent (path), then what the tool calls it.
      assertError(
        await get("/api/file?path=../../etc/passwd"),
        400,
        "outside_root",
        /^path: file_path '\.\.\/\.\.\/etc\/passwd' is outside the project root/,
      );
      assertError(
        await get("/api/references?symbol=slugify&file=../x.py"),
        400,
        "outside_root",
        /^file: file_path/,
      );
      assert.equal(f.json.source, undefined, "the text only on request");
      const withText = await get("/api/file?path=app/main.py&source=1");
      assertTool(withText, "explain_file");
      const text = await Deno.readTextFile(`${fx.root}/app/main.py`);
      assert.equal(withText.json.source, text);
      assert.equal(withText.json.source_truncated, false);
      assertError(await get("/api/file?path=app/main.py&source=yes"), 400, "invalid_argument");
      assertError(
        await get(`/api/file?path=${encodeURIComponent(fx.secretFile)}&source=1`),
        400,
        "outside_root",
      );
      assertError(await get("/api/file?path=app/escape.py&source=1"), 400, "outside_root");
      const long = await get("/api/file?path=data/long_table.py&source=1");
      assert.equal(long.status, 200, long.text.slice(0, 300));
      assert.equal(long.json.source_truncated, true);
      const rows = String(long.json.source).split("\n");
      assert.equal(rows.length, 20_000);
      assert.equal(rows[19_999], "ROW_19999 = 19999");
      assertTool(await get("/api/quality"), "analyze_quality");
    });

    await t.step(
      "GET /vendor/viz.js serves the graph layout library from node_modules",
      async () => {
        const viz = await get("/vendor/viz.js");
        assert.equal(viz.status, 200);
        assert.match(viz.headers.get("content-type") ?? "", /javascript/);
        assert.match(viz.text, /Viz\.js 3\./);
        assert.match(viz.text, /export\s*\{/);
        const page = await get("/");
        assert.match(page.headers.get("content-security-policy") ?? "", /'wasm-unsafe-eval'/);
      },
    );

    await t.step(
      "POST /api/ask takes JSON or text; POST /api/analyze validates or explains",
      async () => {
        const ask = async (body: string, type: string) => {
          const a = await http(`${srv.url}/api/ask`, {
            method: "POST",
            headers: { "Content-Type": type },
            body,
          });
          seen.push(a.text);
          return a;
        };
        const { question } = TOOL_CASES.ask.args;
        assertTool(await ask(JSON.stringify({ question }), "application/json"), "ask");
        assertTool(await ask(String(question), "text/plain"), "ask");
        assertError(await ask("", "text/plain"), 400, "invalid_argument", /question is required/);
        assertError(await ask("{}", "application/json"), 400, "invalid_argument", /question/);
        assertError(
          await ask("{oops", "application/json"),
          400,
          "invalid_argument",
          /not valid JSON/,
        );
        assertError(await ask("[1]", "application/json"), 400, "invalid_argument", /JSON object/);

        const analyze = async (body: unknown) => {
          const a = await post(`${srv.url}/api/analyze`, body);
          seen.push(a.text);
          return a;
        };
        assertTool(
          await analyze({ ...TOOL_CASES.validate_code.args, mode: "validate" }),
          "validate_code",
        );
        const e = await analyze({
          code: "def helper(x):\n    return len(x)\n",
          language: "python",
          mode: "explain",
        });
        assert.equal(e.status, 200, e.text);
        assert.equal(e.json.language, "python");
        assert.deepEqual(
          (e.json.symbols as Array<{ name: string }>).map((s) => s.name),
          ["helper"],
        );
        assertError(await analyze({ code: "x", mode: "rewrite" }), 400, "invalid_argument", /mode/);
        assertError(
          await analyze({ mode: "validate" }),
          400,
          "invalid_argument",
          /code is required/,
        );
        assertError(await analyze("nope"), 400, "invalid_argument", /not valid JSON/);
        await stillServing();
      },
    );

    await t.step("errors: 404 for unknown paths and files, 413 for big bodies", async () => {
      assertError(await get("/api/nope"), 404, "not_found", /no endpoint GET \/api\/nope/);
      assertError(await get("/nope"), 404, "not_found");
      assertError(
        await get("/api/symbols?file=app/missing.py"),
        404,
        "not_found",
        /not in the index/,
      );
      assertError(await get("/api/symbols?limit=0"), 400, "invalid_argument", /limit/);
      const big = await post(`${srv.url}/api/analyze`, { code: "x".repeat(1_200_000) });
      assertError(big, 413, "too_large", /larger than 1048576 bytes/);
      await stillServing();
    });

    await t.step("paths outside the root answer 400 and leak nothing", async () => {
      for (
        const p of [
          "../../etc/passwd",
          "/etc/passwd",
          fx.secretFile,
          "app/escape.py",
          "linked_out/secret.py",
        ]
      ) {
        const a = await get(`/api/symbols?file=${encodeURIComponent(p)}`);
        assertError(a, 400, "outside_root", /outside the project root/);
        const b = await get(`/api/symbols?q=leaked&file=${encodeURIComponent(p)}`);
        assertError(b, 400, "outside_root");
        await stillServing();
      }
      const s = await get("/api/symbols?q=leaked_outside_fn");
      assert.equal(s.json.total, 0);
    });

    await t.step("CORS and Host rules", async () => {
      const evil = await get("/health", { headers: { Origin: "https://evil.example" } });
      assertError(evil, 403, "forbidden", /not allowed/);
      assert.equal(evil.headers.get("access-control-allow-origin"), null);
      const good = await get("/health", { headers: { Origin: "http://localhost:5173" } });
      assert.equal(good.status, 200);
      assert.equal(good.headers.get("access-control-allow-origin"), "http://localhost:5173");
      const host = await rawHttp(
        srv.port,
        "GET /health HTTP/1.1\nHost: evil.example\nConnection: close",
      );
      assert.equal(rawStatus(host), 403);
      assert.match(host, /"code":"forbidden"/);
      await stillServing();
    });

    await t.step(
      "a file swapped for a link out of the root after indexing is refused",
      async () => {
        const file = `${fx.root}/app/utils.py`;
        await Deno.remove(file);
        await Deno.symlink(fx.secretFile, file);
        assertError(await get("/api/file?path=app/utils.py&source=1"), 400, "outside_root");
      },
    );

    await t.step("no answer carried a byte of a file outside the root", () => {
      for (const text of seen) {
        assert.ok(!text.includes(SECRET_MARKER) && !text.includes("root:x:0:0"), text);
      }
    });
  } finally {
    await srv.stop();
    await fx.cleanup();
  }
});
