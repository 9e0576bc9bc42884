/**
 * The question against a candidate's own name (`src/search/name_vectors.ts`): the cosine of
 * the query vector with codectx-code's vector of the name alone, made from the lexical
 * index's name field and the model's rows on shared memory.
 */

import assert from "node:assert/strict";
import { loadCodectxCode } from "../src/search/codectx_code.ts";
import { buildLexicalIndex, decodeLexicalIndex } from "../src/search/lexical.ts";
import { hasTokenVectors, nameCosine, nameVectorsFor } from "../src/search/name_vectors.ts";
import { fileTerms } from "../src/index/terms.ts";
import type { ChunkRecord, SymbolRecord } from "../src/types.ts";

/** One JavaScript file of functions, one chunk each (names as written). */
function lexicalOf(names: string[]) {
  const chunks: ChunkRecord[] = names.map((name, i) => ({
    id: `keys.js:${i + 1}-${i + 1}`,
    file: "keys.js",
    startLine: i + 1,
    endLine: i + 1,
    symbol: name,
    kind: "function",
    language: "javascript",
    text: `function ${name}(key) { return encode(key); }`,
  }));
  const symbols: SymbolRecord[] = names.map((name, i) => ({
    name,
    qualifiedName: name,
    kind: "function",
    file: "keys.js",
    line: i + 1,
    startLine: i + 1,
    endLine: i + 1,
    signature: `function ${name}(key)`,
    doc: "",
    parent: null,
    language: "javascript",
  }));
  return buildLexicalIndex([{ terms: fileTerms("keys.js", chunks, symbols), rows: names.length }]);
}

Deno.test("name cosine: the query vector against codectx-code's vector of the name alone", async () => {
  const model = await loadCodectxCode();
  assert.ok(hasTokenVectors(model));
  assert.ok(model.tokens.rows.buffer instanceof SharedArrayBuffer, "rows a worker can read");
  const names = ["publicKeyToOpenSsh", "privateKeyToOpenSsh", "zzqxv"];
  const lexical = lexicalOf(names);
  const nv = nameVectorsFor(lexical, model);
  assert.equal(nameVectorsFor(lexical, model), nv, "made once per index");
  const qv = model.embedOne("Encodes a public RSA key as an OpenSSH file");
  const cos = names.map((_, row) => nameCosine(nv, lexical.nameTerms(row), qv));
  // Each equals the cosine with the name embedded as a text (clamped at 0).
  names.forEach((name, row) => {
    const v = model.embedOne(name);
    const exact = Math.max(0, v.reduce((s, x, j) => s + x * qv[j], 0));
    assert.ok(Math.abs(cos[row] - exact) < 1e-5, `${name}: ${cos[row]} vs ${exact}`);
  });
  assert.ok(cos[0] > cos[1], `public ${cos[0]} above private ${cos[1]}`);
  // A name of tokens the model does not know has no vector: 0, not NaN.
  assert.equal(cos[2], 0);
  // A query vector of another size (another embedder's) gives 0.
  assert.equal(nameCosine(nv, lexical.nameTerms(0), new Float32Array(8).fill(0.3)), 0);
});

Deno.test("name cosine: a decoded index (a search worker's) maps the same terms", async () => {
  const model = await loadCodectxCode();
  const lexical = lexicalOf(["readConfigFile", "writeConfigFile"]);
  const copy = decodeLexicalIndex(lexical.encode("k"), "k", lexical.params);
  assert.ok(copy);
  const a = nameVectorsFor(lexical, model);
  const b = nameVectorsFor(copy, model);
  assert.deepEqual([...a.rowOfTerm], [...b.rowOfTerm]);
  assert.ok([...a.rowOfTerm].some((r) => r >= 0) && [...a.rowOfTerm].some((r) => r < 0));
  assert.ok(a.rowOfTerm.buffer instanceof SharedArrayBuffer);
  const qv = model.embedOne("read the config file");
  assert.equal(
    nameCosine(a, lexical.nameTerms(0), qv),
    nameCosine(b, copy.nameTerms(0), qv),
  );
  assert.ok(nameCosine(a, lexical.nameTerms(0), qv) > nameCosine(a, lexical.nameTerms(1), qv));
});
