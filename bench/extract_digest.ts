/**
 * What indexing extracts from each file, as one digest per file: SHA-256 of the encoded blob
 * parts (symbols, chunks, terms, graph) that `extractEncoded` makes. Two runs of two versions
 * of the code over the same files, compared with `diff`, say whether a change kept every
 * answer (definitions, references, chunks, terms) — the check for a speed-up that must not
 * change output.
 *
 *   deno run -A bench/extract_digest.ts --out FILE ROOT...
 *
 * Files are walked in name order (no ignore rules; `node_modules`, `__pycache__` and
 * `site-packages` folders left out), each in the language its path says; files over 1 MiB
 * are left out as indexing leaves them out.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { extractEncoded } from "../src/index/extract.ts";
import { languageForPath } from "../src/parse/languages.ts";
import { sha256Hex } from "../src/util/hash.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: { out: { type: "string" } },
  allowPositionals: true,
});
if (!values.out || positionals.length === 0) {
  console.error("usage: deno run -A bench/extract_digest.ts --out FILE ROOT...");
  Deno.exit(2);
}

const SKIPPED_FOLDERS = new Set(["node_modules", "__pycache__", "site-packages", ".git"]);
const MAX_BYTES = 1 << 20;
const SEPARATOR = new Uint8Array(1);

function walk(dir: string, out: string[]): void {
  const entries = [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1);
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory && !SKIPPED_FOLDERS.has(e.name)) walk(path, out);
    else if (e.isFile && languageForPath(path)) out.push(path);
  }
}

const files: string[] = [];
for (const root of positionals) walk(root, files);
const lines: string[] = [];
let errors = 0;
const t0 = performance.now();
for (const path of files) {
  const bytes = Deno.readFileSync(path);
  if (bytes.length > MAX_BYTES) continue;
  const x = await extractEncoded(path, bytes, languageForPath(path)!.id);
  if (x.error) errors++;
  // A zero byte after each part, kinds in name order.
  const parts = Object.keys(x.parts).sort().flatMap((kind) => [x.parts[kind], SEPARATOR]);
  const digest = await sha256Hex(...parts);
  lines.push(`${path}\t${digest}\t${x.symbols}\t${x.chunks}`);
}
Deno.writeTextFileSync(values.out, lines.join("\n") + "\n");
console.error(
  `${lines.length} files (${errors} with an error) in ${
    ((performance.now() - t0) / 1000).toFixed(1)
  } s → ${values.out}`,
);
