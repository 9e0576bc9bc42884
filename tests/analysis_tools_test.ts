/**
 * Code analysis through the tools: `analyze_quality` and `validate_code` on a project
 * written here, through the executor and the CLI. The analysis itself (metrics against
 * radon, rules against bandit) is in `analysis_test.ts`.
 */

import assert from "node:assert/strict";
import { collectAnalyses } from "../src/analysis/quality.ts";
import type { Executor } from "../src/tools/executor.ts";
import { cleanup, makeProject, runCli, tempIndexDir, withExecutor } from "./helpers.ts";

const PROJECT: Record<string, string> = {
  "app/__init__.py": "",
  "app/util.py": `"""Helpers."""


def parse_config(path):
    return {}


def load_users(db):
    return db.execute("SELECT * FROM users WHERE name = '%s'" % db.name)
`,
  "app/runner.py": `import subprocess


def run(cmd):
    assert cmd
    return subprocess.check_output(cmd, shell=True)
`,
  "web/index.ts": `export function render(html: string): void {
  document.body.innerHTML = html;
}
`,
  "requirements.txt": "requests>=2\nPyYAML==6.0\n",
  "config/.env": "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n",
  "logo.png": "\x89PNG\r\n\x1a\n\0\0\0",
};

/** Runs `fn` on an executor over {@link PROJECT} (`withExecutor`: no call limit). */
function withProject(fn: (ex: Executor, root: string) => Promise<void>): Promise<void> {
  return withExecutor(PROJECT, fn);
}

interface Quality {
  path: string;
  maintainability_index: number;
  rank: string;
  files: Array<{ file: string; language: string; maintainability_index: number; sloc: number }>;
  worst_functions: Array<{ qualified_name: string; file: string; complexity: number }>;
  bandit_issues: Array<{ test_id: string; severity: string; file: string; line: number }>;
  issue_counts: { total: number; by_severity: Record<string, number> };
  truncated: boolean;
  summary: { files: number; code_files: number; languages: Record<string, number> };
  skipped: Array<{ file: string; reason: string }>;
}

Deno.test("analyze_quality reports the project: MI, functions, issues by severity", async () => {
  await withProject(async (ex) => {
    const r = await ex.execute({
      tool_name: "analyze_quality",
      arguments: { time_budget_ms: 3_600_000 },
    });
    assert.ok(r.success, r.error ?? "");
    const q = r.result_payload as unknown as Quality;
    assert.equal(q.path, ".");
    assert.deepEqual(q.files.map((f) => f.file), [
      "app/__init__.py",
      "app/runner.py",
      "app/util.py",
      "web/index.ts",
    ]);
    assert.ok(q.maintainability_index > 0 && q.maintainability_index <= 100);
    assert.equal(q.rank, "A");
    assert.deepEqual(q.summary.languages, { python: 3, typescript: 1 });
    assert.ok(q.skipped.some((s) => s.file === "logo.png" && s.reason === "binary"));
    const ids = q.bandit_issues.map((i) => `${i.file}:${i.line} ${i.test_id}`);
    assert.deepEqual(ids.slice(0, 2).sort(), [
      "app/runner.py:6 B602",
      "config/.env:1 S102",
    ]);
    for (
      const id of [
        "app/runner.py:1 B404",
        "app/runner.py:5 B101",
        "app/util.py:9 B608",
        "web/index.ts:2 JS106",
      ]
    ) {
      assert.ok(ids.includes(id), `${id} in ${ids.join(", ")}`);
    }
    const rank = { HIGH: 3, MEDIUM: 2, LOW: 1 } as Record<string, number>;
    for (let i = 1; i < q.bandit_issues.length; i++) {
      assert.ok(rank[q.bandit_issues[i - 1].severity] >= rank[q.bandit_issues[i].severity]);
    }
    assert.equal(q.issue_counts.total, q.bandit_issues.length);
    assert.equal(q.worst_functions[0].complexity, 2);
    assert.equal(q.truncated, false);
  });
});

Deno.test("analyze_quality on a file, a folder, and bad paths", async () => {
  await withProject(async (ex, root) => {
    const file = await ex.execute({
      tool_name: "analyze_quality",
      arguments: { path: "app/runner.py", time_budget_ms: 3_600_000 },
    });
    assert.ok(file.success, file.error ?? "");
    const fq = file.result_payload as unknown as Quality;
    assert.deepEqual(fq.files.map((f) => f.file), ["app/runner.py"]);
    assert.equal(fq.maintainability_index, fq.files[0].maintainability_index);

    const folder = await ex.execute({
      tool_name: "analyze_quality",
      arguments: {
        path: `${root}/app`,
        min_severity: "MEDIUM",
        max_issues: 1,
        time_budget_ms: 3_600_000,
      },
    });
    assert.ok(folder.success, folder.error ?? "");
    const dq = folder.result_payload as unknown as Quality;
    assert.equal(dq.path, "app");
    assert.equal(dq.files.length, 3);
    assert.deepEqual(dq.bandit_issues.map((i) => i.test_id), ["B602"]);
    assert.equal(dq.truncated, true);
    assert.equal(dq.issue_counts.total, 2);

    const outside = await ex.execute({ tool_name: "analyze_quality", arguments: { path: "../" } });
    assert.equal(outside.error_code, "outside_root");
    const missing = await ex.execute({
      tool_name: "analyze_quality",
      arguments: { path: "nope/" },
    });
    assert.equal(missing.error_code, "not_found");
    const binary = await ex.execute({
      tool_name: "analyze_quality",
      arguments: { path: "logo.png" },
    });
    assert.equal(binary.error_code, "invalid_argument");
  });
});

interface Validated {
  valid: boolean;
  language: string;
  language_source: string;
  syntax_errors: Array<{ line: number; column: number; message: string }>;
  unresolved_symbols: Array<{ name: string; kind: string; suggestions: string[] }>;
  security_issues: Array<{ test_id: string; line: number }>;
  metrics: { cyclomatic_complexity: number; maintainability_index: number; functions: unknown[] };
}

Deno.test("validate_code resolves names against the project and its dependencies", async () => {
  await withProject(async (ex) => {
    const r = await ex.execute({
      tool_name: "validate_code",
      arguments: {
        code: `import requests
import yaml
import flask
from app.util import parse_config, load_userz

def main():
    cfg = parse_config("x")
    parse_confg("y")
    return requests.get("u", verify=False)
`,
        file_path: "app/main.py",
      },
    });
    assert.ok(r.success, r.error ?? "");
    const v = r.result_payload as unknown as Validated;
    assert.equal(v.language, "python");
    assert.equal(v.language_source, "file_path");
    assert.equal(v.valid, true);
    assert.deepEqual(v.unresolved_symbols.map((u) => [u.name, u.kind, u.suggestions]), [
      ["flask", "import", []],
      ["app.util.load_userz", "import", ["load_users"]],
      ["parse_confg", "call", ["parse_config"]],
    ]);
    assert.deepEqual(v.security_issues.map((i) => `${i.line} ${i.test_id}`), ["9 B501"]);
    assert.equal(v.metrics.functions.length, 1);
  });
});

Deno.test("validate_code refuses bad input with the right codes", async () => {
  await withProject(async (ex) => {
    const call = (args: Record<string, unknown>) =>
      ex.execute({ tool_name: "validate_code", arguments: args });
    const unknown = await call({ code: "x = 1", language: "cobol" });
    assert.equal(unknown.error_code, "invalid_argument");
    assert.match(unknown.error!, /supported languages: python, javascript/);
    const undetectable = await call({ code: "hello there" });
    assert.equal(undetectable.error_code, "invalid_argument");
    assert.match(undetectable.error!, /pass language/);
    const big = await call({ code: "x = 1\n".repeat(200_000), language: "python" });
    assert.equal(big.error_code, "too_large");
    const binary = await call({ code: "x = 1\0\0", language: "python" });
    assert.equal(binary.error_code, "invalid_argument");
    const mangled = await call({ code: "x = '\uFFFD'", language: "python" });
    assert.equal(mangled.error_code, "invalid_argument");
    const outside = await call({ code: "x = 1", file_path: "../x.py" });
    assert.equal(outside.error_code, "outside_root");
    const ts = await call({ code: "const x: number = 1;\n", file_path: "web/x.ts" });
    assert.ok(ts.success, ts.error ?? "");
    assert.equal((ts.result_payload as unknown as Validated).language, "typescript");
  });
});

Deno.test("explaining a snippet lists its symbols, their calls and project symbols", async () => {
  await withProject(async (ex) => {
    const r = await ex.execute({
      tool_name: "validate_code",
      arguments: {
        code:
          "from app.util import parse_config\n\ndef main(path):\n    return parse_config(path)\n",
        file_path: "app/main.py",
        mode: "explain",
      },
    });
    assert.ok(r.success, r.error ?? "");
    assert.equal(r.result_payload.language, "python");
    const e = r.result_payload.explanation as {
      symbols: Array<{ name: string; calls: string[] }>;
      project_symbols: Array<{ file: string; line: number; name: string }>;
    };
    assert.deepEqual(e.symbols.map((s) => [s.name, s.calls]), [["main", ["parse_config"]]]);
    assert.deepEqual(e.project_symbols.map((s) => `${s.file}:${s.line} ${s.name}`), [
      "app/util.py:4 parse_config",
    ]);
  });
});

Deno.test("a run past its deadline answers with what is done and goes on", async () => {
  // Fresh contents, so that nothing is in the cache yet.
  const files: Record<string, string> = {};
  for (let i = 0; i < 6; i++) files[`m${i}.py`] = `X = "${crypto.randomUUID()}"\n`;
  const root = await makeProject(files);
  try {
    const late = await collectAnalyses(root, "", { deadline: 0 });
    assert.equal(late.pending, 6 - late.analyses.length);
    assert.ok(late.pending > 0);
    // The rest is analyzed meanwhile, into the cache.
    await late.background;
    const full = await collectAnalyses(root, "");
    assert.equal(full.pending, 0);
    assert.equal(full.analyses.length, 6);
  } finally {
    await cleanup(root);
  }
});

Deno.test("CLI: quality and validate", async () => {
  const root = await makeProject(PROJECT);
  const indexDir = await tempIndexDir();
  try {
    const q = await runCli(["quality", "app", "--path", root, "--index-dir", indexDir, "--json"]);
    assert.equal(q.code, 0, q.stderr);
    assert.equal(JSON.parse(q.stdout).files.length, 3);
    const text = await runCli(["quality", "--path", root, "--index-dir", indexDir]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /maintainability index \d+\.\d\d \(A\)/);
    assert.match(text.stdout, /B602/);
    const fail = await runCli([
      "quality",
      "--path",
      root,
      "--index-dir",
      indexDir,
      "--fail-on",
      "HIGH",
    ]);
    assert.equal(fail.code, 1);
    await Deno.writeTextFile(`${root}/snippet.py`, "import os\nos.path.joinpath('a')\n");
    const v = await runCli([
      "validate",
      `${root}/snippet.py`,
      "--path",
      root,
      "--index-dir",
      indexDir,
    ]);
    assert.equal(v.code, 1, v.stderr);
    assert.match(v.stdout, /os\.path\.joinpath \(member\) exists nowhere/);
  } finally {
    await cleanup(root, indexDir);
  }
});
