/** What the walker counts as a binary file (`isBinary`): headers, text encodings, control bytes. */

import assert from "node:assert/strict";
import { isBinary } from "../src/index/walker.ts";

Deno.test("isBinary: PNG header is binary", () => {
  const png = new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a, // signature
    0x00,
    0x00,
    0x00,
    0x0d,
    0x49,
    0x48,
    0x44,
    0x52, // IHDR chunk
    0x00,
    0x00,
    0x00,
    0x10,
    0x00,
    0x00,
    0x00,
    0x10,
    0x08,
    0x06,
    0x00,
    0x00,
    0x00,
  ]);
  assert.equal(isBinary(png), true);
});

Deno.test("isBinary: UTF-8 text with accents, CJK and emoji is text", () => {
  const text = "naïve café — 日本語のテキスト 🎉👩‍💻\n\tconst é = 'ü';\r\n".repeat(50);
  assert.equal(isBinary(new TextEncoder().encode(text)), false);
  // Latin-1 bytes are not valid UTF-8 but still text.
  assert.equal(isBinary(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])), false);
  // ANSI colour codes in a log.
  assert.equal(isBinary(new TextEncoder().encode("\x1b[31merror\x1b[0m\n".repeat(20))), false);
});

Deno.test("isBinary: empty input is text", () => {
  assert.equal(isBinary(new Uint8Array()), false);
});

Deno.test("isBinary: only the first 8 KiB is inspected; control-heavy bytes are binary", () => {
  const late = new Uint8Array(10_000).fill(0x61);
  late[9_000] = 0;
  assert.equal(isBinary(late), false);
  late[8_000] = 0;
  assert.equal(isBinary(late), true);
  const control = new Uint8Array(1_000).map((_, i) => (i % 4 === 0 ? 0x01 : 0x61));
  assert.equal(isBinary(control), true);
});
