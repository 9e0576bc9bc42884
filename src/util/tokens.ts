/**
 * Code-aware tokens, shared by the lexical index, the query side and the embedders: every
 * identifier is split at camelCase humps, `_`, digits and dots (by `splitIdentifier`), the
 * whole identifier is kept too, everything is lower-cased, English stop words and
 * ubiquitous keywords are dropped, and parts get a light plural stemmer.
 *
 * The per-file term statistics in the store are made with these rules: a change here must
 * bump `STORE_FORMAT` (`src/store/kv.ts`) so that indexes are rebuilt.
 *
 * @module
 */

/**
 * Splits an identifier into lower-case parts at camelCase humps, `_`, `-`, `.`, `:`, `/`,
 * spaces and digit boundaries.
 *
 * @example
 * ```ts
 * splitIdentifier("parseHTTPResponse_v2"); // ["parse", "http", "response", "v", "2"]
 * ```
 */
export function splitIdentifier(name: string): string[] {
  const out: string[] = [];
  if (!splitAscii(name, out)) {
    out.length = 0;
    for (const m of name.matchAll(SPLIT)) out.push(m[0].toLowerCase());
  }
  return out;
}

/** The parts of an identifier: upper-case runs, words, digit runs, non-ASCII runs. */
const SPLIT = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\p{ASCII}]+/gu;

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * {@link SPLIT} by character codes for an ASCII name; false (and `out` partly filled) at the
 * first non-ASCII character, which the regular expression then handles.
 */
function splitAscii(name: string, out: string[]): boolean {
  const n = name.length;
  let i = 0;
  while (i < n) {
    const c = name.charCodeAt(i);
    if (c > 127) return false;
    let j = i + 1;
    if (isUpper(c)) {
      while (j < n && isUpper(name.charCodeAt(j))) j++;
      if (j < n && isLower(name.charCodeAt(j))) {
        // `HTTPResponse`: the run but its last letter, which starts the next word.
        if (j - i > 1) {
          out.push(name.slice(i, j - 1).toLowerCase());
          i = j - 1;
        }
        j = i + 1;
        while (j < n && isLower(name.charCodeAt(j))) j++;
      }
      out.push(name.slice(i, j).toLowerCase());
    } else if (isLower(c)) {
      while (j < n && isLower(name.charCodeAt(j))) j++;
      out.push(name.slice(i, j));
    } else if (isDigit(c)) {
      while (j < n && isDigit(name.charCodeAt(j))) j++;
      out.push(name.slice(i, j));
    }
    i = j;
  }
  return true;
}

/** Identifiers (letters, digits, `_`, `$`; not starting with a digit). */
const IDENT = /[\p{L}_$][\p{L}\p{N}_$]*/gu;

/**
 * Words that carry no meaning for retrieval: English function words and the keywords that
 * occur in nearly every chunk (they would only make posting lists long).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been being but by can could did do does doing done for from had " +
    "has have having he her here hers him his how i if in into is it its itself just me more " +
    "most my no nor not now of off on once only or other our out over own same she should so " +
    "some such than that the their them then there these they this those through to too under " +
    "until up very was we were what when where which while who whom why will with would you " +
    "your yours also any each via per e g eg ie etc given using used use uses " +
    "return returns self def function const let var none null nil true false elif else end " +
    "pass fn func"
  ).split(" "),
);

/**
 * Light stemmer for English plurals (Harman's S-stemmer), applied to identifier parts so
 * `files` meets `file` and `entries` meets `entry`.
 *
 * @example
 * ```ts
 * stem("entries"); // "entry"
 * stem("class");   // "class"
 * ```
 */
export function stem(word: string): string {
  const n = word.length;
  if (n < 4 || word.charCodeAt(n - 1) !== 115 /* s */) return word;
  if (word.endsWith("ies") && !word.endsWith("eies") && !word.endsWith("aies")) {
    return word.slice(0, -3) + "y";
  }
  if (word.endsWith("es") && !/(?:aes|ees|oes)$/.test(word)) {
    // `classes` → `class`, `boxes` → `box`, `buzzes` → `buzz`; but `sizes` → `size`,
    // `initializes` → `initialize` (a single `z` keeps its `e`).
    if (/(?:sses|xes|ches|shes|zzes)$/.test(word)) return word.slice(0, -2);
    return word.slice(0, -1);
  }
  if (word.endsWith("ss") || word.endsWith("us") || word.endsWith("is")) return word;
  return word.slice(0, -1);
}

/** Cache of identifier → tokens, per call site (identifiers repeat a lot within a file). */
export type TokenCache = Map<string, readonly string[]>;

/** The tokens of one identifier: its parts (stemmed) and, when it has several, the whole. */
export function identifierTokens(word: string): string[] {
  const out: string[] = [];
  const parts = splitIdentifier(word);
  if (parts.length > 1) {
    const whole = word.toLowerCase().replace(/^[_$]+|[_$]+$/g, "");
    if (whole.length > 1 && !STOP_WORDS.has(whole)) out.push(whole);
  }
  for (const p of parts) {
    if (p.length < 2 || STOP_WORDS.has(p)) continue;
    out.push(stem(p));
  }
  return out;
}

/**
 * Appends the code-aware tokens of `text` to `out` (and returns it).
 *
 * @example
 * ```ts
 * codeTokens("def parse_config(path): return yaml.safeLoad(path)");
 * // ["parse_config", "parse", "config", "path", "yaml", "safeload", "safe", "load", "path"]
 * ```
 */
export function codeTokens(text: string, out: string[] = [], cache?: TokenCache): string[] {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128 && IDENT_START[c] === 0) {
      // Neither an identifier nor the start of one (a digit: `2fa` gives `fa`, as IDENT).
      i++;
      continue;
    }
    let j = i + (c < 128 ? 1 : 0);
    while (j < n) {
      const d = text.charCodeAt(j);
      if (d > 127) break;
      if (IDENT_PART[d] === 0) break;
      j++;
    }
    if (j === n || text.charCodeAt(j) < 128) {
      pushTokens(text.slice(i, j), out, cache);
      i = j;
      continue;
    }
    // Non-ASCII: up to the next ASCII character that no identifier holds, the regular
    // expression decides (it knows Unicode letters and numbers); no match crosses that.
    let end = j + 1;
    while (end < n) {
      const d = text.charCodeAt(end);
      if (d < 128 && IDENT_PART[d] === 0) break;
      end++;
    }
    for (const m of text.slice(i, end).matchAll(IDENT)) pushTokens(m[0], out, cache);
    i = end;
  }
  return out;
}

function pushTokens(word: string, out: string[], cache?: TokenCache): void {
  let toks = cache?.get(word);
  if (!toks) {
    toks = identifierTokens(word);
    cache?.set(word, toks);
  }
  for (const t of toks) out.push(t);
}

/** Letters, `_` and `$` by character code: an identifier may start with one. */
const IDENT_START = new Uint8Array(128);
/** …and digits: an identifier continues with one. */
const IDENT_PART = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const start = isUpper(c) || isLower(c) || c === 95 /* _ */ || c === 36; /* $ */
  IDENT_START[c] = start ? 1 : 0;
  IDENT_PART[c] = start || isDigit(c) ? 1 : 0;
}

/** The tokens of a query (code or plain words), in order, repeats kept. */
export function queryTokens(query: string): string[] {
  return codeTokens(query);
}
