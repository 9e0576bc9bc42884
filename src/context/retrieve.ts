/**
 * Retrieval for `ask`: the symbols a question names (`Session.request`, `parse_config`,
 * `` `Foo` ``) and the code a search finds for it, merged into search items.
 *
 * @module
 */

import { resolveMatches, symbolTable } from "../graph/lookup.ts";
import type { LoadedIndex, Project } from "../project/project.ts";
import { splitIdentifier } from "../util/tokens.ts";
import type { WireSearchItem } from "../search/item.ts";
import { hybridSearch } from "../search/mod.ts";
import { fileClass, type SearchScope } from "../search/scope.ts";
import type { ChunkRecord, SymbolRecord } from "../types.ts";
import { SourceReader } from "./source.ts";

/** A search over the project: ranked items, best first (of `scope` when given). */
export type Searcher = (
  project: Project,
  query: string,
  topK: number,
  scope?: SearchScope,
) => Promise<WireSearchItem[]>;

/**
 * Questions about the project rather than its code: how to install, use, build or
 * contribute, its licence, its docs. Every other question is about code, and is answered
 * from code first (prose that describes the behaviour ranks after the code that does it).
 */
const ABOUT_THE_PROJECT =
  /\b(install(ed|ing|ation)?|set ?up|licen[cs]e[ds]?|contribut\w*|changelog|release notes?|documentation|docs|readme|usage|tutorial|getting started|examples?)\b/i;

/** Whether a question asks about code (see {@link ABOUT_THE_PROJECT}). */
export function asksAboutCode(question: string): boolean {
  return !ABOUT_THE_PROJECT.test(question);
}

/** What retrieval found: items (best first) and the symbols the question names. */
export interface Retrieval {
  items: WireSearchItem[];
  named: SymbolRecord[];
}

/** Most lines of a snippet. */
const SNIPPET_LINES = 20;

const STOP = new Set(
  ("a an and are as at be by can could did do does for from has have how i if in into is it " +
    "its me my of on or our should so that the their them then there these this to up was we " +
    "what when where which who why will with would you your code function method class file " +
    "defined define implemented implement work works use used using called call calls get " +
    "explain show tell find happen happens")
    .split(" "),
);

/**
 * Names a question spells as code: backticked, qualified (`Session.request`), snake_case,
 * camelCase or PascalCase with several humps, or called (`run()`), in order of appearance.
 */
export function mentionedNames(question: string): string[] {
  const out: string[] = [];
  const add = (name: string) => {
    const n = name.trim().replace(/\(\)$/, "");
    if (n.length >= 2 && !out.includes(n)) out.push(n);
  };
  for (const m of question.matchAll(/`([^`]+)`/g)) add(m[1]);
  const re = /[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)*(?:\(\))?/g;
  for (const m of question.matchAll(re)) {
    if (/[._$#:]|\(\)$|[a-z][A-Z]|^[A-Z][a-z]+[A-Z]/.test(m[0])) add(m[0]);
  }
  return out;
}

/** Symbols the question names as code (plain words are left to the search). */
export function namedSymbols(index: LoadedIndex, question: string, limit = 5): SymbolRecord[] {
  const out: SymbolRecord[] = [];
  const table = symbolTable(index);
  for (const name of mentionedNames(question)) {
    if (out.length >= limit) break;
    try {
      const [symbol] = resolveMatches(table, name);
      if (symbol && symbol.kind !== "section" && !out.includes(symbol)) out.push(symbol);
    } catch {
      // not a symbol of this project
    }
  }
  return out;
}

/**
 * The project's hybrid search (lexical + vectors, as `semantic_search`); a plain scan of the
 * chunks when the search refuses the question (too long for a query, say).
 */
export async function defaultSearch(
  project: Project,
  query: string,
  topK: number,
  scope?: SearchScope,
): Promise<WireSearchItem[]> {
  try {
    return await hybridSearch(project, query, { top_k: Math.min(100, topK), scope });
  } catch {
    return await scanSearch(project, query, topK);
  }
}

/**
 * A plain lexical scan of the chunks: the chunks holding the most of the question's rarer
 * terms.
 */
export async function scanSearch(
  project: Project,
  query: string,
  topK: number,
): Promise<WireSearchItem[]> {
  const index = await project.index();
  const terms = [
    ...new Set(
      query.split(/[^\p{L}\p{N}_$]+/u).flatMap((w) => [w.toLowerCase(), ...splitIdentifier(w)])
        .filter((t) => t.length >= 3 && !STOP.has(t)),
    ),
  ];
  if (!terms.length) return [];
  const chunks = await index.chunks();
  const df = new Map<string, number>();
  const hits: Array<{ c: ChunkRecord; found: string[] }> = [];
  for (const c of chunks) {
    const lower = c.text.toLowerCase();
    const found = terms.filter((t) => lower.includes(t));
    if (!found.length) continue;
    for (const t of found) df.set(t, (df.get(t) ?? 0) + 1);
    hits.push({ c, found });
  }
  const n = chunks.length;
  const scored = hits.map(({ c, found }) => {
    let s = 0;
    const name = (c.symbol ?? "").toLowerCase();
    for (const t of found) {
      const idf = Math.log(1 + n / (df.get(t) ?? 1));
      s += idf * (name.includes(t) ? 2 : 1);
    }
    return { c, s };
  }).sort((a, b) => b.s - a.s || a.c.file.localeCompare(b.c.file) || a.c.startLine - b.c.startLine);
  const top = scored.slice(0, topK);
  const max = top[0]?.s || 1;
  return top.map(({ c, s }) => ({
    file: c.file,
    line: c.startLine,
    end_line: c.endLine,
    score: Math.round((s / max) * 0.9 * 1000) / 1000,
    snippet: c.text.split("\n").slice(0, SNIPPET_LINES).join("\n"),
    language: c.language,
    symbol: c.symbol,
    kind: c.kind,
  }));
}

/** A whole symbol as a search item. */
async function symbolItem(
  s: SymbolRecord,
  reader: SourceReader,
  score: number,
): Promise<WireSearchItem> {
  const lines = await reader.span(
    s.file,
    s.startLine,
    Math.min(s.endLine, s.startLine + SNIPPET_LINES - 1),
  );
  return {
    file: s.file,
    line: s.startLine,
    end_line: s.endLine,
    score,
    snippet: lines.join("\n"),
    language: s.language,
    symbol: s.qualifiedName,
    kind: s.kind,
  };
}

/**
 * Retrieves the code for a question: named symbols first, then search results that do not
 * overlap them, `topK` in all.
 */
export async function retrieve(
  project: Project,
  question: string,
  topK: number,
  search: Searcher = defaultSearch,
): Promise<Retrieval> {
  const index = await project.index();
  const named = namedSymbols(index, question, Math.min(topK, 5));
  const reader = new SourceReader(project.root);
  const items: WireSearchItem[] = [];
  for (const s of named) items.push(await symbolItem(s, reader, 1));
  let found = await search(project, question, topK + named.length);
  if (asksAboutCode(question)) {
    // Code first, then the prose the default search found.
    const code = await search(project, question, topK + named.length, "code");
    found = [...code, ...found.filter((it) => fileClass(it.file, it.language) !== "code")];
  }
  for (const it of found) {
    if (items.length >= topK) break;
    const overlaps = items.some((o) =>
      o.file === it.file && o.line <= it.end_line && it.line <= o.end_line
    );
    if (!overlaps) items.push(it);
  }
  return { items: items.slice(0, topK), named };
}
