/**
 * Python's security rules: bandit's plugin tests and blacklists, with bandit's ids,
 * names, levels and messages, in bandit's order (the blacklists are in `python_blacklist.ts`,
 * the injection tests B6xx in `python_injection.ts`).
 *
 * @module
 */

import { PY, PYTHON_BLACKLIST_CALLS, PYTHON_BLACKLIST_IMPORTS } from "./python_blacklist.ts";
import { PYTHON_INJECTION_RULES } from "./python_injection.ts";
import type { Rule } from "./rule.ts";

/** bandit's password-like names. */
const PASSWORD_NAME = /(^|_)(pas+wo?r?d|pass(phrase)?|pwd|token|secrete?)($|_)/i;

const BAD_TLS = [
  "PROTOCOL_SSLv2",
  "SSLv2_METHOD",
  "SSLv23_METHOD",
  "PROTOCOL_SSLv3",
  "PROTOCOL_TLSv1",
  "SSLv3_METHOD",
  "TLSv1_METHOD",
];

const PASSWORD_MESSAGE = "Possible hardcoded password: '{value}'";

/** Python's rules, in bandit's order. */
export const PYTHON_RULES: Rule[] = [
  {
    id: "B101",
    name: "assert_used",
    languages: PY,
    on: "assert",
    when: [],
    severity: "LOW",
    confidence: "HIGH",
    message:
      "Use of assert detected. The enclosed code will be removed when compiling to optimised byte code.",
    cwe: 703,
  },
  {
    id: "B102",
    name: "exec_used",
    languages: PY,
    on: "call",
    when: [{ test: "qualname", in: ["exec"] }],
    severity: "MEDIUM",
    confidence: "HIGH",
    message: "Use of exec detected.",
    cwe: 78,
  },
  {
    id: "B103",
    name: "set_bad_file_permissions",
    languages: PY,
    on: "call",
    when: [
      { test: "nameContains", value: "chmod" },
      { test: "argCount", min: 2, max: 2 },
      { test: "argIntMask", index: 1, mask: 0o002 | 0o010 },
    ],
    cases: [{ when: [{ test: "argIntMask", index: 1, mask: 0o002 }], severity: "HIGH" }],
    severity: "MEDIUM",
    confidence: "HIGH",
    message: "Chmod setting a permissive mask {arg1:oct} on file ({arg0}).",
    cwe: 732,
  },
  {
    id: "B104",
    name: "hardcoded_bind_all_interfaces",
    languages: PY,
    on: "string",
    when: [{ test: "value", in: ["0.0.0.0"] }],
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message: "Possible binding to all interfaces.",
    cwe: 605,
  },
  {
    id: "B105",
    name: "hardcoded_password_string",
    languages: PY,
    on: "string",
    when: [],
    cases: [
      {
        when: [{ test: "assignedToMatches", pattern: PASSWORD_NAME }],
        message: PASSWORD_MESSAGE,
      },
      {
        when: [{ test: "keyOfStringAssignmentMatches", pattern: PASSWORD_NAME }],
        message: "Possible hardcoded password: '{assigned}'",
      },
      {
        when: [{ test: "comparedWithMatches", pattern: PASSWORD_NAME }],
        message: PASSWORD_MESSAGE,
      },
      { when: [], none: true },
    ],
    severity: "LOW",
    confidence: "MEDIUM",
    message: PASSWORD_MESSAGE,
    cwe: 259,
  },
  {
    id: "B106",
    name: "hardcoded_password_funcarg",
    languages: PY,
    on: "call",
    when: [{ test: "keywordNameMatches", pattern: PASSWORD_NAME }],
    severity: "LOW",
    confidence: "MEDIUM",
    message: "Possible hardcoded password: '{keywordValue}'",
    cwe: 259,
  },
  {
    id: "B107",
    name: "hardcoded_password_default",
    languages: PY,
    on: "function",
    when: [{ test: "defaultStringFor", pattern: PASSWORD_NAME }],
    severity: "LOW",
    confidence: "MEDIUM",
    message: "Possible hardcoded password: '{defaultValue}'",
    cwe: 259,
  },
  {
    id: "B108",
    name: "hardcoded_tmp_directory",
    languages: PY,
    on: "string",
    when: [{ test: "valueStartsWith", in: ["/tmp", "/var/tmp", "/dev/shm"] }],
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message: "Probable insecure usage of temp file/directory.",
    cwe: 377,
  },
  {
    id: "B110",
    name: "try_except_pass",
    languages: PY,
    on: "except",
    when: [{ test: "caught", in: ["", "Exception"] }, { test: "only", value: "pass" }],
    severity: "LOW",
    confidence: "HIGH",
    message: "Try, Except, Pass detected.",
    cwe: 703,
  },
  {
    id: "B112",
    name: "try_except_continue",
    languages: PY,
    on: "except",
    when: [{ test: "caught", in: ["", "Exception"] }, { test: "only", value: "continue" }],
    severity: "LOW",
    confidence: "HIGH",
    message: "Try, Except, Continue detected.",
    cwe: 703,
  },
  {
    id: "B201",
    name: "flask_debug_true",
    languages: PY,
    on: "call",
    when: [
      { test: "qualnameEndsWith", value: ".run" },
      { test: "keyword", name: "debug", in: ["True"] },
      { test: "imported", module: "flask" },
    ],
    severity: "HIGH",
    confidence: "MEDIUM",
    message:
      "A Flask app appears to be run with debug=True, which exposes the Werkzeug debugger and allows the execution of arbitrary code.",
    cwe: 94,
    line: { keyword: "debug" },
  },
  ...PYTHON_BLACKLIST_CALLS,
  {
    id: "B324",
    name: "hashlib_new",
    languages: PY,
    on: "call",
    when: [
      { test: "qualnameParts", part: "hashlib", last: "new" },
      { test: "argOrKeywordLower", index: 0, keyword: "name", in: ["md4", "md5"] },
    ],
    severity: "MEDIUM",
    confidence: "HIGH",
    message: "Use of insecure MD4 or MD5 hash function.",
    cwe: 327,
  },
  ...PYTHON_BLACKLIST_IMPORTS,
  {
    id: "B501",
    name: "request_with_no_cert_validation",
    languages: PY,
    on: "call",
    when: [
      { test: "qualnameContains", value: "requests" },
      { test: "name", in: ["get", "options", "head", "post", "put", "patch", "delete"] },
      { test: "keyword", name: "verify", in: ["False"] },
    ],
    severity: "HIGH",
    confidence: "HIGH",
    message: "Requests call with verify=False disabling SSL certificate checks, security issue.",
    cwe: 295,
    line: { keyword: "verify" },
  },
  {
    id: "B502",
    name: "ssl_with_bad_version",
    languages: PY,
    on: "call",
    when: [],
    cases: [
      {
        when: [
          { test: "qualname", in: ["ssl.wrap_socket"] },
          { test: "keyword", name: "ssl_version", in: BAD_TLS },
        ],
        message:
          "ssl.wrap_socket call with insecure SSL/TLS protocol version identified, security issue.",
      },
      { when: [{ test: "qualname", in: ["ssl.wrap_socket"] }], none: true },
      {
        when: [
          { test: "qualname", in: ["pyOpenSSL.SSL.Context"] },
          { test: "keyword", name: "method", in: BAD_TLS },
        ],
        message:
          "SSL.Context call with insecure SSL/TLS protocol version identified, security issue.",
      },
      { when: [{ test: "qualname", in: ["pyOpenSSL.SSL.Context"] }], none: true },
      {
        when: [{ test: "keyword", name: "method", in: BAD_TLS }],
        severity: "MEDIUM",
        confidence: "MEDIUM",
        message:
          "Function call with insecure SSL/TLS protocol identified, possible security issue.",
      },
      {
        when: [{ test: "keyword", name: "ssl_version", in: BAD_TLS }],
        severity: "MEDIUM",
        confidence: "MEDIUM",
        message:
          "Function call with insecure SSL/TLS protocol identified, possible security issue.",
      },
      { when: [], none: true },
    ],
    severity: "HIGH",
    confidence: "HIGH",
    message: "Insecure SSL/TLS protocol version.",
    cwe: 327,
  },
  {
    id: "B503",
    name: "ssl_with_bad_defaults",
    languages: PY,
    on: "function",
    when: [{ test: "defaultAttributeIn", in: BAD_TLS }],
    severity: "MEDIUM",
    confidence: "MEDIUM",
    message:
      "Function definition identified with insecure SSL/TLS protocol version by default, possible security issue.",
    cwe: 327,
  },
  {
    id: "B504",
    name: "ssl_with_no_version",
    languages: PY,
    on: "call",
    when: [{ test: "qualname", in: ["ssl.wrap_socket"] }, {
      test: "keywordAbsent",
      name: "ssl_version",
    }],
    severity: "LOW",
    confidence: "MEDIUM",
    message:
      "ssl.wrap_socket call with no SSL/TLS protocol version specified, the default SSLv23 could be insecure, possible security issue.",
    cwe: 327,
  },
  ...weakKeyRules(),
  {
    id: "B506",
    name: "yaml_load",
    languages: PY,
    on: "call",
    when: [
      { test: "qualnameParts", part: "yaml", last: "load" },
      { test: "imported", module: "yaml", exact: true },
      { test: "keywordNotIn", name: "Loader", in: ["SafeLoader", "CSafeLoader"] },
    ],
    severity: "MEDIUM",
    confidence: "HIGH",
    message:
      "Use of unsafe yaml load. Allows instantiation of arbitrary objects. Consider yaml.safe_load().",
    cwe: 20,
  },
  {
    id: "B507",
    name: "ssh_no_host_key_verification",
    languages: PY,
    on: "call",
    when: [
      { test: "name", in: ["set_missing_host_key_policy"] },
      { test: "imported", module: "paramiko" },
      { test: "arg", index: 0, in: ["AutoAddPolicy", "WarningPolicy"] },
    ],
    severity: "HIGH",
    confidence: "MEDIUM",
    message: "Paramiko call with policy set to automatically trust the unknown host key.",
    cwe: 295,
  },
  ...PYTHON_INJECTION_RULES,
  {
    id: "B701",
    name: "jinja2_autoescape_false",
    languages: PY,
    on: "call",
    when: [{ test: "qualnameParts", part: "jinja2", last: "Environment" }],
    cases: [
      {
        when: [{ test: "nestedKeyword", name: "autoescape", is: "False" }],
        message:
          "Using jinja2 templates with autoescape=False is dangerous and can lead to XSS. Use autoescape=True or use the select_autoescape function to mitigate XSS vulnerabilities.",
      },
      { when: [{ test: "nestedKeyword", name: "autoescape", is: "safe" }], none: true },
      {
        when: [{ test: "nestedKeyword", name: "autoescape", is: "other" }],
        confidence: "MEDIUM",
        message:
          "Using jinja2 templates with autoescape=False is dangerous and can lead to XSS. Ensure autoescape=True or use the select_autoescape function to mitigate XSS vulnerabilities.",
      },
    ],
    severity: "HIGH",
    confidence: "HIGH",
    message:
      "By default, jinja2 sets autoescape to False. Consider using autoescape=True or use the select_autoescape function to mitigate XSS vulnerabilities.",
    cwe: 94,
  },
  {
    id: "B702",
    name: "use_of_mako_templates",
    languages: PY,
    on: "call",
    when: [{ test: "qualnameParts", part: "mako", last: "Template" }],
    severity: "MEDIUM",
    confidence: "HIGH",
    message:
      "Mako templates allow HTML/JS rendering by default and are inherently open to XSS attacks. Ensure variables in all templates are properly sanitized via the 'n', 'h' or 'x' flags (depending on context). For example, to HTML escape the variable 'data' do ${ data |h }.",
    cwe: 80,
  },
  {
    id: "B703",
    name: "django_mark_safe",
    languages: PY,
    on: "call",
    when: [
      { test: "name", in: ["mark_safe", "SafeText", "SafeUnicode", "SafeString", "SafeBytes"] },
      { test: "imported", module: "django.utils.safestring" },
      { test: "argIsString", index: 0, value: false },
    ],
    severity: "MEDIUM",
    confidence: "HIGH",
    message: "Potential XSS on mark_safe function.",
    cwe: 80,
  },
];

/** B505: key sizes below 1024/2048 bits (RSA, DSA) or 160/224 (EC curves). */
function weakKeyRules(): Rule[] {
  const sized = (
    qualnames: string[],
    type: string,
    keyword: string,
    index: number,
  ): Rule => ({
    id: "B505",
    name: "weak_cryptographic_key",
    languages: PY,
    on: "call",
    when: [{ test: "qualname", in: qualnames }, {
      test: "sizeBelow",
      keyword,
      index,
      fallback: 2048,
      below: 2048,
    }],
    cases: [{
      when: [{ test: "sizeBelow", keyword, index, fallback: 2048, below: 1024 }],
      severity: "HIGH",
      message: `${type} key sizes below 1024 bits are considered breakable. `,
    }],
    severity: "MEDIUM",
    confidence: "HIGH",
    message: `${type} key sizes below 2048 bits are considered breakable. `,
    cwe: 326,
  });
  return [
    sized(
      ["cryptography.hazmat.primitives.asymmetric.dsa.generate_private_key"],
      "DSA",
      "key_size",
      0,
    ),
    sized(
      ["cryptography.hazmat.primitives.asymmetric.rsa.generate_private_key"],
      "RSA",
      "key_size",
      1,
    ),
    sized(["Crypto.PublicKey.DSA.generate", "Cryptodome.PublicKey.DSA.generate"], "DSA", "bits", 0),
    sized(["Crypto.PublicKey.RSA.generate", "Cryptodome.PublicKey.RSA.generate"], "RSA", "bits", 0),
    {
      id: "B505",
      name: "weak_cryptographic_key",
      languages: PY,
      on: "call",
      when: [
        {
          test: "qualname",
          in: ["cryptography.hazmat.primitives.asymmetric.ec.generate_private_key"],
        },
      ],
      cases: [
        {
          when: [{ test: "argOrKeywordLower", index: 0, keyword: "curve", in: ["secp192r1"] }],
        },
        {
          when: [{
            test: "argOrKeywordLower",
            index: 0,
            keyword: "curve",
            in: ["sect163k1", "sect163r2"],
          }],
        },
        { when: [], none: true },
      ],
      severity: "MEDIUM",
      confidence: "HIGH",
      message: "EC key sizes below 224 bits are considered breakable. ",
      cwe: 326,
    },
  ];
}
