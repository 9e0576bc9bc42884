/**
 * Python facts, read the way bandit reads its AST: call names resolved through the
 * imports seen so far (`from os import system as s; s()` calls `os.system`), literals
 * decoded, docstrings left out.
 *
 * @module
 */

import type { Node, QueryMatch } from "web-tree-sitter";
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
  type StringFact,
  type Value,
} from "./facts.ts";
import type { AnalysisGrammar } from "./grammar.ts";
import { pythonString } from "./literals.ts";

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
  // Calls still open at the current position, innermost last: a keyword argument
  // belongs to the innermost call around it.
  const open: Array<{ end: number; keywords: Node[] }> = [];
  for (const c of factCaptures(g, matches)) {
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
      case "fact.call": {
        const keywords: Node[] = [];
        while (open.length && open[open.length - 1].end <= node.startIndex) open.pop();
        open.push({ end: node.endIndex, keywords });
        facts.push(callFact(node, scope, keywords));
        break;
      }
      case "fact.keyword": {
        while (open.length && open[open.length - 1].end <= node.startIndex) open.pop();
        open[open.length - 1]?.keywords.push(node);
        break;
      }
      case "fact.string": {
        const f = stringFact(node);
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
  return { facts, imports: scope.imports, nosec };
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

function callFact(node: Node, scope: Scope, keywordNames: Node[]): CallFact {
  const fn = node.childForFieldName("function");
  let qualname = "";
  if (fn?.type === "identifier") qualname = scope.aliases.get(fn.text) ?? fn.text;
  else if (fn?.type === "attribute") qualname = qualName(fn, scope.aliases);
  // Positional arguments are read when a rule asks: most calls meet no rule that does.
  let args: Value[] | null = null;
  let keywords: Keyword[] | null = null;
  return {
    kind: "call",
    line: lineOf(node),
    qualname,
    name: qualname.split(".").pop() ?? "",
    get args() {
      return args ??= readArguments(node, scope);
    },
    get keywords() {
      return keywords ??= keywordNames.map((n) => keyword(n.parent!, scope, n.text));
    },
    isNew: false,
    context: "",
    get nestedKeywords() {
      return nestedKeywords(node, scope);
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

/** Keyword arguments of this call and of every call inside it (bandit's `ast.walk`). */
function nestedKeywords(node: Node, scope: Scope): Keyword[] {
  const out: Keyword[] = [];
  for (const k of node.descendantsOfType("keyword_argument")) {
    if (k) out.push(keyword(k, scope));
  }
  return out;
}

/** A node as a rule sees it. */
function valueOf(n: Node, scope: Scope): Value {
  const line = lineOf(n);
  switch (n.type) {
    case "string":
    case "concatenated_string": {
      const s = pythonString(n.text);
      if (!s) return { kind: "other", line };
      if (s.formatted) return { kind: "fstr", value: s.value, line };
      return { kind: "str", value: s.value, bytes: s.bytes, line };
    }
    case "integer":
    case "float": {
      const v = Number(n.text.replace(/_/g, "").replace(/^0(?=\d)/, ""));
      return Number.isNaN(v) ? { kind: "other", line } : { kind: "num", value: v, line };
    }
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
          valueOf(c, scope)
        ),
        line,
      };
    case "dictionary":
      return {
        kind: "dict",
        entries: n.namedChildren.filter((c): c is Node => c?.type === "pair").map((p) => ({
          key: valueOf(p.childForFieldName("key")!, scope),
          value: valueOf(p.childForFieldName("value")!, scope),
        })),
        line,
      };
    case "call": {
      const fn = n.childForFieldName("function");
      return { kind: "call", qualname: fn ? qualName(fn, scope.aliases) : "", line };
    }
    case "binary_operator": {
      const parts = [n.childForFieldName("left"), n.childForFieldName("right")]
        .filter((c): c is Node => !!c).map((c) => valueOf(c, scope));
      return { kind: "concat", parts, line };
    }
    case "parenthesized_expression": {
      const inner = n.namedChildren.find((c) => c && !c.isExtra);
      return inner ? valueOf(inner, scope) : { kind: "other", line };
    }
    default:
      return { kind: "other", line };
  }
}

function stringFact(node: Node): StringFact[] | null {
  const s = pythonString(node.text);
  if (!s || s.bytes) return null;
  const line = lineOf(node);
  const parent = node.parent;
  const fact: StringFact = {
    kind: "string",
    line,
    value: s.value,
    assignedTo: [],
    keyOfStringAssignment: null,
    comparedWith: null,
    built: null,
  };
  if (!parent) return [fact];
  // `a = b = "x"`: climb the chain of assignments whose value this is.
  if (
    parent.type === "assignment" && isField(parent, "right", node) &&
    !parent.childForFieldName("type")
  ) {
    for (let a: Node | null = parent; a?.type === "assignment"; a = a.parent) {
      const left = a.childForFieldName("left");
      if (left?.type === "identifier") fact.assignedTo.push(left.text);
      else if (left?.type === "attribute") {
        fact.assignedTo.push(left.childForFieldName("attribute")?.text ?? "");
      }
      if (!a.parent || a.parent.type !== "assignment" || !isField(a.parent, "right", a)) break;
    }
  } else if (parent.type === "subscript" && isField(parent, "subscript", node)) {
    const assign = parent.parent;
    if (assign?.type === "assignment" && isField(assign, "left", parent)) {
      const value = assign.childForFieldName("right");
      const v = value && (value.type === "string" || value.type === "concatenated_string")
        ? pythonString(value.text)
        : null;
      if (v && !v.bytes && !v.formatted) fact.keyOfStringAssignment = v.value;
    }
  } else if (parent.type === "comparison_operator") {
    const operands = parent.namedChildren.filter((c) => c && !c.isExtra);
    if (operands[0]?.type === "identifier" && operands[1]?.id === node.id) {
      fact.comparedWith = operands[0].text;
    }
  }
  fact.built = builtQuery(node, s.formatted ? s.value : null);
  return [fact];
}

function isField(parent: Node, field: string, child: Node): boolean {
  return parent.childForFieldName(field)?.id === child.id;
}

/**
 * bandit's `_evaluate_ast` for SQL: a string inside `%`/`+` expressions (all literal
 * parts joined), the receiver of `.format`, or an f-string; plus the name of the call
 * it is passed to.
 */
function builtQuery(node: Node, formatted: string | null): StringFact["built"] {
  const parent = up(node);
  if (!parent) return null;
  let text: string;
  let wrapper: Node | null;
  if (parent.type === "binary_operator") {
    let top = parent;
    for (let p = up(top); p?.type === "binary_operator"; p = up(p)) top = p;
    // bandit joins the string with the operands of the chain above its own operator.
    const leaves: Node[] = [];
    const walk = (n: Node) => {
      if (n.id === parent.id) return;
      for (const side of [n.childForFieldName("left"), n.childForFieldName("right")]) {
        const c = side ? unwrap(side) : null;
        if (!c) continue;
        if (c.type === "binary_operator") walk(c);
        else leaves.push(c);
      }
    };
    walk(top);
    text = [node, ...leaves]
      .filter((s) => s.type === "string" || s.type === "concatenated_string")
      .map((s) => pythonString(s.text))
      .filter((v) => v && !v.bytes && !v.formatted)
      .map((v) => v!.value)
      .join(" ");
    wrapper = up(top);
  } else if (
    parent.type === "attribute" && parent.childForFieldName("attribute")?.text === "format"
  ) {
    text = pythonString(node.text)?.value ?? "";
    wrapper = parent.parent ? up(parent.parent) : null;
  } else if (formatted !== null) {
    text = formatted;
    wrapper = parent;
  } else {
    return null;
  }
  if (wrapper?.type === "argument_list") wrapper = wrapper.parent;
  let callee = "";
  if (wrapper?.type === "call") {
    const fn = wrapper.childForFieldName("function");
    if (fn?.type === "identifier") callee = fn.text;
    else if (fn?.type === "attribute") callee = fn.childForFieldName("attribute")?.text ?? "";
  }
  return { text, callee };
}

/** The parent, looking through parentheses (the AST has none). */
function up(n: Node): Node | null {
  let p = n.parent;
  while (p?.type === "parenthesized_expression") p = p.parent;
  return p;
}

function unwrap(n: Node): Node {
  let c = n;
  while (c.type === "parenthesized_expression") {
    const inner = c.namedChildren.find((x) => x && !x.isExtra);
    if (!inner) break;
    c = inner;
  }
  return c;
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
