import assert from "node:assert/strict";
import { chunkFile } from "../src/index/chunker.ts";
import { parseSource } from "../src/parse/parser.ts";

async function chunks(path: string, source: string) {
  const parsed = await parseSource(path, source);
  return chunkFile(path, parsed.language, source, parsed.symbols);
}

Deno.test("chunker: one chunk per function, top-level code grouped, comments kept with their function", async () => {
  const src = [
    "import os", //  1
    "import sys", // 2
    "", //           3
    "# Adds two numbers.", // 4
    "def add(a, b):", // 5
    "    return a + b", // 6
    "", // 7
    "X = 1", // 8
    "Y = 2", // 9
    "", // 10
    "def sub(a, b):", // 11
    "    return a - b", // 12
    "",
  ].join("\n");
  const c = await chunks("m.py", src);
  assert.deepEqual(
    c.map((x) => [x.startLine, x.endLine, x.symbol]),
    [[1, 2, null], [4, 6, "add"], [8, 9, null], [11, 12, "sub"]],
  );
  assert.ok(c[1].text.startsWith("# Adds two numbers.\ndef add"));
  assert.equal(c[0].id, "m.py:1-2");
  assert.equal(c[1].language, "python");
});

Deno.test("chunker: a large class is split at member boundaries; every line is covered once", async () => {
  const lines = ["class Big:", '    """Big class."""', "    LIMIT = 3", ""];
  for (let m = 0; m < 12; m++) {
    lines.push(`    def method_${m}(self):`);
    for (let k = 0; k < 6; k++) lines.push(`        x = ${k}`);
    lines.push("        return x", "");
  }
  const src = lines.join("\n");
  const c = await chunks("big.py", src);
  const methods = c.filter((x) => x.symbol?.startsWith("Big.method_"));
  assert.equal(methods.length, 12);
  assert.ok(c.every((x) => x.endLine - x.startLine + 1 <= 60 && x.text.length <= 2000));
  const head = c[0];
  assert.equal(head.symbol, "Big");
  assert.match(head.text, /class Big:\n {4}"""Big class."""\n {4}LIMIT = 3/);
  // No line in two chunks.
  const seen = new Set<number>();
  for (const x of c) {
    for (let l = x.startLine; l <= x.endLine; l++) {
      assert.ok(!seen.has(l), `line ${l} twice`);
      seen.add(l);
    }
  }
});

Deno.test("chunker: a very long function is cut into windows that keep its name", async () => {
  const body = Array.from({ length: 150 }, (_, i) => `  const v${i} = ${i};`);
  const src = ["function long() {", ...body, "}", ""].join("\n");
  const c = await chunks("l.ts", src);
  assert.ok(c.length >= 3);
  assert.ok(c.every((x) => x.symbol === "long" && x.endLine - x.startLine + 1 <= 60));
  assert.equal(c[0].startLine, 1);
  assert.equal(c[c.length - 1].endLine, 152);
});

Deno.test("chunker: markdown sections", async () => {
  const para = (w: string) => Array.from({ length: 40 }, (_, i) => `${w} line ${i}.`).join("\n");
  const src = `# Title\n\nIntro.\n\n## Install\n\n${para("Install")}\n\n## Use\n\n${para("Use")}\n`;
  const c = await chunks("README.md", src);
  assert.ok(c.length >= 2);
  const install = c.find((x) => x.text.includes("## Install"))!;
  assert.ok(install.text.includes("Install line 39.") && !install.text.includes("## Use"));
  assert.equal(c.find((x) => x.text.includes("## Use"))?.language, "markdown");
});
