/**
 * Which member of a chunk a result points at. A chunk may group several definitions (a
 * small class with its methods, an `impl` block); the result then names the member the
 * query matched best, so that `line`..`end_line` is what an editor would jump to.
 *
 * @module
 */

import type { ChunkRecord, SymbolRecord } from "../types.ts";
import { codeTokens, type TokenCache } from "../util/tokens.ts";

/** Kinds never reported on their own (they live inside the code around them). */
const INLINE_KINDS = new Set(["constant", "variable", "field", "property", "import"]);

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
 * Scores the lines `[from, to)` of a chunk: the summed weight of the distinct query terms
 * they contain, the name's terms counted twice (a member named after the query is the
 * likelier answer).
 */
function coverage(
  lines: string[],
  from: number,
  to: number,
  name: string,
  weight: (term: string) => number,
  cache: TokenCache,
): number {
  const seen = new Set(codeTokens(lines.slice(from, to).join("\n"), [], cache));
  let s = 0;
  for (const t of seen) s += weight(t);
  for (const t of new Set(codeTokens(name, [], cache))) s += weight(t);
  return s;
}

/**
 * The member of `chunk` the query terms match best, or the chunk's own span when none
 * matches better than the code outside its members.
 *
 * @param own the symbol the chunk is named after (its whole span when the chunk holds it)
 * @param symbols the file's symbols
 * @param weight a query term's weight (its idf), 0 for terms not in the query
 */
export function pointAtMember(
  chunk: ChunkRecord,
  own: SymbolRecord | undefined,
  symbols: readonly SymbolRecord[],
  weight: (term: string) => number,
): Pointed {
  const lines = chunk.text.split("\n");
  const whole = own && chunk.startLine <= own.startLine && chunk.endLine >= own.endLine;
  const base: Pointed = {
    line: whole ? own.startLine : chunk.startLine,
    endLine: whole ? own.endLine : chunk.endLine,
    symbol: chunk.symbol,
    kind: chunk.kind,
    from: 0,
    to: lines.length,
  };
  const members = symbols.filter((s) =>
    !INLINE_KINDS.has(s.kind) && s !== own && s.startLine >= chunk.startLine &&
    s.endLine <= chunk.endLine && // Only members strictly inside: a chunk that is exactly one definition is that one.
    (s.startLine > base.line || s.endLine < base.endLine)
  ).sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
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
  let best = coverage(rest, 0, rest.length, own?.name ?? "", weight, cache);
  let pick: SymbolRecord | null = null;
  for (const m of members) {
    const from = m.startLine - chunk.startLine;
    const s = coverage(lines, from, m.endLine - chunk.startLine + 1, m.name, weight, cache);
    // Ties go to the earlier, outer definition (members come sorted by start line).
    if (s > best) {
      best = s;
      pick = m;
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
 * The implementation behind an overload signature: TypeScript declares overloads as
 * bodiless signatures (`function f(a: A): R;`) beside one definition with a body, and the
 * body is where an editor should land. Returns the symbol with the body, or undefined when
 * `sym` has a body itself or no sibling does.
 */
export function overloadImplementation(
  sym: SymbolRecord | undefined,
  chunk: ChunkRecord,
  symbols: readonly SymbolRecord[],
): SymbolRecord | undefined {
  if (!sym || (sym.kind !== "function" && sym.kind !== "method")) return undefined;
  if (sym.startLine < chunk.startLine || sym.endLine > chunk.endLine) return undefined;
  const lines = chunk.text.split("\n");
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
