/**
 * Search workers (`src/search/search_pool.ts`): a server's ranked queries are scored in
 * workers over shared memory and answer exactly what the main thread answers; a call past
 * its time limit stops its worker, which is replaced.
 */

import assert from "node:assert/strict";
import { ProjectService } from "../src/service/service.ts";
import {
  analyseQuery,
  DEFAULT_FUSION,
  gather,
  type SearchOptions,
  searchProject,
} from "../src/search/hybrid.ts";
import { closeSearchWorkers, enableSearchWorkers, searchCall } from "../src/search/search_pool.ts";
import { filterMask, FlatVectorIndex } from "../src/search/vectors.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";

const FILES: Record<string, string> = {
  "app/auth.py": `"""Login and sessions."""

def check_password(user, password):
    """Compare the stored hash with the given password."""
    return user.hash == hash_password(password)

def hash_password(password):
    return sha(password)

class Session:
    def refresh_token(self):
        return self.token + 1

    def expire(self):
        self.token = None
`,
  "app/config.py": `"""Settings."""

import json

def load_config(path):
    """Read the JSON settings file."""
    with open(path) as f:
        return json.load(f)

def save_config(path, data):
    with open(path, "w") as f:
        json.dump(data, f)
`,
  "web/client.ts": `/** HTTP client. */
export async function download(url: string): Promise<string> {
  const res = await fetch(url);
  return await res.text();
}

export function retryRequest(times: number, run: () => Promise<void>) {
  for (let i = 0; i < times; i++) run();
}
`,
  "docs/guide.md": "# Guide\n\nHow to load the config and check a password.\n",
  "tests/test_auth.py": "def test_check_password():\n    assert check_password(u, 'x')\n",
};

/**
 * Two search calls that run until `end` (as other clients' would): the calls of a test are
 * then never alone, and a worker takes them.
 */
function openCall(): { end: () => void } {
  const ends: (() => void)[] = [];
  for (let i = 0; i < 2; i++) {
    void searchCall(() => new Promise<void>((resolve) => ends.push(resolve)));
  }
  return { end: () => ends.forEach((end) => end()) };
}

const QUERIES = [
  "check the password",
  "load settings from a json file",
  "download a url",
  "retry a request several times",
  "refresh the session token",
  "save config",
  "expire session",
  "hash",
];

Deno.test("search workers: ranked answers equal the main thread's, for every mode and filter", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const service = await ProjectService.open(root, {
    indexDir,
    embedder: "codectx-code",
    workers: 0,
  });
  const p = service.project;
  const pool = enableSearchWorkers(p, 2);
  // Another search call stays open meanwhile: a lone call would run on the main thread.
  const other = openCall();
  try {
    await p.reindex();
    const v = await service.vectors.settle();
    assert.equal(v.state, "complete", v.error ?? "");
    // The first query prepares the snapshot; wait until the first worker holds it.
    await searchProject(p, "warm", {});
    // (Workers start in seconds: `deno test` type-checks their module first.)
    for (let i = 0; i < 1200 && pool.counts.workers < 2; i++) {
      await searchProject(p, "warm", {});
      await new Promise((r) => setTimeout(r, 50));
    }
    const before = pool.counts.workers;
    const optionSets: SearchOptions[] = [
      {},
      { mode: "lexical" },
      { mode: "dense" },
      { top_k: 3 },
      { path_prefix: "app" },
      { language: "typescript" },
      { scope: "all" },
      { include_tests: true, threshold: 0.2 },
    ];
    let compared = 0;
    for (const q of QUERIES) {
      for (const opts of optionSets) {
        const viaWorkers = await searchProject(p, q, opts);
        // A fusion object other than the default (equal in value) runs on the main thread.
        const here = await searchProject(p, q, opts, { ...DEFAULT_FUSION });
        assert.deepEqual(viaWorkers, here, `${q} ${JSON.stringify(opts)}`);
        // Lexical queries stay on the main thread (cheaper than handing them over).
        if (opts.mode !== "lexical") compared++;
      }
    }
    other.end();
    await new Promise((r) => setTimeout(r, 0));
    const alone = pool.counts.workers;
    await searchCall(() => searchProject(p, "check the password", {}));
    assert.equal(pool.counts.workers, alone, "a lone search call was handed over");
    // Alone but with calls waiting to start (a server under load), it is handed over: the
    // main thread stays free for what waits.
    const backlog = pool.backlog;
    pool.backlog = () => 3;
    try {
      await searchCall(() => searchProject(p, "check the user's password", {}));
      assert.equal(pool.counts.workers, alone + 1, "a call with others waiting ran here");
      // So is a lexical one (alone and without a backlog it runs here: cheaper than handing
      // it over), with the same answer.
      const lexical = { mode: "lexical" as const, top_k: 7 };
      const viaWorker = await searchCall(() => searchProject(p, "hash the password", lexical));
      assert.equal(pool.counts.workers, alone + 2, "a lexical call with others waiting ran here");
      assert.deepEqual(
        viaWorker,
        await searchProject(p, "hash the password", lexical, { ...DEFAULT_FUSION }),
      );
    } finally {
      pool.backlog = backlog;
    }
    assert.ok(
      pool.counts.workers - before >= compared + 2,
      `workers answered ${pool.counts.workers - before} of ${compared}`,
    );
    // Sequential searches kept one worker; searches queued for it start the second.
    assert.equal(pool.started, 1, "a second worker started without a queue");
    const queued = ["hash", "user", "password", "check", "login", "token"];
    await Promise.all(queued.map((q) => searchCall(() => searchProject(p, q, {}))));
    assert.equal(pool.started, 2, "searches queued and no second worker started");
  } finally {
    other.end();
    closeSearchWorkers(p);
    await service.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("search workers: an aborted call ends at once; the worker answers the next queries", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const service = await ProjectService.open(root, { indexDir, embedder: "none", workers: 0 });
  const p = service.project;
  const pool = enableSearchWorkers(p, 1);
  const other = openCall();
  try {
    await p.reindex();
    for (let i = 0; i < 1200 && pool.counts.workers < 1; i++) {
      await searchProject(p, "warm", {});
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(pool.counts.workers >= 1, "the worker never answered");
    // Aborted in the same turn as the job is posted: before the worker can answer.
    const g = await gather(p, "check the password", {});
    const ctrl = new AbortController();
    const call = pool.fuse(g.sources, analyseQuery("check the password"), {}, 20, ctrl.signal);
    ctrl.abort(new Error("past the time limit"));
    await assert.rejects(call, /past the time limit/);
    assert.equal(pool.counts.started, 1, "the worker is kept: a replacement would run beside it");
    // Already aborted: refused before any work.
    await assert.rejects(
      searchProject(p, "check the password", {}, DEFAULT_FUSION, { signal: ctrl.signal }),
      /past the time limit/,
    );
    // The worker (not replaced: its job ran to its end) answers again.
    const answered = pool.counts.workers;
    for (let i = 0; i < 1200 && pool.counts.workers === answered; i++) {
      const r = await searchProject(p, "check the password", {});
      assert.equal(r.snippets[0].file, "app/auth.py");
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(pool.counts.workers > answered, "no worker answered after the abort");
  } finally {
    other.end();
    closeSearchWorkers(p);
    await service.close();
    await cleanup(root, indexDir);
  }
});

Deno.test("shared vectors: an index attached in another slot answers as the sealed original", async () => {
  const rows = 3000;
  const dims = 64;
  const index = new FlatVectorIndex(rows, dims, "int8", true, 3);
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5;
  for (let r = 0; r < rows; r++) {
    const v = Array.from({ length: dims }, rand);
    const n = Math.hypot(...v);
    index.set(r, v.map((x) => x / n));
  }
  assert.equal(index.share(), null, "an unsealed index is not shared");
  assert.ok(await index.seal());
  const shared = index.share();
  assert.ok(shared, "a sealed int8 index with slots is shared");
  assert.ok(shared.rowsMemory.buffer instanceof SharedArrayBuffer);
  const other = FlatVectorIndex.attach(shared, 2)!;
  assert.equal(FlatVectorIndex.attach(shared, 3), null, "no slot past the count");
  for (let i = 0; i < 5; i++) {
    const q = new Float32Array(Array.from({ length: dims }, rand));
    const a = index.nearest(q, 10, (row) => row % 3 !== 0, 200);
    const b = other.nearest(q, 10, (row) => row % 3 !== 0, 200);
    assert.deepEqual(b.top, a.top);
    assert.equal(b.scanned, a.scanned);
    // The filter as a row mask gives the same shortlist as the filter asked row by row.
    const fileOfRow = Uint32Array.from({ length: rows }, (_, r) => Math.floor(r / 7));
    const fileWeight = Float32Array.from({ length: rows / 7 + 1 }, (_, f) => (f % 4 ? 1 : 0));
    const mask = filterMask(fileOfRow, fileWeight);
    assert.equal(filterMask(fileOfRow, fileWeight), mask, "made once per weights array");
    for (const [k, shortlist] of [[10, 200], [50, 400], [5, 2500]]) {
      const byRow = index.nearest(q, k, (row) => fileWeight[fileOfRow[row]] > 0, shortlist);
      const byMask = other.nearest(q, k, mask, shortlist);
      assert.deepEqual(byMask.top, byRow.top);
      assert.equal(byMask.scanned, byRow.scanned);
      assert.deepEqual(byMask.scores, byRow.scores);
    }
  }
});
