/**
 * JavaScript, TypeScript and TSX security rules (ids `JS1xx`).
 *
 * @module
 */

import { SQL } from "./patterns.ts";
import type { Rule } from "./rule.ts";

const JS = ["javascript", "typescript", "tsx"] as const;

/** Names that hold secrets (for weak-randomness rules). */
const SECRET_NAME = /(token|secret|passw|pwd|salt|nonce|key|otp|session|csrf|auth|uuid|id$)/i;

/** The JavaScript family's rules, in table order. */
export const JS_RULES: Rule[] = [
  {
    id: "JS101",
    name: "eval_used",
    languages: JS,
    on: "call",
    when: [{ test: "qualname", in: ["eval", "window.eval", "globalThis.eval"] }],
    severity: "HIGH",
    confidence: "HIGH",
    message:
      "Use of eval: code built from data runs with the caller's rights; parse the data instead.",
    cwe: 95,
  },
  {
    id: "JS102",
    name: "function_constructor",
    languages: JS,
    on: "call",
    when: [{ test: "qualname", in: ["Function", "window.Function", "globalThis.Function"] }],
    severity: "HIGH",
    confidence: "HIGH",
    message: "new Function() compiles a string into code, like eval.",
    cwe: 95,
  },
  {
    id: "JS103",
    name: "string_timer",
    languages: JS,
    on: "call",
    when: [
      {
        test: "qualname",
        in: ["setTimeout", "setInterval", "window.setTimeout", "window.setInterval"],
      },
      { test: "argIsString", index: 0, value: true },
    ],
    severity: "MEDIUM",
    confidence: "HIGH",
    message: "{qualname} with a string argument evaluates it as code; pass a function.",
    cwe: 95,
  },
  {
    id: "JS104",
    name: "child_process_exec",
    languages: JS,
    on: "call",
    when: [{
      test: "qualname",
      in: [
        "child_process.exec",
        "child_process.execSync",
        "exec",
        "execSync",
        "cp.exec",
        "cp.execSync",
      ],
    }, { test: "imported", module: "child_process" }],
    cases: [
      {
        when: [{ test: "argDynamic", index: 0 }],
        message:
          "Shell command built from interpolated or concatenated values: possible command injection; use execFile/spawn with an argument list.",
      },
      {
        when: [{ test: "argIsString", index: 0, value: true }],
        severity: "LOW",
        confidence: "HIGH",
        message: "Starting a process with a shell: seems safe, but may be changed in the future.",
      },
    ],
    severity: "HIGH",
    confidence: "MEDIUM",
    message: "Shell command from a non-literal value: check it cannot carry user input.",
    cwe: 78,
  },
  {
    id: "JS105",
    name: "spawn_with_shell",
    languages: JS,
    on: "call",
    when: [
      {
        test: "qualname",
        in: [
          "child_process.spawn",
          "child_process.spawnSync",
          "child_process.execFile",
          "spawn",
          "spawnSync",
          "execFile",
        ],
      },
      { test: "keyword", name: "shell", in: ["True"] },
    ],
    severity: "MEDIUM",
    confidence: "HIGH",
    message: "{qualname} with shell: true runs the command through a shell.",
    cwe: 78,
  },
  {
    id: "JS106",
    name: "inner_html",
    languages: JS,
    on: "assign",
    when: [{ test: "property", in: ["innerHTML", "outerHTML"] }, {
      test: "assignedValue",
      is: "dynamic",
    }],
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message:
      "Assigning {name} from a non-literal value: possible cross-site scripting; use textContent or sanitize.",
    cwe: 79,
  },
  {
    id: "JS107",
    name: "dangerously_set_inner_html",
    languages: JS,
    on: "assign",
    when: [{ test: "property", in: ["dangerouslySetInnerHTML"] }],
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message:
      "dangerouslySetInnerHTML renders raw HTML: possible cross-site scripting; sanitize the value.",
    cwe: 79,
  },
  {
    id: "JS108",
    name: "document_write",
    languages: JS,
    on: "call",
    when: [{ test: "qualname", in: ["document.write", "document.writeln"] }, {
      test: "argDynamic",
      index: 0,
    }],
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message: "{qualname} with a non-literal value: possible cross-site scripting.",
    cwe: 79,
  },
  {
    id: "JS109",
    name: "tls_reject_unauthorized",
    languages: JS,
    on: "assign",
    when: [{ test: "property", in: ["rejectUnauthorized"] }, {
      test: "assignedValue",
      is: "false",
    }],
    severity: "HIGH",
    confidence: "HIGH",
    message: "rejectUnauthorized: false disables TLS certificate checks.",
    cwe: 295,
  },
  {
    id: "JS110",
    name: "tls_env_disabled",
    languages: JS,
    on: "assign",
    when: [{ test: "property", in: ["NODE_TLS_REJECT_UNAUTHORIZED"] }, {
      test: "assignedValue",
      is: "false",
    }],
    severity: "HIGH",
    confidence: "HIGH",
    message: "NODE_TLS_REJECT_UNAUTHORIZED disables TLS certificate checks for the whole process.",
    cwe: 295,
  },
  {
    id: "JS111",
    name: "insecure_random",
    languages: JS,
    on: "call",
    when: [{ test: "qualname", in: ["Math.random"] }, {
      test: "contextMatches",
      pattern: SECRET_NAME,
    }],
    severity: "LOW",
    confidence: "MEDIUM",
    message:
      "Math.random() is not suitable for tokens, passwords or keys; use crypto.getRandomValues or crypto.randomUUID.",
    cwe: 330,
  },
  {
    id: "JS112",
    name: "sql_concatenation",
    languages: JS,
    on: "call",
    when: [{
      test: "name",
      in: ["query", "execute", "raw", "exec", "run", "all", "get", "prepare"],
    }, {
      test: "argDynamic",
      index: 0,
    }, { test: "builtMatches", pattern: SQL }],
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message:
      "SQL built by concatenation or interpolation: possible SQL injection; use query parameters.",
    cwe: 89,
  },
  {
    id: "JS113",
    name: "weak_hash",
    languages: JS,
    on: "call",
    when: [{ test: "name", in: ["createHash"] }, {
      test: "argOrKeywordLower",
      index: 0,
      keyword: "algorithm",
      in: ["md4", "md5", "sha1"],
    }],
    severity: "MEDIUM",
    confidence: "HIGH",
    message: "Use of insecure MD4, MD5, or SHA1 hash function.",
    cwe: 327,
  },
];
