/**
 * An explanation of a snippet for `POST /api/analyze` with `mode: "explain"`: the
 * snippet's symbols, what each calls, and the project symbols those calls reach.
 *
 * @module
 */

import type { Project } from "../project/project.ts";
import { parseSource } from "../parse/parser.ts";
import { CodectxError } from "../errors.ts";
import { analysisGrammar } from "./grammar.ts";
import { family } from "./project_view.ts";
import { STOPPABLE, stopPoint } from "./stop_flag.ts";

/** The explanation, in wire (snake_case) shape. */
export interface SnippetExplanation {
  language: string;
  symbols: Array<{
    name: string;
    qualified_name: string;
    kind: string;
    line: number;
    end_line: number;
    signature: string;
    calls: string[];
  }>;
  /** Calls made outside any symbol (top-level code). */
  top_level_calls: string[];
  /** Project symbols the snippet calls, by name. */
  project_symbols: Array<
    { name: string; qualified_name: string; kind: string; file: string; line: number }
  >;
}

/** What the snippet alone says: its symbols and calls (made on an analysis worker). */
export interface SnippetOutline {
  language: string;
  symbols: SnippetExplanation["symbols"];
  top_level_calls: string[];
  /** Last names of everything the snippet calls. */
  called: string[];
  /** Names the snippet defines. */
  defined: string[];
}

/**
 * The snippet's symbols and what each calls, from one parse. Pure and CPU-bound: the
 * analysis pool runs it on a worker, after validation, in the language validation chose.
 *
 * @example
 * ```ts
 * const o = await outlineSnippet("def f():\n    return g()\n", "python");
 * o.symbols[0].calls; // ["g"]
 * ```
 */
export async function outlineSnippet(
  code: string,
  language: string,
  filePath?: string,
): Promise<SnippetOutline> {
  const parsed = await parseSource(filePath ?? "<snippet>", code, language);
  if (parsed.error) throw new CodectxError("internal", parsed.error);
  const g = await analysisGrammar(language)!;
  const calls: Array<{ name: string; line: number }> = [];
  if (g.resolve) {
    const tree = g.parser.parse(code, null, STOPPABLE);
    stopPoint();
    if (tree) {
      try {
        for (const c of g.resolve.captures(tree.rootNode)) {
          if (c.name === "call" || c.name === "member") {
            calls.push({
              name: c.node.text.replace(/\s+/g, ""),
              line: c.node.startPosition.row + 1,
            });
          }
        }
      } finally {
        tree.delete();
      }
    }
  }
  const inner = (line: number) => {
    let best: (typeof parsed.symbols)[number] | undefined;
    for (const s of parsed.symbols) {
      if (s.startLine <= line && line <= s.endLine && (!best || s.startLine >= best.startLine)) {
        best = s;
      }
    }
    return best;
  };
  const byQualified = new Map<string, Set<string>>();
  const topLevel = new Set<string>();
  for (const c of calls) {
    const s = inner(c.line);
    if (!s) topLevel.add(c.name);
    else {
      let set = byQualified.get(s.qualifiedName);
      if (!set) byQualified.set(s.qualifiedName, set = new Set());
      set.add(c.name);
    }
  }
  return {
    language,
    symbols: parsed.symbols.map((s) => ({
      name: s.name,
      qualified_name: s.qualifiedName,
      kind: s.kind,
      line: s.line,
      end_line: s.endLine,
      signature: s.signature,
      calls: [...(byQualified.get(s.qualifiedName) ?? [])],
    })),
    top_level_calls: [...topLevel],
    called: [...new Set(calls.map((c) => c.name.split(".").pop()!))],
    defined: [...new Set(parsed.symbols.map((s) => s.name))],
  };
}

/**
 * Explains a snippet against a project: its outline (from a worker) and the project
 * symbols its calls reach.
 *
 * @example
 * ```ts
 * const e = await explainSnippet(project, await outlineSnippet("g()\n", "python"));
 * e.project_symbols; // the project's `g`, if any
 * ```
 */
export async function explainSnippet(
  project: Project,
  outline: SnippetOutline,
): Promise<SnippetExplanation> {
  const index = await project.index();
  const called = new Set(outline.called);
  const defined = new Set(outline.defined);
  const projectSymbols = index.symbols.filter((s) =>
    called.has(s.name) && !defined.has(s.name) && family(s.language) === family(outline.language)
  ).slice(0, 50);
  return {
    language: outline.language,
    symbols: outline.symbols,
    top_level_calls: outline.top_level_calls,
    project_symbols: projectSymbols.map((s) => ({
      name: s.name,
      qualified_name: s.qualifiedName,
      kind: s.kind,
      file: s.file,
      line: s.line,
    })),
  };
}
