/**
 * The whole range of the symbol a ranked hit is a part of. A hit is a chunk of the code
 * (a long function is several); its range printed as the symbol's (`Popen.communicate
 * 1165-1206` for a method of 1165-1230) made an assistant take the chunk for the function.
 *
 * @module
 */

import type { Project } from "../../project/project.ts";
import type { SemanticSearchPayload } from "./schema.ts";

/**
 * `p` with `symbol_line` and `symbol_end_line` on each ranked hit that is a part of its
 * symbol (a hit that is the whole symbol, a literal line and a hit in no symbol go as they
 * are).
 */
export async function withSymbolRanges(
  project: Project,
  p: SemanticSearchPayload,
): Promise<SemanticSearchPayload> {
  if (!p.snippets.some((h) => h.symbol && h.column === undefined)) return p;
  const index = await project.index();
  const snippets = p.snippets.map((h) => {
    if (!h.symbol || h.column !== undefined) return h;
    // The lines first: most of a file's symbols do not hold the hit, and comparing numbers is
    // cheaper than comparing names that share their owner's prefix.
    const s = (index.symbolsByFile.get(h.file) ?? []).find((s) =>
      s.line <= h.line && h.end_line <= s.endLine && s.qualifiedName === h.symbol
    );
    if (!s || (s.line === h.line && s.endLine === h.end_line)) return h;
    return { ...h, symbol_line: s.line, symbol_end_line: s.endLine };
  });
  return { ...p, snippets };
}
