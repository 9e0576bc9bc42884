/**
 * Context for assistants: explain_symbol, get_context, summarize_repo, ask (offline and
 * through a local chat-completions server) and the CLI commands (their pieces, each on its
 * own: `context_pieces_test.ts`).
 */

import assert from "node:assert/strict";
import { askQuestion } from "../src/context/answer.ts";
import { summarizeRepo } from "../src/context/summary.ts";
import { tokenCounter } from "../src/context/tokens.ts";
import { buildContextWindow } from "../src/context/window.ts";
import { Project } from "../src/project/project.ts";
import { ProjectService } from "../src/service/service.ts";
import { createExecutor, type Executor } from "../src/tools/executor.ts";
import { findTool } from "../src/tools/registry.ts";
import { cleanup, makeProject, runCli, tempIndexDir, writeFiles } from "./helpers.ts";

const FIXTURE = new URL("./fixtures/context/", import.meta.url).pathname;

/** The fixture's files, to copy into a temp project (tests change files). */
async function fixtureFiles(dir = FIXTURE, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) {
      Object.assign(out, await fixtureFiles(`${dir}${e.name}/`, `${prefix}${e.name}/`));
    } else out[`${prefix}${e.name}`] = await Deno.readTextFile(`${dir}${e.name}`);
  }
  return out;
}

/** A long function (over 200 lines) to test the source cap. */
function longModule(): string {
  const body = Array.from({ length: 230 }, (_, i) => `    x${i} = ${i}`).join("\n");
  return `def very_long():\n    """A long one."""\n${body}\n    return 0\n`;
}

type Payload = Record<string, unknown>;

/** Runs a tool; a successful payload must match the tool's declared output schema. */
async function call(ex: Executor, tool: string, args: Payload) {
  const r = await ex.execute({ tool_name: tool, arguments: args });
  if (r.success) findTool(tool)!.output.parse(r.result_payload);
  return r as typeof r & { result_payload: Payload };
}

function chatServer() {
  const state = {
    mode: "ok" as "ok" | "fail" | "slow" | "garbage",
    requests: [] as Payload[],
    auth: "",
  };
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
    async (req) => {
      if (new URL(req.url).pathname !== "/v1/chat/completions" || req.method !== "POST") {
        return new Response("no", { status: 404 });
      }
      state.auth = req.headers.get("authorization") ?? "";
      state.requests.push(await req.json());
      if (state.mode === "fail") return new Response('{"error":"boom"}', { status: 500 });
      if (state.mode === "garbage") return new Response("not json", { status: 200 });
      if (state.mode === "slow") await new Promise((r) => setTimeout(r, 1500));
      return Response.json({
        id: "x",
        object: "chat.completion",
        choices: [{
          index: 0,
          message: {
            role: "assistant",
            content: "The total applies apply_discount (shop/cart.py:6).",
          },
          finish_reason: "stop",
        }],
      });
    },
  );
  return {
    state,
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    close: () => ac.abort(),
    done: server.finished,
  };
}

Deno.test("context tools on a project", async (t) => {
  const root = await makeProject({ ...(await fixtureFiles()), "shop/long.py": longModule() });
  const indexDir = await tempIndexDir();
  const service = await ProjectService.open(root, { indexDir, workers: 0, embedder: "none" });
  const ex = await createExecutor(service);
  const project = service.project;
  try {
    await t.step("explain_symbol: record, source, doc, callers, callees, members", async () => {
      const r = await call(ex, "explain_symbol", { symbol_name: "Cart.total" });
      assert.ok(r.success, String(r.error));
      const p = r.result_payload;
      assert.equal((p.symbol as Payload).qualified_name, "Cart.total");
      assert.match(p.source as string, /return apply_discount\(amount/);
      assert.equal(p.doc, "The total price after the discount.");
      assert.equal((p.parent as Payload).name, "Cart");
      const callees = (p.callees as Payload[]).map((c) => `${c.name} ${c.file}:${c.line}`);
      assert.ok(callees.includes("apply_discount shop/cart.py:6"), callees.join());
      assert.ok(callees.includes("Config.discount_rate shop/config.py:26"), callees.join());
      const callers = (p.callers as Payload[]).map((c) => `${c.name} ${c.file}:${c.line}`);
      assert.ok(callers.includes("main shop/cli.py:14"), callers.join());
      const cls = await call(ex, "explain_symbol", { symbol_name: "Cart" });
      const kids = (cls.result_payload.children as Payload[]).map((c) => c.name);
      assert.deepEqual(kids, ["__init__", "add_item", "total"]);
      assert.ok((cls.result_payload.references as number) >= 2);
    });

    await t.step(
      "explain_symbol: qualified module paths, file filter, ambiguity, cap",
      async () => {
        const mod = await call(ex, "explain_symbol", { symbol_name: "shop.config.parse_config" });
        assert.equal((mod.result_payload.symbol as Payload).file, "shop/config.py");
        const main = await call(ex, "explain_symbol", { symbol_name: "main" });
        assert.ok((main.result_payload.candidates as Payload[]).length >= 1);
        const inGo = await call(ex, "explain_symbol", {
          symbol_name: "main",
          file_path: "services/gosvc/main.go",
        });
        assert.equal((inGo.result_payload.symbol as Payload).language, "go");
        const long = await call(ex, "explain_symbol", { symbol_name: "very_long" });
        assert.equal(long.result_payload.source_truncated, true);
        const src = long.result_payload.source as string;
        assert.equal(src.split("\n").length, 201);
        assert.match(src, /… \(33 more lines/);
      },
    );

    await t.step("unknown symbol: not_found with suggestions", async () => {
      const r = await call(ex, "explain_symbol", { symbol_name: "applyDiscount" });
      assert.equal(r.success, false);
      assert.equal(r.error_code, "not_found");
      assert.match(r.error!, /did you mean apply_discount \(shop\/cart\.py:6\)/);
      const g = await call(ex, "get_context", { symbol_name: "Carts.totl" });
      assert.equal(g.error_code, "not_found");
      const f = await call(ex, "get_context", { symbol_name: "main", file_path: "nope/x.py" });
      assert.equal(f.error_code, "not_found");
    });

    await t.step("get_context: definition first, then ranked neighbours with reasons", async () => {
      const r = await call(ex, "get_context", { symbol_name: "Cart.total" });
      assert.ok(r.success, String(r.error));
      const p = r.result_payload;
      const text = p.text as string;
      assert.ok(text.startsWith("# Cart.total — method in shop/cart.py:22"));
      assert.ok(text.indexOf("def total(self):") < text.indexOf("## "));
      for (
        const h of [
          "## Imports of shop/cart.py",
          "## Calls",
          "## Called from",
          "## Enclosing definition",
        ]
      ) {
        assert.ok(text.includes(h), h);
      }
      assert.match(text, /def apply_discount\(amount, rate\):/);
      assert.match(text, /print\(cart\.total\(\)\)/);
      const reasons = new Set((p.sources as Payload[]).map((s) => s.reason));
      for (
        const want of ["definition", "called by the definition", "call site", "imports of the file"]
      ) {
        assert.ok(reasons.has(want), want);
      }
      assert.equal(p.truncated, false);
      const tc = await tokenCounter();
      assert.equal(p.tokens, tc.count(text));
    });

    await t.step("get_context: tokens ≤ max_tokens for every budget", async () => {
      const tc = await tokenCounter();
      const budgets = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 4000];
      for (const name of ["Cart.total", "very_long", "Config"]) {
        let prev = -1;
        for (const max of budgets) {
          const w = await buildContextWindow(project, { symbolName: name, maxTokens: max });
          assert.ok(w.tokens <= max, `${name} at ${max}: ${w.tokens}`);
          assert.equal(w.tokens, tc.count(w.text));
          assert.ok(w.tokens >= prev, "a bigger budget never gives less");
          prev = w.tokens;
        }
      }
      const small = await buildContextWindow(project, { symbolName: "very_long", maxTokens: 300 });
      assert.equal(small.truncated, true);
      assert.match(small.text, /\(cut: lines \d+–233 not shown\)/);
      const out = await call(ex, "get_context", { symbol_name: "Cart", max_tokens: 0 });
      assert.equal(out.error_code, "invalid_argument");
      const big = await call(ex, "get_context", { symbol_name: "Cart", max_tokens: 32001 });
      assert.equal(big.error_code, "invalid_argument");
    });

    await t.step(
      "summarize_repo: counts, layout, entry points, manifests, key symbols",
      async () => {
        const r = await call(ex, "summarize_repo", {});
        assert.ok(r.success, String(r.error));
        const p = r.result_payload;
        assert.ok((p.files as number) >= 15);
        const langs = (p.languages as Payload[]).map((l) => l.language);
        assert.equal(langs[0], "python");
        const share = (p.languages as Payload[]).reduce((n, l) => n + (l.share as number), 0);
        assert.ok(Math.abs(share - 1) < 0.01);
        const dirs = Object.fromEntries(
          (p.top_dirs as Payload[]).map((d) => [d.path, d.description]),
        );
        assert.match(dirs["tests"] as string, /^tests/);
        assert.match(dirs["shop"] as string, /Python/);
        const entries = (p.entry_points as Payload[]).map((e) => `${e.file} ${e.kind}`);
        for (
          const want of [
            "web/server.ts package.json bin 'shop-web'",
            "shop/cli.py pyproject script 'shop' (shop.cli:main)",
            "shop/__main__.py python __main__ module",
            "services/gosvc/main.go main function",
            "rust/src/main.rs cargo main",
          ]
        ) assert.ok(entries.includes(want), `${want} in ${entries.join("; ")}`);
        const deps = new Set(
          (p.dependencies as Payload[]).map((d) => `${d.name}|${d.scope}|${d.manifest}`),
        );
        for (
          const want of [
            "hono|runtime|package.json",
            "typescript|dev|package.json",
            "zod|runtime|deno.json",
            "requests|runtime|pyproject.toml",
            "pytest|optional|pyproject.toml",
            "flask|runtime|requirements.txt",
            "github.com/gorilla/mux|runtime|services/gosvc/go.mod",
            "serde|runtime|rust/Cargo.toml",
            "org.junit.jupiter:junit-jupiter|test|java/pom.xml",
            "org.slf4j:slf4j-api|runtime|java/build.gradle",
          ]
        ) assert.ok(deps.has(want), want);
        const keys = (p.key_symbols as Payload[]).map((k) => k.qualified_name);
        assert.ok(keys.slice(0, 5).includes("apply_discount"), keys.join());
        assert.match(p.readme as string, /^A tiny shop used to test/);
        const tc = await tokenCounter();
        assert.ok(tc.count(p.text as string) <= 1500);
        assert.match(p.text as string, /## Entry points/);
      },
    );

    await t.step("summarize_repo: cached per generation, recomputed after a change", async () => {
      const a = await summarizeRepo(project);
      const b = await summarizeRepo(project);
      assert.equal(a, b);
      await writeFiles(root, { "shop/extra.py": "def extra_helper():\n    return 1\n" });
      await project.reindex();
      const c = await summarizeRepo(project);
      assert.notEqual(c, a);
      assert.ok(c.generation > a.generation);
      assert.equal(c.files, a.files + 1);
    });

    await t.step(
      "ask: offline answer cites the named symbols; empty question rejected",
      async () => {
        const r = await call(ex, "ask", { question: "What does `parse_config` return?" });
        assert.ok(r.success, String(r.error));
        const p = r.result_payload;
        assert.equal(p.mode, "offline");
        assert.match(
          p.answer as string,
          /`parse_config` is a function defined at shop\/config\.py:9/,
        );
        const first = (p.sources as Payload[])[0];
        assert.deepEqual([first.file, first.line, first.symbol], [
          "shop/config.py",
          9,
          "parse_config",
        ]);
        const few = await call(ex, "ask", { question: "how is the discount applied", top_k: 2 });
        assert.equal((few.result_payload.sources as Payload[]).length, 2);
        for (const q of ["", "   "]) {
          const e = await call(ex, "ask", { question: q });
          assert.equal(e.error_code, "invalid_argument", JSON.stringify(q));
        }
        const none = await askQuestion(project, "zzqx wvvy");
        assert.match(none.answer, /found no code/);
      },
    );

    await t.step(
      "ask: a chat endpoint answers; failing or slow ones leave the offline answer",
      async () => {
        const srv = chatServer();
        const keys = [
          "CODECTX_LLM_URL",
          "CODECTX_LLM_MODEL",
          "CODECTX_LLM_KEY",
          "CODECTX_LLM_TIMEOUT_MS",
        ];
        const saved = keys.map((k) => Deno.env.get(k));
        try {
          Deno.env.set("CODECTX_LLM_URL", srv.url);
          Deno.env.set("CODECTX_LLM_MODEL", "test-model");
          Deno.env.set("CODECTX_LLM_KEY", "sekret");
          Deno.env.set("CODECTX_LLM_TIMEOUT_MS", "400");
          const q = { question: "How is the cart total computed?" };
          const ok = await call(ex, "ask", q);
          assert.ok(ok.success, String(ok.error));
          assert.equal(ok.result_payload.mode, "llm");
          assert.equal(ok.result_payload.model, "test-model");
          assert.match(ok.result_payload.answer as string, /apply_discount \(shop\/cart\.py:6\)/);
          assert.ok((ok.result_payload.sources as Payload[]).length > 0);
          assert.equal(srv.state.auth, "Bearer sekret");
          const sent = srv.state.requests[0] as {
            model: string;
            messages: Array<{ content: string }>;
          };
          assert.equal(sent.model, "test-model");
          assert.match(sent.messages[1].content, /Question: How is the cart total computed\?/);
          assert.match(sent.messages[1].content, /shop\/cart\.py:\d+/);

          for (const mode of ["fail", "slow", "garbage"] as const) {
            srv.state.mode = mode;
            const t0 = performance.now();
            const r = await call(ex, "ask", q);
            assert.ok(r.success, `${mode}: ${r.error}`);
            assert.equal(r.result_payload.mode, "offline");
            assert.match(r.result_payload.warning as string, /did not answer/);
            assert.match(r.result_payload.answer as string, /### 1\. [^\n]* — shop\/cart\.py:\d+/);
            // One note above the answer, saying what `warning` says (vectors too, if missing).
            const notes = (r.result_payload.answer as string).match(/^> Note: .*$/gm) ?? [];
            assert.deepEqual(notes, [`> Note: ${r.result_payload.warning}.`]);
            if (mode === "slow") {
              assert.match(r.result_payload.warning as string, /no answer within 400 ms/);
              assert.ok(performance.now() - t0 < 1400);
            }
            if (mode === "fail") assert.match(r.result_payload.warning as string, /HTTP 500/);
          }
          // Nothing listening: connection refused is a warning too.
          Deno.env.set("CODECTX_LLM_URL", "http://127.0.0.1:9/v1");
          const refused = await call(ex, "ask", q);
          assert.equal(refused.result_payload.mode, "offline");
          assert.ok(refused.result_payload.warning);
        } finally {
          keys.forEach((k, i) =>
            saved[i] === undefined ? Deno.env.delete(k) : Deno.env.set(k, saved[i]!)
          );
          srv.close();
          await srv.done;
        }
      },
    );
  } finally {
    ex.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("CLI: context, summary and ask", async () => {
  const indexDir = await tempIndexDir();
  try {
    const base = ["--path", FIXTURE, "--index-dir", indexDir];
    const env = { CODECTX_EMBEDDER: "none" };
    const ctx = await runCli(["context", "apply_discount", "--max-tokens", "120", ...base], env);
    assert.equal(ctx.code, 0, ctx.stderr);
    assert.match(ctx.stdout, /^# apply_discount — function in shop\/cart\.py:6/);
    assert.match(ctx.stderr, /\d+\/120 tokens/);
    const bad = await runCli(["context", "apply_discount", "--max-tokens", "0", ...base], env);
    assert.equal(bad.code, 2);
    const sum = await runCli(["summary", "--json", ...base], env);
    assert.equal(sum.code, 0, sum.stderr);
    assert.equal(JSON.parse(sum.stdout).name, "context");
    assert.equal(JSON.parse(sum.stdout).package, "shop-web");
    const ask = await runCli(["ask", " ", ...base], env);
    assert.equal(ask.code, 2);
    const unknown = await runCli(["explain", "applyDiscount", ...base], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /did you mean apply_discount/);
  } finally {
    await cleanup(indexDir);
  }
});

Deno.test("buildContext in a fresh project without calls still fits", async () => {
  const root = await makeProject({ "a.py": "X = 1\n" });
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  try {
    const w = await buildContextWindow(project, { symbolName: "X", maxTokens: 50 });
    assert.ok(w.tokens <= 50);
    assert.match(w.text, /X = 1/);
  } finally {
    project.close();
    await cleanup(root, indexDir);
  }
});
