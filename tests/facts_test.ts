/**
 * The facts contract between parse and graph (`src/facts/`): every reference, receiver and
 * declared type the parser reads out of the fixtures is stored by the codec and read back as
 * the same record — so the graph follows exactly what parse found, and nothing is lost on the
 * way through the store. `CODECTX_FACTS_ROOTS=DIR:DIR… deno test -A tests/facts_test.ts`
 * sweeps real code too.
 */

import assert from "node:assert/strict";
import {
  decodeFacts,
  decodePackedPart,
  encodeFacts,
  encodePackedPart,
  refAt,
  refCount,
} from "../src/facts/codec.ts";
import { declaredText, receiverText, textOf } from "../src/facts/text.ts";
import type { TypeRef } from "../src/facts/type_ref.ts";
import { languageForPath } from "../src/parse/languages.ts";
import { parseSource } from "../src/parse/parser.ts";

const FIXTURES = new URL("./fixtures", import.meta.url).pathname;
const ROOTS = [
  FIXTURES,
  ...(Deno.env.get("CODECTX_FACTS_ROOTS")?.split(":").filter(Boolean) ?? []),
];
const SKIPPED = new Set(["node_modules", "__pycache__", "site-packages", ".git"]);

function walk(dir: string, out: string[]): string[] {
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory && !SKIPPED.has(e.name)) walk(path, out);
    else if (e.isFile && languageForPath(path) && Deno.statSync(path).size <= 1 << 20) {
      out.push(path);
    }
  }
  return out;
}

Deno.test("facts: every reference, receiver and declared type of the fixtures reads back as parsed", async () => {
  let receivers = 0;
  let declared = 0;
  for (const path of ROOTS.flatMap((root) => walk(root, []))) {
    const parsed = await parseSource(path, await Deno.readTextFile(path));
    const { graph } = encodeFacts(parsed);
    const part = decodeFacts(JSON.parse(JSON.stringify(graph)));
    // The packed form graph.bin holds (at an offset that is not a multiple of 4, too).
    const packed = encodePackedPart(graph);
    const shifted = new Uint8Array(packed.length + 1);
    shifted.set(packed, 1);
    const references = parsed.references ?? [];
    for (const p of [part, decodePackedPart(packed), decodePackedPart(shifted.subarray(1))]) {
      assert.equal(refCount(p), references.length, path);
      references.forEach((r, i) => assert.deepEqual(refAt(p, i), r, `${path}:${r.line}`));
      assert.deepEqual(p.declared, parsed.declared ?? [], path);
      assert.deepEqual(p.imports, parsed.imports ?? [], path);
      assert.deepEqual(p.importLines, parsed.importLines ?? [], path);
      assert.equal(p.package, parsed.package, path);
      assert.deepEqual(p.names, graph.names, path);
    }
    receivers += references.filter((r) => r.receiver).length;
    declared += part.declared.length;
  }
  assert.ok(receivers >= 150 && declared >= 40, `${receivers} receivers, ${declared} declared`);
  console.log(`${receivers} receivers, ${declared} declared types read back`);
});

Deno.test("facts: each kind of type, receiver and declared type has its text", () => {
  const path = (...segments: string[]): TypeRef => ({
    kind: "path",
    segments,
    separators: segments.slice(1).map(() => "."),
  });
  assert.equal(textOf(path("cobra", "Command")), "cobra.Command");
  assert.equal(
    textOf({ kind: "path", segments: ["std", "fs", "File"], separators: ["::", "::"] }),
    "std::fs::File",
  );
  assert.equal(textOf({ kind: "sequence", of: path("Command") }), "[]Command");
  assert.equal(
    textOf({ kind: "shape", fields: [["flags", { kind: "sequence", of: path("Flag") }]] }),
    "{flags:[]Flag}",
  );
  assert.equal(textOf({ kind: "function", result: path("Command") }), "()Command");
  assert.equal(textOf({ kind: "generic", index: 1 }), "%1");
  assert.equal(
    textOf({
      kind: "value",
      chain: {
        head: { kind: "self" },
        steps: [{ kind: "member", sep: ".", name: "make" }, { kind: "call" }, { kind: "element" }],
      },
    }),
    "=#self.make()[]",
  );
  assert.equal(
    textOf({
      kind: "stepped",
      from: path("Behavior"),
      steps: [{ kind: "member", sep: ".", name: "onFetch" }, { kind: "parameter", index: 1 }],
    }),
    "Behavior .onFetch<=1>",
  );
  const chain = (name: string) => ({
    kind: "chain" as const,
    chain: { head: { kind: "name" as const, name }, steps: [{ kind: "call" as const }] },
  });
  assert.equal(receiverText({ kind: "either", options: [chain("a"), chain("b")] }), "a()|b()");
  assert.deepEqual(
    declaredText({
      kind: "type",
      owner: "f",
      slot: { kind: "callback", arg: 1, param: 0 },
      type: path("T"),
    }),
    ["f<1:0>", "T"],
  );
  assert.deepEqual(
    declaredText({
      kind: "base",
      owner: "Op.Unary",
      args: [{ kind: "generic", index: 0 }, path("O")],
    }),
    ["Op.Unary base", "%0,O"],
  );
  assert.deepEqual(
    declaredText({ kind: "type", owner: "Cmd.version", field: true, type: path("Str") }),
    ["Cmd.version field", "Str"],
  );
});

Deno.test("facts: a packed part keeps names that hold a NUL, and an empty one", () => {
  const stored = {
    names: ["a\0b", "", "ünï"],
    refs: [0, 1, 2, 0, 0, 0, -1, 2, 3, 4, 0, 0, 0, -1],
    imports: [],
  };
  const part = decodePackedPart(encodePackedPart(stored));
  assert.deepEqual(part.names, stored.names);
  assert.deepEqual([...part.refs], stored.refs);
  const empty = decodePackedPart(encodePackedPart({ names: [], refs: [], imports: [] }));
  assert.deepEqual([empty.names, empty.refs.length, empty.receivers, empty.package], [
    [],
    0,
    [],
    undefined,
  ]);
});
