/**
 * From a diff to the definitions it adds, edits and removes: each file's two sides (the
 * indexed one, the other rebuilt from the hunks or read from git), both parsed by the same
 * parser, each changed line mapped to the innermost definition that holds it on its side.
 *
 * @module
 */

import { CodectxError } from "../../errors.ts";
import type { CodeGraph } from "../../graph/graph.ts";
import type { Project } from "../../project/project.ts";
import { readProjectFile } from "../../index/safe_read.ts";
import { sha256Hex } from "../../util/hash.ts";
import { isInternal, languageForPath } from "../../parse/languages.ts";
import { parseSource } from "../../parse/parser.ts";
import type { ParsedSource } from "../../facts/records.ts";
import type { SymbolRecord } from "../../types.ts";
import type { BaseDefinitions } from "./base_cache.ts";
import { changedLines, type FilePatch, otherSide, sideOf } from "./diff.ts";
import { showAt } from "./git.ts";
import { oldDefinitions } from "./other_side.ts";
import type { ChangedFile, ChangedSymbol } from "./schema.ts";

/** A changed definition, with the indexed records its uses are found from. */
export interface Change {
  wire: Omit<ChangedSymbol, "references">;
  /** The indexed definitions (empty for one the index no longer has: found by name). */
  records: SymbolRecord[];
}

/** What the diff changes. */
export interface Changes {
  files: ChangedFile[];
  changes: Change[];
}

/**
 * Where the other side of a file comes from: the diff, or git's `base` (whose files'
 * definitions `kept` holds by blob id).
 */
export type OldSide = { kind: "diff" } | { kind: "git"; base: string; kept?: BaseDefinitions };

/** The innermost definition holding `line`, or undefined at the top of the file. */
export function innermost(
  symbols: readonly SymbolRecord[],
  line: number,
): SymbolRecord | undefined {
  let best: SymbolRecord | undefined;
  for (const s of symbols) {
    if (s.startLine > line || s.endLine < line) continue;
    if (!best || s.endLine - s.startLine < best.endLine - best.startLine) best = s;
  }
  return best;
}

function touched(symbols: readonly SymbolRecord[], lines: number[]): SymbolRecord[] {
  const out = new Set<SymbolRecord>();
  for (const l of lines) {
    const s = innermost(symbols, l);
    if (s) out.add(s);
  }
  return [...out];
}

function wireOf(
  s: SymbolRecord,
  change: "added" | "modified" | "deleted",
  old?: SymbolRecord,
): Omit<ChangedSymbol, "references"> {
  const changed = old !== undefined && old.signature !== s.signature;
  return {
    qualified_name: s.qualifiedName,
    kind: s.kind,
    file: s.file,
    line: s.startLine,
    end_line: s.endLine,
    change,
    signature: s.signature,
    signature_changed: changed,
    ...(changed ? { old_signature: old.signature } : {}),
    public: !isInternal(s.language, s.name, s.signature),
  };
}

/**
 * The indexed path a diff's path names: as written, else without leading folders (`patch -p`)
 * — not for git's own diff, whose paths are the project's (`src/README.md` is not `README.md`).
 */
function locate(graph: CodeGraph, path: string, from: OldSide): string {
  let p = path.replace(/^\.\//, "");
  if (from.kind === "git") return p;
  while (true) {
    if (graph.byPath.has(p)) return p;
    const cut = p.indexOf("/");
    if (cut < 0) return path.replace(/^\.\//, "");
    p = p.slice(cut + 1);
  }
}

/** A project file as read: its lines, and its bytes (for their hash). */
interface FileText {
  lines: string[];
  bytes: Uint8Array;
}

/** A project file (null when it cannot be read), each file read once. */
type Read = (path: string) => Promise<FileText | null>;

async function readText(project: Project, path: string): Promise<FileText | null> {
  try {
    const bytes = await readProjectFile(project.root, path);
    const lines = new TextDecoder().decode(bytes).replace(/\r\n?/g, "\n").split("\n");
    return { lines, bytes };
  } catch {
    return null;
  }
}

/** A side of a file: its path and its definitions, `indexed` when they are the graph's. */
interface Side {
  path: string;
  symbols: readonly SymbolRecord[];
  indexed: boolean;
}

async function parsed(path: string, lines: string[]): Promise<SymbolRecord[]> {
  return (await definitionsOf(path, lines.join("\n"))).symbols;
}

function definitionsOf(path: string, text: string, language?: string) {
  return parseSource(path, text, language, { references: false });
}

/**
 * The definitions of the old side `old` of a file whose new side `now` the index holds (from
 * `current`): parsed where the hunks are (`other_side.ts`) when the index holds the file as
 * it is (else the whole old side).
 */
async function oldSide(
  project: Project,
  patch: FilePatch,
  now: Side,
  current: FileText,
  path: string,
  old: string[],
) {
  const parse = (text: string, language?: string) => definitionsOf(path, text, language);
  const indexed = (await project.index()).files.get(now.path)?.hash;
  if (indexed !== await sha256Hex(current.bytes)) return await parse(old.join("\n"));
  return await oldDefinitions(patch.hunks, now.symbols, current.lines, old, path, parse);
}

/** The definitions of `path` at git's base: kept by its blob id, or parsed (and kept). */
async function atBase(
  project: Project,
  patch: FilePatch,
  from: OldSide & { kind: "git" },
  oldPath: string,
  now: Side | null,
  removed: string[],
  read: Read,
): Promise<SymbolRecord[] | null> {
  const language = languageForPath(oldPath)?.id;
  const blob = language === undefined ? undefined : patch.oldBlob;
  const hit = blob === undefined ? undefined : from.kept?.get(blob, oldPath, language!);
  if (hit) return hit;
  const file = await baseDefinitions(project, patch, from.base, oldPath, now, removed, read);
  if (file === null) return null;
  if (blob !== undefined && file.error === undefined && file.language === language) {
    from.kept?.put(blob, language!, file.symbols);
  }
  return file.symbols;
}

/**
 * The definitions of a file at the base of git's diff: of the working tree's file with the
 * hunks undone (git's diff is of the working tree; no `git show` per file), of a deleted
 * file's removed lines, or of git's copy when the file cannot be read.
 */
async function baseDefinitions(
  project: Project,
  patch: FilePatch,
  base: string,
  oldPath: string,
  now: Side | null,
  removed: string[],
  read: Read,
): Promise<ParsedSource | null> {
  if (now === null && !patch.binary) return await definitionsOf(oldPath, removed.join("\n"));
  const current = now === null || patch.binary ? null : await read(now.path);
  if (now !== null && current !== null) {
    return await oldSide(
      project,
      patch,
      now,
      current,
      oldPath,
      otherSide(patch, current.lines, "new"),
    );
  }
  const text = await showAt(project.root, base, oldPath);
  return text === null ? null : await definitionsOf(oldPath, text);
}

/** Both sides of one file of the diff, and whether the index holds the new one. */
async function sides(
  project: Project,
  graph: CodeGraph,
  patch: FilePatch,
  from: OldSide,
  read: Read,
): Promise<{ old: Side | null; new: Side | null; applied: boolean }> {
  const oldPath = patch.oldPath === null ? null : locate(graph, patch.oldPath, from);
  const newPath = patch.newPath === null ? null : locate(graph, patch.newPath, from);
  const indexed = (p: string | null): Side | null => {
    const f = p === null ? undefined : graph.byPath.get(p);
    return f ? { path: f.path, symbols: f.symbols, indexed: true } : null;
  };
  const none = (applied: boolean) => ({ old: null, new: null, applied });
  const only = (mark: "+" | "-") =>
    patch.hunks.flatMap((h) => h.lines.filter((l) => l.mark === mark).map((l) => l.text));
  if (from.kind === "git") {
    // The working tree is the new side (as indexed); the old one is the file at the base.
    const now = indexed(newPath);
    if (newPath !== null && now === null) return none(true); // not code the index reads
    if (oldPath === null) return { old: null, new: now, applied: true };
    const symbols = await atBase(project, patch, from, oldPath, now, only("-"), read);
    const old = symbols === null ? null : { path: oldPath, symbols, indexed: false };
    return { old, new: now, applied: true };
  }
  if (patch.binary) return none(true);
  if (oldPath === null) {
    // A new file: in the tree already, or about to be added.
    const now = indexed(newPath);
    if (now) return { old: null, new: now, applied: true };
    if (await read(newPath!)) return none(true);
    return {
      old: null,
      new: { path: newPath!, symbols: await parsed(newPath!, only("+")), indexed: false },
      applied: false,
    };
  }
  if (newPath === null) {
    // A deleted file: still in the tree (about to go), or gone.
    const was = indexed(oldPath);
    if (was) return { old: was, new: null, applied: false };
    if (await read(oldPath)) return none(false);
    return {
      old: { path: oldPath, symbols: await parsed(oldPath, only("-")), indexed: false },
      new: null,
      applied: true,
    };
  }
  // Changed (or renamed): the file as it is now is one of the two sides.
  const atNew = await read(newPath);
  const atOld = atNew === null && oldPath !== newPath ? await read(oldPath) : null;
  const current = atNew ?? atOld;
  if (current === null) {
    throw new CodectxError(
      "invalid_argument",
      `the diff changes ${patch.newPath}, which is not in the project; check the path (relative to the project root), or re-index with index_project`,
    );
  }
  const path = atNew !== null ? newPath : oldPath;
  const side = sideOf(patch, path, current.lines);
  const here = indexed(path);
  if (here === null) return none(side === "new"); // not code the index reads
  const other = otherSide(patch, current.lines, side);
  if (side === "new") {
    const { symbols } = await oldSide(project, patch, here, current, oldPath, other);
    return {
      old: { path: oldPath, symbols, indexed: false },
      new: here,
      applied: true,
    };
  }
  return {
    old: here,
    new: { path: newPath, symbols: await parsed(newPath, other), indexed: false },
    applied: false,
  };
}

/** The definitions `patches` add, edit and remove, file by file. */
export async function changesOf(
  project: Project,
  graph: CodeGraph,
  patches: FilePatch[],
  from: OldSide,
): Promise<Changes> {
  const files: ChangedFile[] = [];
  const changes: Change[] = [];
  const reads = new Map<string, Promise<FileText | null>>();
  const read: Read = (path) => {
    let r = reads.get(path);
    if (!r) reads.set(path, r = readText(project, path));
    return r;
  };
  // The files whose base side is parsed are read all at once (each read waits its turn on
  // another thread).
  if (from.kind === "git") {
    for (const p of patches) {
      if (p.newPath === null || p.oldPath === null || !graph.byPath.has(p.newPath)) continue;
      const language = languageForPath(p.oldPath)?.id;
      if (!p.oldBlob || !language || !from.kept?.has(p.oldBlob, language)) read(p.newPath);
    }
  }
  for (const patch of patches) {
    const s = await sides(project, graph, patch, from, read);
    const { removed, added } = changedLines(patch.hunks);
    const file = s.new?.path ?? s.old?.path ?? patch.newPath ?? patch.oldPath!;
    const renamed = s.old !== null && s.new !== null && s.old.path !== s.new.path;
    files.push({
      file,
      status: patch.oldPath === null
        ? "added"
        : patch.newPath === null
        ? "deleted"
        : renamed
        ? "renamed"
        : "modified",
      old_file: renamed ? s.old!.path : null,
      applied: s.applied,
      lines_added: added.length,
      lines_deleted: removed.length,
    });
    // A whole file added or deleted: every definition in it.
    const oldTouched = s.old === null
      ? []
      : s.new === null || patch.newPath === null
      ? [...s.old.symbols]
      : touched(s.old.symbols, removed);
    const newTouched = s.new === null
      ? []
      : s.old === null || patch.oldPath === null
      ? [...s.new.symbols]
      : touched(s.new.symbols, added);
    // Definitions on both sides are matched by qualified name, in order.
    const unmatchedOld = new Map<string, SymbolRecord[]>();
    for (const o of s.old?.symbols ?? []) {
      unmatchedOld.set(o.qualifiedName, [...(unmatchedOld.get(o.qualifiedName) ?? []), o]);
    }
    const unmatchedNew = new Map<string, SymbolRecord[]>();
    for (const n of s.new?.symbols ?? []) {
      unmatchedNew.set(n.qualifiedName, [...(unmatchedNew.get(n.qualifiedName) ?? []), n]);
    }
    const seen = new Set<SymbolRecord>();
    const take = (m: Map<string, SymbolRecord[]>, s: SymbolRecord) => {
      const list = m.get(s.qualifiedName);
      const hit = list?.find((x) => !seen.has(x));
      if (hit) seen.add(hit);
      return hit;
    };
    for (const n of newTouched) {
      if (seen.has(n)) continue;
      seen.add(n);
      const o = take(unmatchedOld, n);
      const indexed = s.new!.indexed ? n : o && s.old!.indexed ? o : undefined;
      changes.push({
        wire: wireOf(n, o ? "modified" : "added", o),
        records: indexed && o ? [indexed] : [],
      });
    }
    for (const o of oldTouched) {
      if (seen.has(o)) continue;
      seen.add(o);
      const n = take(unmatchedNew, o);
      if (n) {
        changes.push({
          wire: wireOf(n, "modified", o),
          records: [s.new!.indexed ? n : o],
        });
      } else {
        changes.push({ wire: wireOf(o, "deleted"), records: s.old!.indexed ? [o] : [] });
      }
    }
  }
  return { files, changes };
}
