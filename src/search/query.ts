/**
 * Stage 0 of a ranked search: the question read once (issue 30). Every later stage —
 * retrieve (`retrieve.ts`), fuse (`fuse.ts`), the second stage (`rerank.ts`), the exact
 * forms (`exact.ts`) and presenting (`present.ts`) — reads this one value instead of
 * splitting the text again: its code-aware tokens, their set, and its exact forms (words as
 * written and folded, numbers, the opening verb and its object, quoted strings, code words).
 * What depends on an index (the variants of its words the index knows, each term's idf) is
 * bound to it where the index is: `retrieve.ts`.
 *
 * @module
 */

import { queryTokens, splitIdentifier, stem, STOP_WORDS } from "../util/tokens.ts";
import { ABBREVIATIONS, splitForms } from "./variants.ts";

/** A question, analysed. Plain data: it crosses to a search worker as it is. */
export interface AnalysedQuery {
  /** The question as written. */
  text: string;
  /** Its code-aware tokens, in order (`util/tokens.ts` `queryTokens`). */
  tokens: readonly string[];
  /** The same tokens as a set: the terms every stage counts. */
  terms: ReadonlySet<string>;
  /** Its exact forms (`exact.ts` counts them on candidates). */
  forms: QueryForms;
}

/**
 * Reads a question once, for every stage of a ranked search.
 *
 * @example
 * ```ts
 * const q = analyseQuery("parses the input uint16");
 * q.tokens; // ["parse", "input", "uint16", "uint", "16"] (folded, stop words dropped)
 * q.forms.numbers; // Set {"16"}
 * q.forms.first; // "parse": the opening verb; q.forms.rest: ["input", "uint"], its object
 * ```
 */
export function analyseQuery(text: string): AnalysedQuery {
  const tokens = queryTokens(text);
  return { text, tokens, terms: new Set(tokens), forms: queryForms(text) };
}

/** A question's words as written and folded, its numbers, its quoted strings. */
export interface QueryForms {
  /** Words as written (lower case), their short forms, and neighbouring words joined. */
  exact: ReadonlySet<string>;
  /** The same, folded (plural cut). */
  folded: ReadonlySet<string>;
  /** Digit runs the question writes (`32` of `32-bit`, `16` of `uint16`). */
  numbers: ReadonlySet<string>;
  /**
   * The opening verb (folded; null when the question starts with a function word) and the
   * folded words past it (the sentence's object).
   */
  first: string | null;
  rest: readonly string[];
  /** Quoted strings (at least 3 characters). */
  quoted: readonly string[];
  /**
   * Words written as code: a dot file, a path, snake_case or camelCase (outside quotes),
   * each with the forms it is found in (a dot file's name also bare and split:
   * `.gitignore` → `gitignore`, `git_ignore`, …).
   */
  code: readonly (readonly string[])[];
  /**
   * Names the question says the answer refers to (as written, the last part of a dotted
   * one): "shortcut to LinearRegression", "same as Decode", "wrapper around os.Getenv",
   * "calls Close" — the answer is the code that calls or stands for them, not they; and a
   * function's name written as code after a preposition ("Helper for check_planarity",
   * "returned by Sum()"; `relation`).
   */
  referred: readonly Referred[];
  /**
   * One-letter words the question writes (not `a`, `I`, nor `e.g.`/`i.e.`): the parameters
   * a doc sentence names ("sets h = 2 f f", "x : float New value"), which the index's words
   * (two letters or more) never hold.
   */
  letters: ReadonlySet<string>;
}

const QUOTED = /"([^"\n]{3,})"|'([^'\n]{3,})'|`([^`\n]{3,})`/g;

/**
 * A question's exact forms.
 *
 * @example
 * ```ts
 * const f = queryForms("writes an array of 32-bit integers");
 * f.numbers; // Set {"32"}
 * f.exact.has("ints"); // true: the short form of `integers`, plural as written
 * ```
 */
export function queryForms(query: string): QueryForms {
  const exact = new Set<string>(), folded = new Set<string>(), numbers = new Set<string>();
  const content: string[] = [];
  const words = query.match(/[\p{L}\p{N}_$]+/gu) ?? [];
  // The opening verb: the question's first word, when it is no function word ("returns",
  // "the") — "Removes …", "Converts …" as doc sentences start once the name is dropped.
  const opening = (words[0] ?? "").toLowerCase();
  const verb = /^[a-z]{3,}$/.test(opening) && !STOP_WORDS.has(opening) ? stem(opening) : null;
  const add = (w: string) => {
    exact.add(w);
    folded.add(stem(w));
  };
  const lower: string[] = [];
  for (const raw of words) {
    for (const d of raw.match(/[0-9]+/g) ?? []) numbers.add(d);
    const parts = splitIdentifier(raw);
    const whole = raw.toLowerCase().replace(/^[_$]+|[_$]+$/g, "");
    add(whole);
    lower.push(whole);
    for (const p of parts) {
      add(p);
      const base = stem(p);
      const plural = base !== p;
      if (Object.hasOwn(ABBREVIATIONS, base)) {
        for (const a of ABBREVIATIONS[base]) {
          folded.add(a);
          exact.add(plural ? `${a}s` : a);
        }
      }
      if (p.length > 1 && !STOP_WORDS.has(p) && !/^[0-9]+$/.test(p)) content.push(base);
    }
  }
  // Two neighbouring words written as one name (`git ignore` for `gitignore`).
  for (let i = 0; i + 1 < lower.length; i++) add(lower[i] + lower[i + 1]);
  const quoted: string[] = [];
  for (const m of query.matchAll(QUOTED)) quoted.push(m[1] ?? m[2] ?? m[3]);
  const code = new Map<string, string[]>();
  for (const m of query.replace(QUOTED, " ").matchAll(/[\w$./-]+/g)) {
    const w = m[0].replace(/^[/-]+|[./-]+$/g, "");
    if (w.length < 4 || !CODE_WORD.test(w) || code.has(w)) continue;
    const bare = w.startsWith(".") ? w.slice(1).toLowerCase() : "";
    code.set(w, bare ? [w, bare, ...splitForms(bare)] : [w]);
  }
  const referred: Referred[] = [];
  const refer = (m: RegExpMatchArray, relation: boolean) => {
    const dotted = m[1].replace(/[.]+$/, "");
    const dot = dotted.lastIndexOf(".");
    const name = dotted.slice(dot + 1);
    if (name.length < 3 || STOP_WORDS.has(name.toLowerCase())) return;
    const end = m.index! + m[0].length;
    const called = query.startsWith("()", end);
    // After a preposition, only a function's name written as code (`by update_cookies()`, `from
    // queryTransport`): not a word ("a value from the cache"), not a type ("the capacity of the
    // ArrayVec" asks for its member), not a module's member (`sys.exc_info()`).
    if (relation && (dot >= 0 || !(called || FUNCTION_NAME.test(name)))) return;
    if (referred.some((r) => r.name === name)) return;
    const owner = dot > 0 ? dotted.slice(dotted.lastIndexOf(".", dot - 1) + 1, dot) : null;
    const signature = query[end] === "(" && end + 1 < query.length && query[end + 1] !== ")";
    const by = relation && /^by\s/i.test(m[0]);
    referred.push({ name, owner, signature, relation, ...(by ? { by } : {}) });
  };
  for (const m of query.matchAll(REFERRING)) refer(m, false);
  for (const m of query.matchAll(RELATION)) refer(m, true);
  const letters = new Set<string>();
  for (const m of query.replace(/\b(?:e\.g|i\.e)\b\.?/gi, " ").matchAll(LETTER)) {
    if (m[0] !== "a" && m[0] !== "A" && m[0] !== "I") letters.add(m[0]);
  }
  return {
    exact,
    folded,
    numbers,
    first: verb,
    rest: verb === null ? [] : [...new Set(content.filter((w) => w !== verb))],
    quoted,
    code: [...code.values()],
    referred,
    letters,
  };
}

/** A word of one letter, not part of a dotted name. */
const LETTER = /(?<![\p{L}\p{N}_$.])\p{L}(?![\p{L}\p{N}_$]|\.[\p{L}_$])/gu;

/** A name a question says its answer calls or stands for. */
export interface Referred {
  /** As written, its last part (`cpu_count` of `os.cpu_count`). */
  name: string;
  /** The part before it (`os`), null when written alone. */
  owner: string | null;
  /** Written with a parameter list (`parseDouble(char[])`): one overload of several. */
  signature: boolean;
  /**
   * Found after a preposition, written as code ("returned by Sum()", "the results from
   * queryTransport", "Used by camelCase"), not after a phrase that says so ("same as").
   */
  relation: boolean;
  /**
   * Written after "by" ("Used by camelCase as callback", "grouped by normalizeSiblings"): the
   * name uses the answer, not the other way round. Absent otherwise.
   */
  by?: boolean;
}

/** A phrase that names what the answer calls or stands for, and the name after it. */
const REFERRING =
  /\b(?:same as|equivalent (?:to|of)|shortcut (?:to|for)|short-?hand (?:to|for)|alias (?:for|of|to)|wrapper (?:around|for|of)|wraps|delegates to|calls|convenience (?:method|function|wrapper) for(?: calling)?)\s+(?:the |a |an )?([A-Za-z_$][\w$.]*)/gi;

/**
 * A preposition and the name after it: a doc sentence drops its own name, so a name it writes
 * after "by", "from", "to", "through"… is what the answer works with (`query.ts` keeps it only
 * when written as code).
 */
const RELATION =
  /\b(?:by|from|to|through|via|than|after|before|into|around|over|of|on|for|with|using)\s+(?:the |a |an )?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)/gi;

/** snake_case or lowerCamelCase: how a function is named where types are capitalised. */
const FUNCTION_NAME = /^_*[a-z][a-z0-9]*(?:_+[a-z0-9]+)+_*$|^[a-z][a-z0-9]*[A-Z]/;

/** A dot file (`.fdignore`), a path or dotted name, snake_case, or a camelCase hump. */
const CODE_WORD = /^\.[A-Za-z]|[A-Za-z0-9][_./][A-Za-z0-9]|[a-z][A-Z]/;
