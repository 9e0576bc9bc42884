/**
 * `codeTokens` and `splitIdentifier` scan character codes (issue 15: they were 2/3 of the
 * term statistics made at index time). The stored term statistics depend on them, so they
 * must give exactly what the regular expressions they replaced gave: those are kept here
 * as the reference and both run over real files (this repository, and the Python standard
 * library of this machine when there is one, which has non-ASCII names and comments).
 */
import assert from "node:assert/strict";
import { codeTokens, splitIdentifier, stem, STOP_WORDS } from "../src/util/tokens.ts";

/** The reference: the regular-expression versions as they were before issue 15. */
function referenceSplit(name: string): string[] {
  const out: string[] = [];
  const re = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\p{ASCII}]+/gu;
  for (const m of name.matchAll(re)) out.push(m[0].toLowerCase());
  return out;
}

function referenceIdentifierTokens(word: string): string[] {
  const out: string[] = [];
  const parts = referenceSplit(word);
  if (parts.length > 1) {
    const whole = word.toLowerCase().replace(/^[_$]+|[_$]+$/g, "");
    if (whole.length > 1 && !STOP_WORDS.has(whole)) out.push(whole);
  }
  for (const p of parts) {
    if (p.length < 2 || STOP_WORDS.has(p)) continue;
    out.push(stem(p));
  }
  return out;
}

function referenceCodeTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[\p{L}_$][\p{L}\p{N}_$]*/gu)) {
    out.push(...referenceIdentifierTokens(m[0]));
  }
  return out;
}

const EDGE_CASES = [
  "",
  "parseHTTPResponse_v2",
  "HTTPResponse XMLHttpRequest getURL URLs ABC aB Ab A a _ $ __init__ $scope foo$bar",
  "2fa 3D x2y2 a1B2c3 0xFFee 1e10 _123 $1",
  "café naïve Ærø straße ΑΒΓδε идентификатор 名前 変数名x x名前 ﬁle",
  "x² ½cup a½ ²x Ⅻ roman_Ⅻ ٣٤ a٣ résumé_v2 HTTPΣigma ÉCOLE_normale",
  "emoji 😀name name😀 a\u0301b \u00a0nbsp x\u200by 𝒳var var𝒳 𝟘digit",
  "mixed: fooBar.baz_qux(ÜberClass, self.__dict__) // done — ok « quoted »",
];

Deno.test("splitIdentifier and codeTokens equal the regular-expression versions on edge cases", () => {
  for (const text of EDGE_CASES) {
    assert.deepEqual(codeTokens(text), referenceCodeTokens(text), text);
    for (const word of text.split(/\s+/)) {
      assert.deepEqual(splitIdentifier(word), referenceSplit(word), word);
    }
  }
  // With a cache, as the term statistics call it, and appending to a given array.
  const cache = new Map<string, readonly string[]>();
  const out = ["kept"];
  for (const text of EDGE_CASES) codeTokens(text, out, cache);
  assert.deepEqual(out, ["kept", ...EDGE_CASES.flatMap(referenceCodeTokens)]);
});

/** Text files under `dir` with one of `exts`, in a stable order, at most `limit`. */
async function filesUnder(dir: string, exts: string[], limit: number): Promise<string[]> {
  const out: string[] = [];
  const visit = async (d: string) => {
    const entries: Deno.DirEntry[] = [];
    try {
      for await (const e of Deno.readDir(d)) entries.push(e);
    } catch {
      return;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : 1);
    for (const e of entries) {
      if (out.length >= limit) return;
      const path = `${d}/${e.name}`;
      if (e.isDirectory && e.name !== "site-packages" && !e.name.startsWith(".")) {
        await visit(path);
      } else if (e.isFile && exts.some((x) => e.name.endsWith(x))) out.push(path);
    }
  };
  await visit(dir);
  return out;
}

async function pythonStdlib(): Promise<string | null> {
  try {
    for await (const e of Deno.readDir("/usr/lib")) {
      if (/^python3\.\d+$/.test(e.name)) return `/usr/lib/${e.name}`;
    }
  } catch {
    // No /usr/lib: the repository's own files only.
  }
  return null;
}

Deno.test("codeTokens equals the regular-expression version on real files", async () => {
  const root = new URL("..", import.meta.url).pathname;
  const files = await filesUnder(`${root}src`, [".ts", ".scm", ".md"], 400);
  const stdlib = await pythonStdlib();
  if (stdlib) files.push(...await filesUnder(stdlib, [".py"], 600));
  assert.ok(files.length > 100, `only ${files.length} files found`);
  let nonAscii = 0;
  let tokens = 0;
  for (const path of files) {
    const text = await Deno.readTextFile(path);
    if (/[^\p{ASCII}]/u.test(text)) nonAscii++;
    const fast = codeTokens(text, [], new Map());
    assert.deepEqual(fast, referenceCodeTokens(text), path);
    tokens += fast.length;
  }
  assert.ok(tokens > 100_000, `only ${tokens} tokens`);
  // The Unicode path ran on real text too (this repository has non-ASCII prose).
  assert.ok(nonAscii > 0, "no file with non-ASCII text");
});
