/**
 * The lexical build's first pass made while an indexing run writes the terms
 * (`TermCounter`, fed by `Store.watchBlobs` through `gatherDuringRun`): the index built from
 * those counts and one more read of the terms — numbers only — scores every term as the
 * two-pass build from the store does, and counts that do not match the files are not used.
 */

import assert from "node:assert/strict";
import { Project, type RunHook } from "../src/project/project.ts";
import { decodeTerms } from "../src/index/terms.ts";
import { buildLexicalIndexFrom, DEFAULT_BM25, type LexicalIndex } from "../src/search/lexical.ts";
import { LexicalBuilder, TermCounter, type TermsFile } from "../src/search/lexical_build.ts";
import { countDuringRun, lexicalRunHook } from "../src/search/lexical_cache.ts";
import { cleanup, makeProject, tempIndexDir } from "./helpers.ts";

const SOURCES: Record<string, string> = {
  "net/socket.c":
    "/* Creates a socket. */\nint sock_create(int family) {\n  return family + 1;\n}\n\nvoid sock_release(void) {}\n",
  "mm/alloc.c": "/* Allocates pages. */\nvoid *alloc_pages(int order) {\n  return 0;\n}\n",
  "mm/free.c": "void free_pages(void *p, int order) {\n  alloc_pages(order);\n}\n",
  "lib/parse.py":
    'def parse_config(path):\n    """Reads the config."""\n    return open(path).read()\n\n\nclass Loader:\n    def load(self):\n        return parse_config("x")\n',
  "empty.c": "",
  "docs/README.md": "# Sockets\n\nHow sock_create allocates pages.\n",
};

/** Every term's scores in `a` and `b` are the same (and each knows the same terms). */
function sameScores(a: LexicalIndex, b: LexicalIndex, words: string[]): void {
  assert.equal(a.size, b.size);
  for (const w of words) {
    assert.equal(a.df(w), b.df(w), w);
    const sa = new Float32Array(a.size);
    const sb = new Float32Array(b.size);
    assert.equal(a.score([w, "absent"], sa), b.score([w, "absent"], sb), w);
    assert.deepEqual(sa, sb, w);
  }
  for (let r = 0; r < a.size; r++) {
    assert.deepEqual([...b.nameTerms(r)].length, [...a.nameTerms(r)].length, `row ${r}`);
  }
}

Deno.test("counts made as a run writes the terms build the index the store's terms build", async () => {
  const root = await makeProject(SOURCES);
  const indexDir = await tempIndexDir();
  // What the run shows gatherers, captured as the lexical cache's gatherer sees it.
  const shown = new Map<string, Uint8Array>();
  let ended = false;
  const shownToGatherer: RunHook = {
    gather: (_project, filesToRead) =>
      filesToRead === 0 ? null : {
        blob: (hash, parts) => shown.set(hash, parts.terms!.slice()),
        written: () => {},
        end: () => ended = true,
      },
  };
  const minFiles = countDuringRun.minFiles;
  countDuringRun.minFiles = 0;
  const project = await Project.open(root, {
    indexDir,
    workers: 0,
    hooks: [shownToGatherer, lexicalRunHook()],
  });
  try {
    await project.reindex();
    assert.ok(ended, "the run ended its gatherers");
    const manifest = (await project.store.readCurrent())!;
    const files: TermsFile[] = [];
    let size = 0;
    for (const f of manifest.files) {
      if (f.skipped || !f.blob || f.chunks === 0) continue;
      files.push({ key: f.blob, start: size, rows: f.chunks });
      size += f.chunks;
    }
    assert.ok(
      files.length >= 5 && size >= files.length,
      `the fixture has files and rows: ${files.length}, ${size}`,
    );
    // Every blob the run wrote was shown, with the bytes the store holds.
    const stored = new Map<string, Uint8Array>();
    await project.store.eachBlobBytes("terms", new Set(files.map((f) => f.key)), (k, b) => {
      stored.set(k, b);
    });
    for (const f of files) assert.deepEqual(shown.get(f.key), stored.get(f.key), f.key);

    // Counted in the order the run wrote them (not the store's), plus a key shown twice.
    const counter = new TermCounter();
    for (const [k, b] of shown) counter.add(k, decodeTerms(b));
    counter.add(files[0].key, decodeTerms(shown.get(files[0].key)!));
    const counted = counter.counts();
    let reads = 0;
    const each = (visit: (k: string, t: ReturnType<typeof decodeTerms>) => void, vocab = true) => {
      reads++;
      stored.forEach((b, k) => visit(k, decodeTerms(b, vocab)));
    };
    const twoPass = await buildLexicalIndexFrom({ files, each }, size, DEFAULT_BM25);
    assert.equal(reads, 2);
    reads = 0;
    const onePass = await buildLexicalIndexFrom({ files, each, counted }, size, DEFAULT_BM25);
    assert.equal(reads, 1, "the counts replace the first read");
    const words = [...new Set([...stored.values()].flatMap((b) => decodeTerms(b).v))];
    assert.ok(words.length > 20);
    sameScores(twoPass, onePass, words);

    // Counts of other files (one missing, or other rows) are refused: the build counts itself.
    const missing = new TermCounter();
    for (const [k, b] of shown) if (k !== files[1].key) missing.add(k, decodeTerms(b));
    assert.equal(LexicalBuilder.fromCounts(files, size, DEFAULT_BM25, missing.counts()), null);
    const moved = files.map((f, i) => i === 0 ? { ...f, rows: f.rows + 1 } : f);
    const again = new TermCounter();
    for (const [k, b] of shown) again.add(k, decodeTerms(b));
    assert.equal(LexicalBuilder.fromCounts(moved, size + 1, DEFAULT_BM25, again.counts()), null);
  } finally {
    countDuringRun.minFiles = minFiles;
    project.close();
    await cleanup(root, indexDir);
  }
});
