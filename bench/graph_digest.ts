/**
 * What the code graph answers for each file, as one digest per file: every reference's
 * record as the graph reads it (name, place, kind, scope, receiver) and what it resolves to
 * (the symbols, how sure, external or not), and every call's site as `get_call_graph` writes
 * it (the receiver's own text is left out: only what it leads to counts). Two runs of two versions of the code over the same roots, compared with `diff`, say
 * whether a change kept every reference and call answer — whatever the stored format of the
 * graph part (`bench/extract_digest.ts` hashes the stored bytes; this hashes the answers).
 *
 *   deno run -A bench/graph_digest.ts --out FILE [--workers N] ROOT...
 *
 * Each root is indexed as a project of its own (its ignore rules apply), in a temporary index
 * folder removed at the end.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { Project } from "../src/project/project.ts";
import { loadGraph } from "../src/graph/graph.ts";
import { namesOf } from "../src/graph/names.ts";
import { callIndexOf } from "../src/graph/calls.ts";
import { refAt, refCount } from "../src/facts/codec.ts";
import { sha256Hex } from "../src/util/hash.ts";
import type { SymbolRecord } from "../src/types.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { out: { type: "string" }, workers: { type: "string", default: "1" } },
  allowPositionals: true,
});
if (!values.out || positionals.length === 0) {
  console.error("usage: deno run -A bench/graph_digest.ts --out FILE [--workers N] ROOT...");
  Deno.exit(2);
}

const where = (s: SymbolRecord) => `${s.file}:${s.line}:${s.qualifiedName}`;
const lines: string[] = [];
let refs = 0;
for (const root of positionals) {
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-graph-digest-" });
  const project = await Project.open(root, { indexDir, workers: Number(values.workers) });
  try {
    await project.reindex();
    const graph = await loadGraph(project);
    const names = namesOf(graph);
    const calls = callIndexOf(graph);
    for (const f of graph.files) {
      const out: string[] = [];
      const n = refCount(f.part);
      for (let i = 0; i < n; i++) {
        const r = refAt(f.part, i);
        let how: string;
        try {
          const t = names.resolveRefHow(f, i);
          how = `${t.resolution} ${t.external} ${t.symbols.map(where).join(",")}`;
        } catch (err) {
          how = `throws ${err instanceof Error ? err.message : String(err)}`;
        }
        out.push(
          `${r.name} ${r.line}:${r.column} ${r.kind} ${r.scope} ${r.receiverKind ?? ""} -> ${how}`,
        );
      }
      refs += n;
      for (const s of f.symbols) {
        for (const c of calls.callsFrom(s)) {
          out.push(
            `call ${where(s)} ${c.line} ${c.written} ${c.resolution} ${c.outside} ${
              c.targets.map(where).join(",")
            }`,
          );
        }
      }
      lines.push(`${await sha256Hex(new TextEncoder().encode(out.join("\n")))}  ${root}/${f.path}`);
    }
  } finally {
    project.close();
    await Deno.remove(indexDir, { recursive: true }).catch(() => {});
  }
}
await Deno.writeTextFile(values.out, lines.join("\n") + "\n");
console.log(`${lines.length} files, ${refs} references -> ${values.out}`);
