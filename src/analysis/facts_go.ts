/**
 * Go facts: calls named by package (`exec.Command`, through import aliases), imports by
 * path, keyed composite-literal fields and field assignments (`InsecureSkipVerify:
 * true`), and `fmt.Sprintf` seen as string building.
 *
 * @module
 */

import type { Node, QueryMatch } from "npm:web-tree-sitter@0.25.10";
import {
  type AssignFact,
  type CallFact,
  type Fact,
  factCaptures,
  type FileFacts,
  lineOf,
  numberValue,
  type Value,
} from "./facts.ts";
import type { AnalysisGrammar } from "./grammar.ts";
import { cLikeString } from "./literals.ts";

/** Formatting calls whose result is a string built from their arguments. */
const FORMATTERS = new Set(["fmt.Sprintf", "fmt.Sprint", "fmt.Sprintln"]);

/**
 * The facts of one Go file.
 *
 * @example
 * ```ts
 * goFacts(g, g.analysis.matches(tree.rootNode)).imports.has("math/rand");
 * ```
 */
export function goFacts(g: AnalysisGrammar, matches: readonly QueryMatch[]): FileFacts {
  const aliases = new Map<string, string>();
  const imports = new Set<string>();
  const facts: Fact[] = [];
  const nosec = new Set<number>();
  const captures = factCaptures(g, matches);
  const order = (name: string) => (name === "fact.import" ? 0 : 1);
  captures.sort((a, b) => order(a.name) - order(b.name) || a.node.startIndex - b.node.startIndex);
  for (const c of captures) {
    const node = c.node;
    switch (c.name) {
      case "fact.comment":
        if (/\bnosec\b/.test(node.text)) nosec.add(lineOf(node));
        break;
      case "fact.import": {
        const path = cLikeString(node.childForFieldName("path")?.text ?? "") ?? "";
        if (!path) break;
        const alias = node.childForFieldName("name")?.text ?? null;
        const pkg = path.split("/").filter((p) => !/^v\d+$/.test(p)).pop() ?? path;
        if (alias && alias !== "_" && alias !== ".") aliases.set(alias, pkg);
        imports.add(path);
        facts.push({
          kind: "import",
          line: lineOf(node),
          module: "",
          names: [{ name: path, alias }],
          from: false,
        });
        break;
      }
      case "fact.call":
        facts.push(callFact(node, aliases));
        break;
      case "fact.assign": {
        const f = assignFact(node, aliases);
        if (f) facts.push(f);
        break;
      }
    }
  }
  facts.sort((a, b) => a.line - b.line);
  return { facts, imports, nosec };
}

function qualName(n: Node, aliases: Map<string, string>): string {
  if (n.type === "identifier" || n.type === "package_identifier") {
    return aliases.get(n.text) ?? n.text;
  }
  if (n.type === "selector_expression") {
    const operand = n.childForFieldName("operand");
    const field = n.childForFieldName("field")?.text ?? "";
    const base = operand ? qualName(operand, aliases) : "";
    return base ? `${base}.${field}` : "";
  }
  return "";
}

function callFact(node: Node, aliases: Map<string, string>): CallFact {
  const fn = node.childForFieldName("function");
  const qualname = fn ? qualName(fn, aliases) : "";
  const args = (node.childForFieldName("arguments")?.namedChildren ?? [])
    .filter((a): a is Node => !!a && !a.isExtra)
    .map((a) => valueOf(a, aliases));
  const name = qualname.split(".").pop() ||
    (fn?.type === "selector_expression" ? fn.childForFieldName("field")?.text ?? "" : "");
  return {
    kind: "call",
    line: lineOf(node),
    qualname,
    name,
    args,
    keywords: [],
    isNew: false,
    nestedKeywords: [],
    context: "",
    node,
  };
}

function valueOf(n: Node, aliases: Map<string, string>): Value {
  const line = lineOf(n);
  switch (n.type) {
    case "interpreted_string_literal":
    case "raw_string_literal": {
      const v = cLikeString(n.text);
      return v === null ? { kind: "other", line } : { kind: "str", value: v, bytes: false, line };
    }
    case "int_literal":
    case "float_literal":
      return numberValue(n.text, line);
    case "true":
      return { kind: "const", value: "True", line };
    case "false":
      return { kind: "const", value: "False", line };
    case "nil":
      return { kind: "const", value: "None", line };
    case "identifier":
      return { kind: "name", value: n.text, line };
    case "selector_expression":
      return {
        kind: "attr",
        value: n.childForFieldName("field")?.text ?? "",
        qualname: qualName(n, aliases),
        line,
      };
    case "binary_expression": {
      if (n.childForFieldName("operator")?.type !== "+") return { kind: "other", line };
      const parts = [n.childForFieldName("left"), n.childForFieldName("right")]
        .filter((c): c is Node => !!c).flatMap((c) => {
          const v = valueOf(c, aliases);
          return v.kind === "concat" ? v.parts : [v];
        });
      return parts.some((p) => p.kind === "str")
        ? { kind: "concat", parts, line }
        : { kind: "other", line };
    }
    case "call_expression": {
      const fn = n.childForFieldName("function");
      const qualname = fn ? qualName(fn, aliases) : "";
      if (FORMATTERS.has(qualname)) {
        const parts = (n.childForFieldName("arguments")?.namedChildren ?? [])
          .filter((a): a is Node => !!a && !a.isExtra).map((a) => valueOf(a, aliases));
        return { kind: "concat", parts, line };
      }
      return { kind: "call", qualname, line };
    }
    case "parenthesized_expression":
    case "literal_element": {
      const inner = n.namedChild(0);
      return inner ? valueOf(inner, aliases) : { kind: "other", line };
    }
    default:
      return { kind: "other", line };
  }
}

function assignFact(node: Node, aliases: Map<string, string>): AssignFact | null {
  const line = lineOf(node);
  if (node.type === "keyed_element") {
    const [key, value] = node.namedChildren.filter((c): c is Node => !!c && !c.isExtra);
    if (!key || !value) return null;
    const keyNode = key.type === "literal_element" ? key.namedChild(0) : key;
    if (!keyNode || (keyNode.type !== "identifier" && keyNode.type !== "field_identifier")) {
      return null;
    }
    return { kind: "assign", line, name: keyNode.text, target: "", value: valueOf(value, aliases) };
  }
  const left = node.childForFieldName("left")?.namedChild(0);
  const right = node.childForFieldName("right")?.namedChild(0);
  if (left?.type !== "selector_expression" || !right) return null;
  const operand = left.childForFieldName("operand");
  return {
    kind: "assign",
    line,
    name: left.childForFieldName("field")?.text ?? "",
    target: operand ? qualName(operand, aliases) : "",
    value: valueOf(right, aliases),
  };
}
