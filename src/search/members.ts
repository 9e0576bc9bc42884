/**
 * Which member of a chunk a result points at. A chunk may group several definitions (a
 * small class with its methods, an `impl` block); the result then names the member the
 * query matched best, so that `line`..`end_line` is what an editor would jump to.
 *
 * @module
 */

import { type ChunkRecord, FUNCTION_KINDS, type SymbolRecord, VALUE_KINDS } from "../types.ts";
import { codeTokens, type TokenCache } from "../util/tokens.ts";

/**
 * How much better (in cosine, or in the share of the best member's query-term weight) a
 * container's own lines must match than its best member for the result to be the
 * container. Chosen on the tuning sets of `bench/search_vs_bm25.ts` (0, 0.1, 0.2 tried;
 * pointing measured by `bench/search_misses.ts --pointing`).
 */
const CONTAINER_HANDICAP = 0.2;

/**
 * Kinds that sit inside a line of their chunk (values, properties, imports): no member of it —
 * except top-level {@link GLUE_KINDS} in code between definitions.
 */
const INLINE_KINDS = new Set<string>([...VALUE_KINDS, "property", "import"]);
/** Top-level values that code between definitions holds, and a result from it lands on. */
const GLUE_KINDS = new Set<string>(["constant", "variable"]);

/**
 * Cosine between the query and a piece of a chunk (its code and its enclosing definition's
 * name), when the embedder can embed it in microseconds; absent otherwise.
 */
export type MemberSimilarity = (file: string, parent: string | null, code: string) => number;

/** The span a result reports, and its symbol. */
export interface Pointed {
  line: number;
  endLine: number;
  symbol: string | null;
  kind: string | null;
  /** The lines of the chunk it covers (0-based, end exclusive). */
  from: number;
  to: number;
}

/**
 * Scores lines of a chunk: the summed weight of the distinct query terms
 * they contain, the name's terms counted twice (a member named after the query is the
 * likelier answer).
 */
function coverage(
  lines: string[],
  name: string,
  weight: (term: string) => number,
  cache: TokenCache,
): number {
  const seen = new Set(codeTokens(lines.join("\n"), [], cache));
  let s = 0;
  for (const t of seen) s += weight(t);
  for (const t of new Set(codeTokens(name, [], cache))) s += weight(t);
  return s;
}

/**
 * The member of `chunk` the query matches best, or the chunk's own span when the code
 * outside its members (a container's head and fields) matches clearly better.
 *
 * @param own the symbol the chunk is named after (its whole span when the chunk holds it)
 * @param symbols the file's symbols
 * @param weight a query term's weight (its idf), 0 for terms not in the query
 * @param similarity the query's cosine with a piece of code, when cheap (else coverage)
 */
export function pointAtMember(
  chunk: ChunkRecord,
  own: SymbolRecord | undefined,
  symbols: readonly SymbolRecord[],
  weight: (term: string) => number,
  similarity?: MemberSimilarity,
  lines: readonly string[] = chunk.text.split("\n"),
  /** `symbols` sorted by {@link sortByStart} (a caller that presents many keeps them). */
  sorted: readonly SymbolRecord[] = sortByStart(symbols),
  /** Added to a member's score for its qualified name (the exact forms, `exact.ts`). */
  byName?: (qualifiedName: string) => number,
): Pointed {
  const whole = own && chunk.startLine <= own.startLine && chunk.endLine >= own.endLine;
  const base: Pointed = {
    line: whole ? own.startLine : chunk.startLine,
    endLine: whole ? own.endLine : chunk.endLine,
    symbol: chunk.symbol,
    kind: chunk.kind,
    from: 0,
    to: lines.length,
  };
  // Code between definitions (no symbol of its own) is where a file's top-level constants
  // live (`export const sha256 = wrap(…)`, `export const lines = internal.lines`): each is a
  // place to land, as a function of a chunk is.
  const glue = chunk.symbol === null && !own;
  // The file's symbols by start line: those starting inside the chunk are one run of them,
  // found by bisection, in the order a sort of the filtered list gives.
  const members: SymbolRecord[] = [];
  for (let i = firstFrom(sorted, chunk.startLine); i < sorted.length; i++) {
    const s = sorted[i];
    if (s.startLine > chunk.endLine) break;
    if (
      (!INLINE_KINDS.has(s.kind) || (glue && GLUE_KINDS.has(s.kind) && s.parent === null)) &&
      s !== own && s.endLine <= chunk.endLine &&
      // Only members strictly inside: a chunk that is exactly one definition is that one.
      (s.startLine > base.line || s.endLine < base.endLine)
    ) members.push(s);
  }
  if (members.length === 0) return base;
  const cache: TokenCache = new Map();
  // The code outside every member (a class head, fields) speaks for the container.
  const inMember = new Uint8Array(lines.length);
  for (const m of members) {
    for (let i = m.startLine - chunk.startLine; i <= m.endLine - chunk.startLine; i++) {
      inMember[i] = 1;
    }
  }
  const rest = lines.filter((_, i) => !inMember[i]);
  // Each candidate's match: the query's cosine with its code when the embedder is cheap
  // enough (measured better on the tuning sets), else its query-term coverage.
  const spans = members.map((m) =>
    lines.slice(m.startLine - chunk.startLine, m.endLine - chunk.startLine + 1)
  );
  let scores: number[];
  if (similarity) {
    scores = [
      similarity(chunk.file, own?.parent ?? null, rest.join("\n")),
      ...members.map((m, i) => similarity(chunk.file, m.parent, spans[i].join("\n"))),
    ];
  } else {
    const lex = [
      coverage(rest, own?.name ?? "", weight, cache),
      ...members.map((m, i) => coverage(spans[i], m.name, weight, cache)),
    ];
    const top = Math.max(...lex);
    scores = lex.map((l) => (top > 0 ? l / top : 0));
  }
  // A container's own lines (head, fields) rarely answer on their own: a member that
  // matches nearly as well is the better place to land. A function's nested definitions
  // get no such head start: they are part of it.
  if (!own || !FUNCTION_KINDS.has(own.kind)) scores[0] -= CONTAINER_HANDICAP;
  if (byName) {
    if (own) scores[0] += byName(own.qualifiedName);
    members.forEach((m, i) => scores[i + 1] += byName(m.qualifiedName));
  }
  let best = scores[0];
  let pick: SymbolRecord | null = null;
  for (let i = 0; i < members.length; i++) {
    // Ties go to the earlier, outer definition (members come sorted by start line).
    if (scores[i + 1] > best) {
      best = scores[i + 1];
      pick = members[i];
    }
  }
  if (!pick) return base;
  return {
    line: pick.startLine,
    endLine: pick.endLine,
    symbol: pick.qualifiedName,
    kind: pick.kind,
    from: pick.startLine - chunk.startLine,
    to: pick.endLine - chunk.startLine + 1,
  };
}

/**
 * A file's symbols sorted by start line (longer first on ties; a stable sort: symbols with
 * the same span keep the list's order).
 */
export function sortByStart(symbols: readonly SymbolRecord[]): readonly SymbolRecord[] {
  return [...symbols].sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

/** The index of the first symbol of `sorted` that starts at or after `line`. */
function firstFrom(sorted: readonly SymbolRecord[], line: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid].startLine < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The implementation behind an overload signature: TypeScript declares overloads as
 * bodiless signatures (`function f(a: A): R;`) beside one definition with a body, and the
 * body is where an editor should land. Returns the symbol with the body, or undefined when
 * `sym` has a body itself or no sibling does.
 */
export function overloadImplementation(
  sym: SymbolRecord | undefined,
  chunk: ChunkRecord,
  symbols: readonly SymbolRecord[],
  lines?: readonly string[],
): SymbolRecord | undefined {
  if (!sym || (sym.kind !== "function" && sym.kind !== "method")) return undefined;
  if (sym.startLine < chunk.startLine || sym.endLine > chunk.endLine) return undefined;
  lines ??= chunk.text.split("\n");
  const last = lines[sym.endLine - chunk.startLine]?.trimEnd() ?? "";
  if (!last.endsWith(";")) return undefined;
  let impl: SymbolRecord | undefined;
  for (const s of symbols) {
    if (s !== sym && s.qualifiedName === sym.qualifiedName && s.endLine - s.startLine > 0) {
      if (!impl || s.endLine - s.startLine > impl.endLine - impl.startLine) impl = s;
    }
  }
  return impl;
}
