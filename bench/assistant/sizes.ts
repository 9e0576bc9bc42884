/**
 * Characters an assistant reads per codectx command, for two or more checkouts side by side:
 * each line of a commands file is run with each checkout's `cli.ts` on the same project and
 * index, and the table says how many characters (stdout and stderr, as `run.ts` counts them)
 * each printed.
 *
 * Run: `deno run -A bench/assistant/sizes.ts --path DIR --index-dir IDX --commands FILE
 * --cli before=/tmp/wt-before/cli.ts --cli after=./cli.ts [--out DIR]` (`--out` keeps each
 * output as `DIR/<label>-<n>.txt`). A commands line is the arguments after `codectx`, split on
 * spaces (a "quoted phrase" is one argument); `--help` alone is `codectx --help`. With `--keys
 * keys/<project>.json`, a `# <id>` line names the question of the commands after it, and the
 * table says how many of its key items each output shows (`shown.ts`), then lists every item the
 * first checkout showed and a later one does not: a cut must lose none.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { readKeys } from "./keys.ts";
import { shownItems } from "./shown.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    path: { type: "string" },
    "index-dir": { type: "string" },
    commands: { type: "string" },
    cli: { type: "string", multiple: true },
    out: { type: "string" },
    keys: { type: "string" },
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
const keyed = new Map(
  values.keys ? (await readKeys(values.keys)).questions.map((q) => [q.id, q.all]) : [],
);
// Each command with the key items of the question a `# <id>` line before it names.
const lines: string[] = [];
const itemsOf: string[][] = [];
let items: string[] = [];
for (const l of (await Deno.readTextFile(values.commands)).split("\n").map((l) => l.trim())) {
  const id = /^#\s*(\S+)\s*$/.exec(l)?.[1];
  if (id && keyed.has(id)) items = keyed.get(id)!;
  if (!l || l.startsWith("#")) continue;
  lines.push(l);
  itemsOf.push(items);
}
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
const shownTotals = clis.map(() => 0);
const lost: string[] = [];
const rows: string[][] = [];
for (const [n, line] of lines.entries()) {
  const row = [`\`${line}\``];
  const shown: string[][] = [];
  // Alternate which checkout runs first, so neither always meets a cold cache.
  for (const [i, c] of clis.entries()) {
    const text = await run(c.path, line);
    if (values.out) await Deno.writeTextFile(`${values.out}/${c.label}-${n + 1}.txt`, text);
    const chars = [...text].length;
    totals[i] += chars;
    shown.push(shownItems(text, itemsOf[n]));
    shownTotals[i] += shown[i].length;
    row.push(values.keys ? `${chars} (${shown[i].length})` : String(chars));
  }
  for (const [i, s] of shown.entries()) {
    const gone = shown[0].filter((item) => !s.includes(item));
    if (gone.length) lost.push(`\`${line}\` ${clis[i].label}: ${gone.join(", ")}`);
  }
  const base = parseInt(row[1]);
  if (clis.length > 1) row.push((parseInt(row[row.length - 1]) / base).toFixed(2));
  rows.push(row);
}
const head = ["command", ...clis.map((c) => c.label), ...(clis.length > 1 ? ["ratio"] : [])];
rows.push([
  "**total**",
  ...totals.map((t, i) => values.keys ? `${t} (${shownTotals[i]})` : String(t)),
  ...(clis.length > 1 ? [(totals[totals.length - 1] / totals[0]).toFixed(2)] : []),
]);
console.log(`| ${head.join(" | ")} |\n|${head.map(() => "---").join("|")}|`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
if (values.keys) {
  console.log(`\n(N): key items of the command's question its output shows. Lost: ${lost.length}`);
  for (const l of lost) console.log(`- ${l}`);
}
