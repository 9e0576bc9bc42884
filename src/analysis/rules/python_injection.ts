/**
 * Python's injection rules, bandit's B6xx tests with its ids, names, levels and messages:
 * shell commands (paramiko, subprocess with and without a shell, `os` functions that start
 * a process), SQL built from strings, wildcards in commands, and Django's `extra` and
 * `RawSQL`. `python.ts` puts them in bandit's order among the others.
 *
 * @module
 */

import { SQL } from "./patterns.ts";
import { PY } from "./python_blacklist.ts";
import type { Rule } from "./rule.ts";

const SUBPROCESS = [
  "subprocess.Popen",
  "subprocess.call",
  "subprocess.check_call",
  "subprocess.check_output",
  "subprocess.run",
];
const SHELL = [
  "os.system",
  "os.popen",
  "os.popen2",
  "os.popen3",
  "os.popen4",
  "popen2.popen2",
  "popen2.popen3",
  "popen2.popen4",
  "popen2.Popen3",
  "popen2.Popen4",
  "commands.getoutput",
  "commands.getstatusoutput",
];
const NO_SHELL = [
  "os.execl",
  "os.execle",
  "os.execlp",
  "os.execlpe",
  "os.execv",
  "os.execve",
  "os.execvp",
  "os.execvpe",
  "os.spawnl",
  "os.spawnle",
  "os.spawnlp",
  "os.spawnlpe",
  "os.spawnv",
  "os.spawnve",
  "os.spawnvp",
  "os.spawnvpe",
  "os.startfile",
];

/** bandit's B601–B611, in its order. */
export const PYTHON_INJECTION_RULES: Rule[] = [
  {
    id: "B601",
    name: "paramiko_calls",
    languages: PY,
    on: "call",
    when: [{ test: "name", in: ["exec_command"] }, { test: "imported", module: "paramiko" }],
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message: "Possible shell injection via Paramiko call, check inputs are properly sanitized.",
    cwe: 78,
  },
  {
    id: "B602",
    name: "subprocess_popen_with_shell_equals_true",
    languages: PY,
    on: "call",
    when: [
      { test: "qualname", in: SUBPROCESS },
      { test: "shell", value: true },
      { test: "argCount", min: 1 },
    ],
    cases: [{
      when: [{ test: "argIsString", index: 0, value: true }],
      severity: "LOW",
      message:
        "subprocess call with shell=True seems safe, but may be changed in the future, consider rewriting without shell",
    }],
    severity: "HIGH",
    confidence: "HIGH",
    message: "subprocess call with shell=True identified, security issue.",
    cwe: 78,
    line: { keyword: "shell" },
  },
  {
    id: "B603",
    name: "subprocess_without_shell_equals_true",
    languages: PY,
    on: "call",
    when: [{ test: "qualname", in: SUBPROCESS }, { test: "shell", value: false }],
    severity: "LOW",
    confidence: "HIGH",
    message: "subprocess call - check for execution of untrusted input.",
    cwe: 78,
    line: { keyword: "shell" },
  },
  {
    id: "B604",
    name: "any_other_function_with_shell_equals_true",
    languages: PY,
    on: "call",
    when: [{ test: "notQualname", in: SUBPROCESS }, { test: "shell", value: true }],
    severity: "MEDIUM",
    confidence: "LOW",
    message: "Function call with shell=True parameter identified, possible security issue.",
    cwe: 78,
    line: { keyword: "shell" },
  },
  {
    id: "B605",
    name: "start_process_with_a_shell",
    languages: PY,
    on: "call",
    when: [{ test: "qualname", in: SHELL }, { test: "argCount", min: 1 }],
    cases: [{
      when: [{ test: "argIsString", index: 0, value: true }],
      severity: "LOW",
      message:
        "Starting a process with a shell: Seems safe, but may be changed in the future, consider rewriting without shell",
    }],
    severity: "HIGH",
    confidence: "HIGH",
    message: "Starting a process with a shell, possible injection detected, security issue.",
    cwe: 78,
  },
  {
    id: "B606",
    name: "start_process_with_no_shell",
    languages: PY,
    on: "call",
    when: [{ test: "qualname", in: NO_SHELL }],
    severity: "LOW",
    confidence: "MEDIUM",
    message: "Starting a process without a shell.",
    cwe: 78,
  },
  {
    id: "B607",
    name: "start_process_with_partial_path",
    languages: PY,
    on: "call",
    when: [
      { test: "qualname", in: [...SUBPROCESS, ...SHELL, ...NO_SHELL] },
      { test: "argCount", min: 1 },
      { test: "partialPath" },
    ],
    severity: "LOW",
    confidence: "HIGH",
    message: "Starting a process with a partial executable path",
    cwe: 78,
  },
  {
    id: "B608",
    name: "hardcoded_sql_expressions",
    languages: PY,
    on: "string",
    when: [{ test: "builtMatches", pattern: SQL }],
    cases: [{
      when: [{ test: "builtMatches", pattern: SQL, callee: ["execute", "executemany"] }],
      confidence: "MEDIUM",
    }],
    severity: "MEDIUM",
    confidence: "LOW",
    message: "Possible SQL injection vector through string-based query construction.",
    cwe: 89,
  },
  {
    id: "B609",
    name: "linux_commands_wildcard_injection",
    languages: PY,
    on: "call",
    when: [
      { test: "qualname", in: [...SHELL, ...SUBPROCESS] },
      { test: "argCount", min: 1 },
      { test: "wildcard", commands: ["chown", "chmod", "tar", "rsync"] },
    ],
    cases: [{
      when: [{ test: "qualname", in: SUBPROCESS }, {
        test: "keywordNotIn",
        name: "shell",
        in: ["True"],
      }],
      none: true,
    }],
    severity: "HIGH",
    confidence: "MEDIUM",
    message: "Possible wildcard injection in call: {qualname}",
    cwe: 78,
    line: { keyword: "shell" },
  },
  {
    id: "B610",
    name: "django_extra_used",
    languages: PY,
    on: "call",
    when: [{ test: "name", in: ["extra"] }, { test: "argDynamic", index: 1 }],
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message: "Use of extra potential SQL attack vector.",
    cwe: 89,
  },
  {
    id: "B611",
    name: "django_rawsql_used",
    languages: PY,
    on: "call",
    when: [
      { test: "name", in: ["RawSQL"] },
      { test: "imported", module: "django.db.models" },
      { test: "argIsString", index: 0, value: false },
    ],
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message: "Use of RawSQL potential SQL attack vector.",
    cwe: 89,
  },
];
