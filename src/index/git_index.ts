/**
 * What git tracks under a folder, read from the work tree's index file (`.git/index`,
 * versions 2 to 4) without running git: the walk asks it whether a folder it would skip by
 * default (`build/`, `vendor/`) holds tracked files.
 *
 * @example
 * ```ts
 * const tracked = trackedFolders("/repo/packages/app");
 * tracked?.has("src/core/build"); // true when git tracks a file under it
 * ```
 *
 * @module
 */

import { dirname, isAbsolute, resolve } from "node:path";

/** Where a work tree's git files are: its own folder and the one it shares (`commondir`). */
export interface GitDirs {
  /** The work tree's top folder (the one holding `.git`). */
  top: string;
  /** Its private git folder (`.git`, or `.git/worktrees/<name>` for a linked worktree). */
  gitDir: string;
  /** The folder shared by all worktrees (`info/exclude` lives there). */
  commonDir: string;
}

/**
 * The git folders of the work tree `dir` is the top of; null when `dir` holds no `.git`.
 * `.git` is a folder in a plain clone and a `gitdir:` file in a worktree or submodule.
 */
export function gitDirsAt(dir: string): GitDirs | null {
  const dotGit = `${dir}/.git`;
  try {
    if (Deno.lstatSync(dotGit).isDirectory) return { top: dir, gitDir: dotGit, commonDir: dotGit };
    const line = Deno.readTextFileSync(dotGit).match(/^gitdir:\s*(.+?)\s*$/m);
    if (!line) return null;
    const gitDir = isAbsolute(line[1]) ? line[1] : resolve(dir, line[1]);
    let commonDir = gitDir;
    try {
      const common = Deno.readTextFileSync(`${gitDir}/commondir`).trim();
      if (common) commonDir = resolve(gitDir, common);
    } catch {
      // not a linked worktree
    }
    return { top: dir, gitDir, commonDir };
  } catch {
    return null;
  }
}

/** The git folders of the work tree that holds `dir` (itself or a folder above it). */
export function gitDirsAbove(dir: string): GitDirs | null {
  for (let d = dir;; d = dirname(d)) {
    const found = gitDirsAt(d);
    if (found) return found;
    if (dirname(d) === d) return null;
  }
}

/**
 * Every folder (relative to `root`, `/`-separated, `""` for the root) under which git tracks
 * at least one file; null when `root` is in no work tree or its index cannot be read (no
 * commit or `git add` yet, a format this reader does not know).
 */
export function trackedFolders(root: string): Set<string> | null {
  const git = gitDirsAbove(root);
  if (!git) return null;
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(`${git.gitDir}/index`);
  } catch {
    return null;
  }
  const paths = indexPaths(bytes);
  if (!paths) return null;
  const prefix = root === git.top ? "" : `${root.slice(git.top.length + 1)}/`;
  const folders = new Set<string>();
  for (const p of paths) {
    if (!p.startsWith(prefix)) continue;
    const rel = p.slice(prefix.length);
    for (let cut = rel.lastIndexOf("/"); cut > 0; cut = rel.lastIndexOf("/", cut - 1)) {
      const folder = rel.slice(0, cut);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  return folders;
}

/** The fixed part of an index entry: times, ids, mode, size, a SHA-1 and the flags. */
const ENTRY_FIXED = 62;

/**
 * The paths of an index file (`DIRC`, versions 2, 3 and 4, SHA-1 object names), in its
 * order; null when the bytes are not such a file.
 */
export function indexPaths(bytes: Uint8Array): string[] | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== 0x44495243) return null; // "DIRC"
  const version = view.getUint32(4);
  if (version < 2 || version > 4) return null;
  const count = view.getUint32(8);
  const decoder = new TextDecoder();
  const paths: string[] = [];
  let at = 12;
  let previous: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < count; i++) {
    if (at + ENTRY_FIXED > bytes.length) return null;
    const flags = view.getUint16(at + 60);
    let nameAt = at + ENTRY_FIXED;
    if (version >= 3 && flags & 0x4000) nameAt += 2;
    let name: Uint8Array;
    if (version === 4) {
      // The name is the previous one less N bytes, then the bytes up to a NUL.
      let c = bytes[nameAt++];
      let strip = c & 127;
      while (c & 128) {
        c = bytes[nameAt++];
        strip = ((strip + 1) << 7) | (c & 127);
      }
      const end = bytes.indexOf(0, nameAt);
      if (end < 0 || strip > previous.length) return null;
      const kept = previous.subarray(0, previous.length - strip);
      name = new Uint8Array(kept.length + end - nameAt);
      name.set(kept);
      name.set(bytes.subarray(nameAt, end), kept.length);
      at = end + 1;
    } else {
      const end = bytes.indexOf(0, nameAt);
      if (end < 0) return null;
      name = bytes.subarray(nameAt, end);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      at += (end - at + 8) & ~7;
    }
    previous = name;
    paths.push(decoder.decode(name));
  }
  return paths;
}
