/**
 * What `get_impact` asks git: the diff of the working tree (staged and unstaged) against a
 * revision, the files git does not track yet, and a file as it was at the revision. git runs
 * as a subprocess with fixed arguments (no shell); a revision is checked before it is used.
 *
 * @module
 */

import { CodectxError } from "../../errors.ts";

/** The output of `git -C root ...args`, or the error that says what to do. */
async function git(root: string, args: string[], what: string): Promise<string> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("git", {
      args: ["-C", root, "-c", "core.quotepath=false", ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      // No pager, no prompt, no lock taken for a read.
      env: { GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0" },
    }).output();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new CodectxError(
        "invalid_argument",
        "git is not installed here; pass diff (a unified diff) or symbols instead of base",
      );
    }
    throw err;
  }
  if (!out.success) {
    const msg = new TextDecoder().decode(out.stderr).trim().split("\n")[0];
    throw new CodectxError("internal", `git ${what} failed: ${msg}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/**
 * Fails unless `root` is inside a git work tree and `base` names a commit there: a root
 * without git, or a revision git does not know, is `invalid_argument` naming it.
 */
export async function checkBase(root: string, base: string): Promise<void> {
  if (base.startsWith("-") || /[\s\0]/.test(base)) {
    throw new CodectxError(
      "invalid_argument",
      `base '${base}' is not a revision; pass a branch, tag, commit or HEAD~N`,
    );
  }
  try {
    const inside = await git(root, ["rev-parse", "--is-inside-work-tree"], "rev-parse");
    if (inside.trim() !== "true") throw new Error("not a work tree");
  } catch (err) {
    if (err instanceof CodectxError && err.message.startsWith("git is not installed")) throw err;
    throw new CodectxError(
      "invalid_argument",
      `the project root ${root} is not inside a git work tree, so base '${base}' means nothing ` +
        "here; pass diff (a unified diff) or symbols instead",
    );
  }
  try {
    await git(
      root,
      ["rev-parse", "--verify", "--quiet", "--end-of-options", `${base}^{commit}`],
      "",
    );
  } catch {
    throw new CodectxError(
      "invalid_argument",
      `base '${base}' is not a revision git knows in ${root}; pass a branch, tag, commit or HEAD~N (git log --oneline lists commits)`,
    );
  }
}

/**
 * The diff of the working tree (staged and unstaged) against `base`, paths relative to
 * `root`, with each old side's full blob id (the key its definitions are kept by).
 */
export function diffAgainst(root: string, base: string): Promise<string> {
  return git(
    root,
    ["diff", "--no-color", "--no-ext-diff", "--full-index", "-U0", "-M", "--relative", base, "--"],
    "diff",
  );
}

/** Files under `root` that git does not track and does not ignore (new since any commit). */
export async function untracked(root: string): Promise<string[]> {
  const out = await git(root, ["ls-files", "--others", "--exclude-standard", "-z"], "ls-files");
  return out.split("\0").filter(Boolean);
}

/** The text of `path` (relative to `root`) at `base`, or null when it did not exist there. */
export async function showAt(root: string, base: string, path: string): Promise<string | null> {
  try {
    return await git(root, ["show", `${base}:./${path}`], "show");
  } catch {
    return null;
  }
}
