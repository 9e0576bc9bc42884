/**
 * Python facts, read the way bandit reads its AST: call names resolved through the
 * imports seen so far (`from os import system as s; s()` calls `os.system`), literals
 * decoded, docstrings left out. String literals' facts are read by
 * `facts_python_strings.ts`.
 *
 * @module
 */

import type { Node, QueryMatch } from "npm:web-tree-sitter@0.25.10";
import {
  type CallFact,
  type ExceptFact,
  type Fact,
  factCaptures,
  type FileFacts,
  type FunctionFact,
  type ImportFact,
  type Keyword,
  lineOf,
  numberValue,
  type Value,
} from "./facts.ts";
import { stringFact } from "./facts_python_strings.ts";
import type { AnalysisGrammar } from "./grammar.ts";
import { pythonString } from "./literals.ts";
import { MAX_VALUE_DEPTH, ParentFinder } from "./tree_walk.ts";

/** Import aliases (`name` → dotted path) and imported modules, in the order seen. */
interface Scope {
  aliases: Map<string, string>;
  imports: Set<string>;
}

/**
 * The facts of one Python file.
 *
 * @example
 * ```ts
 * const facts = pythonFacts(g, g.analysis.matches(tree.rootNode));
 * facts.facts.filter((f) => f.kind === "call").map((f) => f.qualname);
 * ```
 */
export function pythonFacts(g: AnalysisGrammar, matches: readonly QueryMatch[]): FileFacts {
  const scope: Scope = { aliases: new Map(), imports: new Set() };
  const facts: Fact[] = [];
  const nosec = new Set<number>();
  const keywords = new KeywordIndex();
  const captures = factCaptures(g, matches);
  // Strings look at their surroundings: one cursor answers their parents in source order.
  const parents = captures.length ? new ParentFinder(captures[0].node.tree.rootNode) : null;
  try {
    for (const c of captures) {
      const node = c.node;
      switch (c.name) {
        case "fact.comment": {
          const t = node.text;
          if (t.includes("#nosec") || t.includes("# nosec")) nosec.add(lineOf(node));
          break;
        }
        case "fact.import":
          facts.push(...importFacts(node, scope));
          break;
        case "fact.call":
          facts.push(callFact(node, scope, keywords));
          break;
        case "fact.string": {
          const f = stringFact(node, parents!);
          if (f) facts.push(...f);
          break;
        }
        case "fact.assert":
          facts.push({ kind: "assert", line: lineOf(node) });
          break;
        case "fact.except":
          facts.push(exceptFact(node));
          break;
        case "fact.function":
          facts.push(functionFact(node, scope));
          break;
      }
    }
  } finally {
    parents?.close();
  }
  return { facts, imports: scope.imports, nosec };
}

/**
 * The keyword arguments of every call, read from each call's own argument list (no walk up
 * from a keyword to its call), and in source order for the calls-inside-a-call question.
 */
class KeywordIndex {
  private readonly all: Array<{ start: number; keyword: Keyword }> = [];
  private sorted = true;

  /** The keyword arguments of `call` (recorded for {@link inside}). */
  of(call: Node, scope: Scope): Keyword[] {
    const own: Keyword[] = [];
    const argList = call.childForFieldName("arguments");
    if (argList?.type !== "argument_list") return own;
    for (const a of argList.namedChildren) {
      if (a?.type !== "keyword_argument") continue;
      const name = a.childForFieldName("name");
      if (name?.type !== "identifier") continue;
      const k = keyword(a, scope, name.text);
      own.push(k);
      this.all.push({ start: a.startIndex, keyword: k });
      this.sorted = false;
    }
    return own;
  }

  /** Keyword arguments inside `node`'s range, in source order (bandit's `ast.walk`). */
  inside(node: Node): Keyword[] {
    if (!this.sorted) {
      this.all.sort((a, b) => a.start - b.start);
      this.sorted = true;
    }
    const out: Keyword[] = [];
    let lo = 0;
    let hi = this.all.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.all[mid].start < node.startIndex) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.all.length && this.all[i].start < node.endIndex; i++) {
      out.push(this.all[i].keyword);
    }
    return out;
  }
}

function importFacts(node: Node, scope: Scope): ImportFact[] {
  const line = lineOf(node);
  const names: Array<{ name: string; alias: string | null }> = [];
  for (const n of node.childrenForFieldName("name")) {
    if (!n) continue;
    if (n.type === "aliased_import") {
      names.push({
        name: dotted(n.childForFieldName("name")),
        alias: n.childForFieldName("alias")?.text ?? null,
      });
    } else if (n.type === "dotted_name") {
      names.push({ name: dotted(n), alias: null });
    }
  }
  if (node.type === "import_statement") {
    for (const { name, alias } of names) {
      if (alias) scope.aliases.set(alias, name);
      scope.imports.add(name);
    }
    return [{ kind: "import", line, module: "", names, from: false }];
  }
  const moduleNode = node.childForFieldName("module_name");
  // bandit reads `from .m import x` as `from m import x`, and `from . import x` (no
  // module) as `import x`.
  const moduleName = moduleNode?.type === "relative_import"
    ? moduleNode.namedChildren.find((c) => c?.type === "dotted_name") ?? null
    : moduleNode;
  const module = moduleName ? dotted(moduleName) : "";
  if (!module) {
    for (const { name, alias } of names) {
      if (alias) scope.aliases.set(alias, name);
      scope.imports.add(name);
    }
    return [{ kind: "import", line, module: "", names, from: false }];
  }
  for (const { name, alias } of names) {
    scope.aliases.set(alias ?? name, `${module}.${name}`);
    scope.imports.add(`${module}.${name}`);
  }
  return [{ kind: "import", line, module, names, from: true }];
}

function dotted(n: Node | null): string {
  return n ? n.text.replace(/\s+/g, "") : "";
}

/** bandit's `_get_attr_qual_name`: names through aliases, "" for any other base. */
function qualName(n: Node, aliases: Map<string, string>): string {
  if (n.type === "identifier") return aliases.get(n.text) ?? n.text;
  if (n.type === "attribute") {
    const obj = n.childForFieldName("object");
    const attr = n.childForFieldName("attribute")?.text ?? "";
    const name = `${obj ? qualName(obj, aliases) : ""}.${attr}`;
    return aliases.get(name) ?? name;
  }
  return "";
}

function callFact(node: Node, scope: Scope, index: KeywordIndex): CallFact {
  const fn = node.childForFieldName("function");
  let qualname = "";
  if (fn?.type === "identifier") qualname = scope.aliases.get(fn.text) ?? fn.text;
  else if (fn?.type === "attribute") qualname = qualName(fn, scope.aliases);
  // Positional arguments are read when a rule asks: most calls meet no rule that does.
  let args: Value[] | null = null;
  const keywords = index.of(node, scope);
  return {
    kind: "call",
    line: lineOf(node),
    qualname,
    name: qualname.split(".").pop() ?? "",
    get args() {
      return args ??= readArguments(node, scope);
    },
    keywords,
    isNew: false,
    context: "",
    get nestedKeywords() {
      return index.inside(node);
    },
    node,
  };
}

function readArguments(node: Node, scope: Scope): Value[] {
  const args: Value[] = [];
  const argList = node.childForFieldName("arguments");
  if (argList?.type === "argument_list") {
    for (const a of argList.namedChildren) {
      if (!a || a.isExtra || a.type === "keyword_argument" || a.type === "dictionary_splat") {
        continue;
      }
      args.push(valueOf(a, scope));
    }
  } else if (argList) {
    args.push({ kind: "other", line: lineOf(argList) });
  }
  return args;
}

/** A keyword argument; its value is read when a rule asks. */
function keyword(a: Node, scope: Scope, name?: string): Keyword {
  let value: Value | null = null;
  return {
    name: name ?? a.childForFieldName("name")?.text ?? null,
    get value() {
      if (!value) {
        const v = a.childForFieldName("value");
        value = v ? valueOf(v, scope) : { kind: "other", line: lineOf(a) };
      }
      return value;
    },
  };
}

/** A node as a rule sees it; values nested past {@link MAX_VALUE_DEPTH} are `other`. */
function valueOf(n: Node, scope: Scope, depth = 0): Value {
  const line = lineOf(n);
  if (depth > MAX_VALUE_DEPTH) return { kind: "other", line };
  switch (n.type) {
    case "string":
    case "concatenated_string": {
      const s = pythonString(n.text);
      if (!s) return { kind: "other", line };
      if (s.formatted) return { kind: "fstr", value: s.value, line };
      return { kind: "str", value: s.value, bytes: s.bytes, line };
    }
    case "integer":
    case "float":
      return numberValue(n.text.replace(/^0(?=\d)/, ""), line);
    case "true":
      return { kind: "const", value: "True", line };
    case "false":
      return { kind: "const", value: "False", line };
    case "none":
      return { kind: "const", value: "None", line };
    case "identifier":
      return { kind: "name", value: n.text, line };
    case "attribute":
      return {
        kind: "attr",
        value: n.childForFieldName("attribute")?.text ?? "",
        qualname: qualName(n, scope.aliases),
        line,
      };
    case "list":
    case "tuple":
    case "set":
      return {
        kind: "list",
        items: n.namedChildren.filter((c): c is Node => !!c && !c.isExtra).map((c) =>
          valueOf(c, scope, depth + 1)
        ),
        line,
      };
    case "dictionary":
      return {
        kind: "dict",
        entries: n.namedChildren.filter((c): c is Node => c?.type === "pair").map((p) => ({
          key: valueOf(p.childForFieldName("key")!, scope, depth + 1),
          value: valueOf(p.childForFieldName("value")!, scope, depth + 1),
        })),
        line,
      };
    case "call": {
      const fn = n.childForFieldName("function");
      return { kind: "call", qualname: fn ? qualName(fn, scope.aliases) : "", line };
    }
    case "binary_operator": {
      const parts = [n.childForFieldName("left"), n.childForFieldName("right")]
        .filter((c): c is Node => !!c).map((c) => valueOf(c, scope, depth + 1));
      return { kind: "concat", parts, line };
    }
    case "parenthesized_expression": {
      const inner = n.namedChildren.find((c) => c && !c.isExtra);
      return inner ? valueOf(inner, scope, depth + 1) : { kind: "other", line };
    }
    default:
      return { kind: "other", line };
  }
}

function exceptFact(node: Node): ExceptFact {
  let caught: string | null = "";
  let body: Node | null = null;
  for (const c of node.namedChildren) {
    if (!c || c.isExtra) continue;
    if (c.type === "block") {
      body = c;
      continue;
    }
    if (caught !== "") continue;
    if (c.type === "identifier") caught = c.text;
    else if (c.type === "as_pattern") {
      const inner = c.namedChild(0);
      caught = inner?.type === "identifier" ? inner.text : null;
    } else caught = null;
  }
  const statements = body ? body.namedChildren.filter((c) => c && !c.isExtra) : [];
  let only: string | null = null;
  if (statements.length === 1) {
    const t = statements[0]!.type;
    only = t === "pass_statement" ? "pass" : t === "continue_statement" ? "continue" : t;
  }
  return { kind: "except", line: lineOf(node), caught, only };
}

function functionFact(node: Node, scope: Scope): FunctionFact {
  const defaults: FunctionFact["defaults"] = [];
  const params = node.childForFieldName("parameters");
  for (const p of params?.namedChildren ?? []) {
    if (!p) continue;
    // Keyword-only parameters (after `*` or `*args`) are not positional.
    if (
      p.type === "list_splat_pattern" || p.type === "keyword_separator" ||
      p.type === "dictionary_splat_pattern"
    ) break;
    if (p.type !== "default_parameter" && p.type !== "typed_default_parameter") continue;
    const value = p.childForFieldName("value");
    if (!value) continue;
    let qualname = "";
    if (value.type === "attribute") {
      const obj = value.childForFieldName("object");
      const prefix = obj?.type === "identifier" ? scope.aliases.get(obj.text) ?? obj.text : "";
      qualname = `${prefix}.${value.childForFieldName("attribute")?.text ?? ""}`;
    }
    defaults.push({
      param: p.childForFieldName("name")?.text ?? "",
      value: valueOf(value, scope),
      qualname,
    });
  }
  return {
    kind: "function",
    line: lineOf(node),
    name: node.childForFieldName("name")?.text ?? "",
    defaults,
  };
}
