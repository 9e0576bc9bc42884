/**
 * A whole-word exact scan (`scanFiles` with `edges`: the literal look-up of a plain-words
 * search) finds what the pattern with Unicode word-edge look-arounds finds, without compiling
 * it (~1 ms a query, most of a look-up's cost) unless a match is next to a non-ASCII word
 * character.
 */

import assert from "node:assert/strict";
import {
  compilePattern,
  edgedSource,
  type Edges,
  type ScanFile,
  scanFiles,
  wordEdges,
} from "../src/search/grep.ts";

const enc = new TextEncoder();

/** One file of chunks, each starting on the line after the last one's. */
function file(chunks: string[]): ScanFile {
  const parts = chunks.map((c) => enc.encode(c));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) bytes.set(p, (at += p.length) - p.length);
  const startLines: number[] = [];
  let line = 1;
  for (const c of chunks) {
    startLines.push(line);
    line += c.split("\n").length;
  }
  return {
    bytes,
    lengths: Uint32Array.from(parts, (p) => p.length),
    startLines: Uint32Array.from(startLines),
  };
}

const TEXTS = [
  [
    "def f():\n    raise ValueError('job cannot wait')\n",
    "x = 'xjob cannot wait'\ny = 'job cannot waitx'",
  ],
  ["éjob cannot wait; job cannot wait", "job cannot waité and Job Cannot Wait"],
  ["ſjob cannot wait", "job cannot wait_ job cannot wait$ $job cannot wait"],
  [
    "msg = ('job cannot '\n       'wait')",
    "日本job cannot wait 日本",
    "job cannot wait٣ ٣job cannot wait",
  ],
  ["𝒜job cannot wait 𝒜 job cannot wait𝒜", "JOB CANNOT WAIT", "job  cannot wait"],
  ["(job cannot wait) job cannot wait.", "JOBjob cannot wait"],
  [
    "job cannot wait\u0345 \u0345job cannot wait",
    "\udc00job cannot wait\ud800",
    "Kjob cannot wait",
  ],
];

Deno.test("whole-word scan: the same lines as the pattern with Unicode word-edge look-arounds", () => {
  for (const query of ["job cannot wait", "Job Cannot Wait", "job cannot wait.", "(job cannot"]) {
    const re = compilePattern(query, "exact");
    const edges: Edges = wordEdges(query);
    const full = new RegExp(edgedSource(re.source, edges), re.flags);
    for (const chunks of TEXTS) {
      const files = [file(chunks), file(["nothing here"]), file(chunks.slice().reverse())];
      for (const limit of [1, 2, 100]) {
        assert.deepEqual(
          scanFiles(re, files, limit, edges),
          scanFiles(full, files, limit),
          `${query} in ${JSON.stringify(chunks)}, limit ${limit}`,
        );
      }
    }
  }
  assert.deepEqual(wordEdges("(job cannot"), { before: false, after: true });
  // At least one text is found only past a non-ASCII letter's refused match.
  const re = compilePattern("job cannot wait", "exact");
  const hits = scanFiles(
    re,
    [file(["éjob cannot wait; job cannot wait"])],
    10,
    wordEdges("job cannot wait"),
  );
  assert.deepEqual(hits.map((h) => h.column), [19]);
});
