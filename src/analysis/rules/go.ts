/**
 * Go's security rules (ids follow gosec's).
 *
 * @module
 */

import { SQL } from "./patterns.ts";
import type { Rule } from "./rule.ts";

const GO = ["go"] as const;

/** Go's rules, in table order. */
export const GO_RULES: Rule[] = [
  {
    id: "G204",
    name: "subprocess_launched_with_variable",
    languages: GO,
    on: "call",
    when: [{
      test: "qualname",
      in: ["exec.Command", "exec.CommandContext", "os/exec.Command", "os/exec.CommandContext"],
    }],
    cases: [
      {
        when: [{
          test: "arg",
          index: 0,
          in: ["sh", "bash", "/bin/sh", "/bin/bash", "zsh", "cmd", "cmd.exe", "powershell"],
        }, {
          test: "arg",
          index: 1,
          in: ["-c", "/c", "-Command"],
        }],
        severity: "HIGH",
        message: "Command run through a shell ({arg0} {arg1} …): possible command injection.",
      },
      {
        when: [{ test: "argIsString", index: 0, value: true }],
        none: true,
      },
    ],
    severity: "MEDIUM",
    confidence: "HIGH",
    message: "Subprocess launched with a variable program: check it cannot carry user input.",
    cwe: 78,
  },
  {
    id: "G402",
    name: "tls_insecure_skip_verify",
    languages: GO,
    on: "assign",
    when: [{ test: "property", in: ["InsecureSkipVerify"] }, { test: "assignedValue", is: "true" }],
    severity: "HIGH",
    confidence: "HIGH",
    message: "TLS InsecureSkipVerify set true: certificates are not checked.",
    cwe: 295,
  },
  {
    id: "G404",
    name: "weak_random",
    languages: GO,
    on: "import",
    when: [{ test: "importPrefix", in: ["math/rand"] }],
    severity: "LOW",
    confidence: "MEDIUM",
    message: "math/rand is not suitable for secrets (tokens, keys, passwords); use crypto/rand.",
    cwe: 338,
  },
  {
    id: "G201",
    name: "sql_string_formatting",
    languages: GO,
    on: "call",
    when: [{
      test: "name",
      in: [
        "Query",
        "QueryContext",
        "QueryRow",
        "QueryRowContext",
        "Exec",
        "ExecContext",
        "Prepare",
        "PrepareContext",
      ],
    }],
    cases: [
      {
        when: [{ test: "argDynamic", index: 0 }, { test: "builtMatches", pattern: SQL }],
      },
      {
        when: [{ test: "argDynamic", index: 1 }, { test: "builtMatches", pattern: SQL }],
      },
      { when: [], none: true },
    ],
    severity: "MEDIUM",
    confidence: "HIGH",
    message:
      "SQL string built with formatting or concatenation: possible SQL injection; use query parameters.",
    cwe: 89,
  },
  {
    id: "G401",
    name: "weak_crypto",
    languages: GO,
    on: "call",
    when: [{
      test: "qualname",
      in: [
        "md5.New",
        "md5.Sum",
        "sha1.New",
        "sha1.Sum",
        "des.NewCipher",
        "des.NewTripleDESCipher",
        "rc4.NewCipher",
      ],
    }],
    severity: "MEDIUM",
    confidence: "HIGH",
    message: "Use of weak cryptographic primitive {qualname}.",
    cwe: 327,
  },
];
