/**
 * The seeded pick of Rust symbols to label for `rust_refs.json` (how the regex sample was
 * drawn): Universal Ctags' structs, enums, traits, type aliases, functions and inherent
 * methods of `src/` and `examples/` (trait declarations, trait-impl items and test modules
 * left out), in file:line order, shuffled by a seeded source; names with more than 60
 * whole-word occurrences (`rg -w`) are skipped, as labelling them by reading is out of
 * reach. It knows nothing of codectx: the labels are then written by reading each site.
 *
 * Run: `deno run -A bench/labels/rust_sample.ts <crate root> [count] [seed]`
 *
 * @module
 */

import { rng } from "../sample.ts";

const [root, count = "28", seed = "13"] = Deno.args;
if (!root) {
  console.error("usage: deno run -A bench/labels/rust_sample.ts <crate root> [count] [seed]");
  Deno.exit(2);
}

interface Tag {
  name: string;
  file: string;
  kind: string;
  line: number;
  scope: string;
  pattern: string;
}

function run(cmd: string, args: string[]): string {
  const out = new Deno.Command(cmd, { args, cwd: root }).outputSync();
  return new TextDecoder().decode(out.stdout);
}

const ctags = run("ctags", [
  "--languages=Rust",
  "-R",
  "--fields=+KnsZ",
  "-f",
  "-",
  "src",
  "examples",
]);
const tags: Tag[] = ctags.split("\n").filter(Boolean).map((l) => {
  const [name, file, ...rest] = l.split("\t");
  const tail = rest.join("\t");
  return {
    name,
    file,
    kind: tail.match(/;"\t(\w+)/)?.[1] ?? "",
    line: +(tail.match(/line:(\d+)/)?.[1] ?? 0),
    scope: tail.match(/scope:(\S+)/)?.[1] ?? "",
    pattern: tail.match(/^\/\^(.*)\$\/;"/)?.[1] ?? "",
  };
});
const impls = tags.filter((t) => t.kind === "implementation");
const KINDS = new Set(["struct", "enum", "interface", "function", "method", "typedef"]);

/** Whether an item inside an `impl` block implements a trait (`impl T for X`). */
function inTraitImpl(t: Tag): boolean {
  const impl = impls.filter((i) => i.file === t.file && i.line <= t.line)
    .sort((a, b) => b.line - a.line)[0];
  return !impl || / for /.test(impl.pattern);
}

const candidates = tags.filter((t) => {
  if (!KINDS.has(t.kind)) return false;
  const scope = t.scope.replace(/^\w+:/, "");
  if (/^module:tests?\b/.test(t.scope) || /(^|\.)tests?(\.|$)/.test(scope)) return false;
  if (t.scope.startsWith("interface:")) return false;
  if (t.kind === "method" || (t.kind === "typedef" && t.scope.startsWith("implementation:"))) {
    return !inTraitImpl(t);
  }
  return true;
}).sort((a, b) => `${a.file}:${a.line}`.localeCompare(`${b.file}:${b.line}`));

const next = rng(+seed);
const order = candidates.map((c) => ({ c, k: next() })).sort((a, b) => a.k - b.k);
let picked = 0;
for (const { c } of order) {
  const hits = run("rg", ["-w", "-c", "--type", "rust", c.name, "."]).split("\n").filter(Boolean)
    .reduce((sum, l) => sum + +l.split(":").at(-1)!, 0);
  const skip = hits > 60;
  const owner = c.scope.replace(/^\w+:/, "");
  console.log(
    `${skip ? "SKIP" : "PICK"} ${c.kind} ${owner ? `${owner}.` : ""}${c.name} ` +
      `${c.file}:${c.line} occurrences=${hits}`,
  );
  if (!skip && ++picked >= +count) break;
}
console.log(`candidates ${candidates.length}`);
