/**
 * The watcher's bounds against a real `codectx serve` (issue 31): a temp project with a
 * symlink to `/` and one to `/usr`, then its root deleted and recreated. Prints, per case:
 * time to `ready`, the server's inotify watches (`inotify wd:` lines in
 * /proc/<pid>/fdinfo/*) against the project's own directories, how long an edit takes to be
 * found by a search, what `/health` says about watching; then how long `/health` takes to say
 * the root is gone, the status of every endpoint meanwhile (a 500 is a failure), and whether
 * a file added to the recreated root is found.
 *
 *   deno run -A bench/watch_bounds.ts [--dirs 12] [--wait 15]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { type Serve, startServe } from "./serve.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { dirs: { type: "string", default: "12" }, wait: { type: "string", default: "15" } },
});
const DIRS = Number(values.dirs);
/** Longest wait for each condition, in seconds. */
const WAIT_S = Number(values.wait);

type Json = Record<string, unknown>;

/** A project of `DIRS` folders below the root (root included in the count), a file in each. */
async function makeProject(links: Record<string, string>): Promise<{ root: string; dirs: number }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "codectx-watchb-" }));
  await writeTree(root);
  for (const [name, target] of Object.entries(links)) await Deno.symlink(target, `${root}/${name}`);
  return { root, dirs: DIRS + 1 };
}

async function writeTree(root: string): Promise<void> {
  for (let i = 0; i < DIRS; i++) {
    const dir = i % 3 === 0 ? `${root}/pkg${i}` : `${root}/pkg${i - (i % 3)}/sub${i}`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(`${dir}/mod${i}.py`, `def helper_${i}(x):\n    return x + ${i}\n`);
  }
}

/** Inotify watches the process holds, over all its inotify instances. */
function inotifyWatches(pid: number): { watches: number; instances: number } {
  let watches = 0;
  let instances = 0;
  for (const e of Deno.readDirSync(`/proc/${pid}/fdinfo`)) {
    let text = "";
    try {
      text = Deno.readTextFileSync(`/proc/${pid}/fdinfo/${e.name}`);
    } catch {
      continue;
    }
    const n = text.match(/^inotify wd:/gm)?.length ?? 0;
    // An instance with no watch left shows no wd line; its fd link names it.
    let isInotify = n > 0;
    try {
      isInotify ||= Deno.readLinkSync(`/proc/${pid}/fd/${e.name}`).includes("inotify");
    } catch {
      // closed meanwhile
    }
    if (isInotify) instances++;
    watches += n;
  }
  return { watches, instances };
}

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; json: Json }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(WAIT_S * 1000) });
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text);
  } catch {
    json = { text };
  }
  return { status: res.status, json };
}

const invoke = (url: string, tool: string, args: Json) =>
  getJson(`${url}/tools/invoke`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tool_name: tool, arguments: args }),
  });

async function health(url: string): Promise<Json> {
  return (await getJson(`${url}/health`)).json;
}

const indexOf = (h: Json) => (h.index ?? {}) as Json;

/** Ms until `cond` holds, polled every 50 ms; null past `WAIT_S`. */
async function until(cond: () => Promise<boolean>): Promise<number | null> {
  const t0 = performance.now();
  while (performance.now() - t0 < WAIT_S * 1000) {
    try {
      if (await cond()) return Math.round(performance.now() - t0);
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

const found = async (url: string, word: string) => {
  const r = await invoke(url, "semantic_search", { query: word, mode: "exact" });
  const snippets = ((r.json.result_payload ?? {}) as Json).snippets;
  return Array.isArray(snippets) && snippets.length > 0;
};

const ms = (v: number | null) => (v === null ? `never (> ${WAIT_S} s)` : `${v} ms`);

/** What `/health` says about watching and the root, in one line. */
function watchLine(h: Json): string {
  const i = indexOf(h);
  const watching = "watching" in i ? String(i.watching) : "(no field)";
  const reason = i.watch_reason ? ` (${i.watch_reason})` : "";
  return `state ${i.state}, watching ${watching}${reason}`;
}

async function start(root: string, indexDir: string): Promise<{ srv: Serve; readyMs: number }> {
  const t0 = performance.now();
  const srv = await startServe({ root, indexDir, watch: true, env: { CODECTX_EMBEDDER: "none" } });
  const ready = await until(async () => indexOf(await health(srv.url)).state === "ready");
  return { srv, readyMs: ready === null ? -1 : Math.round(performance.now() - t0) };
}

async function stop(srv: Serve): Promise<void> {
  try {
    srv.proc.kill("SIGTERM");
  } catch {
    // gone
  }
  await srv.proc.status;
}

/** One edit, found by a search: ms from the save. */
async function editSeen(url: string, root: string, tag: string): Promise<number | null> {
  const word = `edited_marker_${tag}_${Date.now()}`;
  await Deno.mkdir(`${root}/pkg0`, { recursive: true });
  await Deno.writeTextFile(`${root}/pkg0/edit_${tag}.py`, `def ${word}():\n    return 1\n`);
  return await until(() => found(url, word));
}

/** Every endpoint once: each status, and the 5xx among them. */
async function everyEndpoint(url: string): Promise<{ statuses: string; fivexx: string[] }> {
  const calls: Array<[string, () => Promise<{ status: number; json: Json }>]> = [
    ["GET /", () => getJson(`${url}/`)],
    ["GET /health", () => getJson(`${url}/health`)],
    ["GET /tools/list", () => getJson(`${url}/tools/list`)],
    ["index_project", () => invoke(url, "index_project", {})],
    ["semantic_search", () => invoke(url, "semantic_search", { query: "helper" })],
    ["search_symbols", () => invoke(url, "search_symbols", { query: "helper" })],
    ["explain_symbol", () => invoke(url, "explain_symbol", { symbol_name: "helper_0" })],
    ["explain_file", () => invoke(url, "explain_file", { file_path: "pkg0/mod0.py" })],
    ["find_references", () => invoke(url, "find_references", { symbol_name: "helper_0" })],
    ["get_dependencies", () => invoke(url, "get_dependencies", {})],
    ["get_call_graph", () => invoke(url, "get_call_graph", { symbol_name: "helper_0" })],
    ["get_context", () => invoke(url, "get_context", { symbol_name: "helper_0" })],
    ["summarize_repo", () => invoke(url, "summarize_repo", {})],
    ["analyze_quality", () => invoke(url, "analyze_quality", {})],
    ["ask", () => invoke(url, "ask", { question: "what does helper_0 do?" })],
    ["validate_code", () => invoke(url, "validate_code", { code: "x = 1\n", language: "python" })],
    [
      "POST /request",
      () =>
        getJson(`${url}/request`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ kind: "semantic_search", params: { query: "helper" } }),
        }),
    ],
  ];
  const parts: string[] = [];
  const fivexx: string[] = [];
  for (const [name, call] of calls) {
    const r = await call().catch((err) => ({ status: 0, json: { error: String(err) } as Json }));
    const code = typeof r.json.error_code === "string" ? ` ${r.json.error_code}` : "";
    parts.push(`${name} ${r.status}${code}`);
    if (r.status >= 500 || r.status === 0) {
      fivexx.push(`${name} ${r.status}: ${JSON.stringify(r.json).slice(0, 200)}`);
    }
  }
  return { statuses: parts.join(", "), fivexx };
}

async function linksCase(label: string, links: Record<string, string>): Promise<void> {
  const { root, dirs } = await makeProject(links);
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-watchb-idx-" });
  const { srv, readyMs } = await start(root, indexDir);
  try {
    // The watcher is set up before the first run ends; let a late one settle.
    await new Promise((r) => setTimeout(r, 500));
    const w = inotifyWatches(srv.proc.pid);
    const edit = await editSeen(srv.url, root, "a");
    const h = await health(srv.url);
    console.log(
      `${label}: ready in ${readyMs} ms; inotify watches ${w.watches} in ${w.instances} ` +
        `instance(s) for ${dirs} project dirs (bound ${2 * dirs}: ${
          w.watches <= 2 * dirs ? "ok" : "OVER"
        }); edit found in ${ms(edit)} (bound 2000 ms: ${
          edit !== null && edit <= 2000 ? "ok" : "MISSED"
        }); /health: ${watchLine(h)}`,
    );
  } finally {
    await stop(srv);
    await Deno.remove(root, { recursive: true }).catch(() => {});
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
}

async function deletedCase(): Promise<void> {
  const { root } = await makeProject({});
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-watchb-idx-" });
  const { srv } = await start(root, indexDir);
  try {
    await Deno.remove(root, { recursive: true });
    let last: Json = {};
    const said = await until(async () => {
      last = await health(srv.url);
      return indexOf(last).state !== "ready" && indexOf(last).state !== "indexing";
    });
    console.log(
      `root deleted: /health said so in ${ms(said)} (bound 5000 ms: ${
        said !== null && said <= 5000 ? "ok" : "MISSED"
      }); /health: ${watchLine(last)}`,
    );
    const gone = await everyEndpoint(srv.url);
    console.log(`  endpoints while gone: ${gone.statuses}`);
    console.log(`  5xx while gone: ${gone.fivexx.length}${gone.fivexx.map((f) => `\n    ${f}`)}`);

    await Deno.mkdir(root);
    await writeTree(root);
    const word = `recreated_marker_${Date.now()}`;
    await Deno.writeTextFile(`${root}/pkg0/late.py`, `def ${word}():\n    return 2\n`);
    const back = await until(() => found(srv.url, word));
    const watching = await until(async () => indexOf(await health(srv.url)).watching === true);
    console.log(
      `root recreated: a file in it found in ${ms(back)}, watched again after ${ms(watching)}; ` +
        `/health: ${watchLine(await health(srv.url))}`,
    );
    const later = await editSeen(srv.url, root, "b");
    console.log(`  an edit after that found in ${ms(later)}`);

    // Replaced: the folder renamed away (still there, still watched before) and a new one made.
    await Deno.rename(root, `${root}.old`);
    await Deno.mkdir(root);
    const swapped = `swapped_marker_${Date.now()}`;
    await Deno.writeTextFile(`${root}/swapped.py`, `def ${swapped}():\n    return 3\n`);
    const seen = await until(() => found(srv.url, swapped));
    const oldGone = await until(async () => !(await found(srv.url, word)));
    const edited = await editSeen(srv.url, root, "c");
    console.log(
      `root replaced: the new folder's file found in ${ms(seen)}, the old one's gone after ` +
        `${ms(oldGone)}, an edit in the new one found in ${ms(edited)}`,
    );
    await Deno.remove(`${root}.old`, { recursive: true }).catch(() => {});
  } finally {
    await stop(srv);
    await Deno.remove(root, { recursive: true }).catch(() => {});
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
}

const head = new Deno.Command("git", { args: ["rev-parse", "--short", "HEAD"], stdout: "piped" })
  .outputSync();
console.log(
  `watch_bounds at ${new TextDecoder().decode(head.stdout).trim()}: ${DIRS + 1} project dirs, ` +
    `waits up to ${WAIT_S} s, load ${Deno.readTextFileSync("/proc/loadavg").split(" ")[0]}`,
);
await linksCase("no links", {});
await linksCase("link to /usr", { usr: "/usr" });
await linksCase("link to /", { all: "/" });
await linksCase("links to / and /usr", { all: "/", usr: "/usr" });
await deletedCase();
