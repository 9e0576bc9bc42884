import assert from "node:assert/strict";
import { extractEncoded } from "../src/index/extract.ts";
import { encodeFrame, packParts, readFrames, unpackParts } from "../src/util/frames.ts";
import { createLeanPool, isLeanFile, isLeanLanguage } from "../src/index/lean_pool.ts";
import { createParsePool } from "../src/index/pool.ts";

const CPP = `#include <vector>
namespace geo {
/** A point. */
class Point {
 public:
  Point(int x, int y) : x_(x), y_(y) {}
  int norm() const { return x_ * x_ + y_ * y_; }
 private:
  int x_, y_;
};
int total(const std::vector<Point>& ps) {
  int n = 0;
  for (const auto& p : ps) n += p.norm();
  return n;
}
}  // namespace geo
`;

const SH = `#!/bin/sh
# Builds the project.
build() {
  make -j2 "$@"
}
build all
`;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

Deno.test("frames: headers and payloads come back whole, however the stream is cut", async () => {
  const { names, payload } = packParts({ a: encoder.encode("alpha"), b: new Uint8Array([0, 255]) });
  const frames = [
    encodeFrame({ id: 1, names }, payload),
    encodeFrame({ id: 2 }),
    encodeFrame({ id: 3, text: "é ✓" }, encoder.encode("x".repeat(10_000))),
  ];
  const all = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    all.set(f, at);
    at += f.length;
  }
  // Cut into pieces of 7 bytes: every length prefix and header is split somewhere.
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < all.length; i += 7) c.enqueue(all.slice(i, i + 7));
      c.close();
    },
  });
  const got = [];
  for await (
    const f of readFrames<{ id: number; names?: [string, number][]; text?: string }>(stream)
  ) {
    got.push(f);
  }
  assert.deepEqual(got.map((f) => f.header.id), [1, 2, 3]);
  const parts = unpackParts(got[0].header.names!, got[0].payload);
  assert.equal(decoder.decode(parts.a), "alpha");
  assert.deepEqual([...parts.b], [0, 255]);
  assert.equal(got[1].payload.length, 0);
  assert.equal(got[2].header.text, "é ✓");
  assert.equal(got[2].payload.length, 10_000);
});

Deno.test("lean grammars: the huge lexers go to a parse process, the others stay", () => {
  assert.equal(isLeanLanguage("cpp"), true);
  assert.equal(isLeanLanguage("bash"), true);
  assert.equal(isLeanLanguage("python"), false);
  assert.equal(isLeanLanguage("markdown"), false);
  assert.equal(isLeanFile("a.h", encoder.encode("namespace geo {\nint f();\n}\n"), "c"), true);
  assert.equal(isLeanFile("a.h", encoder.encode("int f(void);\n"), "c"), false);
});

Deno.test("parse process: C++ and shell files come back as parsed in this process", async () => {
  const lean = createLeanPool(1);
  assert.ok(lean, "a parse process can start under deno run");
  try {
    for (const [path, text, language] of [["geo.cpp", CPP, "cpp"], ["build.sh", SH, "bash"]]) {
      const bytes = encoder.encode(text);
      const there = await lean.run({ path, bytes, language });
      const here = await extractEncoded(path, bytes, language);
      assert.equal(there.language, here.language);
      assert.deepEqual(
        [there.lines, there.symbols, there.chunks, there.error],
        [here.lines, here.symbols, here.chunks, here.error],
      );
      assert.deepEqual(Object.keys(there.parts), Object.keys(here.parts));
      for (const k of Object.keys(here.parts)) {
        assert.equal(decoder.decode(there.parts[k]), decoder.decode(here.parts[k]), k);
      }
    }
    assert.equal(lean.failure, null);
    const symbols = JSON.parse(
      decoder.decode(
        (await lean.run({ path: "geo.cpp", bytes: encoder.encode(CPP), language: "cpp" })).parts
          .symbols,
      ),
    );
    assert.ok(
      symbols.some((s: { qualifiedName: string }) => s.qualifiedName.endsWith("Point.norm")),
    );
  } finally {
    await lean.close();
  }
});

Deno.test("parse pool: lean and worker files in one pool, closed with nothing left running", async () => {
  const pool = createParsePool(1);
  try {
    const [cpp, py] = await Promise.all([
      pool.extract("geo.cpp", encoder.encode(CPP), "cpp"),
      pool.extract("m.py", encoder.encode("def f():\n    return 1\n"), "python"),
    ]);
    assert.equal(cpp.language, "cpp");
    assert.ok(cpp.symbols >= 3);
    assert.equal(py.symbols, 1);
  } finally {
    await pool.close();
  }
});
