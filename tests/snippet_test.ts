/**
 * `bestSnippet` finds the lines that may hold a query term by searching the whole chunk's
 * lower case: the same window as tokenizing every line whose own lower case holds a term
 * (the reference below), on generated chunks with upper case, `\r\n`, non-ASCII case pairs,
 * terms cut to `y`, a one-letter `y` term and none.
 */

import assert from "node:assert/strict";
import { bestSnippet, SNIPPET_LINES } from "../src/search/present.ts";
import { codeTokens } from "../src/util/tokens.ts";

/** The window tokenizing each line whose lower case holds a term (or its `y`-cut probe). */
function reference(text: string, startLine: number, terms: ReadonlySet<string>) {
  const lines = text.split("\n");
  if (lines.length <= SNIPPET_LINES) return { text, line: startLine };
  const probes = [...terms].map((t) => (t.endsWith("y") ? t.slice(0, -1) : t));
  const hits = lines.map((l) => {
    const lower = l.toLowerCase();
    if (terms.size === 0 || !probes.some((p) => lower.includes(p))) return 0;
    let n = 0;
    for (const t of codeTokens(l)) if (terms.has(t)) n++;
    return n;
  });
  let sum = 0;
  for (let i = 0; i < SNIPPET_LINES; i++) sum += hits[i];
  let best = sum;
  let at = 0;
  for (let i = SNIPPET_LINES; i < lines.length; i++) {
    sum += hits[i] - hits[i - SNIPPET_LINES];
    if (sum > best) {
      best = sum;
      at = i - SNIPPET_LINES + 1;
    }
  }
  return { text: lines.slice(at, at + SNIPPET_LINES).join("\n"), line: startLine + at };
}

Deno.test("bestSnippet: the window of a line-by-line search, on generated chunks", () => {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const words = [
    "parseConfig",
    "read_file",
    "Query",
    "queries",
    "HTTPServer",
    "ΣΟΦΙΑ",
    "İstanbul",
    "copy",
    "y",
    "yy",
    "buffer",
    "x",
  ];
  const termSets = [
    new Set<string>(),
    new Set(["parse", "config"]),
    new Set(["query"]),
    new Set(["copy", "buffer"]),
    new Set(["y"]),
    new Set(["http", "server", "read"]),
    new Set(["σοφια", "istanbul"]),
  ];
  let checked = 0;
  for (let c = 0; c < 300; c++) {
    const n = 1 + Math.floor(rnd() * 80);
    const lines = Array.from({ length: n }, () => {
      const k = Math.floor(rnd() * 5);
      return Array.from({ length: k }, () => words[Math.floor(rnd() * words.length)])
        .join(rnd() < 0.5 ? " " : "(") + (rnd() < 0.2 ? "\r" : "");
    });
    const text = lines.join("\n");
    for (const terms of termSets) {
      assert.deepEqual(bestSnippet(text, 10, terms), reference(text, 10, terms), text);
      checked++;
    }
  }
  assert.equal(checked, 2100);
});

Deno.test("bestSnippet: a definition's name line stays in its snippet, whatever its doc holds", () => {
  // A 30-line doc comment full of the query's words, then the signature (line 131) and code.
  const doc = Array.from({ length: 30 }, (_, i) => `/// skip hidden files while walking ${i}`);
  const code = ["pub fn skip_current_dir(&mut self) {", "    self.depth -= 1;", "}"];
  const body = Array.from({ length: 25 }, (_, i) => `    let x${i} = ${i};`);
  const text = [...doc, code[0], ...body, code[1], code[2]].join("\n");
  const terms = new Set(["skip", "hidden", "file", "walking"]);
  // Without the name line the best window is all doc comment.
  const free = bestSnippet(text, 101, terms);
  assert.ok(!free.text.includes("pub fn"), free.text);
  // With it, the window holds the signature (and as many of the words as such a window can).
  const kept = bestSnippet(text, 101, terms, undefined, 131);
  assert.ok(kept.text.includes("pub fn skip_current_dir"), kept.text);
  assert.equal(kept.line, 131 - SNIPPET_LINES + 1);
  // No word of the query anywhere: the snippet starts at the name line, not in the doc.
  const none = bestSnippet(text, 101, new Set(["zzz"]), undefined, 131);
  assert.equal(none.line, 131);
  assert.ok(none.text.startsWith("pub fn skip_current_dir"));
  // A name line the head already shows keeps the head.
  const short = [code[0], ...doc, ...body].join("\n");
  assert.equal(bestSnippet(short, 1, new Set(["zzz"]), undefined, 1).line, 1);
  // A name line outside the chunk is no constraint.
  assert.deepEqual(bestSnippet(text, 101, terms, undefined, 5), free);
});
