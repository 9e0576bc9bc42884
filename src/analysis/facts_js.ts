/**
 * JavaScript/TypeScript facts: calls named through their imports (`import { exec } from
 * "child_process"`, `const cp = require("node:child_process")`), options objects as
 * keywords, property assignments, object keys and JSX attributes.
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
  type ImportFact,
  type Keyword,
  lineOf,
  numberValue,
  type Value,
} from "./facts.ts";
import type { AnalysisGrammar } from "./grammar.ts";
import { cLikeString } from "./literals.ts";
import { MAX_VALUE_DEPTH } from "./tree_walk.ts";

/**
 * The facts of one JavaScript, TypeScript or TSX file.
 *
 * @example
 * ```ts
 * jsFacts(g, g.analysis.matches(tree.rootNode)).facts.filter((f) => f.kind === "call");
 * ```
 */
export function jsFacts(g: AnalysisGrammar, matches: readonly QueryMatch[]): FileFacts {
  const aliases = new Map<string, string>();
  const imports = new Set<string>();
  const facts: Fact[] = [];
  const nosec = new Set<number>();
  // Imports first: a call may come before the import that names it (hoisting).
  const items = factCaptures(g, matches);
  const order = (name: string) => (name === "fact.import" ? 0 : 1);
  items.sort((a, b) => order(a.name) - order(b.name) || a.node.startIndex - b.node.startIndex);
  for (const c of items) {
    const node = c.node;
    switch (c.name) {
      case "fact.comment":
        if (/\bnosec\b/.test(node.text)) nosec.add(lineOf(node));
        break;
      case "fact.import": {
        const f = importFact(node, aliases);
        if (f) {
          imports.add(f.module);
          facts.push(f);
        }
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

/** `node:fs` and `fs` are one module. */
function moduleName(spec: string): string {
  return spec.startsWith("node:") ? spec.slice(5) : spec;
}

function importFact(node: Node, aliases: Map<string, string>): ImportFact | null {
  const line = lineOf(node);
  const names: ImportFact["names"] = [];
  if (node.type === "import_statement") {
    const source = node.childForFieldName("source");
    const module = moduleName(cLikeString(source?.text ?? "") ?? "");
    if (!module) return null;
    const clause = node.namedChildren.find((c) => c?.type === "import_clause");
    for (const part of clause?.namedChildren ?? []) {
      if (!part) continue;
      if (part.type === "identifier") {
        aliases.set(part.text, module);
        names.push({ name: "default", alias: part.text });
      } else if (part.type === "namespace_import") {
        const id = part.namedChildren.find((c) => c?.type === "identifier");
        if (id) aliases.set(id.text, module);
        names.push({ name: "*", alias: id?.text ?? null });
      } else if (part.type === "named_imports") {
        for (const spec of part.namedChildren) {
          if (spec?.type !== "import_specifier") continue;
          const name = spec.childForFieldName("name")?.text ?? "";
          const alias = spec.childForFieldName("alias")?.text ?? null;
          aliases.set(alias ?? name, `${module}.${name}`);
          names.push({ name, alias });
        }
      }
    }
    return { kind: "import", line, module, names, from: true };
  }
  // require("m") bound by `const x = …` or `const { a, b: c } = …`.
  const arg = node.childForFieldName("arguments")?.namedChild(0);
  const module = moduleName(cLikeString(arg?.text ?? "") ?? "");
  if (!module) return null;
  const decl = node.parent;
  const target = decl?.type === "variable_declarator" ? decl.childForFieldName("name") : null;
  if (target?.type === "identifier") {
    aliases.set(target.text, module);
    names.push({ name: "default", alias: target.text });
  } else if (target?.type === "object_pattern") {
    for (const p of target.namedChildren) {
      if (!p) continue;
      if (p.type === "shorthand_property_identifier_pattern") {
        aliases.set(p.text, `${module}.${p.text}`);
        names.push({ name: p.text, alias: null });
      } else if (p.type === "pair_pattern") {
        const key = p.childForFieldName("key")?.text ?? "";
        const value = p.childForFieldName("value");
        if (value?.type === "identifier") {
          aliases.set(value.text, `${module}.${key}`);
          names.push({ name: key, alias: value.text });
        }
      }
    }
  }
  return { kind: "import", line, module, names, from: false };
}

/** `a.b.c` with its first name resolved through the imports; "" when not dotted. */
function qualName(n: Node, aliases: Map<string, string>): string {
  switch (n.type) {
    case "identifier":
      return aliases.get(n.text) ?? n.text;
    case "this":
      return "this";
    case "member_expression": {
      const obj = n.childForFieldName("object");
      const prop = n.childForFieldName("property")?.text ?? "";
      const base = obj ? qualName(obj, aliases) : "";
      return base ? `${base}.${prop}` : "";
    }
    case "parenthesized_expression": {
      const inner = n.namedChild(0);
      return inner ? qualName(inner, aliases) : "";
    }
    default:
      return "";
  }
}

function callFact(node: Node, aliases: Map<string, string>): CallFact {
  const isNew = node.type === "new_expression";
  const fn = node.childForFieldName(isNew ? "constructor" : "function");
  const qualname = fn ? qualName(fn, aliases) : "";
  const args: Value[] = [];
  const keywords: Keyword[] = [];
  for (const a of node.childForFieldName("arguments")?.namedChildren ?? []) {
    if (!a || a.isExtra) continue;
    const v = valueOf(a, aliases);
    args.push(v);
    // An options object's properties act as keyword arguments.
    if (v.kind === "dict") {
      for (const e of v.entries) {
        if (e.key.kind === "str" || e.key.kind === "name") {
          keywords.push({ name: e.key.value, value: e.value });
        }
      }
    }
  }
  return {
    kind: "call",
    line: lineOf(node),
    qualname,
    name: qualname.split(".").pop() ||
      (fn?.type === "member_expression" ? fn.childForFieldName("property")?.text ?? "" : ""),
    args,
    keywords,
    isNew,
    nestedKeywords: keywords,
    context: qualname === "Math.random" ? contextOf(node) : "",
    node,
  };
}

/** Names the value of an expression flows into: variable, property, key, function. */
function contextOf(node: Node): string {
  const names: string[] = [];
  let n: Node | null = node;
  for (let depth = 0; n && depth < 8; depth++, n = n.parent) {
    const t = n.type;
    if (t === "variable_declarator") names.push(n.childForFieldName("name")?.text ?? "");
    else if (t === "assignment_expression") names.push(n.childForFieldName("left")?.text ?? "");
    else if (t === "pair") names.push(n.childForFieldName("key")?.text ?? "");
    else if (
      t === "function_declaration" || t === "method_definition" ||
      t === "generator_function_declaration"
    ) {
      names.push(n.childForFieldName("name")?.text ?? "");
      break;
    } else if (t === "statement_block" || t === "program") break;
  }
  return names.join(" ");
}

/** A node as a rule sees it; values nested past {@link MAX_VALUE_DEPTH} are `other`. */
function valueOf(n: Node, aliases: Map<string, string>, depth = 0): Value {
  const line = lineOf(n);
  if (depth > MAX_VALUE_DEPTH) return { kind: "other", line };
  switch (n.type) {
    case "string": {
      const v = cLikeString(n.text);
      return v === null ? { kind: "other", line } : { kind: "str", value: v, bytes: false, line };
    }
    case "template_string": {
      const hasSubstitution = n.namedChildren.some((c) => c?.type === "template_substitution");
      const literalText = n.namedChildren.filter((c) => c?.type === "string_fragment")
        .map((c) => c!.text).join("");
      return hasSubstitution
        ? { kind: "fstr", value: literalText, line }
        : { kind: "str", value: literalText, bytes: false, line };
    }
    case "number":
      return numberValue(n.text, line);
    case "true":
      return { kind: "const", value: "True", line };
    case "false":
      return { kind: "const", value: "False", line };
    case "null":
    case "undefined":
      return { kind: "const", value: "None", line };
    case "identifier":
      return { kind: "name", value: n.text, line };
    case "member_expression":
      return {
        kind: "attr",
        value: n.childForFieldName("property")?.text ?? "",
        qualname: qualName(n, aliases),
        line,
      };
    case "array":
      return {
        kind: "list",
        items: n.namedChildren.filter((c): c is Node => !!c && !c.isExtra).map((c) =>
          valueOf(c, aliases, depth + 1)
        ),
        line,
      };
    case "object": {
      const entries: Array<{ key: Value; value: Value }> = [];
      for (const p of n.namedChildren) {
        if (p?.type === "pair") {
          const key = p.childForFieldName("key");
          const value = p.childForFieldName("value");
          if (!key || !value) continue;
          const k: Value = key.type === "property_identifier"
            ? { kind: "name", value: key.text, line: lineOf(key) }
            : valueOf(key, aliases, depth + 1);
          entries.push({ key: k, value: valueOf(value, aliases, depth + 1) });
        } else if (p?.type === "shorthand_property_identifier") {
          entries.push({
            key: { kind: "name", value: p.text, line: lineOf(p) },
            value: { kind: "name", value: p.text, line: lineOf(p) },
          });
        }
      }
      return { kind: "dict", entries, line };
    }
    case "call_expression": {
      const fn = n.childForFieldName("function");
      return { kind: "call", qualname: fn ? qualName(fn, aliases) : "", line };
    }
    case "binary_expression": {
      const op = n.childForFieldName("operator")?.type;
      if (op !== "+") return { kind: "other", line };
      const parts = [n.childForFieldName("left"), n.childForFieldName("right")]
        .filter((c): c is Node => !!c).flatMap((c) => {
          const v = valueOf(c, aliases, depth + 1);
          return v.kind === "concat" ? v.parts : [v];
        });
      return parts.some((p) => p.kind === "str" || p.kind === "fstr")
        ? { kind: "concat", parts, line }
        : { kind: "other", line };
    }
    case "parenthesized_expression":
    case "jsx_expression": {
      const inner = n.namedChildren.find((c) => c && !c.isExtra);
      return inner ? valueOf(inner, aliases, depth + 1) : { kind: "other", line };
    }
    case "as_expression":
    case "non_null_expression":
    case "satisfies_expression": {
      const inner = n.namedChild(0);
      return inner ? valueOf(inner, aliases, depth + 1) : { kind: "other", line };
    }
    default:
      return { kind: "other", line };
  }
}

function assignFact(node: Node, aliases: Map<string, string>): AssignFact | null {
  const line = lineOf(node);
  if (node.type === "assignment_expression") {
    const left = node.childForFieldName("left");
    const right = node.childForFieldName("right");
    if (!left || !right) return null;
    let name = "";
    let target = "";
    if (left.type === "member_expression") {
      name = left.childForFieldName("property")?.text ?? "";
      const obj = left.childForFieldName("object");
      target = obj ? qualName(obj, aliases) : "";
    } else if (left.type === "subscript_expression") {
      name = cLikeString(left.childForFieldName("index")?.text ?? "") ?? "";
      const obj = left.childForFieldName("object");
      target = obj ? qualName(obj, aliases) : "";
    }
    return name ? { kind: "assign", line, name, target, value: valueOf(right, aliases) } : null;
  }
  if (node.type === "pair") {
    const key = node.childForFieldName("key");
    const value = node.childForFieldName("value");
    if (!key || !value) return null;
    const name = key.type === "property_identifier" ? key.text : cLikeString(key.text) ?? "";
    return name ? { kind: "assign", line, name, target: "", value: valueOf(value, aliases) } : null;
  }
  if (node.type === "jsx_attribute") {
    const name = node.namedChild(0)?.text ?? "";
    const value = node.namedChild(1);
    return {
      kind: "assign",
      line,
      name,
      target: "",
      value: value ? valueOf(value, aliases) : { kind: "const", value: "True", line },
    };
  }
  return null;
}
