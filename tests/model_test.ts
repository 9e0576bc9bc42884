/** The shipped codectx-code model: files, manifest, checksum, tokenizer and embeddings. */

import assert from "node:assert/strict";
import {
  checkCodectxCode,
  codeDocumentText,
  loadCodectxCode,
  MODEL_DIR,
  readManifest,
  tokenize,
} from "../src/search/codectx_code.ts";
import { sha256Hex } from "../src/util/hash.ts";

Deno.test("codectx-code: the model files are present, small, and match the manifest checksum", async () => {
  assert.equal(await checkCodectxCode(), null);
  const manifest = await readManifest();
  const bin = await Deno.readFile(new URL("vectors.bin", MODEL_DIR));
  const vocab = await Deno.readFile(new URL("vocab.txt", MODEL_DIR));
  assert.equal(await sha256Hex(bin, vocab), manifest.sha256);
  assert.ok(bin.length + vocab.length <= 25 * 1024 * 1024, "model over 25 MB");
  const rows = manifest.vocab_size + (manifest.oov_buckets ?? 0);
  assert.equal(bin.length, rows * (manifest.dimensions + 4));
});

Deno.test("codectx-code: the manifest names sources, versions, hyper-parameters and validation", async () => {
  const m = await readManifest();
  assert.equal(m.name, "codectx-code");
  const sources = m.sources as Array<{ language: string; name: string; version: string }>;
  for (const lang of ["python", "go", "rust", "java", "javascript", "typescript"]) {
    assert.ok(sources.some((s) => s.language === lang), `no ${lang} source`);
  }
  for (const s of sources) assert.ok(s.name && s.version, `source without version: ${s.name}`);
  const training = m.training as Record<string, Record<string, unknown>>;
  assert.equal(typeof training.hyper_parameters.seed, "number");
  assert.ok(Array.isArray(training.validation_curve) && training.validation_curve.length > 0);
  const val = training.validation as Record<string, { macro_mrr10: number }>;
  assert.ok(val.int8.macro_mrr10 > 0.2, "validation MRR@10 implausibly low");
});

Deno.test("codectx-code: the runtime tokenizer is the one the model was trained with", async () => {
  const m = await readManifest();
  const probe = m.tokenizer_probe as { text: string; tokens: string[] };
  assert.deepEqual(tokenize(probe.text), probe.tokens);
});

Deno.test("codectx-code: loads verified, embeds unit vectors, puts a query near its code", async () => {
  // Load time is a figure of bench/model_eval.ts, not an assertion (it depends on the machine).
  const model = await loadCodectxCode(MODEL_DIR, { verify: true });
  assert.match(model.id, /^codectx-code@[0-9a-f]{12}$/);

  const codes = [
    codeDocumentText(
      "storage/files.py",
      null,
      "def read_text_file(path, encoding='utf-8'):\n    with open(path, encoding=encoding) as f:\n        return f.read()",
    ),
    codeDocumentText(
      "net/http/server.go",
      null,
      'func (s *Server) ListenAndServe() error {\n\tln, err := net.Listen("tcp", s.Addr)\n' +
        "\tif err != nil {\n\t\treturn err\n\t}\n\treturn s.Serve(ln)\n}",
    ),
    codeDocumentText(
      "src/util/sort.ts",
      null,
      "export function sortByKey<T>(items: T[], key: (t: T) => number): T[] {\n" +
        "  return [...items].sort((a, b) => key(a) - key(b));\n}",
    ),
    codeDocumentText(
      "src/crypto/hash.rs",
      null,
      "pub fn sha256_digest(data: &[u8]) -> [u8; 32] {\n    let mut hasher = Sha256::new();\n" +
        "    hasher.update(data);\n    hasher.finalize().into()\n}",
    ),
  ];
  const queries = [
    "read the contents of a text file",
    "listen on the TCP network address and serve requests",
    "sort items by a numeric key",
    "compute the SHA-256 hash of bytes",
  ];
  const cv = await model.embed(codes);
  const qv = await model.embed(queries);
  for (const v of [...cv, ...qv]) {
    assert.equal(v.length, model.dimensions);
    const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
    assert.ok(Math.abs(norm - 1) < 1e-4, `norm ${norm}`);
  }
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
  for (let i = 0; i < queries.length; i++) {
    const sims = cv.map((c) => dot(qv[i], c));
    const best = sims.indexOf(Math.max(...sims));
    assert.equal(
      best,
      i,
      `query '${queries[i]}' landed on code ${best}: ${sims.map((s) => s.toFixed(2))}`,
    );
  }
  // No known token: a zero vector, not NaN.
  const [empty] = await model.embed(["+-*/"]);
  assert.ok(empty.every((x) => x === 0));
});

Deno.test("codectx-code: the runtime pools exactly the trained tokens (fast scan = tokenizer)", async () => {
  const manifest = await readManifest();
  const bin = await Deno.readFile(new URL("vectors.bin", MODEL_DIR));
  const words = (await Deno.readTextFile(new URL("vocab.txt", MODEL_DIR))).split("\n");
  const vocab = new Map(words.map((w, i) => [w, i]));
  const d = manifest.dimensions;
  const rows = manifest.vocab_size + (manifest.oov_buckets ?? 0);
  const vectors = new Int8Array(bin.buffer, 0, rows * d);
  const scales = new Float32Array(bin.slice(rows * d).buffer);
  // The reference: the tokenizer's tokens, counted, weighted (1 + ln count) * scale, summed.
  const reference = (text: string) => {
    const counts = new Map<number, number>();
    for (const t of tokenize(text)) {
      const id = vocab.get(t);
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const acc = new Float64Array(d);
    for (const [id, c] of counts) {
      const w = scales[id] * (1 + Math.log(c));
      for (let j = 0; j < d; j++) acc[j] += w * vectors[id * d + j];
    }
    const norm = Math.sqrt(acc.reduce((a, x) => a + x * x, 0));
    return acc.map((x) => x / norm);
  };
  const model = await loadCodectxCode();
  const texts = [
    "def parse_config(path):\n    return yaml.safe_load(open(path))  # $var _x 9lives",
    "func (c *Client) Do(req *Request) (*Response, error) { return c.do(req) }",
    "/** Größe der Datei berechnen. */ function größeBerechnen(datei) { return datei.size; }",
    "export const mapValues = <A, B>(f: (a: A) => B) => (xs: A[]) => xs.map(f);",
  ];
  for (const t of texts) {
    const got = model.embedOne(t);
    const want = reference(t);
    for (let j = 0; j < d; j++) assert.ok(Math.abs(got[j] - want[j]) < 1e-5, `${t}: dim ${j}`);
  }
});
