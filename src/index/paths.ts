/**
 * Path arguments: every path a user gives is resolved inside the project root or refused.
 */

import { CodectxError } from "../errors.ts";

/** Collapses `.` and `..` segments; returns null when `..` climbs above the start. */
function normalizeSegments(parts: string[]): string[] | null {
  const out: string[] = [];
  for (const p of parts) {
    if (p === "" || p === ".") continue;
    if (p === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(p);
  }
  return out;
}

/**
 * The path inside `root` that `abs` reaches through symlinks (a link to the root from
 * outside), as segments; null when it lands outside or does not exist.
 */
function realInRoot(root: string, abs: string): string[] | null {
  let real: string;
  try {
    real = Deno.realPathSync(abs);
  } catch {
    return null;
  }
  if (real === root) return [];
  return real.startsWith(root + "/") ? real.slice(root.length + 1).split("/") : null;
}

/**
 * Resolves `input` (relative to `root`, or absolute) to a project-relative path with `/`
 * separators. `..` segments are taken from the root down; a path that climbs out of the root
 * and comes back (`../repo/a.ts`) lands where the system would open it. Refuses, with
 * `outside_root`, a path that ends outside the root, lexically or through a symlink. `root`
 * must be a real path.
 *
 * @example
 * ```ts
 * resolveInRoot("/repo", "src/../lib/a.ts"); // "lib/a.ts"
 * resolveInRoot("/repo", "./../repo/lib/a.ts"); // "lib/a.ts"
 * ```
 */
export function resolveInRoot(root: string, input: string, field = "file_path"): string {
  const raw = input.replaceAll("\\", "/").trim();
  if (raw === "") {
    throw new CodectxError(
      "invalid_argument",
      `${field} is empty; pass a path relative to the project root`,
    );
  }
  if (raw.includes("\0")) {
    throw new CodectxError("invalid_argument", `${field} contains a NUL byte`);
  }
  const refuse = () =>
    new CodectxError(
      "outside_root",
      `${field} '${input}' is outside the project root ${root}; pass a path inside it, relative to the root`,
    );
  const rootParts = root.split("/").filter(Boolean);
  const inRoot = (abs: string[] | null): string[] | null =>
    abs && abs.length >= rootParts.length && rootParts.every((p, i) => abs[i] === p)
      ? abs.slice(rootParts.length)
      : null;
  // `../proj/a.ts` leaves the root and comes back: normalized from the root's own (real)
  // path, as the system resolves it, it lands inside.
  const absolute = raw.startsWith("/") ? raw : `${root}/${raw}`;
  const rel = (raw.startsWith("/") ? null : normalizeSegments(raw.split("/"))) ??
    inRoot(normalizeSegments(absolute.split("/"))) ??
    realInRoot(root, absolute);
  if (rel === null) throw refuse();
  const relPath = rel.join("/");
  // A symlink inside the root may point out of it.
  let real: string | null = null;
  try {
    real = Deno.realPathSync(relPath === "" ? root : `${root}/${relPath}`);
  } catch {
    // The root itself gone: say that, not that the path is missing.
    if (rootIdentity(root) === null) throw rootMissingError(root);
    real = null; // does not exist: the caller reports not_found
  }
  if (real !== null && real !== root && !real.startsWith(root + "/")) throw refuse();
  return relPath;
}

/**
 * Which folder `root` is now: its device, inode and birth time, or null when nothing is there (deleted,
 * moved away) or it is no longer a folder. Two answers differ when the root was replaced.
 *
 * @example
 * ```ts
 * rootIdentity("/repo"); // "2049:1835011:1764377977751"
 * ```
 */
export function rootIdentity(root: string): string | null {
  try {
    const info = Deno.statSync(root);
    // A folder made again often gets the inode just freed; its birth time tells them apart.
    return info.isDirectory ? `${info.dev}:${info.ino}:${info.birthtime?.getTime() ?? ""}` : null;
  } catch {
    return null;
  }
}

/** The error every read of a project whose root is gone answers with. */
export function rootMissingError(root: string): CodectxError {
  return new CodectxError(
    "not_found",
    `the project root ${root} no longer exists (deleted or moved); recreate it (it is indexed ` +
      `again when it is back) or restart codectx with --path <dir>`,
  );
}
