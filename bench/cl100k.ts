/**
 * The token counter's vocabulary and its check against js-tiktoken (issue 34: js-tiktoken's
 * 22 MiB, every encoding twice over, left the default install).
 *
 * Run with `--lock=tests/.test.lock` (as tests are): js-tiktoken must not enter deno.lock, from
 * which the default install installs.
 *
 *   deno run -A --lock=tests/.test.lock bench/cl100k.ts write
 *     writes src/context/cl100k_base.tokens.gz from js-tiktoken's cl100k_base ranks
 *   deno run -A --lock=tests/.test.lock bench/cl100k.ts check [--path DIR] [--ext .py,.ts,…] [--whole]
 *     counts every file of DIR (default: the frozen Python standard library) with codectx's
 *     counter and with js-tiktoken: files whose counts differ, the largest difference, and each
 *     counter's time (memos start empty, as in a fresh process). js-tiktoken counts piece by
 *     piece with a memo, as codectx did with it; with `--whole`, by its whole-text encoder
 *     (no memo: minutes on the standard library)
 *
 * @module
 */

import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { Tiktoken, type TiktokenBPE } from "npm:/js-tiktoken@1.0.21/lite";
import ranks from "npm:/js-tiktoken@1.0.21/ranks/cl100k_base";
import {
  createCounter,
  readVocabulary,
  readVocabularyFile,
  VOCABULARY_PATH,
} from "../src/context/tokens.ts";

const { positionals, values } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { path: { type: "string" }, ext: { type: "string" }, whole: { type: "boolean" } },
});
const REPO = new URL("../", import.meta.url);
const bpe = ranks as TiktokenBPE;

/** Every token's bytes by rank, from js-tiktoken's ranks text (lines `! <first rank> <base64>…`). */
function tokensByRank(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const line of bpe.bpe_ranks.split("\n")) {
    const [, first, ...tokens] = line.split(" ");
    let rank = Number(first);
    for (const b64 of tokens) out[rank++] = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  }
  for (let r = 0; r < out.length; r++) if (!out[r]) throw new Error(`no token of rank ${r}`);
  return out;
}

async function write(): Promise<void> {
  const tokens = tokensByRank();
  const total = tokens.reduce((n, t) => n + t.length, 0);
  const file = new Uint8Array(4 + tokens.length + total);
  new DataView(file.buffer).setUint32(0, tokens.length, true);
  let at = 4 + tokens.length;
  tokens.forEach((t, r) => {
    if (t.length > 255) throw new Error(`token ${r} is longer than a length byte says`);
    file[4 + r] = t.length;
    file.set(t, at);
    at += t.length;
  });
  const gz = gzipSync(file, { level: 9 });
  await Deno.writeFile(new URL(VOCABULARY_PATH, REPO), gz);
  console.log(`${VOCABULARY_PATH}: ${tokens.length} tokens, ${file.length} → ${gz.length} bytes`);
}

async function* walk(dir: string, exts: string[]): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* walk(path, exts);
    else if (e.isFile && exts.some((x) => e.name.endsWith(x))) yield path;
  }
}

async function check(): Promise<void> {
  const root = values.path ?? "/work/bench_data/pystd";
  const exts = (values.ext ?? ".py,.ts,.js,.go,.rs,.java,.c,.h,.md,.txt,.json").split(",");
  const texts: [string, string][] = [];
  for await (const path of walk(root, exts)) texts.push([path, await Deno.readTextFile(path)]);
  const t0 = performance.now();
  const ours = createCounter(
    readVocabulary(await readVocabularyFile(new URL(VOCABULARY_PATH, REPO))),
  );
  const loadMs = performance.now() - t0;
  const t1 = performance.now();
  const mine = texts.map(([, t]) => ours.count(t));
  const oursMs = performance.now() - t1;
  const enc = new Tiktoken(bpe);
  const pattern = new RegExp(bpe.pat_str, "gu");
  const memo = new Map<string, number>();
  const byPieces = (text: string): number => {
    let n = 0;
    for (const [p] of text.matchAll(pattern)) {
      let c = memo.get(p);
      if (c === undefined) memo.set(p, c = enc.encode(p, [], []).length);
      n += c;
    }
    return n;
  };
  const t2 = performance.now();
  const theirs = texts.map(([, t]) => values.whole ? enc.encode(t, [], []).length : byPieces(t));
  const theirsMs = performance.now() - t2;
  let differ = 0;
  let worst = 0;
  let sumMine = 0;
  let sumTheirs = 0;
  texts.forEach(([path], i) => {
    sumMine += mine[i];
    sumTheirs += theirs[i];
    if (mine[i] !== theirs[i]) {
      differ++;
      const rel = (mine[i] - theirs[i]) / theirs[i];
      if (Math.abs(rel) > Math.abs(worst)) worst = rel;
      if (differ <= 10) {
        console.log(`differs: ${path}: codectx ${mine[i]}, js-tiktoken ${theirs[i]}`);
      }
    }
  });
  console.log(
    `${texts.length} files of ${root} (${exts.join(" ")}): ${sumMine} tokens by codectx, ` +
      `${sumTheirs} by js-tiktoken; ${differ} files differ (largest ${
        (worst * 100).toFixed(2)
      }%); ` +
      `codectx ${oursMs.toFixed(0)} ms (+ ${loadMs.toFixed(0)} ms to read the vocabulary), ` +
      `js-tiktoken ${theirsMs.toFixed(0)} ms (${
        values.whole ? "whole-text encoder" : "by pieces"
      })`,
  );
}

if (positionals[0] === "write") await write();
else if (positionals[0] === "check") await check();
else {
  console.error("usage: bench/cl100k.ts write | check [--path DIR] [--ext .py,.ts]");
  Deno.exit(2);
}
