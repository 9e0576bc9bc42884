/**
 * `get_impact`: what a change touches — the definitions it adds, edits and removes (from a
 * diff, from git against a revision, or named), everything that reaches them through callers
 * and references, hop by hop with how sure each path is, the files, the tests to run, and what
 * is likely to break.
 *
 * @module
 */

import { CodectxError } from "../../errors.ts";
import { loadGraph } from "../../graph/graph.ts";
import { findSymbols } from "../../graph/lookup.ts";
import type { Sureness } from "../../graph/names.ts";
import { isTestFile } from "../../index/test_files.ts";
import { isInternal } from "../../parse/languages.ts";
import { FUNCTION_KINDS, type SymbolRecord } from "../../types.ts";
import { defineTool, READ_ONLY } from "../tool.ts";
import { BaseDefinitions } from "./base_cache.ts";
import { type Change, type Changes, changesOf } from "./changes.ts";
import { command } from "./cli.ts";
import { type FilePatch, parseDiff } from "./diff.ts";
import { checkBase, diffAgainst, untracked } from "./git.ts";
import { reach, type Reached, type Use } from "./reach.ts";
import { render } from "./render.ts";
import {
  DEFAULT_DEPTH,
  DEFAULT_MAX_RESULTS,
  type GetImpactPayload,
  input,
  output,
} from "./schema.ts";

const STRENGTH: Record<Sureness, number> = { name: 0, inferred: 1, exact: 2 };

/** Named symbols as changes: each edited in place. */
function named(graph: Awaited<ReturnType<typeof loadGraph>>, names: string[]): Changes {
  const changes: Change[] = names.flatMap((name) =>
    findSymbols(graph, name).map((s) => ({
      wire: {
        qualified_name: s.qualifiedName,
        kind: s.kind,
        file: s.file,
        line: s.startLine,
        end_line: s.endLine,
        change: "modified" as const,
        signature: s.signature,
        signature_changed: false,
        public: !isInternal(s.language, s.name, s.signature),
      },
      records: [s],
    }))
  );
  return { files: [], changes };
}

/**
 * The test functions reached: each reached definition of a test file, and the outermost
 * function or method around it — a helper or a command declared inside a test runs (its
 * decorators too) only when that test runs (`test_context_pushing` around
 * `@ctx.call_on_close def test_callback()`).
 */
function testsReached(
  graph: Awaited<ReturnType<typeof loadGraph>>,
  reached: readonly Reached[],
): Pick<Reached, "record" | "hop" | "resolution">[] {
  const out = new Map<SymbolRecord, Pick<Reached, "record" | "hop" | "resolution">>();
  const better = (a: { hop: number; resolution: Sureness }, b: typeof a) =>
    a.hop < b.hop || (a.hop === b.hop && STRENGTH[a.resolution] > STRENGTH[b.resolution]);
  for (const x of reached) {
    if (!isTestFile(x.record.file)) continue;
    const had = out.get(x.record);
    if (!had || better(x, had)) out.set(x.record, x);
    const symbols = graph.byPath.get(x.record.file)?.symbols ?? [];
    let outer: SymbolRecord | undefined;
    for (let q = x.record.parent; q !== null;) {
      const s = symbols.find((s) =>
        s.qualifiedName === q && s.startLine <= x.record.startLine && s.endLine >= x.record.endLine
      );
      if (s && FUNCTION_KINDS.has(s.kind)) outer = s;
      const cut = q.lastIndexOf(".");
      q = cut < 0 ? null : q.slice(0, cut);
    }
    if (!outer) continue;
    const test = out.get(outer);
    const via = { record: outer, hop: x.hop, resolution: x.resolution };
    if (!test || better(via, test)) out.set(outer, via);
  }
  return [...out.values()];
}

/** The working tree against `base`: git's diff, and the files git does not track as added. */
async function againstBase(root: string, base: string): Promise<FilePatch[]> {
  await checkBase(root, base);
  const [diff, notTracked] = await Promise.all([diffAgainst(root, base), untracked(root)]);
  const patches = parseDiff(diff, { empty: true });
  const known = new Set(patches.map((p) => p.newPath));
  for (const path of notTracked) {
    if (!known.has(path)) patches.push({ oldPath: null, newPath: path, hunks: [], binary: false });
  }
  return patches;
}

/** The `get_impact` tool. */
export const getImpactTool = defineTool({
  name: "get_impact",
  description:
    "What a change (`diff`, git `base` or `symbols`) reaches: users by hop, tests to run, likely breaks.",
  input,
  output,
  annotations: READ_ONLY,
  handler: async (args, { project }) => {
    const given = [args.diff, args.base, args.symbols].filter((x) => x !== undefined).length;
    if (given > 1) {
      throw new CodectxError(
        "invalid_argument",
        "pass one of diff, base or symbols (they are three ways to say what changes)",
      );
    }
    const base = args.diff === undefined && args.symbols === undefined ? args.base ?? "HEAD" : null;
    // git runs while the graph loads (its errors are thrown where it is awaited).
    const patches = base === null ? undefined : againstBase(project.root, base);
    patches?.catch(() => {});
    const graph = await loadGraph(project);
    const kept = base === null ? undefined : await BaseDefinitions.open(project.store.dir);
    const { files, changes } = args.symbols
      ? named(graph, args.symbols)
      : args.diff !== undefined
      ? await changesOf(project, graph, parseDiff(args.diff), { kind: "diff" })
      : await changesOf(project, graph, await patches!, { kind: "git", base: base!, kept });
    await kept?.save();
    const depth = args.depth ?? DEFAULT_DEPTH;
    const includeTests = args.include_tests ?? true;
    const keep = (file: string) => includeTests || !isTestFile(file);
    // Tests reach a change through any number of hops (a test of `open_file` runs a helper
    // six calls down): the walk goes to its end, `depth` bounds what is listed as impacted.
    const whole = reach(graph, changes, Number.POSITIVE_INFINITY);
    const r = {
      ...whole,
      reached: whole.reached.filter((x) => x.hop <= depth),
      uses: whole.uses.filter((u) => u.hop <= depth),
    };

    const reached = r.reached.filter((x) => keep(x.record.file)).sort((a, b) =>
      a.hop - b.hop || STRENGTH[b.resolution] - STRENGTH[a.resolution] ||
      (a.record.file < b.record.file ? -1 : a.record.file > b.record.file ? 1 : 0) ||
      a.record.line - b.record.line
    );
    const max = args.max_results ?? DEFAULT_MAX_RESULTS;
    const byFile = new Map<string, { hop: number; references: number }>();
    for (const u of r.uses) {
      if (!keep(u.file)) continue;
      const f = byFile.get(u.file);
      if (f) {
        f.hop = Math.min(f.hop, u.hop);
        f.references++;
      } else byFile.set(u.file, { hop: u.hop, references: 1 });
    }
    const testFiles = new Set(whole.uses.map((u) => u.file).filter(isTestFile));
    for (const f of files) if (isTestFile(f.file) && f.status !== "deleted") testFiles.add(f.file);
    const sites = (uses: Use[]) => uses.slice(0, 5).map((u) => `${u.file}:${u.line}`);
    const likely = changes.flatMap((c, i) => {
      const n = r.direct[i].length;
      if (n === 0) return [];
      const reason = c.wire.change === "deleted"
        ? "deleted" as const
        : c.wire.signature_changed
        ? "signature_changed" as const
        : null;
      return reason
        ? [{
          qualified_name: c.wire.qualified_name,
          file: c.wire.file,
          reason,
          references: n,
          sites: sites(r.direct[i]),
        }]
        : [];
    }).sort((a, b) => Number(b.reason === "deleted") - Number(a.reason === "deleted"));
    const byHop = Array.from({ length: depth }, (_, i) => ({
      hop: i + 1,
      exact: 0,
      inferred: 0,
      name: 0,
    }));
    for (const x of reached) byHop[x.hop - 1][x.resolution]++;
    const payload: GetImpactPayload = {
      source: args.symbols ? "symbols" : args.diff !== undefined ? "diff" : "base",
      base,
      files,
      changed: changes.map((c, i) => ({ ...c.wire, references: r.direct[i].length })),
      impacted: reached.slice(0, max).map((x) => ({
        qualified_name: x.record.qualifiedName,
        kind: x.record.kind,
        file: x.record.file,
        line: x.record.line,
        hop: x.hop,
        resolution: x.resolution,
        path: x.path,
        via: x.via,
        test: isTestFile(x.record.file),
      })),
      impacted_total: reached.length,
      truncated: reached.length > max,
      impacted_files: [...byFile].map(([file, f]) => ({
        file,
        hop: f.hop,
        references: f.references,
        test: isTestFile(file),
      })).sort((a, b) => a.hop - b.hop || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
      tests_to_run: {
        files: [...testFiles].sort(),
        functions: testsReached(graph, whole.reached).sort((a, b) =>
          a.record.file < b.record.file
            ? -1
            : a.record.file > b.record.file
            ? 1
            : a.record.line - b.record.line
        ).map((x) => ({
          qualified_name: x.record.qualifiedName,
          file: x.record.file,
          line: x.record.line,
          hop: x.hop,
          resolution: x.resolution,
        })),
      },
      risk: {
        likely_breaks: likely,
        public_api: changes.filter((c) => c.wire.public && c.wire.change !== "added")
          .map((c) => c.wire.qualified_name),
        by_hop: byHop,
      },
    };
    return payload;
  },
  render,
  cli: command,
});
