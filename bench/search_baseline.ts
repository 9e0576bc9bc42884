/**
 * The textbook BM25 baseline of `search_vs_bm25.ts` (issue 14's recipe): one document per
 * function or method (its exact span), text = its code + its file path + its enclosing
 * scope's name; identifiers split at camelCase/PascalCase/snake_case/digits, lower-cased,
 * the whole kept too when it has several parts; English stop words removed; light suffix
 * stemming; Okapi BM25 with k1 1.2, b 0.75, idf ln(1 + (N − df + .5)/(df + .5)). Also what
 * both sides count as a function.
 *
 * @module
 */

import { parseSource } from "../src/parse/parser.ts";
import type { SymbolRecord } from "../src/types.ts";

const FUNCTION_KINDS = new Set(["function", "method", "constructor"]);

/** True for the definitions both sides count as functions (JS/TS function values too). */
export function isFunction(sym: SymbolRecord, lines: string[]): boolean {
  if (FUNCTION_KINDS.has(sym.kind)) return true;
  if (sym.language !== "javascript" && sym.language !== "typescript") return false;
  if (sym.kind !== "constant" && sym.kind !== "variable") return false;
  const head = lines.slice(sym.startLine - 1, Math.min(sym.endLine, sym.startLine + 3)).join("\n");
  return /=>|\bfunction\b/.test(head);
}

/** English stop words (function words only; code keywords are left in). */
const ENGLISH_STOP = new Set(
  ("a about above after again against all am an and any are as at be because been before " +
    "being below between both but by can could did do does doing down during each few for " +
    "from further had has have having he her here hers herself him himself his how i if in " +
    "into is it its itself just me more most my myself no nor not now of off on once only or " +
    "other our ours ourselves out over own same she should so some such than that the their " +
    "theirs them themselves then there these they this those through to too under until up " +
    "very was we were what when where which while who whom why will with would you your " +
    "yours yourself yourselves").split(" "),
);

/** Light suffix stemming: -ies, -es, -s, -ing, -ed, then a trailing -e. */
export function lightStem(w: string): string {
  let s = w;
  if (s.length > 4 && s.endsWith("ies")) s = s.slice(0, -3) + "y";
  else if (s.length > 4 && s.endsWith("es")) s = s.slice(0, -2);
  else if (s.length > 3 && s.endsWith("s") && !s.endsWith("ss")) s = s.slice(0, -1);
  if (s.length > 5 && s.endsWith("ing")) s = s.slice(0, -3);
  else if (s.length > 4 && s.endsWith("ed")) s = s.slice(0, -2);
  if (s.length > 3 && s.endsWith("e")) s = s.slice(0, -1);
  return s;
}

/** The baseline's tokens of a text. */
export function baselineTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z_$][A-Za-z0-9_$]*/g)) {
    const id = m[0];
    const parts = (id.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []).map((p) =>
      p.toLowerCase()
    );
    if (parts.length > 1) {
      const whole = id.toLowerCase().replace(/^[_$]+|[_$]+$/g, "");
      if (!ENGLISH_STOP.has(whole)) out.push(lightStem(whole));
    }
    for (const p of parts) if (!ENGLISH_STOP.has(p)) out.push(lightStem(p));
  }
  return out;
}

interface BaselineDoc {
  file: string;
  startLine: number;
  endLine: number;
}

/** Okapi BM25 over one document per function of the corpus's files. */
export async function buildBaseline(root: string, language: string) {
  const docs: BaselineDoc[] = [];
  const postings = new Map<string, Array<[number, number]>>();
  const lens: number[] = [];
  const walk = async function* (dir: string, rel = ""): AsyncGenerator<string> {
    for await (const e of Deno.readDir(rel ? `${dir}/${rel}` : dir)) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) yield* walk(dir, p);
      else if (e.isFile) yield p;
    }
  };
  for await (const file of walk(root)) {
    const text = await Deno.readTextFile(`${root}/${file}`);
    const parsed = await parseSource(file, text, language);
    const lines = text.split("\n");
    const scopes = new Map(parsed.symbols.map((s) => [s.qualifiedName, s.name]));
    for (const sym of parsed.symbols) {
      if (!isFunction(sym, lines)) continue;
      const code = lines.slice(sym.startLine - 1, sym.endLine).join("\n");
      const scope = sym.parent ? scopes.get(sym.parent) ?? sym.parent.split(".").pop()! : "";
      const toks = baselineTokens(`${code}\n${file}\n${scope}`);
      const id = docs.length;
      docs.push({ file, startLine: sym.startLine, endLine: sym.endLine });
      lens.push(toks.length);
      const tf = new Map<string, number>();
      for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, c] of tf) {
        let p = postings.get(t);
        if (!p) postings.set(t, p = []);
        p.push([id, c]);
      }
    }
  }
  const n = docs.length;
  const avg = lens.reduce((a, x) => a + x, 0) / Math.max(1, n);
  const k1 = 1.2, b = 0.75;
  const scores = new Float64Array(n);
  return {
    docs,
    search(query: string, k = 10): BaselineDoc[] {
      scores.fill(0);
      for (const t of new Set(baselineTokens(query))) {
        const p = postings.get(t);
        if (!p) continue;
        const idf = Math.log(1 + (n - p.length + 0.5) / (p.length + 0.5));
        for (const [d, tf] of p) {
          scores[d] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * lens[d] / avg));
        }
      }
      const idx: number[] = [];
      for (let i = 0; i < n; i++) if (scores[i] > 0) idx.push(i);
      idx.sort((x, y) => scores[y] - scores[x] || x - y);
      return idx.slice(0, k).map((i) => docs[i]);
    },
  };
}

// ------------------------------------------------------------------------------------------
