/**
 * The conditions of security rules, tested against one fact. Each condition reads one
 * kind of fact (a call's callee, keywords or arguments; a string; an import; an except
 * handler; a function's defaults; an assignment), so testing is one stage per kind; the
 * file-level `imported` condition holds for any fact.
 *
 * @module
 */

import type {
  AssignFact,
  CallFact,
  ExceptFact,
  Fact,
  FileFacts,
  FunctionFact,
  ImportFact,
  Keyword,
  StringFact,
  Value,
} from "./facts.ts";
import { literal } from "./facts.ts";
import type { Condition } from "./rules/rule.ts";

/** Values conditions set for a rule's message (`{name}`, `{value}`, …). */
type Vars = Record<string, string>;

/** Conditions evaluated against one fact. */
export class Ctx {
  /** Filled by conditions for the message. */
  private vars: Vars = {};

  constructor(private readonly fact: Fact, private readonly file: FileFacts) {}

  /** Forgets what the previous rule's conditions set. */
  reset(): void {
    this.vars = {};
  }

  /** Whether the fact meets `c`; a condition about another kind of fact does not hold. */
  test(c: Condition): boolean {
    if (c.test === "imported") return testImported(this.file, c);
    const f = this.fact;
    switch (f.kind) {
      case "call":
        return testCall(f, c, this.vars);
      case "string":
        return testString(f, c, this.vars);
      case "import":
        return testImport(f, c, this.vars);
      case "except":
        return testExcept(f, c);
      case "function":
        return testFunction(f, c, this.vars);
      case "assign":
        return testAssign(f, c, this.vars);
      default:
        return false;
    }
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

/** `imported`: a module imported so far equals or contains the condition's module. */
function testImported(file: FileFacts, c: { module: string; exact?: boolean }): boolean {
  if (c.exact) return file.imports.has(c.module);
  for (const m of file.imports) if (m.includes(c.module)) return true;
  return false;
}

/** A call: its callee, then its keywords, then its arguments. */
function testCall(f: CallFact, c: Condition, vars: Vars): boolean {
  return testCallee(f, c, vars) ?? testKeywords(f, c, vars) ?? testArguments(f, c) ?? false;
}

/** Conditions on the callee's name; undefined for any other condition. */
function testCallee(f: CallFact, c: Condition, vars: Vars): boolean | undefined {
  switch (c.test) {
    case "qualname":
      return c.in.some((p) => fnmatch(f.qualname, p));
    case "notQualname":
      return !c.in.some((p) => fnmatch(f.qualname, p));
    case "blacklistName": {
      const name = blacklistName(f);
      if (name === null) return false;
      const hit = c.in.some((p) => fnmatch(name, p));
      if (hit) vars.name = name;
      return hit;
    }
    case "name":
      return c.in.includes(f.name);
    case "nameContains":
      return f.name.includes(c.value);
    case "qualnameContains":
      return f.qualname.includes(c.value);
    case "qualnameEndsWith":
      return f.qualname.endsWith(c.value);
    case "qualnameParts": {
      const parts = f.qualname.split(".");
      return parts.includes(c.part) && parts[parts.length - 1] === c.last;
    }
    case "contextMatches":
      return c.pattern.test(f.context);
    case "builtMatches":
      return f.args.slice(0, 2).some((a) => isDynamic(a) && c.pattern.test(literalText(a)));
    default:
      return undefined;
  }
}

/** Conditions on keyword arguments; undefined for any other condition. */
function testKeywords(f: CallFact, c: Condition, vars: Vars): boolean | undefined {
  switch (c.test) {
    case "keyword": {
      const k = keywordOf(f, c.name);
      return !!k && c.in.includes(literal(k.value) as string);
    }
    case "keywordNotIn": {
      const k = keywordOf(f, c.name);
      return !k || !c.in.includes(literal(k.value) as string);
    }
    case "keywordAbsent":
      return !keywordOf(f, c.name);
    case "keywordPresent":
      return !!keywordOf(f, c.name);
    case "keywordNameMatches": {
      const k = f.keywords.find((k) => k.name && k.value.kind === "str" && c.pattern.test(k.name));
      if (k && k.value.kind === "str") vars.keywordValue = k.value.value;
      return !!k;
    }
    case "shell":
      return hasShell(f) === c.value;
    case "nestedKeyword":
      return nestedKeywordIs(f, c.name, c.is);
    default:
      return undefined;
  }
}

/** Conditions on positional arguments; undefined for any other condition. */
function testArguments(f: CallFact, c: Condition): boolean | undefined {
  switch (c.test) {
    case "argCount":
      return (c.min === undefined || f.args.length >= c.min) &&
        (c.max === undefined || f.args.length <= c.max);
    case "argIsString": {
      const a = f.args[c.index];
      return !!a && (a.kind === "str" && !a.bytes) === c.value;
    }
    case "arg": {
      const a = f.args[c.index];
      if (!a) return false;
      const v = a.kind === "attr" ? a.value : literal(a);
      return (typeof v === "string" || typeof v === "number") && c.in.includes(v);
    }
    case "argIntMask": {
      const a = f.args[c.index];
      return a?.kind === "num" && Number.isInteger(a.value) && (a.value & c.mask) !== 0;
    }
    case "argOrKeywordLower": {
      const v = f.args[c.index] ?? keywordOf(f, c.keyword)?.value;
      const lit = v ? (v.kind === "attr" ? v.value : literal(v)) : null;
      return typeof lit === "string" && c.in.includes(lit.toLowerCase());
    }
    case "sizeBelow": {
      const v = keywordOf(f, c.keyword)?.value ?? f.args[c.index];
      const lit = v ? literal(v) : null;
      if (typeof lit === "string") return false;
      const size = typeof lit === "number" && lit !== 0 ? lit : c.fallback;
      return size < c.below;
    }
    case "partialPath": {
      let a: Value | undefined = f.args[0];
      if (a?.kind === "list") a = a.items[0];
      return a?.kind === "str" && !a.bytes && !FULL_PATH.test(a.value);
    }
    case "wildcard": {
      const lit = f.args[0] ? literal(f.args[0]) : null;
      const text = Array.isArray(lit)
        ? lit.map((x) => ` ${x === null ? "None" : String(x)}`).join("")
        : typeof lit === "string"
        ? lit
        : "";
      return text !== "" && text.includes("*") && c.commands.some((cmd) => text.includes(cmd));
    }
    case "argDynamic": {
      const a = f.args[c.index];
      return !!a && isDynamic(a);
    }
    default:
      return undefined;
  }
}

/** A string literal: its value, where it goes, and the query it helps build. */
function testString(f: StringFact, c: Condition, vars: Vars): boolean {
  switch (c.test) {
    case "value":
      return c.in.includes(f.value);
    case "valueStartsWith":
      return c.in.some((p) => f.value.startsWith(p));
    case "valueMatches":
      return c.pattern.test(f.value);
    case "assignedToMatches":
      return f.assignedTo.some((n) => c.pattern.test(n)) && set(vars, "value", f.value);
    case "keyOfStringAssignmentMatches":
      return f.keyOfStringAssignment !== null && c.pattern.test(f.value) &&
        set(vars, "assigned", f.keyOfStringAssignment);
    case "comparedWithMatches":
      return f.comparedWith !== null && c.pattern.test(f.comparedWith) &&
        set(vars, "value", f.value);
    case "builtMatches":
      if (!f.built || !c.pattern.test(f.built.text)) return false;
      return !c.callee || c.callee.includes(f.built.callee);
    default:
      return false;
  }
}

/** An import: a module or `module.name` starting with one of the prefixes. */
function testImport(f: ImportFact, c: Condition, vars: Vars): boolean {
  if (c.test !== "importPrefix") return false;
  const prefix = f.from && f.module ? `${f.module}.` : "";
  for (const { name } of f.names) {
    if (c.in.some((p) => (prefix + name).startsWith(p))) return set(vars, "name", name);
  }
  if (f.from && f.names.length === 0 && c.in.some((p) => f.module.startsWith(p))) {
    return set(vars, "name", f.module);
  }
  return false;
}

/** An except handler: what it catches and what its body only does. */
function testExcept(f: ExceptFact, c: Condition): boolean {
  if (c.test === "caught") return f.caught !== null && c.in.includes(f.caught);
  if (c.test === "only") return f.only === c.value;
  return false;
}

/** A function definition: its parameters' defaults. */
function testFunction(f: FunctionFact, c: Condition, vars: Vars): boolean {
  if (c.test === "defaultStringFor") {
    const d = f.defaults.find((d) => d.value.kind === "str" && c.pattern.test(d.param));
    if (d && d.value.kind === "str") vars.defaultValue = d.value.value;
    return !!d;
  }
  if (c.test === "defaultAttributeIn") {
    return f.defaults.some((d) => c.in.includes(d.qualname.split(".").pop() ?? ""));
  }
  return false;
}

/** An assignment to a property: its name and the kind of value. */
function testAssign(f: AssignFact, c: Condition, vars: Vars): boolean {
  if (c.test === "property") return c.in.includes(f.name) && set(vars, "name", f.name);
  if (c.test !== "assignedValue") return false;
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

function set(vars: Vars, name: string, value: string): true {
  vars[name] = value;
  return true;
}

/** The keyword argument `name` of a call. */
export function keywordOf(call: CallFact, name: string): Keyword | undefined {
  return call.keywords.find((k) => k.name === name);
}

/** The first keyword `name` in the call or calls inside it: absent, `False`, safe or other. */
function nestedKeywordIs(
  f: CallFact,
  name: string,
  is: "absent" | "False" | "safe" | "other",
): boolean {
  const k = f.nestedKeywords.find((k) => k.name === name);
  if (!k) return is === "absent";
  const v = k.value;
  const isFalse = (v.kind === "const" || v.kind === "name") && v.value === "False";
  const isSafe = ((v.kind === "const" || v.kind === "name") && v.value === "True") ||
    (v.kind === "call" && v.qualname.split(".").pop() === "select_autoescape");
  if (is === "False") return isFalse;
  if (is === "safe") return isSafe;
  return is === "other" && !isFalse && !isSafe;
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

/** bandit's blacklist name of a call: `__import__("m")` and `importlib.import_module("m")` name `m`. */
export function blacklistName(f: CallFact): string | null {
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
