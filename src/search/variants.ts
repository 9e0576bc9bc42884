/**
 * Other forms of a query's words for the lexical side: a question says `bailing`,
 * `dropped`, `flattening` where the code says `bail`, `drop`, `flatten`. The index's
 * tokens only lose plural endings (`../util/tokens.ts`), so the query side adds the base
 * forms of `-ing` and `-ed` words that the index knows, at a lower weight than the word
 * itself, and the short forms names use for spelled-out words (`initialize` → `init`).
 *
 * @module
 */

/** Weight of a variant in the lexical score, relative to the query's own word. */
export const VARIANT_WEIGHT = 0.5;

const VOWEL = /[aeiouy]/;

/**
 * Base forms a word may come from (not checked against any vocabulary): `bailing` → `bail`,
 * `baile`; `dropped` → `dropp`, `drop`, `droppe`; `created` → `creat`, `create`.
 *
 * @example
 * ```ts
 * wordVariants("flattening"); // ["flatten", "flattene"]
 * wordVariants("dropped");    // ["dropp", "droppe", "drop"]
 * ```
 */
export function wordVariants(word: string): string[] {
  let base = "";
  if (word.length > 5 && word.endsWith("ing")) base = word.slice(0, -3);
  else if (word.length > 4 && word.endsWith("ed") && !word.endsWith("eed")) {
    base = word.slice(0, -2);
  }
  // A base needs a vowel (`string`, `red`, `bed` are no inflections).
  if (base.length < 2 || !VOWEL.test(base)) return [];
  const out = [base, `${base}e`];
  const n = base.length;
  // `running` → `run`, `dropped` → `drop` (but `falling` keeps `fall`: both stay).
  if (n > 2 && base[n - 1] === base[n - 2] && !VOWEL.test(base[n - 1])) {
    out.push(base.slice(0, -1));
  }
  // `copied` → `copy`.
  if (word.endsWith("ied")) out.push(`${word.slice(0, -3)}y`);
  return out;
}

/**
 * The short forms code writes for common words (`initialize` → `init`, `character` →
 * `char`, `attribute` → `attr`): a question spells the word out, a name abbreviates it.
 * Keys are query tokens (plurals already cut: `statistics` → `statistic`). Added at
 * {@link VARIANT_WEIGHT} where the index knows them; `error` → `err` is left out (in Go
 * every body holds `err`; it cost on the tuning sets).
 */
export const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  initialize: ["init"],
  initialization: ["init"],
  character: ["char", "chr"],
  attribute: ["attr"],
  description: ["desc"],
  parameter: ["param"],
  argument: ["arg"],
  iterator: ["iter"],
  iterate: ["iter"],
  configuration: ["config", "conf", "cfg"],
  directory: ["dir"],
  message: ["msg"],
  context: ["ctx"],
  environment: ["env"],
  number: ["num"],
  length: ["len"],
  string: ["str"],
  value: ["val"],
  buffer: ["buf"],
  position: ["pos"],
  temporary: ["tmp", "temp"],
  source: ["src"],
  destination: ["dst", "dest"],
  implementation: ["impl"],
  information: ["info"],
  specification: ["spec"],
  utility: ["util"],
  reference: ["ref"],
  previous: ["prev"],
  current: ["cur", "curr"],
  address: ["addr"],
  allocate: ["alloc"],
  allocation: ["alloc"],
  command: ["cmd"],
  expression: ["expr"],
  statement: ["stmt"],
  representation: ["repr"],
  maximum: ["max"],
  minimum: ["min"],
  sequence: ["seq"],
  object: ["obj"],
  request: ["req"],
  response: ["resp"],
  execute: ["exec"],
  execution: ["exec"],
  column: ["col"],
  concatenate: ["concat"],
  concatenation: ["concat"],
  identifier: ["ident"],
  integer: ["int"],
  boolean: ["bool"],
  dictionary: ["dict"],
  synchronize: ["sync"],
  asynchronous: ["async"],
  synchronous: ["sync"],
  calculate: ["calc"],
  generate: ["gen"],
  generator: ["gen"],
  database: ["db"],
  document: ["doc"],
  separator: ["sep"],
  delimiter: ["delim"],
  compare: ["cmp"],
  comparison: ["cmp"],
  format: ["fmt"],
  authentication: ["auth"],
  authorization: ["auth"],
  administrator: ["admin"],
  application: ["app"],
  library: ["lib"],
  package: ["pkg"],
  variable: ["var"],
  statistic: ["stat", "stats"],
  password: ["pwd", "passwd"],
  callback: ["cb"],
  // Mined from the codectx-code training pairs (model/: doc sentence → function name), a
  // name part that is a prefix of a query word in at least 5 % of that word's pairs.
  symbol: ["sym"],
  absolute: ["abs"],
  polynomial: ["poly"],
  evaluate: ["eval"],
  synchronously: ["sync"],
  register: ["reg"],
  subtract: ["sub"],
  multiply: ["mul"],
  coefficient: ["coeff"],
  logarithm: ["log"],
  mutable: ["mut"],
  nanosecond: ["nano"],
  hexadecimal: ["hex"],
  power: ["pow"],
  floating: ["float"],
  revision: ["rev"],
  division: ["div"],
  location: ["loc"],
  extension: ["ext"],
  warning: ["warn"],
  difference: ["diff"],
  multiple: ["multi"],
  quotient: ["quo"],
  denominator: ["denom"],
  language: ["lang"],
  geometry: ["geom"],
  automatically: ["auto"],
  relocation: ["reloc"],
  millisecond: ["millis"],
  microsecond: ["micro"],
  coordinate: ["coord"],
  inverse: ["inv"],
  indentation: ["indent"],
  remainder: ["rem"],
  certificate: ["cert"],
  relative: ["rel"],
  dimension: ["dim"],
  increment: ["inc"],
};

/** Weight of a compound (words of the query written together) in the lexical score. */
export const COMPOUND_WEIGHT = 0.3;

/**
 * Two or three neighbouring words of a query written as one identifier would be
 * (`before each` → `beforeeach`, `before_each`): the index keeps every identifier of
 * several parts whole too, so a name the question spells out in words meets it.
 *
 * @example
 * ```ts
 * compounds("Run fn before each test"); // ["runfn", "run_fn", …, "beforeeach", "before_each", …]
 * ```
 */
export function compounds(query: string): string[] {
  const words = query.toLowerCase().match(/[a-z][a-z0-9]*/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    for (let n = 2; n <= 3 && i + n <= words.length; n++) {
      const w = words.slice(i, i + n);
      out.push(w.join(""), w.join("_"));
    }
  }
  return out;
}

/**
 * The word a plural stem may have lost its `e` from: the tokens' stemmer strips `-es` after
 * `ch`, `sh`, `x` and `ss` (`matches` → `match`), which also turns `caches` into `cach`
 * while the code says `cache` (after a single `z` it keeps the `e`: `sizes` → `size`).
 *
 * @example
 * ```ts
 * restoredE("cach");      // "cache"
 * restoredE("match");     // "matche" (kept only where the index knows it)
 * restoredE("parse");     // null
 * ```
 */
export function restoredE(token: string): string | null {
  return token.length > 2 && /(?:ch|sh|x|ss)$/.test(token) ? `${token}e` : null;
}

/**
 * A one-word token written with an `_` between two parts of at least 2 letters, the way a
 * snake_case name holds it (`gitignore` → `gi_tignore`, `git_ignore`, …): only the ones the
 * index knows are used.
 *
 * @example
 * ```ts
 * splitForms("gitignore").includes("git_ignore"); // true
 * ```
 */
export function splitForms(token: string): string[] {
  if (token.length < 6 || !/^[a-z]+$/.test(token)) return [];
  const out: string[] = [];
  for (let i = 2; i <= token.length - 2; i++) out.push(`${token.slice(0, i)}_${token.slice(i)}`);
  return out;
}

/** A query's terms with their weights (repeats summed). */
export interface WeightedTerms {
  terms: string[];
  weights: number[];
}

/**
 * Whether a query is a question ("where is the store opened?", "how are results ranked"):
 * its participles then name the action asked about, as a description's verbs do.
 */
export function isQuestion(query: string): boolean {
  const q = query.trim().toLowerCase();
  return q.endsWith("?") ||
    /^(where|how|what|which|who|why|when|does|do|did|is|are|was|were|can|should)\b/.test(q);
}

/**
 * The query's tokens with the variants `known` accepts added at {@link VARIANT_WEIGHT}
 * (a variant that is itself one of the query's words keeps its own weight); in a question
 * ({@link isQuestion}) the base forms of its `-ing`/`-ed` words weigh as the words.
 *
 * @example
 * ```ts
 * expandQuery(["enable", "bailing"], (t) => lex.termId(t) >= 0);
 * // { terms: ["enable", "bailing", "bail"], weights: [1, 1, 0.5] }
 * ```
 */
export function expandQuery(
  tokens: readonly string[],
  known: (term: string) => boolean,
  query = "",
): WeightedTerms {
  const weight = new Map<string, number>();
  for (const t of tokens) weight.set(t, (weight.get(t) ?? 0) + 1);
  const own = new Set(tokens);
  const question = isQuestion(query);
  for (const t of own) {
    // The same word the stemmer cut short: its full weight.
    const e = restoredE(t);
    if (e !== null && !weight.has(e) && known(e)) weight.set(e, weight.get(t)!);
    for (const v of wordVariants(t)) {
      if (own.has(v) || weight.has(v) || !known(v)) continue;
      weight.set(v, question ? weight.get(t)! : VARIANT_WEIGHT);
    }
  }
  for (const t of own) {
    // Own keys only: a query's `constructor` is no key of the table.
    if (!Object.hasOwn(ABBREVIATIONS, t)) continue;
    for (const v of ABBREVIATIONS[t]) {
      if (own.has(v) || weight.has(v) || !known(v)) continue;
      weight.set(v, VARIANT_WEIGHT);
    }
  }
  if (COMPOUND_WEIGHT > 0) {
    for (const c of compounds(query)) {
      if (weight.has(c) || !known(c)) continue;
      weight.set(c, COMPOUND_WEIGHT);
    }
  }
  // A number the question writes apart (`32-bit`): names keep theirs (`WriteInts32` → 32).
  for (const d of query.match(/(?<![\p{L}_$0-9])[0-9]{2,}/gu) ?? []) {
    if (!weight.has(d) && known(d)) weight.set(d, 1);
  }
  // A word the question writes joined that the code writes split (`gitignore` →
  // `git_ignore`), when the index does not know it as written.
  for (const t of own) {
    if (known(t)) continue;
    for (const v of splitForms(t)) {
      if (!weight.has(v) && known(v)) weight.set(v, VARIANT_WEIGHT);
    }
  }
  return { terms: [...weight.keys()], weights: [...weight.values()] };
}
