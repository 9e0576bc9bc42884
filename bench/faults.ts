/**
 * Faults, `--runs` times each: a full disk (a 3 MB tmpfs in a private mount namespace), a
 * file that becomes a FIFO and one that becomes a symlink out of the root (after the walk,
 * and between indexing and an answer that reads the live file), SIGKILL of `codectx index`
 * at a random moment, and SIGKILL of `codectx serve` while it re-indexes a tree being
 * edited. After each fault: the last good index still answers, no byte from outside the
 * root is in any answer, nothing hangs, and the next run completes. Prints one line per
 * fault: runs passed, and each failure with what went wrong.
 *
 *   deno run -A bench/faults.ts [--runs 20] [--only disk_full,fifo,symlink,kill_index,kill_watch]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { ingest } from "../src/index/ingest.ts";
import { walk } from "../src/index/walker.ts";
import { Store } from "../src/store/kv.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { startServe } from "./serve.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "20" },
    only: { type: "string" },
  },
});
const RUNS = Number(values.runs);
const ONLY = values.only?.split(",");
const repo = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
const CLI = `${repo}/cli.ts`;
const SECRET = "OUTSIDE_ROOT_SECRET_7f31";
/**
 * Memory budget of the in-process indexing runs: the budget counts this whole process,
 * which grows over many runs; the faults measured here are not memory faults.
 */
const BUDGET_MIB = 8192;
const load = () => Deno.readTextFileSync("/proc/loadavg").trim();

async function project(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "codectx-fault-" });
  for (const [p, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${p}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${p}`, text);
  }
  return root;
}

async function cli(
  args: string[],
  timeoutMs = 120_000,
): Promise<{ code: number; out: string; err: string }> {
  const p = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  });
  const o = await p.output();
  const d = new TextDecoder();
  return { code: o.code, out: d.decode(o.stdout), err: d.decode(o.stderr) };
}

/** Rejects when `p` takes longer than `ms` (a hang is a failure, not a wait). */
function guard<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} hung for ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

const bigTemplate = await Deno.makeTempDir({ prefix: "codectx-fault-big-" });
{
  // 400 files of 300 functions: their blobs need far more than the 3 MB file system.
  for (let i = 1; i <= 400; i++) {
    const lines = [];
    for (let j = 0; j < 300; j++) {
      lines.push(`def g_${i}_${j}(a, b):\n    return a + b * ${j}  # padding ${i} ${j} ${i * j}`);
    }
    await Deno.writeTextFile(`${bigTemplate}/big_${i}.py`, lines.join("\n") + "\n");
  }
}

async function diskFull(): Promise<void> {
  const files: Record<string, string> = {};
  for (let i = 1; i <= 5; i++) files[`m${i}.py`] = `def small_fn_${i}():\n    return ${i}\n`;
  const root = await project(files);
  const mnt = await Deno.makeTempDir({ prefix: "codectx-full-" });
  const idx = `${mnt}/idx`;
  const run = (args: string) =>
    `"${Deno.execPath()}" run -A "${CLI}" ${args} --path "${root}" --index-dir "${idx}"`;
  const script = [
    `mount -t tmpfs -o size=3m tmpfs "${mnt}" || exit 97`,
    `${run("index")} >/dev/null 2>&1; echo "rc1=$?"`,
    `cp "${bigTemplate}"/*.py "${root}/"`,
    `${run("index")} 2>&1; echo "rc2=$?"`,
    `${run("search small_fn_3 --no-wait")} 2>/dev/null; echo "rc3=$?"`,
    `mount -o remount,size=8m "${mnt}"; rm -f "${root}"/big_*.py`,
    `printf 'def after_full():\\n    return 0\\n' > "${root}/after.py"`,
    `${run("index")} >/dev/null 2>&1; echo "rc4=$?"`,
    `${run("search after_full --no-wait")} 2>/dev/null; echo "rc5=$?"`,
  ].join("\n");
  try {
    const o = await new Deno.Command("unshare", {
      args: ["-rm", "sh", "-c", script],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(300_000),
    }).output();
    const out = new TextDecoder().decode(o.stdout) + new TextDecoder().decode(o.stderr);
    check(o.code !== 97, "no tmpfs could be mounted (needs user namespaces)");
    check(/rc1=0/.test(out), "the first (small) run failed");
    check(/disk full: free space under \S+ and index again/.test(out), "no 'disk full' line");
    check(/rc2=1/.test(out), "the run on a full disk did not fail with exit 1");
    check(!/^\s+at /m.test(out) && !/Uncaught/.test(out), "a stack trace was printed");
    check(/small_fn_3[\s\S]*rc3=0/.test(out), "the last good index did not answer");
    check(/rc4=0/.test(out), "the next run did not complete");
    check(/after_full[\s\S]*rc5=0/.test(out), "the next run's index did not answer");
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
    await Deno.remove(mnt, { recursive: true }).catch(() => {});
  }
}

/** A project, an outside secret, an executor on it with a complete index. */
async function swapSetup() {
  const root = await project({
    "a.py": "def keep_a():\n    return 1\n",
    "b.py": "def swapped_b():\n    return 2\n",
    "c.py": "def swapped_c():\n    return 3\n",
  });
  const outside = await Deno.makeTempDir({ prefix: "codectx-outside-" });
  await Deno.writeTextFile(`${outside}/secret.py`, `def ${SECRET}():\n    return 0\n`);
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-fault-idx-" });
  return { root, outside, indexDir };
}

/** Every answer that reads files, as one text: no byte of the secret may be in it. */
async function answers(root: string, indexDir: string): Promise<string> {
  const executor = await createExecutor(root, { indexDir, maxMemoryMiB: BUDGET_MIB });
  try {
    const calls: Array<[string, Record<string, unknown>]> = [
      ["explain_symbol", { name: "swapped_b" }],
      ["explain_symbol", { name: "swapped_c" }],
      ["get_context", { name: "swapped_c" }],
      ["explain_file", { path: "c.py" }],
      ["explain_file", { path: "b.py" }],
      ["semantic_search", { query: "secret swapped" }],
      ["search_symbols", { query: "keep_a" }],
      ["analyze_quality", { path: "." }],
      ["get_dependencies", {}],
    ];
    const out: string[] = [];
    for (const [tool, args] of calls) {
      const r = await guard(
        executor.execute({ tool_name: tool, arguments: args }),
        60_000,
        `${tool} on swapped files`,
      );
      out.push(JSON.stringify(r));
    }
    return out.join("\n");
  } finally {
    await executor.close();
  }
}

async function indexOnce(root: string, indexDir: string): Promise<void> {
  const executor = await createExecutor(root, { indexDir, maxMemoryMiB: BUDGET_MIB });
  try {
    const r = await guard(
      executor.execute({ tool_name: "index_project", arguments: {} }),
      120_000,
      "index_project",
    );
    check(r.success, `indexing failed: ${r.error}`);
  } finally {
    await executor.close();
  }
}

/** Turns `rel` into a FIFO or a symlink to the outside secret. */
async function swap(root: string, rel: string, outside: string, kind: "fifo" | "symlink") {
  await Deno.remove(`${root}/${rel}`);
  if (kind === "symlink") await Deno.symlink(`${outside}/secret.py`, `${root}/${rel}`);
  else {
    const mk = await new Deno.Command("mkfifo", { args: [`${root}/${rel}`] }).output();
    check(mk.code === 0, "mkfifo failed");
  }
}

async function swapped(kind: "fifo" | "symlink"): Promise<void> {
  const { root, outside, indexDir } = await swapSetup();
  try {
    // At index time: the walk saw regular files; they change before they are read.
    {
      const store = await Store.open(indexDir);
      try {
        const entries = await walk(root);
        await swap(root, "c.py", outside, kind);
        const got = await guard(
          ingest(entries, new Map(), store, { workers: 0 }),
          30_000,
          "ingest",
        );
        const c = got.files.find((f) => f.path === "c.py");
        check(c?.skipped === "unreadable", `the swapped file was read (${JSON.stringify(c)})`);
      } finally {
        store.close();
      }
      await Deno.remove(`${root}/c.py`);
      await Deno.writeTextFile(`${root}/c.py`, "def swapped_c():\n    return 3\n");
    }
    // At answer time: indexed as regular files, swapped before the answers read them.
    await indexOnce(root, indexDir);
    await swap(root, "b.py", outside, kind);
    await swap(root, "c.py", outside, kind);
    const text = await answers(root, indexDir);
    check(!text.includes(SECRET), "a byte from outside the root reached an answer");
    check(text.includes("keep_a"), "the last good index did not answer");
    // The next run completes (and leaves the outside file out).
    await indexOnce(root, indexDir);
    const after = await answers(root, indexDir);
    check(!after.includes(SECRET), "the next run indexed the outside file");
  } finally {
    for (const d of [root, outside, indexDir]) {
      await Deno.remove(d, { recursive: true }).catch(() => {});
    }
  }
}

/** A project of `n` Python files, each defining `fn_<i>_<tag>`. */
async function writeMany(root: string, n: number, tag: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    const body = Array.from(
      { length: 20 },
      (_, j) => `def fn_${i}_${tag}_${j}(x):\n    return x + ${j}\n`,
    ).join("\n");
    await Deno.writeTextFile(`${root}/m_${i}.py`, body);
  }
}

async function killIndex(): Promise<void> {
  const root = await project({});
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-fault-idx-" });
  try {
    await writeMany(root, 300, "old");
    const first = await cli(["index", "--path", root, "--index-dir", indexDir]);
    check(first.code === 0, `the first run failed: ${first.err.slice(0, 300)}`);
    await writeMany(root, 300, "new");
    const p = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "index", "--path", root, "--index-dir", indexDir],
      stdout: "null",
      stderr: "null",
    }).spawn();
    await new Promise((r) => setTimeout(r, 300 + Math.random() * 4000));
    p.kill("SIGKILL");
    await p.status;
    // The last good index answers: the old names, or (killed after its commit) the new.
    const q = await cli([
      "tool",
      "search_symbols",
      "--args",
      JSON.stringify({ query: "fn_7_" }),
      "--path",
      root,
      "--index-dir",
      indexDir,
    ]);
    check(q.code === 0 && /fn_7_(old|new)_3/.test(q.out), `no answer after the kill: ${q.err}`);
    const next = await cli(["index", "--path", root, "--index-dir", indexDir]);
    check(next.code === 0, `the next run failed: ${next.err.slice(0, 300)}`);
    const q2 = await cli([
      "tool",
      "search_symbols",
      "--args",
      JSON.stringify({ query: "fn_7_new_3" }),
      "--path",
      root,
      "--index-dir",
      indexDir,
    ]);
    check(/fn_7_new_3/.test(q2.out), "the next run's index lacks the new names");
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
}

/** `codectx serve` on `root`, bounded by a minute to start. */
function serveWithin(root: string, indexDir: string, watch: boolean) {
  return guard(startServe({ root, indexDir, watch }), 60_000, "serve start");
}

async function symbolFound(url: string, name: string): Promise<boolean> {
  const r = await fetch(`${url}/tools/invoke`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tool_name: "search_symbols", arguments: { query: name } }),
  });
  const j = await r.json();
  return r.ok && JSON.stringify(j).includes(name);
}

async function killWatch(): Promise<void> {
  const root = await project({});
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-fault-idx-" });
  try {
    await writeMany(root, 100, "v0");
    const first = await cli(["index", "--path", root, "--index-dir", indexDir]);
    check(first.code === 0, "the first run failed");
    const s = await serveWithin(root, indexDir, true);
    let version = 0;
    const until = performance.now() + 500 + Math.random() * 4000;
    while (performance.now() < until) {
      version++;
      for (let i = 0; i < 5; i++) {
        const f = Math.floor(Math.random() * 100);
        await Deno.writeTextFile(
          `${root}/m_${f}.py`,
          `def fn_${f}_v${version}_0(x):\n    return x\n`,
        );
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    s.proc.kill("SIGKILL");
    await s.proc.status;
    // A new server answers from the last good index at once, then catches up.
    await Deno.writeTextFile(`${root}/last.py`, `def last_edit_${version}():\n    return 0\n`);
    const t = await serveWithin(root, indexDir, true);
    try {
      const h = await fetch(`${t.url}/health`);
      check(h.ok, `health answered ${h.status}`);
      await h.body?.cancel();
      const deadline = performance.now() + 120_000;
      let found = false;
      while (!found && performance.now() < deadline) {
        found = await symbolFound(t.url, `last_edit_${version}`);
        if (!found) await new Promise((r) => setTimeout(r, 500));
      }
      check(found, "the run after the kill did not complete within 120 s");
    } finally {
      t.proc.kill("SIGTERM");
      await t.proc.status;
    }
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
}

const FAULTS: Record<string, () => Promise<void>> = {
  disk_full: diskFull,
  fifo: () => swapped("fifo"),
  symlink: () => swapped("symlink"),
  kill_index: killIndex,
  kill_watch: killWatch,
};

console.log(`faults × ${RUNS}; load ${load()}`);
for (const [name, fn] of Object.entries(FAULTS)) {
  if (ONLY && !ONLY.includes(name)) continue;
  const t0 = performance.now();
  const failures: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    try {
      await fn();
    } catch (err) {
      failures.push(`run ${i + 1}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  console.log(
    `${name}: ${RUNS - failures.length}/${RUNS} passed in ${
      ((performance.now() - t0) / 1000).toFixed(0)
    } s; load ${load()}`,
  );
  for (const f of failures.slice(0, 5)) console.log(`  ${f.slice(0, 400)}`);
}
await Deno.remove(bigTemplate, { recursive: true }).catch(() => {});
