/**
 * The builds that follow an indexing run over a large tree, one at a time in a fresh
 * process each, on an index a `bench/scale.sh --keep` run left: `lexical` (`lexical.bin`
 * from the store's `terms` parts), `symbols` (`symbols.bin`) or `chunks` (`chunks.bin`).
 * The file is removed first, so the build runs whole (any index, small ones too: a before/after
 * check can use a kernel folder). Prints wall and CPU time of the build
 * and the process's peak RSS (VmHWM; the process did nothing else) with the load average.
 *
 *   deno run -A bench/scale_builds.ts TREE INDEX_DIR lexical|symbols|chunks
 */

import { Project } from "../src/project/project.ts";
import { LEXICAL_FILE, writeLexicalFile } from "../src/search/lexical_cache.ts";

const [tree, indexDir, what] = Deno.args;
const files: Record<string, string> = {
  lexical: LEXICAL_FILE,
  symbols: "symbols.bin",
  chunks: "chunks.bin",
};
if (!tree || !indexDir || !(what in files)) {
  console.error("usage: deno run -A bench/scale_builds.ts TREE INDEX_DIR lexical|symbols|chunks");
  Deno.exit(2);
}
const status = (field: string) =>
  Number(Deno.readTextFileSync("/proc/self/status").match(new RegExp(`${field}:\\s+(\\d+)`))?.[1]);
const cpu = () => {
  const f = Deno.readTextFileSync("/proc/self/stat");
  const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
  return (Number(rest[11]) + Number(rest[12])) / 100;
};
const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

const project = await Project.open(tree, { indexDir });
await Deno.remove(`${indexDir}/${files[what]}`).catch(() => {});
const before = status("VmRSS");
const c0 = cpu();
const t0 = performance.now();
if (what === "lexical") {
  // Whatever the index's size (an indexing run builds it only over 250k rows).
  if (!(await writeLexicalFile(project, undefined, 0))) throw new Error("nothing was built");
} else {
  // A load of the generation builds what is missing (and writes it beside the store).
  const index = await project.index();
  if (what === "chunks") await index.chunks();
}
const wall = (performance.now() - t0) / 1000;
const size = (await Deno.stat(`${indexDir}/${files[what]}`)).size;
console.log(
  `${what} build: wall ${wall.toFixed(1)} s, CPU ${(cpu() - c0).toFixed(1)} s, peak RSS ${
    Math.round(status("VmHWM") / 1024)
  } MiB (${Math.round(before / 1024)} MiB before it), ${files[what]} ${
    Math.round(size / 1048576)
  } MiB; load average ${load()}`,
);
project.store.close();
