/**
 * The watcher stays inside the project, and a project deleted under a running server is said
 * and refused (issue 31), tested against the real CLI in child processes: inotify watches of
 * the server counted from /proc, edits found through the bridge, `/health` of the bridge, the
 * web surface and MCP over HTTP, tool calls while the root is gone and after it is back.
 */

import assert from "node:assert/strict";
import { Project } from "../src/project/project.ts";
import {
  callTool,
  cleanup,
  makeProject,
  tempIndexDir,
  withExecutor,
  writeFiles,
} from "./helpers.ts";
import { type Answer, type Child, http, obj, poll, post, startCli } from "./surfaces_helpers.ts";

/** Three levels of folders, a Python file in each. */
const TREE: Record<string, string> = {
  "main.py": "def main_entry():\n    return 1\n",
  "pkg/core.py": "def core_helper(x):\n    return x\n",
  "pkg/sub/deep.py": "def deep_helper(x):\n    return x * 2\n",
  "lib/util.py": "def util_helper():\n    return 3\n",
};
/** The root and its three folders. */
const PROJECT_DIRS = 4;
const ENV = { CODECTX_EMBEDDER: "none" };

/** Inotify watches `pid` holds, over all its inotify instances. */
function inotifyWatches(pid: number): number {
  let watches = 0;
  for (const e of Deno.readDirSync(`/proc/${pid}/fdinfo`)) {
    try {
      const text = Deno.readTextFileSync(`/proc/${pid}/fdinfo/${e.name}`);
      watches += text.match(/^inotify wd:/gm)?.length ?? 0;
    } catch {
      // closed meanwhile
    }
  }
  return watches;
}

const invoke = (url: string, tool: string, args: Record<string, unknown>) =>
  post(`${url}/tools/invoke`, { tool_name: tool, arguments: args });

/** Whether a search of the bridge finds `word` (in the index, so the watcher saw its file). */
async function found(url: string, word: string): Promise<boolean> {
  const a = await invoke(url, "semantic_search", { query: word, mode: "exact" });
  if (a.status !== 200) return false;
  const snippets = obj(a.json.result_payload).snippets;
  return Array.isArray(snippets) && snippets.length > 0;
}

const indexOf = (a: Answer) => obj(a.json.index);

/**
 * Runs `body` against `codectx serve` on a new project of {@linkcode TREE} (after `prepare`),
 * once its index is ready; then stops it and removes both folders.
 */
async function withBridge(
  prepare: (root: string) => Promise<void>,
  body: (srv: Child, root: string) => Promise<void>,
): Promise<void> {
  const root = await makeProject(TREE);
  await prepare(root);
  const indexDir = await tempIndexDir();
  const args = ["--port", "0", "--path", root, "--index-dir", indexDir];
  const srv = await startCli("serve", args, ENV);
  try {
    await poll("ready", async () => indexOf(await http(`${srv.url}/health`)).state === "ready");
    await body(srv, root);
  } finally {
    await srv.stop();
    await cleanup(root, indexDir);
  }
}

Deno.test("watcher: symlinks to / and /usr put no watch outside the project; edits are still seen", async () => {
  const links = async (root: string) => {
    await Deno.symlink("/", `${root}/whole_disk`);
    await Deno.symlink("/usr", `${root}/usr_link`);
  };
  await withBridge(links, async (srv, root) => {
    const watches = inotifyWatches(srv.pid);
    assert.ok(watches >= 1, "the server watches the project");
    assert.ok(
      watches <= 2 * PROJECT_DIRS,
      `${watches} inotify watches for a project of ${PROJECT_DIRS} folders`,
    );
    await writeFiles(root, { "pkg/sub/added.py": "def added_after_start():\n    return 4\n" });
    await poll("the edit found", () => found(srv.url, "added_after_start"));
    const h = indexOf(await http(`${srv.url}/health`));
    assert.equal(h.watching, true, JSON.stringify(h));
    assert.equal(h.watch_reason, null);
    // A folder made after the start is watched too: a file written in it later is seen.
    await writeFiles(root, { "newdir/first.py": "def first_in_new_folder():\n    return 5\n" });
    await poll("the new folder's file found", () => found(srv.url, "first_in_new_folder"));
    await writeFiles(root, { "newdir/second.py": "def second_in_new_folder():\n    return 6\n" });
    await poll(
      "a later file in the new folder found",
      () => found(srv.url, "second_in_new_folder"),
    );
    assert.ok(inotifyWatches(srv.pid) <= 2 * (PROJECT_DIRS + 1));
  });
});

Deno.test("bridge: a deleted root is said by /health, refused with 404 naming it, and indexed again when it is back", async () => {
  await withBridge(async () => {}, async (srv, root) => {
    assert.ok(await found(srv.url, "core_helper"));
    await Deno.remove(root, { recursive: true });

    const gone = await poll("root_missing", async () => {
      const h = await http(`${srv.url}/health`);
      return indexOf(h).state === "root_missing" ? h : null;
    });
    assert.equal(gone.status, 200);
    assert.equal(indexOf(gone).watching, false);
    assert.match(String(indexOf(gone).watch_reason), new RegExp(`${root}.*gone`));

    const calls: Array<[string, Record<string, unknown>]> = [
      ["index_project", {}],
      ["index_project", { force: true }],
      ["semantic_search", { query: "helper" }],
      ["search_symbols", { query: "core_helper" }],
      ["explain_file", { file_path: "pkg/core.py" }],
      ["explain_symbol", { symbol_name: "core_helper" }],
      ["summarize_repo", {}],
      ["analyze_quality", {}],
    ];
    for (const [tool, args] of calls) {
      const a = await invoke(srv.url, tool, args);
      assert.ok(a.status >= 400 && a.status < 500, `${tool}: ${a.status} ${a.text}`);
      assert.equal(a.json.success, false);
      assert.equal(a.json.error_code, "not_found", `${tool}: ${a.text}`);
      assert.match(String(a.json.error), new RegExp(`project root ${root} no longer exists`));
    }
    const req = await post(`${srv.url}/request`, {
      kind: "semantic_search",
      params: { query: "helper" },
    });
    assert.equal(req.status, 404, req.text);
    assert.equal(req.json.success, false);

    // Back, with other files: those are answered, not the old ones.
    await writeFiles(root, { "fresh/only_new.py": "def recreated_root_fn():\n    return 7\n" });
    await poll("the recreated root's file found", () => found(srv.url, "recreated_root_fn"));
    const back = await poll("watching again", async () => {
      const h = indexOf(await http(`${srv.url}/health`));
      return h.watching === true && h.state === "ready" ? h : null;
    });
    assert.equal(back.watch_reason, null);
    assert.equal(await found(srv.url, "core_helper"), false, "the old files are gone");
    // And watched again: a later file is seen.
    await writeFiles(root, { "fresh/later.py": "def after_recreation_fn():\n    return 8\n" });
    await poll(
      "a file written after the recreation found",
      () => found(srv.url, "after_recreation_fn"),
    );
  });
});

Deno.test("web and MCP over HTTP: /health says whether edits are seen and that the root is gone", async () => {
  const root = await makeProject(TREE);
  const webIndex = await tempIndexDir();
  const mcpIndex = await tempIndexDir();
  const web = await startCli("web", ["--port", "0", "--path", root, "--index-dir", webIndex], ENV);
  const mcp = await startCli("mcp", [
    "--http",
    "--port",
    "0",
    "--path",
    root,
    "--index-dir",
    mcpIndex,
    "--no-watch",
  ], ENV);
  try {
    const webReady = await poll("web ready", async () => {
      const h = await http(`${web.url}/health`);
      return indexOf(h).state === "ready" ? h : null;
    });
    assert.equal(indexOf(webReady).watching, true, webReady.text);
    const mcpHealth = indexOf(await http(`${mcp.url}/health`));
    assert.equal(mcpHealth.watching, false);
    assert.match(String(mcpHealth.watch_reason), /--no-watch/);

    await Deno.remove(root, { recursive: true });
    for (const srv of [web, mcp]) {
      // Watched or not, the root's absence is said.
      const h = await poll(
        "root_missing",
        async () => indexOf(await http(`${srv.url}/health`)).state === "root_missing",
      );
      assert.ok(h);
    }
    const search = await http(`${web.url}/api/search?q=helper`);
    assert.equal(search.status, 404, search.text);
    assert.equal(obj(search.json.error).code, "not_found");
    assert.match(String(obj(search.json.error).message), new RegExp(root));
  } finally {
    await web.stop();
    await mcp.stop();
    await cleanup(root, webIndex, mcpIndex);
  }
});

Deno.test("project: the folders a watcher watches are the walk's own (no link out, no skipped or ignored folder)", async () => {
  const root = await makeProject({
    ...TREE,
    ".gitignore": "generated/\n",
    "generated/out.py": "X = 1\n",
    "node_modules/pkg/index.js": "module.exports = 1;\n",
    "docs/readme.md": "# only a document here\n",
  });
  await Deno.symlink("/usr", `${root}/usr_link`);
  await Deno.symlink(`${root}/pkg/sub`, `${root}/sub_link`);
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, exclude: ["lib/"] });
  try {
    const dirs = (await project.directories()).map((d) => d.slice(root.length) || "/");
    assert.equal(dirs[0], "/", "the root first");
    assert.deepEqual([...new Set(dirs)].sort(), ["/", "/docs", "/pkg", "/pkg/sub"]);
  } finally {
    project.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("executor without a watcher: a deleted root is refused naming it; another folder there is answered, not the old index", async () => {
  await withExecutor(TREE, async (ex, root) => {
    assert.equal((await callTool(ex, "search_symbols", { query: "core_helper" })).total, 1);
    await Deno.remove(root, { recursive: true });
    for (
      const [tool, args] of [["search_symbols", { query: "core_helper" }], [
        "index_project",
        {},
      ]] as const
    ) {
      const r = await ex.execute({ tool_name: tool, arguments: args });
      assert.equal(r.success, false);
      assert.equal(r.error_code, "not_found", String(r.error));
      assert.match(r.error ?? "", new RegExp(`project root ${root} no longer exists`));
    }
    await writeFiles(root, { "again.py": "def in_the_new_folder():\n    return 9\n" });
    const hits = await callTool(ex, "search_symbols", { query: "in_the_new_folder" });
    assert.equal(hits.total, 1, JSON.stringify(hits));
    assert.equal((await callTool(ex, "search_symbols", { query: "core_helper" })).total, 0);
  });
});
