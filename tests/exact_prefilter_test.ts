/**
 * An exact scan reads only the files the lexical index says can hold the query's words
 * (`filesWithWords`): a scan of the stdlib's 61,000 chunks for every weak plain-words query
 * took p50 41 ms, p95 94 ms (`semantic_search` looks such a query up literally). The files it
 * skips must hold no match: the same lines with the index at hand or not, a message split
 * over two string literals included; a literal look-up of a plain-words query (`whole`) names
 * only the files holding every word.
 */

import assert from "node:assert/strict";
import { scanText } from "../src/search/hybrid.ts";
import { filesWithWords, matchStarts } from "../src/search/scan.ts";
import { compilePattern, grepRows, grepTable } from "../src/search/grep.ts";
import { LITERAL_BATCH_BYTES, runScan, scanWorkersAlive } from "../src/search/grep_pool.ts";
import { chunkTable } from "../src/search/table.ts";
import { lexicalIndexFor } from "../src/search/lexical_cache.ts";
import { Project } from "../src/project/project.ts";
import { createExecutor } from "../src/tools/executor.ts";
import { codeTokens } from "../src/util/tokens.ts";
import { callTool, withExecutor } from "./helpers.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";

const FILES = {
  "a/run.py": [
    "def start(job):",
    "    if job.started:",
    "        raise ValueError('the job was already started '",
    "                         'and cannot be started twice')",
    "    job.started = True",
    "",
  ].join("\n"),
  "b/notes.py": "def note():\n    return 'the job cannot wait'\n",
  "c/other.py": "def other():\n    return 42\n",
};

Deno.test("exact scan: the files the lexical index leaves out hold no match", async () => {
  const root = await makeProject(FILES);
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  const ex = await createExecutor(project, { timeoutMs: 0 });
  try {
    // Indexed by a first call.
    await ex.execute({ tool_name: "search_symbols", arguments: { query: "start" } });
    const lines = async (q: string) =>
      (await scanText(project, q, { mode: "exact", scope: "all" })).snippets.map((s) =>
        `${s.file}:${s.line}`
      );
    const queries = [
      "already started and cannot be",
      "job cannot",
      "started twice",
      "no such words here",
    ];
    // Before the lexical index is held, every file is scanned.
    const full = [];
    for (const q of queries) full.push(await lines(q));
    const table = await chunkTable(project);
    const lex = await lexicalIndexFor(project, table);
    const pre = [];
    for (const q of queries) pre.push(await lines(q));
    assert.deepEqual(pre, full);
    assert.deepEqual(full[0], ["a/run.py:3"], "a message split over two literals is found");

    const names = (f: Uint8Array | null) =>
      f === null ? null : table.files.filter((_, i) => f[i] === 1).map((x) => x.path);
    assert.deepEqual(names(filesWithWords(lex, table, "the job cannot wait")), [
      "a/run.py",
      "b/notes.py",
    ]);
    assert.deepEqual(names(filesWithWords(lex, table, "x job y")), ["a/run.py", "b/notes.py"]);
    assert.deepEqual(names(filesWithWords(lex, table, "job started")), null, "no inner word");
    assert.deepEqual(names(filesWithWords(lex, table, "job cannot", true)), [
      "a/run.py",
      "b/notes.py",
    ]);
    assert.deepEqual(names(filesWithWords(lex, table, "a zebra b")), []);
  } finally {
    await ex.close();
    await cleanup(root, indexDir);
  }
});

/** 40 functions that name a job, one that raises a message about a zebra's job. */
function jobFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < 4; f++) {
    const defs = Array.from(
      { length: 10 },
      (_, i) => `def run_${f}_${i}(job):\n    job.count += ${i}\n    return job.result(${i})\n`,
    );
    files[`jobs/m${f}.py`] = defs.join("\n");
  }
  // ~300 KiB of functions that hold "zebra", "herd" and "failed", the last one as written.
  const pad = "# a long comment that makes this function's chunk larger than most ".repeat(4);
  files["zoo/herd.py"] = Array.from(
    { length: 1000 },
    (_, i) => `def herd_${i}(zebra):\n    ${pad}\n    return zebra.herd or failed(${i})\n`,
  ).join("\n") + "\ndef last(zebra):\n    raise ValueError('zebra herd failed')\n";
  files["zoo/keeper.py"] = [
    "def feed(zebra):",
    "    if zebra.job is None:",
    "        raise ValueError('the zebra job failed twice')",
    "    return zebra",
    "",
    "def clean(zebra):",
    "    return zebra.job",
    "",
  ].join("\n");
  return files;
}

/** `body` on the indexed project of {@link jobFiles}, with an executor open on it. */
async function withJobs(body: (project: Project) => Promise<void>): Promise<void> {
  const root = await makeProject(jobFiles());
  const indexDir = await tempIndexDir();
  const project = await Project.open(root, { indexDir, workers: 0 });
  const ex = await createExecutor(project, { timeoutMs: 0 });
  try {
    await ex.execute({ tool_name: "search_symbols", arguments: { query: "feed" } });
    await body(project);
  } finally {
    await ex.close();
    await cleanup(root, indexDir);
  }
}

Deno.test("exact scan: the rows a match may start in, when a common word's rows outnumber them", async () => {
  await withJobs(async (project) => {
    const table = await chunkTable(project);
    const lex = await lexicalIndexFor(project, table);
    // The postings, as the index lists them: every row holding the term, ascending.
    const jobRows = [...lex.rows("job")];
    const scores = new Float32Array(lex.size);
    lex.score(["job"], scores);
    assert.deepEqual(jobRows, [...scores.keys()].filter((r) => scores[r] > 0));
    assert.ok(jobRows.length >= 40, `${jobRows.length} rows hold "job"`);
    assert.ok(lex.rowsSorted());
    assert.deepEqual([...lex.rows("no-such-term")], []);

    // "zebra" is in the keeper's rows alone: "job" (in 40 more) is looked up per start.
    const starts = [...matchStarts(lex, table, "zebra job failed", true)!].sort((a, b) => a - b);
    assert.ok(starts.length > 0 && starts.length * 16 < jobRows.length);
    const holdsAll = (r: number) =>
      ["zebra", "job", "failed"].flatMap((w) => codeTokens(w)).every((t) =>
        lex.rows(t).includes(r) ||
        (lex.rows(t).includes(r + 1) && table.fileOfRow[r + 1] === table.fileOfRow[r])
      );
    const expected = [...table.fileOfRow.keys()].filter(holdsAll);
    assert.deepEqual(starts, expected);
    assert.ok(starts.every((r) => table.files[table.fileOfRow[r]].path === "zoo/keeper.py"));

    // Scanning those rows (and the row after each) finds what scanning the whole files finds.
    const re = compilePattern("zebra", "exact");
    const all = () => true;
    const lines = (items: Array<{ file: string; line: number; column?: number }>) =>
      items.map((s) => `${s.file}:${s.line}:${s.column}`);
    const rows = await grepRows(table, re, 20, starts, all, runScan, {});
    const whole = await grepTable(
      table,
      re,
      20,
      (fi) => starts.some((r) => table.fileOfRow[r] === fi),
      runScan,
      {},
    );
    assert.deepEqual(
      lines(rows),
      lines(whole.filter((h) =>
        starts.some((r) => {
          const c = table.chunks[r];
          const next = table.chunks[r + 1];
          const end = next && table.fileOfRow[r + 1] === table.fileOfRow[r]
            ? next.endLine
            : c.endLine;
          return h.file === c.file && c.startLine <= h.line && h.line <= end;
        })
      )),
    );
    const found = await scanText(
      project,
      "zebra job failed",
      { mode: "exact", scope: "all" },
      {},
      true,
    );
    assert.deepEqual(lines(found.snippets), ["zoo/keeper.py:3:31"]);
  });
});

Deno.test("literal look-up: a few rows are scanned on the calling thread, no scan worker starts", async () => {
  // The look-up handed every scan to a scan worker: ~1 ms of CPU for a few rows, and the
  // worker's isolate (tens of MiB) in every server that answered a weak plain-words query.
  await withJobs(async (project) => {
    await lexicalIndexFor(project, await chunkTable(project));
    assert.equal(scanWorkersAlive(), 0);
    const literal = await scanText(
      project,
      "zebra job failed",
      { mode: "exact", scope: "code" },
      {},
      true,
    );
    assert.deepEqual(literal.snippets.map((s) => `${s.file}:${s.line}`), ["zoo/keeper.py:3"]);
    assert.equal(scanWorkersAlive(), 0, "the literal look-up started a scan worker");
    // Rows of more than one slice (every herd function holds the three words; the last holds
    // them as written): scanned here too, a slice at a time.
    const table = await chunkTable(project);
    const lex = await lexicalIndexFor(project, table);
    const many = matchStarts(lex, table, "zebra herd failed", true)!;
    const bytes = [...many].reduce((n, r) => n + table.chunks[r].text.length, 0);
    assert.ok(bytes > 2 * LITERAL_BATCH_BYTES, `${bytes} bytes in the rows`);
    const late = await scanText(project, "zebra herd failed", { mode: "exact" }, {}, true);
    assert.deepEqual(late.snippets.map((s) => s.file), ["zoo/herd.py"]);
    assert.equal(scanWorkersAlive(), 0, "the literal look-up started a scan worker");
    // A scan of every file (one word: no rows to narrow to) goes to a worker, as before.
    const exact = await scanText(project, "zebra", { mode: "exact", scope: "all" });
    assert.equal(exact.snippets.length, 10);
    assert.equal(scanWorkersAlive(), 1);
  });
});

Deno.test("literal look-up: a phrase of stop words alone scans nothing", async () => {
  // "if it is" has no word the lexical index keeps: the look-up scanned every file for it on
  // a scan worker (0.7 s of CPU for one such query on the stdlib).
  const files = jobFiles();
  files["zoo/gate.py"] = "def gate(zebra):\n    # opened if it is\n    return zebra.gate\n";
  await withExecutor(files, async (ex) => {
    const p = await callTool(ex, "semantic_search", { query: "if it is" });
    const hits = p.snippets as Array<{ file: string; column?: number; score: number }>;
    assert.deepEqual(hits.filter((h) => h.column !== undefined).map((h) => h.file), []);
    assert.ok(
      hits.length === 0 || hits[0].score < 0.3,
      "a weak ranked answer (the look-up's case)",
    );
    assert.equal(scanWorkersAlive(), 0, "the look-up started a scan worker");
  });
});
