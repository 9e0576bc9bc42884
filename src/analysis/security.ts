/**
 * Security issues: the facts of a file (`facts.ts`) tested against the rule table
 * (`rules/table.ts`). The engine knows no rule: it indexes the table by language and
 * fact kind, and evaluates each candidate rule's conditions (`conditions.ts`).
 *
 * @module
 */

import { blacklistName, Ctx, keywordOf } from "./conditions.ts";
import type { Fact, FileFacts } from "./facts.ts";
import type { Case, Level, Rule } from "./rules/rule.ts";
import { RULES } from "./rules/table.ts";

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
