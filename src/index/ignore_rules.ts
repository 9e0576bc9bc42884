/**
 * Asking one gitignore-syntax list (a `.gitignore`, `info/exclude`, `.codectxignore`)
 * about one path, as git would, quickly: the walk asks every list from the root down about
 * every path it meets (`walker.ts`).
 *
 * @module
 */

import ignore, { type Ignore } from "npm:ignore@7.0.5";

/** How a list judged a path: ignored by its last matching rule, or re-included by a `!`. */
export interface MatchResult {
  ignored: boolean;
  unignored: boolean;
}

/** One compiled rule inside `ignore` (7.x): `regex` matches a path the way `test` does. */
interface IgnoreRule {
  negative: boolean;
  regex: RegExp;
}

/** The rule list inside `ignore` (7.x); its `test` matches one path without its parents. */
interface IgnoreInternals {
  _rules?: {
    test?: (path: string, checkUnignored: boolean, mode: string) => MatchResult;
    _rules?: IgnoreRule[];
  };
}

/**
 * One list's rules made quick to ask: most paths match no rule, and this says so in a few
 * look-ups. Rules that can only match the last segment are asked about the name alone: a
 * literal name (`modules.order`, `build/`) in a set, rules that start with `*` (`*.o`,
 * `*.c.[012]*.*`) by one combined expression searched in the name, the others (`.*`) by
 * one anchored at its start; rules that look at the whole path by a fourth. Only a path
 * one of them matched is asked rule by rule, last first, with `ignore`'s own expressions.
 */
interface QuickRules {
  rules: IgnoreRule[];
  /** Literal names any entry of that name matches, and those only a directory matches. */
  exact: Set<string>;
  exactDir: Set<string>;
  fold: boolean;
  stars: RegExp | null;
  names: RegExp | null;
  paths: RegExp | null;
}

/** A literal: escaped characters (but `/`) and characters with no meaning in a pattern. */
const LITERAL = /^(?:\\[^/]|[^\\[\]().|/^$?+*{])+$/;

const quickRules = new WeakMap<Ignore, QuickRules | null>();

/** The start `ignore` gives a rule without a slash, which matches the last segment only. */
const NAME_START = "(?:^|\\/)";
/** How such a rule ends: followed by the end, or by the `/` of a directory. */
const NAME_ENDS = ["(?=$|\\/$)", "\\/$"];

/**
 * The expression of a rule of the last segment, anchored at the name's start; null when
 * the rule's expression could match a `/` between its start and its end (a `.`, a group,
 * a class that is not `[^/]`), which then is asked about the whole path.
 */
function nameSource(source: string): { body: string; end: string } | null {
  if (!source.startsWith(NAME_START)) return null;
  const end = NAME_ENDS.find((e) => source.endsWith(e));
  if (!end) return null;
  const body = source.slice(NAME_START.length, source.length - end.length);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") {
      if (body[++i] === "/") return null;
    } else if (c === "[") {
      const close = body.indexOf("]", i + 2);
      if (close < 0) return null;
      const cls = body.slice(i, close + 1);
      if (cls.includes("/") && cls !== "[^/]" && cls !== "[^\\/]") return null;
      if (cls.includes("\\") && cls !== "[^\\/]") return null;
      i = close;
    } else if (c === "*") {
      if (body[i - 1] !== "]") return null;
    } else if (".()|/^$?+{".includes(c)) {
      return null;
    }
  }
  return { body, end };
}

/** The quick form of a list; null when `ignore`'s internals are not the ones expected. */
function quick(rules: Ignore): QuickRules | null {
  if (quickRules.has(rules)) return quickRules.get(rules)!;
  const list = (rules as unknown as IgnoreInternals)._rules?._rules;
  let made: QuickRules | null = null;
  if (Array.isArray(list) && list.every((r) => r.regex instanceof RegExp)) {
    const flags = list[0]?.regex.flags ?? "";
    const fold = flags.includes("i");
    const exact = new Set<string>();
    const exactDir = new Set<string>();
    const stars: string[] = [];
    const names: string[] = [];
    const paths: string[] = [];
    for (const r of list) {
      const name = nameSource(r.regex.source);
      if (!name) {
        paths.push(r.regex.source);
        continue;
      }
      const { body, end } = name;
      // `^[^/]*X` in a name that holds no `/` but a directory's last: X anywhere in it.
      const star = body.startsWith("[^\\/]*") ? 6 : body.startsWith("[^/]*") ? 5 : 0;
      if (star && star < body.length) stars.push(`${body.slice(star)}${end}`);
      // Case folding is left to the expression beyond ASCII (its folding is not toLowerCase's).
      else if (!star && LITERAL.test(body) && !(fold && /[\u0080-\uffff]/.test(body))) {
        const text = body.replace(/\\(.)/g, "$1");
        (end === "\\/$" ? exactDir : exact).add(fold ? text.toLowerCase() : text);
      } else names.push(`^${body}${end}`);
    }
    const anyOf = (sources: string[]) =>
      sources.length ? new RegExp(sources.map((s) => `(?:${s})`).join("|"), flags) : null;
    made = {
      rules: list,
      exact,
      exactDir,
      fold,
      stars: anyOf(stars),
      names: anyOf(names),
      paths: anyOf(paths),
    };
  }
  quickRules.set(rules, made);
  return made;
}

/** Whether a rule of `q` may match `path` (whose last segment is `name`). */
function maybe(q: QuickRules, path: string, name: string): boolean {
  if (q.exact.size || q.exactDir.size) {
    const dir = name.endsWith("/");
    let bare = dir ? name.slice(0, -1) : name;
    if (q.fold) bare = bare.toLowerCase();
    if (q.exact.has(bare) || (dir && q.exactDir.has(bare))) return true;
  }
  return !!(q.stars?.test(name) || q.names?.test(name) || q.paths?.test(path));
}

/**
 * Matches a path against one list without looking at its parent directories: the last
 * rule that matches decides (ignored, or re-included by a `!` rule), as `ignore`'s own
 * per-path test, which asks every rule's expression (~150 rules at every depth in the
 * Linux kernel's root `.gitignore`: half of a re-index with nothing changed).
 *
 * `Ignore.test()` first checks the parents against the same list, which is wrong when a
 * higher-precedence list re-included such a parent (e.g. `!gen/` in `.gitignore` over
 * `gen/` in `.git/info/exclude`): git would then judge the child on its own name. The
 * public API has no per-path test, so we use the rules `ignore` itself uses (`ignore` is
 * pinned in deno.json; `tests/walker_test.ts` pins this behaviour).
 */
export function matchOwn(rules: Ignore, path: string): MatchResult {
  const q = quick(rules);
  if (!q) {
    const own = (rules as unknown as IgnoreInternals)._rules;
    return typeof own?.test === "function" ? own.test(path, true, "regex") : rules.test(path);
  }
  const slash = path.lastIndexOf("/", path.length - 2);
  const name = slash < 0 ? path : path.slice(slash + 1);
  if (!maybe(q, path, name)) return { ignored: false, unignored: false };
  for (let i = q.rules.length - 1; i >= 0; i--) {
    const r = q.rules[i];
    if (r.regex.test(path)) return { ignored: !r.negative, unignored: r.negative };
  }
  return { ignored: false, unignored: false };
}

export function newIgnore(): Ignore {
  // git's core.ignoreCase defaults to true where file systems usually fold case.
  return ignore({ ignorecase: Deno.build.os === "darwin" || Deno.build.os === "windows" });
}

/** Reads a gitignore-syntax file; null when absent or unreadable. */
export function readIgnoreFile(path: string): Ignore | null {
  try {
    const text = Deno.readTextFileSync(path);
    // git skips a leading UTF-8 byte order mark.
    return newIgnore().add(text.replace(/^\uFEFF/, ""));
  } catch {
    return null;
  }
}
