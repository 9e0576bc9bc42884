/**
 * Walks a project tree the way git sees it: `.gitignore` files at every depth,
 * `.git/info/exclude` and a root `.codectxignore`, with vendored and build folders skipped
 * and symlinks followed only while they stay inside the root.
 *
 * @example
 * ```ts
 * import { walk } from "./walker.ts";
 * const files = await walk(".", { onSkip: (path, reason) => console.log(reason, path) });
 * ```
 *
 * @module
 */

import type { Ignore } from "npm:ignore@7.0.5";
import { matchOwn, newIgnore, readIgnoreFile } from "./ignore_rules.ts";
import { gitDirsAt, trackedFolders } from "./git_index.ts";
import { declaredOutput } from "./output_dirs.ts";
import { generatedBeside, languageForPath } from "../parse/languages.ts";
import type { WalkEntry } from "../types.ts";

/** Options for {@linkcode walk}. */
export interface WalkOptions {
  /** Extra ignore patterns (gitignore syntax) applied at the root. */
  extraIgnores?: string[];
  /** Max file size in bytes; larger files are skipped (default 1 MiB = 1_048_576). */
  maxFileSize?: number;
  /** Keep only paths this predicate accepts (e.g. known languages); called with the relative path. */
  accept?: (relPath: string) => boolean;
  /**
   * Called for each skipped file/dir with a reason; `detail` says more, in words, when the
   * reason alone does not tell the user what to do (a name that cannot be a path here).
   */
  onSkip?: (relPath: string, reason: SkipReason, detail?: string) => void;
  /** Called for each directory listed (the root first, as `""`), with its real path. */
  onDir?: (relPath: string, realPath: string) => void;
}

/** Why {@linkcode walk} left a file or directory out. */
export type SkipReason =
  | "ignored"
  | "default_skip"
  | "too_large"
  | "symlink_outside_root"
  | "unreadable"
  | "not_accepted"
  | "symlink_loop"
  | "control_character_in_name"
  | "name_not_utf8";

/**
 * Reasons that concern a file's name rather than its content: an index report lists such
 * files one by one (with the walk's detail), since nothing else would show they exist.
 */
export const NAME_SKIP_REASONS: ReadonlySet<SkipReason> = new Set<SkipReason>([
  "control_character_in_name",
  "name_not_utf8",
]);

/**
 * Directory names skipped by default at any depth: version-control metadata, dependency
 * folders, virtual environments, caches, editor state, and build, coverage or vendored
 * output. Version-control metadata is never walked; the output folders
 * ({@linkcode OUTPUT_DIRS}) only when they look like output; the others unless the root
 * `.codectxignore` re-includes them (`!node_modules/`).
 */
export const DEFAULT_SKIP_DIRS: readonly string[] = Object.freeze([
  // version control
  ".git",
  ".hg",
  ".svn",
  // dependencies and vendored code
  "node_modules",
  "bower_components",
  "vendor",
  // Python environments and caches
  ".venv",
  "venv",
  "__pycache__",
  ".tox",
  ".nox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  // build output
  "dist",
  "build",
  "target",
  ".next",
  ".nuxt",
  ".gradle",
  ".terraform",
  // tooling state and reports
  ".idea",
  ".vscode",
  ".cache",
  "coverage",
]);

/**
 * Default-skipped names that a project may also use for its own source (`src/core/build/`,
 * Go's `vendor/`): such a folder is walked when git tracks a file in it, or — untracked or
 * outside git — when it holds source in one of the languages of the rest of the project and
 * no manifest beside it declares it an output folder.
 */
export const OUTPUT_DIRS: readonly string[] = Object.freeze([
  "vendor",
  "dist",
  "build",
  "target",
  "coverage",
]);

/**
 * The default-skipped names a walk never enters on its own (dependency, environment, cache
 * and editor folders, version control): what a watcher may ignore events under.
 */
export const UNWALKED_DIRS: readonly string[] = Object.freeze(
  DEFAULT_SKIP_DIRS.filter((d) => !OUTPUT_DIRS.includes(d)),
);

/** Version-control metadata: never walked, whatever the ignore files say. */
const VCS_DIRS = new Set([".git", ".hg", ".svn"]);

/** Default for {@linkcode WalkOptions.maxFileSize}: 1 MiB. */
const DEFAULT_MAX_FILE_SIZE = 1_048_576;

/**
 * Size limit of a file no language row names (plain text, `PLAIN_TEXT` in languages.ts): 256 KiB,
 * which keeps out data dumps and generated tables and keeps hand-written text (curl's
 * `docs/cmdline-opts/*.d`, man pages). At 1 MiB git's index grew 44%, its `po/*.po` mostly.
 */
export const PLAIN_TEXT_MAX_SIZE = 262_144;

/** Longest stretch of synchronous filesystem work before the walk yields to the event loop. */
const YIELD_EVERY_MS = 8;

const skipDirs = new Set(DEFAULT_SKIP_DIRS);
const outputDirs = new Set(OUTPUT_DIRS);

/** Names that git never treats as part of the tree, whether file or directory. */
const isGitMeta = (name: string) => name === ".git";

/**
 * Walks `root` and returns the files a reader of the project cares about, sorted by path.
 *
 * Ignore rules follow git, lowest precedence first: `.git/info/exclude`, then each
 * `.gitignore` from the root down to the file's own directory (patterns relative to the
 * directory that holds them), then the root `.codectxignore`, then `extraIgnores`. The last
 * matching pattern wins, and nothing below an excluded directory is looked at, so a negation
 * cannot re-include a file whose parent directory is excluded.
 *
 * @example
 * ```ts
 * const skipped: string[] = [];
 * const files = await walk("/repo", {
 *   accept: (path) => path.endsWith(".ts"),
 *   onSkip: (path, reason) => skipped.push(`${reason} ${path}`),
 * });
 * files[0]; // { path: "src/main.ts", absPath: "/repo/src/main.ts", size: 812, mtimeMs: ... }
 * ```
 */
export async function walk(root: string, opts: WalkOptions = {}): Promise<WalkEntry[]> {
  const { accept, onSkip, extraIgnores } = opts;
  const maxFileSize = opts.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  const realRoot = slashes(await Deno.realPath(root));
  const rootPrefix = realRoot.endsWith("/") ? realRoot : realRoot + "/";
  const entries: WalkEntry[] = [];

  const exclude = readIgnoreFile(`${gitDirsAt(realRoot)?.commonDir}/info/exclude`);
  const base: Scope | null = exclude ? { dir: "", rules: exclude, parent: null } : null;
  const overrides: Ignore[] = [];
  const codectxIgnore = readIgnoreFile(`${rootPrefix}.codectxignore`);
  if (codectxIgnore) overrides.push(codectxIgnore);
  if (extraIgnores?.length) overrides.push(newIgnore().add(extraIgnores));

  const skip = (path: string, reason: SkipReason, detail?: string) =>
    onSkip?.(path, reason, detail);
  const isIgnored = (path: string, isDir: boolean, scope: Scope | null) =>
    ignoredBy(path, isDir, scope, overrides);
  const inRoot = (real: string) => real === realRoot || real.startsWith(rootPrefix);
  /** Folders under which git tracks files (null outside git), read when first needed. */
  let tracked: Set<string> | null | undefined;
  /** Languages of the source files met outside default-skipped folders. */
  const languages = new Set<string>();
  /** Output-named folders waiting for the project's languages to be known. */
  const deferred: Pending[] = [];

  /**
   * Why a default-skipped folder stays out (a sentence), `walk` when it is walked after all
   * (re-included by `.codectxignore`, or git tracks files in it), `defer` when its content
   * decides once the rest of the project is walked.
   */
  const byDefault = (path: string, name: string, parent: string): string => {
    if (VCS_DIRS.has(name)) return "walk-never";
    if (reincluded(path, overrides)) return "walk";
    if (!outputDirs.has(name)) return `a ${name} folder holds dependencies, caches or tool state`;
    if (tracked === undefined) tracked = trackedFolders(realRoot);
    if (tracked?.has(path)) return "walk";
    const declared = declaredOutput(parent, name);
    if (declared) return `${declared} declares it an output folder`;
    return "defer";
  };
  const skipByDefault = (path: string, why: string) =>
    skip(
      path,
      "default_skip",
      `skipped by default: ${why}; add \`!${path}/\` to .codectxignore to index it`,
    );
  const stack: Pending[] = [{
    rel: "",
    realDir: realRoot,
    scope: base,
    ancestors: new Set([realRoot]),
  }];

  /** Follows a symlink if it stays in the root; a link not followed is, to git, a file. */
  const resolveLink = (path: string, scope: Scope | null): Target | SkipReason => {
    const real = tryFs(() => slashes(Deno.realPathSync(rootPrefix + path)));
    if (real === null) return isIgnored(path, false, scope) ? "ignored" : "unreadable";
    if (!inRoot(real)) return isIgnored(path, false, scope) ? "ignored" : "symlink_outside_root";
    const info = tryFs(() => Deno.statSync(real));
    return info ? { isDir: info.isDirectory, real } : "unreadable";
  };

  /** Keeps, queues or skips one directory entry. */
  const visit = (
    child: Deno.DirEntry,
    dir: Pending,
    scope: Scope | null,
    siblings: ReadonlySet<string>,
  ) => {
    const path = dir.rel ? `${dir.rel}/${child.name}` : child.name;
    if (isGitMeta(child.name)) return skip(path, "default_skip");
    const badName = nameProblem(child.name, child.isDirectory, dir.realDir);
    if (badName) {
      if (isIgnored(path, child.isDirectory, scope)) return skip(path, "ignored");
      if (!child.isDirectory && accept && !accept(path)) return skip(path, "not_accepted");
      return skip(path, badName.reason, badName.detail);
    }
    const target = child.isSymlink
      ? resolveLink(path, scope)
      : { isDir: child.isDirectory, real: `${dir.realDir}/${child.name}` };
    if (typeof target === "string") return skip(path, target);

    if (target.isDir) {
      const why = skipDirs.has(child.name) ? byDefault(path, child.name, dir.realDir) : "walk";
      if (why === "walk-never") return skip(path, "default_skip");
      if (why !== "walk" && why !== "defer") return skipByDefault(path, why);
      if (isIgnored(path, true, scope)) return skip(path, "ignored");
      if (dir.ancestors.has(target.real)) return skip(path, "symlink_loop");
      const ancestors = new Set(dir.ancestors).add(target.real);
      const pending = { rel: path, realDir: target.real, scope, ancestors, deferred: dir.deferred };
      return void (why === "defer" ? deferred : stack).push(pending);
    }

    if (isIgnored(path, false, scope)) return skip(path, "ignored");
    const source = generatedBeside(child.name, siblings);
    if (source) {
      return skip(path, "default_skip", `generated from ${source} beside it, which is indexed`);
    }
    const language = languageForPath(path);
    if (language?.grammar && !dir.deferred) languages.add(language.id);
    if (accept && !accept(path)) return skip(path, "not_accepted");
    const absPath = rootPrefix + path;
    const info = tryFs(() => Deno.statSync(absPath));
    // FIFOs, sockets and devices are not source files, and reading a FIFO would block.
    if (!info?.isFile) return skip(path, "unreadable");
    const limit = language?.unnamed ? Math.min(maxFileSize, PLAIN_TEXT_MAX_SIZE) : maxFileSize;
    if (info.size > limit) return skip(path, "too_large");
    entries.push({ path, absPath, size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 });
  };

  // Depth-first with an explicit stack. Filesystem calls are synchronous: on a warm cache
  // they take microseconds, while each async op pays a thread hop (measured on 34k files:
  // 1.5 s async with 32 calls in flight, 0.5 s sync). The walk yields to the event loop
  // every few milliseconds so that a server stays responsive meanwhile.
  const pause = yielder();
  /**
   * Walks the deferred output-named folders that hold source in the project's languages
   * (any parsed language when the rest holds none) and skips the others.
   */
  const settleDeferred = () => {
    for (const dir of deferred.splice(0)) {
      const found = sourceIn(dir.realDir, languages);
      if (found) stack.push({ ...dir, deferred: true });
      else {
        const langs = [...languages].sort().join(", ") || "any parsed language";
        const name = dir.rel.slice(dir.rel.lastIndexOf("/") + 1);
        skipByDefault(dir.rel, `a ${name} folder with no source (${langs}) in it`);
      }
    }
  };
  try {
    const next = () => {
      if (stack.length === 0) settleDeferred();
      return stack.pop();
    };
    for (let dir = next(); dir; dir = next()) {
      await pause();
      const abs = dir.rel ? rootPrefix + dir.rel : realRoot;
      let children: Deno.DirEntry[];
      try {
        children = Array.from(Deno.readDirSync(abs));
      } catch (error) {
        if (!dir.rel) throw error;
        skip(dir.rel, "unreadable");
        continue;
      }
      opts.onDir?.(dir.rel, dir.realDir);
      let scope = dir.scope;
      // git does not follow a symlinked .gitignore, so neither do we.
      if (children.some((c) => c.name === ".gitignore" && c.isFile)) {
        const rules = readIgnoreFile(`${abs}/.gitignore`);
        if (rules) scope = { dir: dir.rel, rules, parent: scope };
      }
      const names = new Set(children.map((c) => c.name));
      for (const child of children) visit(child, dir, scope, names);
    }
  } finally {
    pause.close();
  }

  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Tells whether bytes look like a binary file: a NUL in the first 8 KiB (git's test), or
 * more than 10% of that prefix in control characters other than the usual whitespace and
 * escape. Bytes of 0x80 and above count as text, so UTF-8 and Latin-1 are text.
 *
 * @example
 * ```ts
 * isBinary(new TextEncoder().encode("héllo 👋")); // false
 * isBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])); // true
 * ```
 */
export function isBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  let control = 0;
  for (let i = 0; i < end; i++) {
    const b = bytes[i];
    if (b === 0) return true;
    // \b \t \n \v \f \r and ESC (ANSI colours) are ordinary in text files.
    if ((b < 0x20 && !(b >= 0x08 && b <= 0x0d) && b !== 0x1b) || b === 0x7f) control++;
  }
  return control > end * 0.1;
}

/** Files at least this large are checked for minified or generated content. */
const MINIFIED_MIN_BYTES = 32 * 1024;
/** Average line length (bytes) above which a file is taken for minified. */
const MINIFIED_AVG_LINE = 400;
/** A single line this long marks a file as minified or generated. */
const MINIFIED_LONGEST_LINE = 64 * 1024;

/**
 * Why `bytes` look minified or generated (one long line, or very long lines on average),
 * or null when they look like code a person wrote. Such files are skipped: they hold no
 * names worth finding and can take a parser a long time.
 *
 * @example
 * ```ts
 * minifiedReason(new TextEncoder().encode("def f():\n    return 1\n")); // null
 * ```
 */
export function minifiedReason(bytes: Uint8Array): string | null {
  if (endsWithSourceMap(bytes)) {
    return "generated: it ends with a sourceMappingURL comment (a bundle or compiled output " +
      "whose sources are elsewhere)";
  }
  if (bytes.length < MINIFIED_MIN_BYTES) return null;
  let lines = 1;
  let longest = 0;
  let start = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) {
    if (i - start > longest) longest = i - start;
    start = i + 1;
    lines++;
  }
  if (bytes.length - start > longest) longest = bytes.length - start;
  const average = bytes.length / lines;
  if (longest >= MINIFIED_LONGEST_LINE || average > MINIFIED_AVG_LINE) {
    return `minified or generated: ${bytes.length} bytes in ${lines} lines (longest ${longest})`;
  }
  return null;
}

/** A `//# sourceMappingURL=…` (or `/*# … *\/`) comment: the whole of a line. */
const SOURCE_MAP_COMMENT = /^[ \t]*(?:\/\/|\/\*)[#@] sourceMappingURL=\S+[ \t]*(?:\*\/)?\s*$/;

/**
 * Whether a file's last line says where its source map is: a bundler or compiler wrote it
 * from sources of its own (nunjucks's `browser/nunjucks.js` holds every function of `src/`
 * again), so it is no code a person edits here.
 */
function endsWithSourceMap(bytes: Uint8Array): boolean {
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 10 || bytes[end - 1] === 13 || bytes[end - 1] === 32)) {
    end--;
  }
  const start = bytes.lastIndexOf(10, end - 1) + 1;
  // `//# s` at least: a short last line is no source map comment.
  if (end - start < 20) return false;
  return SOURCE_MAP_COMMENT.test(new TextDecoder().decode(bytes.subarray(start, end)));
}

/** C0 control characters and DEL: a line break, a tab, an escape sequence's ESC… */
// deno-lint-ignore no-control-regex
const CONTROL_CHARACTERS = /[\x00-\x1f\x7f]/g;

/**
 * Why a directory entry's name cannot be a path of the index, or null when it can. A name
 * with a line break would be cut where codectx writes one path per line (stored path lists,
 * `file:line` output, Markdown) — `new\nline.py` was indexed as `new` — and other control
 * characters would be read by the user's terminal as commands. A name whose bytes are not
 * UTF-8 comes to us with U+FFFD in their place, a name under which nothing can be opened.
 */
function nameProblem(
  name: string,
  isDir: boolean,
  parent: string,
): { reason: SkipReason; detail: string } | null {
  const rename = isDir
    ? "rename the folder to index the files in it"
    : "rename the file to index it";
  const controls = name.match(CONTROL_CHARACTERS);
  if (controls) {
    const shown = [...new Set(controls)].map(escapeControl).join(", ");
    return {
      reason: "control_character_in_name",
      detail: `the name holds ${shown}: codectx writes one path per line, and a path with ` +
        `control characters would be cut or garbled there; ${rename}`,
    };
  }
  // A name that really holds U+FFFD is there under that name.
  if (name.includes("\uFFFD") && tryFs(() => Deno.lstatSync(`${parent}/${name}`)) === null) {
    return {
      reason: "name_not_utf8",
      detail: `the name is not valid UTF-8 (shown with \uFFFD where its bytes are not), so ` +
        `codectx cannot open it by name; ${rename} with a UTF-8 name (e.g. convmv -f latin1 -t utf-8)`,
    };
  }
  return null;
}

/** `\n`, `\t`, `\x1b`: a control character as a person would type it. */
function escapeControl(c: string): string {
  const named: Record<string, string> = {
    "\n": "a line break (\\n)",
    "\r": "a carriage return (\\r)",
    "\t": "a tab (\\t)",
  };
  return named[c] ?? `the control character \\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
}

/** A directory waiting to be listed. `ancestors` holds its real path and those above it. */
interface Pending {
  rel: string;
  realDir: string;
  scope: Scope | null;
  ancestors: ReadonlySet<string>;
  /** Inside an output-named folder walked for its content (its files tell no language). */
  deferred?: boolean;
}

/** Where a directory entry leads, symlinks resolved. */
interface Target {
  isDir: boolean;
  real: string;
}

/** One `.gitignore` (or `.git/info/exclude`) and the directory its patterns are relative to. */
interface Scope {
  dir: string;
  rules: Ignore;
  parent: Scope | null;
}

/**
 * Applies every scope from the root down, then the overrides; the last pattern that matches
 * decides, as in git. Each list is asked about the path itself only: excluded parents never
 * get this far because the walk does not descend into them.
 */
function ignoredBy(
  path: string,
  isDir: boolean,
  scope: Scope | null,
  overrides: readonly Ignore[],
): boolean {
  const chain: Scope[] = [];
  for (let s = scope; s; s = s.parent) chain.push(s);
  let ignored = false;
  const apply = (rules: Ignore, relPath: string) => {
    const result = matchOwn(rules, isDir ? relPath + "/" : relPath);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  };
  for (let i = chain.length - 1; i >= 0; i--) {
    const { dir, rules } = chain[i];
    apply(rules, dir ? path.slice(dir.length + 1) : path);
  }
  for (const rules of overrides) apply(rules, path);
  return ignored;
}

/**
 * Whether the root `.codectxignore` (or the extra patterns) re-includes a folder skipped by
 * default, as `!build/` does: the last rule of the last list that matches decides.
 */
function reincluded(path: string, overrides: readonly Ignore[]): boolean {
  let again = false;
  for (const rules of overrides) {
    const result = matchOwn(rules, `${path}/`);
    if (result.unignored) again = true;
    else if (result.ignored) again = false;
  }
  return again;
}

/** How many entries {@linkcode sourceIn} looks at before it calls a folder output. */
const SOURCE_SCAN_LIMIT = 20_000;

/**
 * The first source file under `dir` (real path) in one of `languages` (in any parsed
 * language when `languages` is empty), or null: dot folders and default-skipped names are
 * not entered, and the scan stops after {@linkcode SOURCE_SCAN_LIMIT} entries.
 */
function sourceIn(dir: string, languages: ReadonlySet<string>): string | null {
  const stack = [dir];
  let seen = 0;
  for (let d = stack.pop(); d !== undefined && seen < SOURCE_SCAN_LIMIT; d = stack.pop()) {
    const children = tryFs(() => Array.from(Deno.readDirSync(d)));
    for (const child of children ?? []) {
      seen++;
      if (child.isDirectory) {
        if (!child.name.startsWith(".") && !skipDirs.has(child.name)) {
          stack.push(`${d}/${child.name}`);
        }
        continue;
      }
      const language = languageForPath(child.name);
      if (language?.grammar && (languages.size === 0 || languages.has(language.id))) {
        return `${d}/${child.name}`;
      }
    }
  }
  return null;
}

/** `Deno.realPath` gives `\` on Windows; paths here always use `/`. */
function slashes(path: string): string {
  return Deno.build.os === "windows" ? path.replaceAll("\\", "/") : path;
}

/** Runs a filesystem call; null when it throws (missing, permission denied, not UTF-8...). */
function tryFs<T>(call: () => T): T | null {
  try {
    return call();
  } catch {
    return null;
  }
}

/**
 * Returns an `await`-able that lets timers and I/O run when the walk has held the thread
 * for {@linkcode YIELD_EVERY_MS}. A message round-trip costs ~0.1 ms; `setTimeout(0)` is
 * clamped to several.
 */
function yielder(): (() => Promise<void>) & { close(): void } {
  let channel: MessageChannel | null = null;
  let last = performance.now();
  const pause = async () => {
    if (performance.now() - last < YIELD_EVERY_MS) return;
    channel ??= new MessageChannel();
    const { port1, port2 } = channel;
    await new Promise<void>((resume) => {
      port1.onmessage = () => resume();
      port2.postMessage(null);
    });
    last = performance.now();
  };
  return Object.assign(pause, {
    close() {
      channel?.port1.close();
      channel?.port2.close();
    },
  });
}
