/**
 * `semantic_search`: Find code by meaning: ranked snippets for a question in plain words or code (hybrid lexical + vector search).
 *
 * Hybrid lexical (BM25F) + vector search over the project's chunks, or exact/regex matches
 * with line and column (`src/search/`).
 */

import { searchProject } from "../../search/hybrid.ts";
import { searchCall } from "../../search/search_pool.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { input, MORE_PLACES, output, TEST_COUNT_CAP } from "./schema.ts";
import { render } from "./render.ts";
import { literalLines, withLiteralLines } from "./literal.ts";
import { withSymbolRanges } from "./ranges.ts";
import { DEFAULT_TOP_K } from "../../types.ts";

/** The `semantic_search` tool. */
export const semanticSearchTool = defineTool({
  name: "semantic_search",
  description:
    "Find code by meaning, or every exact/regex match with its line (strings, messages, import paths).",
  input,
  output,
  annotations: READ_ONLY,
  handler: async (args, { project, signal, deadline }) => {
    const { query, ...opts } = args;
    return await searchCall(async () => {
      const limits = { signal, deadline };
      if (opts.mode !== "exact" && opts.mode !== "regex") {
        const ranked = await searchProject(project, query, opts, undefined, limits);
        const lines = await literalLines(project, ranked, opts, limits);
        return await withSymbolRanges(project, withLiteralLines(ranked, lines, opts.top_k));
      }
      const topK = opts.top_k ?? DEFAULT_TOP_K;
      // A literal search scans on past its cap to name where the next matches are: an
      // assistant whose answer lay past the first ten (containerd's call sites of a setting,
      // after its declarations and comments) asked again with a larger top_k (issue 35).
      // (Within the 100 a search answers at most: a call that asks for 100 names no more.)
      const scanned = await searchProject(
        project,
        query,
        { ...opts, top_k: Math.min(100, topK + MORE_PLACES) },
        undefined,
        limits,
      );
      const past = scanned.snippets.slice(topK);
      const payload = await withSymbolRanges(project, {
        ...scanned,
        snippets: scanned.snippets.slice(0, topK),
      });
      // A literal search that filled its cap may have more matches: its text says so.
      const capped = payload.snippets.length >= topK || undefined;
      const more = past.length ? past.map((h) => `${h.file}:${h.line}`) : undefined;
      // One of code only, as grep's would not be, counts the test files' matches it left out,
      // so a reader knows they are there (an importer in testing/ was missed without a word).
      const counted = opts.scope === undefined && !opts.include_tests
        ? (await searchProject(
          project,
          query,
          { ...opts, scope: "tests", top_k: TEST_COUNT_CAP },
          undefined,
          limits,
        )).snippets.length
        : 0;
      return { ...payload, capped, more_matches: more, test_matches: counted || undefined };
    });
  },
  render,
});
