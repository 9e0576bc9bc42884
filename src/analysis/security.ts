/**
 * Security issues: the facts of a file (`facts.ts`) tested against the rule table
 * (`rules/table.ts`). The engine knows no rule: it evaluates the table's conditions.
 *
 * @module
 */

import type { CallFact, Fact, FileFacts, Keyword, StringFact, Value } from "./facts.ts";
import { literal } from "./facts.ts";
import { type Case, type Condition, type Level, type Rule, RULES } from "./rules/table.ts";

/** One finding, in bandit's JSON names. */
export interface SecurityIssue {
  test_id: string;
  test_name: string;
  severity: Level;
  confidence: Level;
  /** Project-relative path. */
  file: string;
  line: number;
  /** The source line. */
  code: string;
  message: string;
  cwe: number;
}

const LEVEL_RANK: Record<Level, number> = { HIGH: 3, MEDIUM: 2, LOW: 1 };

/** Orders issues by severity, then confidence, then place (most severe first). */
export function compareIssues(a: SecurityIssue, b: SecurityIssue): number {
  return LEVEL_RANK[b.severity] - LEVEL_RANK[a.severity] ||
    LEVEL_RANK[b.confidence] - LEVEL_RANK[a.confidence] ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line ||
    (a.test_id < b.test_id ? -1 : a.test_id > b.test_id ? 1 : 0);
}

/** Whether the level reaches `min`. */
export function atLeast(level: Level, min: Level): boolean {
  return LEVEL_RANK[level] >= LEVEL_RANK[min];
}

/** A language's rules for one fact kind, indexed so a call meets only its candidates. */
interface RuleSet {
  all: Rule[];
  /** Rules whose first condition names exact callees (or blacklist names, or last names). */
  byQualname: Map<string, Rule[]>;
  byBlacklist: Map<string, Rule[]>;
  byName: Map<string, Rule[]>;
  /** Rules every call must meet. */
  generic: Rule[];
  order: Map<Rule, number>;
}

const byLanguage = new Map<string, Map<string, RuleSet>>();

function push(map: Map<string, Rule[]>, key: string, rule: Rule): void {
  const list = map.get(key);
  if (list) list.push(rule);
  else map.set(key, [rule]);
}

function ruleSet(language: string, kind: string): RuleSet | undefined {
  let m = byLanguage.get(language);
  if (!m) {
    m = new Map();
    RULES.forEach((r, i) => {
      if (!r.languages.includes(language)) return;
      let set = m!.get(r.on);
      if (!set) {
        set = {
          all: [],
          byQualname: new Map(),
          byBlacklist: new Map(),
          byName: new Map(),
          generic: [],
          order: new Map(),
        };
        m!.set(r.on, set);
      }
      set.all.push(r);
      set.order.set(r, i);
      const first = r.when[0];
      const exact = (list: readonly string[]) => list.every((p) => !/[*?[]/.test(p));
      if (first?.test === "qualname" && exact(first.in)) {
        for (const q of first.in) push(set.byQualname, q, r);
      } else if (first?.test === "blacklistName" && exact(first.in)) {
        for (const q of first.in) push(set.byBlacklist, q, r);
      } else if (first?.test === "name") {
        for (const q of first.in) push(set.byName, q, r);
      } else set.generic.push(r);
    });
    byLanguage.set(language, m);
  }
  return m.get(kind);
}

/** The rules a fact may meet, in table order. */
function candidates(set: RuleSet, fact: Fact): Rule[] {
  if (fact.kind !== "call") return set.all;
  const bl = blacklistName(fact);
  const keyed = [
    set.byQualname.get(fact.qualname),
    bl === null ? undefined : set.byBlacklist.get(bl),
    set.byName.get(fact.name),
  ].filter((l): l is Rule[] => !!l);
  if (keyed.length === 0) return set.generic;
  const found = [...set.generic];
  for (const list of keyed) for (const r of list) if (!found.includes(r)) found.push(r);
  return found.sort((a, b) => set.order.get(a)! - set.order.get(b)!);
}

/** Whether a language has any security rule. */
export function hasRules(language: string): boolean {
  return RULES.some((r) => r.languages.includes(language));
}

/**
 * Evaluates the rule table on a file's facts.
 *
 * @example
 * ```ts
 * const issues = evaluateRules("python", pythonFacts(g, tree.rootNode), "app.py", lines);
 * issues[0]?.test_id; // "B602"
 * ```
 */
export function evaluateRules(
  language: string,
  facts: FileFacts,
  file: string,
  lines: readonly string[],
): SecurityIssue[] {
  const issues: SecurityIssue[] = [];
  for (const fact of facts.facts) {
    if (facts.nosec.has(fact.line)) continue;
    const set = ruleSet(language, fact.kind);
    if (!set) continue;
    const groups = new Set<string>();
    const ctx = new Ctx(fact, facts);
    for (const rule of candidates(set, fact)) {
      if (rule.group && groups.has(rule.group)) continue;
      ctx.reset();
      if (!rule.when.every((c) => ctx.test(c))) continue;
      let outcome: Case | null = null;
      for (const c of rule.cases ?? []) {
        if (c.when.every((w) => ctx.test(w))) {
          outcome = c;
          break;
        }
      }
      if (rule.group) groups.add(rule.group);
      if (outcome?.none) continue;
      const line = rule.line && fact.kind === "call"
        ? keywordOf(fact, rule.line.keyword)?.value.line ?? fact.line
        : fact.line;
      if (facts.nosec.has(line)) continue;
      issues.push({
        test_id: rule.id,
        test_name: rule.name,
        severity: outcome?.severity ?? rule.severity,
        confidence: outcome?.confidence ?? rule.confidence,
        file,
        line,
        code: (lines[line - 1] ?? "").trimEnd(),
        message: ctx.render(outcome?.message ?? rule.message),
        cwe: rule.cwe,
      });
    }
  }
  return issues;
}

function keywordOf(call: CallFact, name: string): Keyword | undefined {
  return call.keywords.find((k) => k.name === name);
}

/** Shell-style wildcard match (`telnetlib.*`), case-sensitive like fnmatch on POSIX. */
function fnmatch(name: string, pattern: string): boolean {
  if (!/[*?[]/.test(pattern)) return name === pattern;
  let re = FNMATCH_CACHE.get(pattern);
  if (!re) {
    re = new RegExp(
      "^" + pattern.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".") +
        "$",
      "s",
    );
    FNMATCH_CACHE.set(pattern, re);
  }
  return re.test(name);
}
const FNMATCH_CACHE = new Map<string, RegExp>();

/** bandit's full-path test: a drive letter, a slash, a backslash or a dot first. */
const FULL_PATH = /^(?:[A-Za-z](?=:)|[\\/.])/;

/** Conditions evaluated against one fact. */
class Ctx {
  /** Filled by conditions for the message. */
  private vars: Record<string, string> = {};

  constructor(private readonly fact: Fact, private readonly file: FileFacts) {}

  /** Forgets what the previous rule's conditions set. */
  reset(): void {
    this.vars = {};
  }

  test(c: Condition): boolean {
    const f = this.fact;
    switch (c.test) {
      case "qualname":
        return f.kind === "call" && c.in.some((p) => fnmatch(f.qualname, p));
      case "notQualname":
        return f.kind === "call" && !c.in.some((p) => fnmatch(f.qualname, p));
      case "blacklistName": {
        if (f.kind !== "call") return false;
        const name = blacklistName(f);
        if (name === null) return false;
        const hit = c.in.some((p) => fnmatch(name, p));
        if (hit) this.vars.name = name;
        return hit;
      }
      case "name":
        return f.kind === "call" && c.in.includes(f.name);
      case "nameContains":
        return f.kind === "call" && f.name.includes(c.value);
      case "qualnameContains":
        return f.kind === "call" && f.qualname.includes(c.value);
      case "qualnameEndsWith":
        return f.kind === "call" && f.qualname.endsWith(c.value);
      case "qualnameParts": {
        if (f.kind !== "call") return false;
        const parts = f.qualname.split(".");
        return parts.includes(c.part) && parts[parts.length - 1] === c.last;
      }
      case "imported": {
        if (c.exact) return this.file.imports.has(c.module);
        for (const m of this.file.imports) if (m.includes(c.module)) return true;
        return false;
      }
      case "keyword": {
        if (f.kind !== "call") return false;
        const k = keywordOf(f, c.name);
        return !!k && c.in.includes(literal(k.value) as string);
      }
      case "keywordNotIn": {
        if (f.kind !== "call") return false;
        const k = keywordOf(f, c.name);
        return !k || !c.in.includes(literal(k.value) as string);
      }
      case "keywordAbsent":
        return f.kind === "call" && !keywordOf(f, c.name);
      case "keywordPresent":
        return f.kind === "call" && !!keywordOf(f, c.name);
      case "keywordNameMatches": {
        if (f.kind !== "call") return false;
        const k = f.keywords.find((k) =>
          k.name && k.value.kind === "str" && c.pattern.test(k.name)
        );
        if (k && k.value.kind === "str") this.vars.keywordValue = k.value.value;
        return !!k;
      }
      case "shell":
        return f.kind === "call" && hasShell(f) === c.value;
      case "argCount":
        return f.kind === "call" && (c.min === undefined || f.args.length >= c.min) &&
          (c.max === undefined || f.args.length <= c.max);
      case "argIsString": {
        if (f.kind !== "call") return false;
        const a = f.args[c.index];
        return !!a && (a.kind === "str" && !a.bytes) === c.value;
      }
      case "arg": {
        if (f.kind !== "call") return false;
        const a = f.args[c.index];
        if (!a) return false;
        const v = a.kind === "attr" ? a.value : literal(a);
        return (typeof v === "string" || typeof v === "number") && c.in.includes(v);
      }
      case "argIntMask": {
        if (f.kind !== "call") return false;
        const a = f.args[c.index];
        return a?.kind === "num" && Number.isInteger(a.value) && (a.value & c.mask) !== 0;
      }
      case "argOrKeywordLower": {
        if (f.kind !== "call") return false;
        const v = f.args[c.index] ?? keywordOf(f, c.keyword)?.value;
        const lit = v ? (v.kind === "attr" ? v.value : literal(v)) : null;
        return typeof lit === "string" && c.in.includes(lit.toLowerCase());
      }
      case "sizeBelow": {
        if (f.kind !== "call") return false;
        const v = keywordOf(f, c.keyword)?.value ?? f.args[c.index];
        const lit = v ? literal(v) : null;
        if (typeof lit === "string") return false;
        const size = typeof lit === "number" && lit !== 0 ? lit : c.fallback;
        return size < c.below;
      }
      case "partialPath": {
        if (f.kind !== "call") return false;
        let a: Value | undefined = f.args[0];
        if (a?.kind === "list") a = a.items[0];
        return a?.kind === "str" && !a.bytes && !FULL_PATH.test(a.value);
      }
      case "wildcard": {
        if (f.kind !== "call") return false;
        const lit = f.args[0] ? literal(f.args[0]) : null;
        const text = Array.isArray(lit)
          ? lit.map((x) => ` ${x === null ? "None" : String(x)}`).join("")
          : typeof lit === "string"
          ? lit
          : "";
        return text !== "" && text.includes("*") && c.commands.some((cmd) => text.includes(cmd));
      }
      case "argDynamic": {
        if (f.kind !== "call") return false;
        const a = f.args[c.index];
        return !!a && isDynamic(a);
      }
      case "nestedKeyword": {
        if (f.kind !== "call") return false;
        const k = f.nestedKeywords.find((k) => k.name === c.name);
        if (!k) return c.is === "absent";
        const v = k.value;
        const isFalse = (v.kind === "const" || v.kind === "name") && v.value === "False";
        const isSafe = ((v.kind === "const" || v.kind === "name") && v.value === "True") ||
          (v.kind === "call" && v.qualname.split(".").pop() === "select_autoescape");
        if (c.is === "False") return isFalse;
        if (c.is === "safe") return isSafe;
        return c.is === "other" && !isFalse && !isSafe;
      }
      case "contextMatches":
        return f.kind === "call" && c.pattern.test(f.context);
      case "value":
        return f.kind === "string" && c.in.includes(f.value);
      case "valueStartsWith":
        return f.kind === "string" && c.in.some((p) => f.value.startsWith(p));
      case "valueMatches":
        return f.kind === "string" && c.pattern.test(f.value);
      case "assignedToMatches":
        return f.kind === "string" && f.assignedTo.some((n) => c.pattern.test(n)) &&
          this.set("value", f.value);
      case "keyOfStringAssignmentMatches":
        return f.kind === "string" && f.keyOfStringAssignment !== null &&
          c.pattern.test(f.value) && this.set("assigned", f.keyOfStringAssignment);
      case "comparedWithMatches":
        return f.kind === "string" && f.comparedWith !== null &&
          c.pattern.test(f.comparedWith) && this.set("value", f.value);
      case "builtMatches":
        return builtMatches(f, c.pattern, c.callee);
      case "importPrefix": {
        if (f.kind !== "import") return false;
        const prefix = f.from && f.module ? `${f.module}.` : "";
        for (const { name } of f.names) {
          if (c.in.some((p) => (prefix + name).startsWith(p))) {
            this.vars.name = name;
            return true;
          }
        }
        if (f.from && f.names.length === 0 && c.in.some((p) => f.module.startsWith(p))) {
          this.vars.name = f.module;
          return true;
        }
        return false;
      }
      case "caught":
        return f.kind === "except" && f.caught !== null && c.in.includes(f.caught);
      case "only":
        return f.kind === "except" && f.only === c.value;
      case "defaultStringFor": {
        if (f.kind !== "function") return false;
        const d = f.defaults.find((d) => d.value.kind === "str" && c.pattern.test(d.param));
        if (d && d.value.kind === "str") this.vars.defaultValue = d.value.value;
        return !!d;
      }
      case "defaultAttributeIn":
        return f.kind === "function" &&
          f.defaults.some((d) => c.in.includes(d.qualname.split(".").pop() ?? ""));
      case "property":
        return f.kind === "assign" && c.in.includes(f.name) && this.set("name", f.name);
      case "assignedValue": {
        if (f.kind !== "assign") return false;
        const v = f.value;
        if (c.is === "false") {
          return (v.kind === "const" && v.value === "False") ||
            (v.kind === "num" && v.value === 0) || (v.kind === "str" && v.value === "0");
        }
        if (c.is === "true") return v.kind === "const" && v.value === "True";
        if (c.is === "nonEmptyString") return v.kind === "str" && v.value !== "";
        return isDynamic(v) || v.kind === "name" || v.kind === "attr" || v.kind === "call" ||
          v.kind === "other";
      }
    }
  }

  private set(name: string, value: string): true {
    this.vars[name] = value;
    return true;
  }

  /** Fills `{name}`, `{qualname}`, `{arg0}`, `{arg1:oct}` and the values tests set. */
  render(message: string): string {
    const f = this.fact;
    return message.replace(/\{(\w+)(?::(oct))?\}/g, (all, key: string, fmt?: string) => {
      if (key in this.vars) return this.vars[key];
      if (f.kind === "call") {
        if (key === "qualname") return f.qualname;
        if (key === "name") return f.qualname || f.name;
        const m = /^arg(\d)$/.exec(key);
        if (m) {
          const a = f.args[Number(m[1])];
          const lit = a ? literal(a) : null;
          if (typeof lit === "number" && fmt === "oct") return `0o${lit.toString(8)}`;
          return lit === null || Array.isArray(lit) ? "NOT PARSED" : String(lit);
        }
      }
      return all;
    });
  }
}

/** bandit's blacklist name of a call: `__import__("m")` and `importlib.import_module("m")` name `m`. */
function blacklistName(f: CallFact): string | null {
  if (f.qualname === "__import__") {
    if (f.args.length === 0) return "";
    const a = f.args[0];
    return a.kind === "str" ? a.value : "UNKNOWN";
  }
  if (f.qualname === "importlib.import_module" || f.qualname === "importlib.__import__") {
    const lit = f.args[0]
      ? (f.args[0].kind === "attr" ? f.args[0].value : literal(f.args[0]))
      : null;
    return typeof lit === "string" ? lit : null;
  }
  return f.qualname;
}

/** bandit's `has_shell`: the `shell=` keyword's truth. */
function hasShell(f: CallFact): boolean {
  const k = keywordOf(f, "shell");
  if (!k) return false;
  const v = k.value;
  switch (v.kind) {
    case "num":
      return v.value !== 0;
    case "list":
      return v.items.length > 0;
    case "dict":
      return v.entries.length > 0;
    case "const":
      return v.value === "True";
    default:
      return true;
  }
}

/** Built by interpolation, concatenation with a non-literal, or formatting. */
function isDynamic(v: Value): boolean {
  if (v.kind === "fstr") return true;
  if (v.kind === "concat") return v.parts.some((p) => p.kind !== "str" && p.kind !== "num");
  return false;
}

/** The literal text of a value: strings, and the literal parts of built strings. */
function literalText(v: Value): string {
  if (v.kind === "str" || v.kind === "fstr") return v.value;
  if (v.kind === "concat") return v.parts.map(literalText).join(" ");
  return "";
}

function builtMatches(f: Fact, pattern: RegExp, callee?: readonly string[]): boolean {
  if (f.kind === "string") return stringBuilt(f, pattern, callee);
  if (f.kind !== "call") return false;
  return f.args.slice(0, 2).some((a) => isDynamic(a) && pattern.test(literalText(a)));
}

function stringBuilt(f: StringFact, pattern: RegExp, callee?: readonly string[]): boolean {
  if (!f.built || !pattern.test(f.built.text)) return false;
  return !callee || callee.includes(f.built.callee);
}
