/**
 * The exact forms of a question, and the stage that counts them (issue 30): the index and
 * the first stages fold words (`writes` = `write`, `dates` = `date`) and drop the numbers a
 * question writes apart (`32-bit`), so siblings that differ by one token (`WriteInts32`,
 * `WriteInt32`, `WriteInts64`) score alike. After fusion and the second stage, each of the
 * fused list's candidates gets evidence read from its own name, signature and text:
 *
 * - **form**: how much of its qualified name the question holds as written — a part the
 *   question writes as is (or the short form of it, plural as the question's word is,
 *   `integers` → `ints`; or two parts the question writes joined, `gitignore` for
 *   `git_ignore`) counts 1, a part met only once folded (`compares` for `compare`) 0, a
 *   part the question does not hold −½ (the share of the name's parts, shared over at least
 *   **short** parts: a one-word name such as `New` is weak evidence of a sentence's one word);
 * - **number**: +1 when a number the question writes is in the name, −1 when the name holds
 *   numbers and none of the question's;
 * - **object**: the question's words past its opening verb ("removes *the given listener*")
 *   in the name or the parameters (idf-weighted share), against a name that holds the verb
 *   alone;
 * - **literal**: a string the question quotes (`"github.com/acme/render"`) in its text;
 * - **code**: the share of the words it writes as code (`.fdignore`, `parse_args`, `net/http`)
 *   that its text holds as written (a dot file's name also bare or split: `git_ignore`);
 * - **action**: a question that opens with a verb ("Cancel a running job") asks for code that
 *   does it: an interface or type alias among the candidates (the SDK's
 *   `FineTuneCreateParams` beside `FineTuneResource.cancel`) loses, the code does not;
 * - **declared**: an interface that declares methods (Go's `LogSink`, a TypeScript interface)
 *   is where a method's contract and its doc live: its candidate is judged by the best of its
 *   own name and its declared methods' (form, number, object over the name and parameters), and
 *   the action penalty does not apply to it — the question "returns a new LogSink with the
 *   name appended" is answered by `LogSink.WithName`, not lost to `discardLogSink.WithName`;
 * - **owner**: +1 when the question writes a member's owner as is, whole (`LogSink` of
 *   `LogSink.Enabled`; `discardLogSink.Enabled`'s owner is not written). Off (0): it helped
 *   Go and cost Python and JavaScript, and the folds over all six languages chose it nowhere.
 * - **contract**: an interface whose declared method (the one the question matches best, its
 *   words in the question) is defined by a candidate ranked above it — an implementation
 *   (`discardLogSink.WithName` for `LogSink.WithName`) — ranks just above that candidate: the
 *   declaration is the method's contract, where its doc is. Its weight is how far above, on
 *   the logit scale.
 * - **refers**: a question that names what its answer calls or stands for ("shortcut to
 *   LinearRegression", "same as Decode", "an alias of Long.divide", "wrapper around
 *   os.Getenv"; `query.ts` `referred`) prefers a candidate whose text holds that name as a
 *   word (through the owner it is written with, or this, self, super: `tqdm.gui.tqdm` is not
 *   every call of another `tqdm`; a name most candidates hold counts for none); and, with
 *   **referred**, the candidate named after it (`LinearRegression` itself) gets no evidence
 *   for its name being written — unless the question writes a parameter list
 *   (`parseDouble(char[])`: one overload of several, all named so). With **relation**, a
 *   function's name written as code after a preposition counts so too ("Helper for
 *   check_planarity", "the results from queryTransport", "returned by Sum()"): a doc sentence
 *   drops its own name, so the name it writes is what the answer works with. With **reverse**,
 *   a name written after "by" points the other way ("Used by camelCase as callback to
 *   replace()"): the candidate that code uses (`fcamelCase`, which `camelCase` passes to
 *   `replace`) gains `refers`, not the code that calls it;
 * - **holder**: a class, struct, enum or trait whose own member is a candidate too loses this
 *   much — the member is the code a question describes (`JSONEncoder.encode`, not the class
 *   `JSONEncoder`, for "Return a JSON string representation of a Python data structure").
 * - **keywords**: a name's part that is a code word (`func` of `AddFunc`, `nil` of `IsNil`,
 *   `function` of `isFunction`) counts when the question writes it and not at all when it does
 *   not — the question's tokens drop such words, and the form evidence dropped them too;
 * - **letters**: the share of the question's one-letter words that are the candidate's
 *   parameters' names ("sets h = 2 f f" is `feSquare2(h, f)`'s, "returns 1 if b == c" is
 *   `equal(b, c)`'s): a doc sentence names the parameters, and no word of the index or of the
 *   question's tokens is one letter long;
 * - **creates**: a question that opens with a creating verb ("Create a new TagContext",
 *   "Constructs a new JSONObject") asks for the constructor of the type it names: such a
 *   constructor (`TagContext.__init__`, `Uuid.new`, `JSONObject.JSONObject`) counts 1, in a
 *   candidate's score and in member pointing (a small class is one chunk: `change_tags` of
 *   `TagContext` matches "tag" as well as `__init__` does);
 * - **ctor**: a constructor named after its owner (Java's `PortListener.PortListener`) is
 *   judged as `PortListener.new` is — its owner's name once and a constructor's part: named
 *   twice, it held every part of any question that writes the type ("Starts this
 *   PortListener", "Stops this PortListener") and led the type's methods;
 * - **pointed**: a candidate named after what the question says its answer works with
 *   (`refers`, `relation`: "returned by Sum()", "previously added with setOpaque", "the results
 *   from queryTransport") loses this much besides its name's evidence, and member pointing does
 *   not land on a member named so (`queryTransport` nested in `Logger.query` beside the
 *   `addResults` that is asked for);
 * - **compound**: a name's part that is the question's words written as one (`isoparse` for
 *   "Parse an ISO-8601 string", `maxsize` for "the maximum size", `valuestodict` for "values
 *   to a dictionary") counts as written, not as a part the question does not hold.
 *
 * Each is added, weighted ({@link ExactWeights}), to the candidate's score on the logit scale
 * (a score stays in [0, 1]); member pointing (`members.ts`) adds the form and number
 * evidence of each member's name too. The weights are chosen by leave-packages-out folds
 * over `bench/search_breadth.ts`'s cv packages (`--grid`); the stage runs in every ranked
 * mode, on the main thread, after a search worker's fusion.
 *
 * @module
 */

import { chunkSymbol, type ChunkTable } from "./table.ts";
import { slot } from "../util/memo.ts";
import { splitIdentifier, stem, STOP_WORDS } from "../util/tokens.ts";
import type { QueryForms, Referred } from "./query.ts";
import { topEntries } from "./top_k.ts";

/** The weight of each kind of evidence (0: not counted). */
export interface ExactWeights {
  form: number;
  number: number;
  object: number;
  literal: number;
  /** Form and number evidence in member pointing (`members.ts`), on the cosine's scale. */
  member: number;
  /**
   * The share of the question's code-like words (`.fdignore`, `git_ignore`, `parseArgs`,
   * `net/http`) that a candidate's text holds as written.
   */
  code: number;
  /**
   * A question that opens with a verb ("Cancel a running job", "Upload a file") asks for
   * code that does it: a type-only declaration among its candidates (an interface, a type
   * alias: `FineTuneCreateParams` beside `FineTunes.cancel`) loses this much.
   */
  action: number;
  /**
   * 1: an interface that declares methods is judged by the best of its name and its methods'
   * (and escapes `action`); 0: by its own name alone.
   */
  declared: number;
  /**
   * A member whose owner the question writes as is, whole ("tests whether this LogSink is
   * enabled": `LogSink.Enabled`, not `discardLogSink.Enabled`).
   */
  owner: number;
  /**
   * A method an interface declares ranks with its implementations: when a candidate ranked
   * above the interface defines a method of the same name (`discardSink.WithName` beside
   * `Sink`'s `WithName`) and the question holds that name's words (form evidence ≥ 0), the
   * interface takes that candidate's score, this much above it on the logit scale (0: off).
   */
  contract: number;
  /**
   * A question that names what its answer calls or stands for ("shortcut to
   * StandardDeviationSample", "same as Decode", "wrapper around os.Getenv"): a candidate whose
   * text holds that name as written, and is not named after it, gains this much.
   */
  refers: number;
  /**
   * 1: the candidate named after such a name gets no evidence for its name, nor for holding
   * the code words (its name written is the question pointing at what the answer uses).
   */
  referred: number;
  /**
   * 1: a name written as code after a preposition ("returned by Sum()", "the results from
   * queryTransport", `query.ts` `relation`) counts as one the answer refers to (refers and
   * referred above); 0: only names after a phrase that says so ("same as", "shortcut to").
   */
  relation: number;
  /**
   * 1: a name written after "by" points the other way — the candidate that the definition
   * named so uses ("Used by camelCase as callback": `fcamelCase`, which `camelCase` passes to
   * `replace`) gains `refers`, not the code whose text holds the name; 0: the code whose text
   * holds it, as after any other preposition.
   */
  reverse: number;
  /**
   * A class, struct, enum or trait among the candidates loses this much when one of its own
   * members is a candidate too: the member is the code the question describes (`JSONEncoder`
   * beside `JSONEncoder.encode` for "Return a JSON string representation of a Python data
   * structure"), and what a class says of itself is read through its members.
   */
  holder: number;
  /**
   * 1: a name's part that is a code word (`func` of `AddFunc`, `nil` of `IsNil`, `function` of
   * `isFunction`) counts as written when the question writes it ("adds a func to the Cron"),
   * and not at all when it does not; 0: such parts are left out of the form evidence, as the
   * question's tokens leave them out.
   */
  keywords: number;
  /**
   * The share of the question's one-letter words ("sets h = 2 f f", "x : float New value")
   * that are the candidate's parameters' names: a doc sentence names the parameters, and no
   * word of the index is one letter long.
   */
  letters: number;
  /**
   * The fewest parts a function's name's form evidence is shared over: above 1, a one-word
   * function (`New`) gets less than the whole credit for its one word written ("returns a new
   * Logger with the name appended" is `Logger.WithName`'s, not `New`'s); 1, the whole. A
   * type's name keeps the whole credit (a small class is one chunk with its members).
   */
  short: number;
  /**
   * A question that opens with a creating verb ("Create a new TagContext", "Constructs a
   * JSONObject", "Creates a new `Uuid`") asks for the constructor of the type it names: a
   * constructor (`__init__`, `constructor`, Rust's `new`, Java's own-named one) whose owner's
   * name the question writes gains this much (in member pointing too, on the cosine's scale).
   */
  creates: number;
  /**
   * 1: a constructor named after its owner (Java's `PortListener.PortListener`) is judged as
   * the constructors of other languages are (`PortListener.new`, `__init__`): its owner's name
   * once and a constructor's part — not the owner's name twice, which any question writing the
   * type's name ("Starts this PortListener") matched whole; 0: by its name as written.
   */
  ctor: number;
  /**
   * A candidate named after what the question says its answer works with ("returned by
   * Sum()", "previously added with setOpaque", `referred`) loses this much on the logit scale,
   * and member pointing does not land on a member named so (0: it only loses its name's
   * evidence).
   */
  pointed: number;
  /**
   * What a name's part written as one word of the question's words counts (`isoparse` for
   * "Parse an ISO-8601 string", `utcnow` for "now in UTC", `tempfile` for "a temporary
   * file"): 1 as a part written; 0 not at all, −½ as any part the question does not hold.
   */
  compound: number;
}

/** Chosen by leave-packages-out folds on `bench/search_breadth.ts`'s packages. */
export const DEFAULT_EXACT: ExactWeights = {
  form: 1,
  number: 1,
  object: 1,
  literal: 3,
  member: 0.1,
  code: 1,
  action: 1,
  declared: 1,
  owner: 0,
  contract: 0.5,
  refers: 2,
  referred: 1,
  relation: 1,
  holder: 4,
  reverse: 1,
  letters: 1,
  keywords: 1,
  short: 1.5,
  creates: 1,
  ctor: 1,
  pointed: 1,
  compound: 1,
};

/**
 * A constructor named after its owner (`a.PortListener.PortListener`) as the constructors of
 * other languages are named (`a.PortListener.new`); other names as they are.
 */
function asConstructor(name: string): string {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return name;
  const last = name.slice(dot + 1);
  const before = name.lastIndexOf(".", dot - 1);
  return name.slice(before + 1, dot) === last ? `${name.slice(0, dot)}.new` : name;
}

/** Opening verbs (folded) of a question that asks for a constructor. */
const CREATING = new Set(["create", "construct", "instantiate", "initialize", "initialise"]);

/** The names a constructor has (its owner's own name too: Java, C#). */
const CONSTRUCTOR_NAMES = new Set(["__init__", "__new__", "constructor", "new"]);

/**
 * 1 when the question opens with a creating verb and `name` is a constructor of a type whose
 * name the question writes (every part of it, as written or folded), else 0.
 */
export function createsEvidence(f: QueryForms, name: string): number {
  if (f.first === null || !CREATING.has(f.first)) return 0;
  const parts = name.split(/\.|::/);
  if (parts.length < 2) return 0;
  const last = parts[parts.length - 1], owner = parts[parts.length - 2];
  if (!CONSTRUCTOR_NAMES.has(last) && last !== owner) return 0;
  const words = splitIdentifier(owner);
  return words.length > 0 && words.every((p) => f.exact.has(p) || f.folded.has(stem(p))) ? 1 : 0;
}

/** Kinds that declare a shape and run nothing. */
const TYPE_ONLY = new Set(["interface", "type"]);
/** Kinds that hold the code of their members. */
const HOLDERS = new Set(["class", "struct", "enum", "trait"]);

/** A row's parameters: their words (folded) and their one-letter names (as written). */
interface Params {
  words: ReadonlySet<string>;
  letters: ReadonlySet<string>;
}

/** Each row's parameters, read from its symbol when first a candidate. */
const PARAMS = slot("param words", (_: ChunkTable) => new Map<number, Params>());

function paramsOf(table: ChunkTable, row: number): Params {
  const held = table.memo.get(PARAMS);
  let params = held.get(row);
  if (!params) {
    const sig = chunkSymbol(table, row)?.signature ?? "";
    params = { words: signatureWords(sig), letters: signatureLetters(sig) };
    held.set(row, params);
  }
  return params;
}

/** The one-letter names of a signature past its first parenthesis (`h`, `f` of `feMul(h, f *T)`). */
function signatureLetters(sig: string): ReadonlySet<string> {
  const open = sig.indexOf("(");
  if (open < 0) return new Set();
  return new Set(sig.slice(open + 1).match(ONE_LETTER) ?? []);
}

const ONE_LETTER = /(?<![\p{L}\p{N}_$.])\p{L}(?![\p{L}\p{N}_$])/gu;

/** The share of the question's one-letter words that are a row's parameters' names. */
export function letterEvidence(f: QueryForms, letters: ReadonlySet<string>): number {
  if (f.letters.size === 0 || letters.size === 0) return 0;
  let hit = 0;
  for (const l of f.letters) if (letters.has(l)) hit++;
  return hit / f.letters.size;
}

/** A member a type-only row declares: its qualified name and parameter words (folded). */
interface Declared {
  name: string;
  params: ReadonlySet<string>;
}

/** Each type-only row's declared methods, read from its file's symbols when first a candidate. */
const DECLARED = slot("declared methods", (_: ChunkTable) => new Map<number, Declared[]>());

function declaredMethods(table: ChunkTable, row: number): Declared[] {
  const held = table.memo.get(DECLARED);
  let out = held.get(row);
  if (!out) {
    const c = table.chunks[row];
    out = [];
    for (const s of table.index.symbolsByFile.get(c.file) ?? []) {
      if (s.kind !== "method" || s.startLine < c.startLine || s.endLine > c.endLine) continue;
      out.push({ name: s.qualifiedName, params: signatureWords(s.signature ?? "") });
    }
    held.set(row, out);
  }
  return out;
}

/** The folded words of a signature's parameters (past its first parenthesis). */
function signatureWords(sig: string): ReadonlySet<string> {
  const open = sig.indexOf("(");
  if (open < 0) return new Set();
  // Split here, not through the names' kept parts: a row's words are kept with the row.
  return new Set(splitIdentifier(sig.slice(open + 1)).filter((p) => !STOP_WORDS.has(p)).map(stem));
}

/** How many of the fused list's best rows the stage reads. */
export const EXACT_ROWS = 40;

/** A name's parts, lower case, digits kept (`WriteInts32` → write, ints, 32). */
function nameParts(name: string): readonly string[] {
  let parts = NAME_PARTS.get(name);
  if (!parts) {
    parts = splitIdentifier(name).filter((p) => !STOP_WORDS.has(p) || CODE_KEYWORDS.has(p));
    if (NAME_PARTS.size >= NAME_PARTS_KEPT) NAME_PARTS.clear();
    NAME_PARTS.set(name, parts);
  }
  return parts;
}

/** A name's parts folded (`stem`), in order and as a set: made once per kept parts. */
interface Folded {
  stems: readonly string[];
  set: ReadonlySet<string>;
}

const FOLDED = new WeakMap<readonly string[], Folded>();

function foldedParts(parts: readonly string[]): Folded {
  let folded = FOLDED.get(parts);
  if (!folded) {
    const stems = parts.map(stem);
    FOLDED.set(parts, folded = { stems, set: new Set(stems) });
  }
  return folded;
}

/**
 * Names' parts, kept across questions: the candidates' and members' names repeat (the index's
 * popular rows), and splitting one, then hashing each new part against the stop words, cost
 * more than the evidence read from it. Emptied when full.
 */
const NAME_PARTS = new Map<string, readonly string[]>();
const NAME_PARTS_KEPT = 20_000;

/**
 * Stop words that are code words too: dropped from a question's tokens (every Go body says
 * `func`), but a name's part all the same (`AddFunc`, `IsNil`, `isFunction`, `OrElse`).
 */
const CODE_KEYWORDS: ReadonlySet<string> = new Set(
  "self def function const let var none null nil true false elif else end pass fn func".split(" "),
);

/**
 * How much of a name the question holds as written, in [−½, 1]: per part, 1 written as is,
 * 0 met only folded (`compares` for `compare`, `uints` for `uint`), −½ not in the question.
 */
export function formEvidence(
  f: QueryForms,
  name: string,
  minParts = 1,
  keywords = DEFAULT_EXACT.keywords,
  compound = DEFAULT_EXACT.compound,
): number {
  return formOfParts(f, nameParts(name), minParts, keywords, compound);
}

/**
 * {@link formEvidence} of a name's {@link nameParts}. With `keywords`, a part that is a code
 * word ({@link CODE_KEYWORDS}) counts 1 when the question writes it and not at all otherwise
 * (it says little of a name the question does not describe); without, it is left out.
 */
function formOfParts(
  f: QueryForms,
  all: readonly string[],
  minParts: number,
  keywords: number,
  compound = DEFAULT_EXACT.compound,
): number {
  const parts = keywords || !all.some((p) => CODE_KEYWORDS.has(p))
    ? all
    : all.filter((p) => !CODE_KEYWORDS.has(p));
  if (parts.length === 0) return 0;
  // The kept parts' folded forms are made once (`parts` is `all` unless keywords are left out).
  const stems = parts === all ? foldedParts(all).stems : null;
  const score: number[] = parts.map((p, i) =>
    f.exact.has(p)
      ? 1
      : CODE_KEYWORDS.has(p)
      ? NaN
      : f.folded.has(stems ? stems[i] : stem(p))
      ? 0
      : compound && isCompound(f, p)
      ? compound
      : -0.5
  );
  // Two parts the question writes joined (`gitignore` for `git_ignore`): joined only when the
  // question has a word of that length (a joined string is made and hashed for nothing else);
  // a code word only written alone (`touchend` is no `onTouchEnd`).
  const lengths = wordLengths(f.exact);
  for (let i = 0; i + 1 < parts.length; i++) {
    if (!lengths.has(parts[i].length + parts[i + 1].length)) continue;
    if (CODE_KEYWORDS.has(parts[i]) || CODE_KEYWORDS.has(parts[i + 1])) continue;
    if (f.exact.has(parts[i] + parts[i + 1])) score[i] = score[i + 1] = 1;
  }
  let sum = 0, counted = 0;
  for (const x of score) {
    if (Number.isNaN(x)) continue;
    sum += x;
    counted++;
  }
  return counted === 0 ? 0 : sum / Math.max(counted, minParts);
}

/**
 * Whether a name's part (`isoparse`, `utcnow`, `valuestodict`) is the question's words written
 * as one: two pieces or more, each a word the question writes (as written or its short form;
 * a piece of three letters or more folded too), one of them three letters long or more — not
 * a word's own ending (`wrapper` is no `wrap` and `per` the question does not write).
 */
function isCompound(f: QueryForms, part: string): boolean {
  const n = part.length;
  if (n < 5) return false;
  let memo = COMPOUND.get(f);
  if (!memo) {
    // A piece starts as a word of the question starts (folding keeps a word's first letters).
    const starts = new Set([...f.exact, ...f.folded].map((w) => w.slice(0, 2)));
    COMPOUND.set(f, memo = { starts, parts: new Map() });
  }
  const known = memo.parts.get(part);
  if (known !== undefined) return known;
  // reach[j]: the splits of part[0, j) found — bit 1: one piece or more, 2: two or more, 4:
  // one of them a word of the question.
  const reach = new Uint8Array(n + 1);
  reach[0] = 0x80;
  for (let i = 0; i < n; i++) {
    if (!reach[i] || !memo.starts.has(part.slice(i, i + 2))) continue;
    for (let j = i + 2; j <= n && j - i <= 16; j++) {
      const w = part.slice(i, j);
      const content = w.length >= 3 && (f.exact.has(w) || f.folded.has(stem(w)));
      if (!content && !f.exact.has(w)) continue;
      const from = reach[i];
      const to = 1 | (from & 3 ? 2 : 0) | (from & 4 || content ? 4 : 0);
      reach[j] |= to;
    }
  }
  const out = (reach[n] & 6) === 6;
  memo.parts.set(part, out);
  return out;
}

/** Per question, the first two letters of its words and the parts read by {@link isCompound}. */
const COMPOUND = new WeakMap<
  QueryForms,
  { starts: ReadonlySet<string>; parts: Map<string, boolean> }
>();

/** The lengths of a question's words as written, made once per question. */
const WORD_LENGTHS = new WeakMap<ReadonlySet<string>, ReadonlySet<number>>();

function wordLengths(words: ReadonlySet<string>): ReadonlySet<number> {
  let lengths = WORD_LENGTHS.get(words);
  if (!lengths) WORD_LENGTHS.set(words, lengths = new Set([...words].map((w) => w.length)));
  return lengths;
}

/** +1: the name holds a number of the question; −1: numbers, none of them; else 0. */
export function numberEvidence(f: QueryForms, name: string): number {
  if (f.numbers.size === 0) return 0;
  const own = name.match(/[0-9]+/g);
  if (!own) return 0;
  return own.some((n) => f.numbers.has(n)) ? 1 : -1;
}

/** 1: the question writes the member's owner (its qualified name's head) as is; else 0. */
export function ownerEvidence(f: QueryForms, name: string): number {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return 0;
  const owner = name.slice(name.lastIndexOf(".", dot - 1) + 1, dot).toLowerCase();
  return f.exact.has(owner) ? 1 : 0;
}

/**
 * The share (by `weight`) of the question's words past its first that the name or the
 * parameters hold; −½ when the name holds the first word and none of the others.
 */
export function objectEvidence(
  f: QueryForms,
  name: string,
  inParams: (word: string) => boolean,
  weight: (term: string) => number,
): number {
  if (f.rest.length === 0) return 0;
  return objectOfParts(f, nameParts(name), inParams, weight);
}

/** {@link objectEvidence} of a name's {@link nameParts}. */
function objectOfParts(
  f: QueryForms,
  parts: readonly string[],
  inParams: (word: string) => boolean,
  weight: (term: string) => number,
): number {
  const own = foldedParts(parts).set;
  let hit = 0, all = 0;
  for (const w of f.rest) {
    const x = weight(w) || 1;
    all += x;
    if (own.has(w) || inParams(w)) hit += x;
  }
  if (hit === 0) return f.first !== null && own.has(f.first) ? -0.5 : 0;
  return hit / all;
}

/**
 * Adds each candidate's evidence to its score (logit scale) — the fused list's every
 * candidate, which is what the results are taken from.
 */
export function preferExact(
  table: ChunkTable,
  scored: Map<number, number>,
  f: QueryForms,
  termWeight: (term: string) => number,
  w: ExactWeights = DEFAULT_EXACT,
  /** Rows of prose (docs): a heading is no name, only their text is read. */
  isDocs: (row: number) => boolean = () => false,
): Map<number, number> {
  const out = new Map<number, number>();
  // The best rows only: the results are taken from the head of the list (hybrid's second
  // stage leaves about 30; lexical and dense modes give ~200, whose tail stays as it is).
  const head = scored.size <= EXACT_ROWS
    ? new Set(scored.keys())
    : new Set(topEntries(scored, EXACT_ROWS).map((h) => h.row));
  // Interfaces (rows in the head) and the name of the declared method the question matches.
  const contracts = new Map<number, string>();
  const referred = w.relation ? f.referred : f.referred.filter((r) => !r.relation);
  // A name written after "by" uses the answer: the answer is what its text uses (`reverse`).
  const forward = w.reverse ? referred.filter((r) => !r.by) : referred;
  const holdsReferred = w.refers && forward.length > 0
    ? referredTest(table, head, forward)
    : () => false;
  const usedByReferred = w.refers && w.reverse
    ? userTest(table, head, referred.filter((r) => r.by))
    : () => false;
  for (const [row, s] of scored) {
    const c = table.chunks[row];
    let z = 0;
    if (!head.has(row)) {
      out.set(row, s);
      continue;
    }
    // Named after what the question says its answer refers to.
    let pointedAt = false;
    if (c.symbol !== null && !isDocs(row)) {
      const typeOnly = TYPE_ONLY.has(c.kind ?? "");
      const methods = typeOnly && w.declared ? declaredMethods(table, row) : [];
      if (w.action && f.first !== null && typeOnly && methods.length === 0) z -= w.action;
      if (w.holder && HOLDERS.has(c.kind ?? "")) {
        if (holdsCandidate(table, head, c.symbol)) z -= w.holder;
      }
      // A one-word type (`Date`) holding its members in one chunk keeps the whole credit.
      const short = typeOnly || HOLDERS.has(c.kind ?? "") ? 1 : w.short;
      // The name's parts are split once for the form and the object evidence.
      const nameEvidence = (name: string, params: ReadonlySet<string>) => {
        const object = w.object && f.rest.length > 0;
        const parts = w.form || object ? nameParts(w.ctor ? asConstructor(name) : name) : [];
        return (w.form ? w.form * formOfParts(f, parts, short, w.keywords, w.compound) : 0) +
          (w.number ? w.number * numberEvidence(f, name) : 0) +
          (object ? w.object * objectOfParts(f, parts, (t) => params.has(t), termWeight) : 0) +
          (w.owner ? w.owner * ownerEvidence(f, name) : 0);
      };
      const params = paramsOf(table, row);
      let best = nameEvidence(c.symbol, params.words) +
        (w.letters ? w.letters * letterEvidence(f, params.letters) : 0);
      let contract: Declared | null = null, bestMethod = -Infinity;
      for (const m of methods) {
        const e = nameEvidence(m.name, m.params);
        best = Math.max(best, e);
        if (e > bestMethod) [bestMethod, contract] = [e, m];
      }
      if (w.contract && contract && formEvidence(f, shortName(contract.name), 1, w.keywords) >= 0) {
        contracts.set(row, shortName(contract.name));
      }
      // As written: code is case-sensitive (`getEnv` is no `os.Getenv`).
      pointedAt = referred.length > 0 && isReferred(referred, c.symbol);
      if (!(pointedAt && w.referred)) z += best;
      if (pointedAt && w.pointed) z -= w.pointed;
      if (w.creates) z += w.creates * createsEvidence(f, c.symbol);
      if (w.refers && referred.length > 0 && !pointedAt) {
        if (holdsReferred(c.text) || usedByReferred(c.symbol)) z += w.refers;
      }
    }
    if (
      (w.literal && f.quoted.length > 0) ||
      (w.code && f.code.length > 0 && !(pointedAt && w.referred))
    ) {
      const text = c.text;
      if (w.literal && f.quoted.some((q) => text.includes(q))) z += w.literal;
      if (w.code && f.code.length > 0) {
        const found = f.code.filter((forms) => forms.some((v) => text.includes(v))).length;
        z += w.code * found / f.code.length;
      }
    }
    if (z === 0 || !(s > 0 && s < 1)) {
      out.set(row, s);
      continue;
    }
    out.set(row, 1 / (1 + Math.exp(-(Math.log(s / (1 - s)) + z))));
  }
  if (contracts.size > 0) liftContracts(table, out, head, contracts, w.contract, isDocs);
  return out;
}

/** Whether a row of the head other than the holder's own is one of its members (`Holder.x`). */
function holdsCandidate(table: ChunkTable, head: ReadonlySet<number>, holder: string): boolean {
  const prefix = `${holder}.`;
  for (const row of head) {
    if (table.chunks[row].symbol?.startsWith(prefix)) return true;
  }
  return false;
}

/**
 * Whether a text holds one of the names a question refers its answer to, as a whole word
 * (names are [\w$]+). A name more than half the head's texts hold (the package's own name,
 * `tqdm` in tqdm) tells none of them apart: it is left out.
 */
function referredTest(
  table: ChunkTable,
  head: ReadonlySet<number>,
  referred: readonly Referred[],
): (text: string) => boolean {
  const lit = (s: string) => s.replaceAll("$", "\\$");
  // Written with its owner (`os.cpu_count`, `Long.divide`), the name is held called through
  // it or through this, self or super: `tqdm.gui.tqdm` is not every call of another `tqdm`.
  const word = (r: Referred) =>
    new RegExp(
      (r.owner === null
        ? "(?<![\\w$])"
        : `(?<![\\w$])(?:${lit(r.owner)}|this|self|super\\(\\))\\.`) +
        `${lit(r.name)}(?![\\w$])`,
    );
  const kept = referred.map(word).filter((re) => {
    let n = 0;
    for (const row of head) if (re.test(table.chunks[row].text)) n++;
    return n <= head.size / 2;
  });
  return (text) => kept.some((re) => re.test(text));
}

/**
 * Whether a candidate's name is used in the text of a head row named after a name the question
 * writes after "by" ("Used by camelCase as callback to replace()": `camelCase` passes
 * `fcamelCase` to `replace`) — as a plain name or through this or self, not as another value's
 * member.
 */
function userTest(
  table: ChunkTable,
  head: ReadonlySet<number>,
  referred: readonly Referred[],
): (symbol: string) => boolean {
  if (referred.length === 0) return () => false;
  const texts: string[] = [];
  for (const row of head) {
    const s = table.chunks[row].symbol;
    if (s !== null && isReferred(referred, s)) texts.push(table.chunks[row].text);
  }
  if (texts.length === 0) return () => false;
  return (symbol) => {
    const name = shortName(symbol);
    if (name.length < 3 || STOP_WORDS.has(name.toLowerCase())) return false;
    const lit = name.replaceAll("$", "\\$");
    const used = new RegExp(`(?:(?<![\\w$.])|(?<=(?:this|self)\\.))${lit}(?![\\w$])`);
    return texts.some((t) => used.test(t));
  };
}

/**
 * Whether a candidate is named after what the question refers its answer to: its last part is
 * the name and, when the question writes an owner, its owner is that one (`os.cpu_count` is
 * not psutil's `cpu_count`, which wraps it); not when the question writes a parameter list
 * (`parseDouble(char[])` is one overload: the others are named so too).
 */
function isReferred(referred: readonly Referred[], symbol: string): boolean {
  const own = shortName(symbol);
  return referred.some((r) =>
    r.name === own && !r.signature &&
    (r.owner === null || symbol === `${r.owner}.${own}` || symbol.endsWith(`.${r.owner}.${own}`))
  );
}

/** The last part of a qualified name (`Sink.WithName` → `WithName`). */
function shortName(name: string): string {
  return name.slice(name.lastIndexOf(".") + 1);
}

/** Each row's function and method names (its own and those inside it), when first read. */
const DEFINED = slot("defined names", (_: ChunkTable) => new Map<number, ReadonlySet<string>>());

function definedNames(table: ChunkTable, row: number): ReadonlySet<string> {
  const held = table.memo.get(DEFINED);
  let names = held.get(row);
  if (!names) {
    const c = table.chunks[row];
    const out = new Set<string>();
    if (c.symbol !== null) out.add(shortName(c.symbol));
    for (const s of table.index.symbolsByFile.get(c.file) ?? []) {
      if (s.startLine < c.startLine || s.endLine > c.endLine) continue;
      if (s.kind === "method" || s.kind === "function") out.add(shortName(s.qualifiedName));
    }
    held.set(row, names = out);
  }
  return names;
}

/**
 * An interface whose declared method (`contracts`: the one the question matches) a better
 * candidate implements takes that candidate's score, `lift` above it on the logit scale: the
 * declaration is the method's contract, where its doc is.
 */
function liftContracts(
  table: ChunkTable,
  out: Map<number, number>,
  head: ReadonlySet<number>,
  contracts: ReadonlyMap<number, string>,
  lift: number,
  isDocs: (row: number) => boolean,
): void {
  const lifted: Array<[number, number]> = [];
  for (const [row, method] of contracts) {
    const own = out.get(row)!;
    let best = own;
    for (const other of head) {
      const s = out.get(other)!;
      if (s <= best || contracts.has(other) || isDocs(other)) continue;
      if (TYPE_ONLY.has(table.chunks[other].kind ?? "")) continue;
      if (definedNames(table, other).has(method)) best = s;
    }
    if (best <= own || !(best > 0 && best < 1)) continue;
    lifted.push([row, 1 / (1 + Math.exp(-(Math.log(best / (1 - best)) + lift)))]);
  }
  for (const [row, s] of lifted) out.set(row, Math.max(out.get(row)!, s));
}

/**
 * What member pointing adds for a member's name: its form and number evidence at the
 * `member` weight (undefined when that weight is 0).
 */
export function memberPreference(
  f: QueryForms,
  w: ExactWeights = DEFAULT_EXACT,
): ((qualifiedName: string) => number) | undefined {
  if (!w.member) return undefined;
  const referred = w.pointed ? f.referred.filter((r) => w.relation || !r.relation) : [];
  return (name) =>
    w.member *
      (formEvidence(f, w.ctor ? asConstructor(name) : name, w.short, w.keywords, w.compound) +
        numberEvidence(f, name)) +
    (w.creates ? w.creates * createsEvidence(f, name) : 0) -
    (referred.length > 0 && isReferred(referred, name) ? 1 : 0);
}
