/**
 * The facts contract between parse and graph (`src/facts/`): every receiver and declared
 * type the parser writes for the fixtures reads back as a typed record whose text is the
 * text written — so the graph can read records where it read strings, and nothing is lost.
 * `CODECTX_FACTS_ROOTS=DIR:DIR… deno test -A tests/facts_test.ts` sweeps real code too.
 */

import assert from "node:assert/strict";
import { extract } from "../src/index/extract.ts";
import { refAt, refCount } from "../src/index/graph_part.ts";
import { languageForPath } from "../src/parse/languages.ts";
import {
  declaredOf,
  declaredText,
  receiverOf,
  receiverText,
  textOf,
  typeRefOf,
} from "../src/facts/text.ts";

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

Deno.test("facts: every receiver and declared type of the fixtures reads back as written", async () => {
  let receivers = 0;
  let types = 0;
  const lost: string[] = [];
  for (const path of ROOTS.flatMap((root) => walk(root, []))) {
    const text = await Deno.readTextFile(path);
    const { graph } = await extract(path, text, languageForPath(path)!.id);
    for (let i = 0; i < refCount(graph); i++) {
      const r = refAt(graph, i);
      const written = graph.names[graph.refs[i * 7 + 6]];
      if (!r.receiverKind || graph.refs[i * 7 + 6] < 0) continue;
      receivers++;
      const back = receiverOf(r.receiverKind, written);
      if (back === null || receiverText(back) !== written) lost.push(`${path}: ${written}`);
    }
    for (const kt of graph.types ?? []) {
      types++;
      const back = declaredText(declaredOf(kt));
      if (back[0] !== kt[0] || back[1] !== kt[1]) lost.push(`${path}: ${kt.join(" = ")}`);
    }
  }
  assert.deepEqual(lost, []);
  assert.ok(receivers >= 150 && types >= 40, `${receivers} receivers, ${types} types`);
  console.log(`${receivers} receivers, ${types} declared types read back`);
});

Deno.test("facts: each form of a type is a record of its kind", () => {
  const kinds = (s: string) => {
    const t = typeRefOf(s);
    assert.equal(textOf(t), s);
    return t.kind === "stepped" ? `${t.from.kind} ${t.steps.map((x) => x.kind)}` : t.kind;
  };
  assert.equal(kinds("cobra.Command"), "path");
  assert.equal(kinds("std::fs::File"), "path");
  assert.equal(kinds("[]Command"), "sequence");
  assert.equal(kinds("{flags:[]Flag;name:string}"), "shape");
  assert.equal(kinds("()Command"), "function");
  assert.equal(kinds("%1"), "generic");
  assert.equal(kinds("=#self.make().items[]"), "value");
  assert.equal(kinds("=operate<0:1>"), "value");
  assert.equal(kinds("Behavior .onFetch<=1>"), "path member,parameter");
  assert.equal(kinds("(a: A) => void"), "written");
  const value = typeRefOf("=this.#client.get()");
  assert.deepEqual(value, {
    kind: "value",
    chain: {
      head: { kind: "name", name: "this" },
      steps: [{ kind: "member", sep: ".", name: "#client" }, {
        kind: "member",
        sep: ".",
        name: "get",
      }, {
        kind: "call",
      }],
    },
  });
  assert.deepEqual(declaredOf(["Op.Unary base", "%0,Observable"]), {
    kind: "base",
    owner: "Op.Unary",
    args: [{ kind: "generic", index: 0 }, {
      kind: "path",
      segments: ["Observable"],
      separators: [],
    }],
  });
  assert.deepEqual(declaredOf(["Cmd.version field", "Str"]).kind, "type");
  assert.deepEqual(declaredOf(["f<1:0>", "=g()"]), {
    kind: "type",
    owner: "f",
    slot: { kind: "callback", arg: 1, param: 0 },
    type: {
      kind: "value",
      chain: { head: { kind: "name", name: "g" }, steps: [{ kind: "call" }] },
    },
  });
});
