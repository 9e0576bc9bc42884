/**
 * Characters an assistant reads per codectx command, for two or more checkouts side by side:
 * each line of a commands file is run with each checkout's `cli.ts` on the same project and
 * index, and the table says how many characters (stdout and stderr, as `run.ts` counts them)
 * each printed.
 *
 * Run: `deno run -A bench/assistant/sizes.ts --path DIR --index-dir IDX --commands FILE
 * --cli before=/tmp/wt-before/cli.ts --cli after=./cli.ts [--out DIR]` (`--out` keeps each
 * output as `DIR/<label>-<n>.txt`). A commands line is the arguments after `codectx`, split on
 * spaces (a "quoted phrase" is one argument); `--help` alone is `codectx --help`.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    path: { type: "string" },
    "index-dir": { type: "string" },
    commands: { type: "string" },
    cli: { type: "string", multiple: true },
    out: { type: "string" },
  },
});
const clis = (values.cli ?? []).map((c) => {
  const at = c.indexOf("=");
  return { label: c.slice(0, at), path: resolve(c.slice(at + 1)) };
});
if (!values.path || !values.commands || clis.length === 0 || clis.some((c) => !c.label)) {
  console.error(
    "usage: sizes.ts --path DIR [--index-dir IDX] --commands FILE --cli LABEL=cli.ts… [--out DIR]",
  );
  Deno.exit(2);
}
const lines = (await Deno.readTextFile(values.commands)).split("\n")
  .map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
if (values.out) await Deno.mkdir(values.out, { recursive: true });

/** What one checkout printed for one command line. */
async function run(cli: string, line: string): Promise<string> {
  // Words split on spaces; a "quoted phrase" is one word.
  const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
  const where = words[0] === "--help" || words.includes("--help") ? [] : [
    "--path",
    values.path!,
    ...(values["index-dir"] ? ["--index-dir", values["index-dir"]] : []),
  ];
  const out = await new Deno.Command("deno", {
    // Run from the checkout (its deno.json and node_modules), on the project of --path.
    args: ["run", "-A", cli, ...words, ...where],
    cwd: dirname(cli),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return dec.decode(out.stdout) + dec.decode(out.stderr);
}

const totals = clis.map(() => 0);
const rows: string[][] = [];
for (const [n, line] of lines.entries()) {
  const row = [`\`${line}\``];
  // Alternate which checkout runs first, so neither always meets a cold cache.
  for (const [i, c] of clis.entries()) {
    const text = await run(c.path, line);
    if (values.out) await Deno.writeTextFile(`${values.out}/${c.label}-${n + 1}.txt`, text);
    const chars = [...text].length;
    totals[i] += chars;
    row.push(String(chars));
  }
  const base = Number(row[1]);
  if (clis.length > 1) row.push((Number(row[row.length - 1]) / base).toFixed(2));
  rows.push(row);
}
const head = ["command", ...clis.map((c) => c.label), ...(clis.length > 1 ? ["ratio"] : [])];
rows.push([
  "**total**",
  ...totals.map(String),
  ...(clis.length > 1 ? [(totals[totals.length - 1] / totals[0]).toFixed(2)] : []),
]);
console.log(`| ${head.join(" | ")} |\n|${head.map(() => "---").join("|")}|`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
