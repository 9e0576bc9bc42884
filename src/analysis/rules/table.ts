/**
 * The security rule table. Each row names the fact it applies to (`call`, `import`,
 * `string`, `assert`, `except`, `function`, `assign`), the conditions that must all hold
 * and what to report; `cases` refine severity, confidence or message (the first case
 * whose conditions hold wins; a case with `none` reports nothing). Python rows carry
 * bandit's ids, names, levels and messages; JavaScript/TypeScript and Go rows have ids
 * of their own (Go's follow gosec).
 *
 * Rows of one `group` report at most once per fact, the first matching row winning
 * (bandit's blacklist is one test).
 *
 * @module
 */

/** bandit's three levels. */
export type Level = "LOW" | "MEDIUM" | "HIGH";

/** A literal a condition compares with (bandit compares literal values this way). */
export type LiteralValue = string | number;

/** One condition; see `security.ts` for what each test reads. */
export type Condition =
  /** Callee (after import aliases) matches one of these fnmatch patterns. */
  | { test: "qualname"; in: readonly string[] }
  | { test: "notQualname"; in: readonly string[] }
  /** Callee as bandit's blacklist names it (`__import__("x")` → `x`). */
  | { test: "blacklistName"; in: readonly string[] }
  /** Last part of the callee. */
  | { test: "name"; in: readonly string[] }
  | { test: "nameContains"; value: string }
  | { test: "qualnameContains"; value: string }
  | { test: "qualnameEndsWith"; value: string }
  /** A dotted part of the callee is `part` and its last part is `last`. */
  | { test: "qualnameParts"; part: string; last: string }
  /** A module imported so far equals (`exact`) or contains `module`. */
  | { test: "imported"; module: string; exact?: boolean }
  /** The keyword argument is present and its literal is one of `in`. */
  | { test: "keyword"; name: string; in: readonly LiteralValue[] }
  /** The keyword argument is absent or its literal is none of `in`. */
  | { test: "keywordNotIn"; name: string; in: readonly LiteralValue[] }
  | { test: "keywordAbsent"; name: string }
  | { test: "keywordPresent"; name: string }
  /** A keyword whose name matches `pattern` has a string value. */
  | { test: "keywordNameMatches"; pattern: RegExp }
  /** bandit's `has_shell`: a truthy `shell=` keyword. */
  | { test: "shell"; value: boolean }
  | { test: "argCount"; min?: number; max?: number }
  /** The positional argument is (not) a plain string literal. */
  | { test: "argIsString"; index: number; value: boolean }
  /** The positional argument's literal is one of `in`. */
  | { test: "arg"; index: number; in: readonly LiteralValue[] }
  /** The positional argument is an integer with one of the `mask` bits set. */
  | { test: "argIntMask"; index: number; mask: number }
  /** Positional argument `index`, else keyword `keyword`, lower-cased, is one of `in`. */
  | { test: "argOrKeywordLower"; index: number; keyword: string; in: readonly string[] }
  /** The integer in keyword `keyword`, else argument `index`, else `fallback`, is below. */
  | { test: "sizeBelow"; keyword: string; index: number; fallback: number; below: number }
  /** The program (argument 0, or its first item) is a string without a path. */
  | { test: "partialPath" }
  /** The command string (argument 0, list items joined) holds `*` and one of `commands`. */
  | { test: "wildcard"; commands: readonly string[] }
  /** The argument is built by interpolation, concatenation or formatting. */
  | { test: "argDynamic"; index: number }
  /** The first keyword `name` in the call or calls inside it: its value. */
  | { test: "nestedKeyword"; name: string; is: "absent" | "False" | "safe" | "other" }
  /** The call's result feeds a name (variable, property, function) matching `pattern`. */
  | { test: "contextMatches"; pattern: RegExp }
  /** A string fact: exact value, or starting with one of. */
  | { test: "value"; in: readonly string[] }
  | { test: "valueStartsWith"; in: readonly string[] }
  | { test: "valueMatches"; pattern: RegExp }
  | { test: "assignedToMatches"; pattern: RegExp }
  | { test: "keyOfStringAssignmentMatches"; pattern: RegExp }
  | { test: "comparedWithMatches"; pattern: RegExp }
  /** A string that is part of a query being built matches; `callee` limits the call. */
  | { test: "builtMatches"; pattern: RegExp; callee?: readonly string[] }
  /** An import: a module (or `module.name`) starts with one of the prefixes. */
  | { test: "importPrefix"; in: readonly string[] }
  /** An except handler catches one of these names ("" = bare) and holds only `only`. */
  | { test: "caught"; in: readonly string[] }
  | { test: "only"; value: string }
  /** A function has a positional default: a string for a parameter named like `pattern`. */
  | { test: "defaultStringFor"; pattern: RegExp }
  /** A function has a positional default `x.y` whose last part is one of `in`. */
  | { test: "defaultAttributeIn"; in: readonly string[] }
  /** An assignment: property name, target, and value tests. */
  | { test: "property"; in: readonly string[] }
  | { test: "assignedValue"; is: "dynamic" | "false" | "true" | "nonEmptyString" };

/** Where an issue is reported: the fact's line, or the value of a keyword. */
export type LineRef = { keyword: string };

/** A variant of a rule's outcome. */
export interface Case {
  when: readonly Condition[];
  severity?: Level;
  confidence?: Level;
  message?: string;
  /** Report nothing. */
  none?: true;
}

/** One row of the table. */
export interface Rule {
  id: string;
  name: string;
  /** Language ids the rule applies to. */
  languages: readonly string[];
  on: "call" | "import" | "string" | "assert" | "except" | "function" | "assign";
  when: readonly Condition[];
  cases?: readonly Case[];
  severity: Level;
  confidence: Level;
  /** `{name}` is replaced by the matched name. */
  message: string;
  cwe: number;
  line?: LineRef;
  group?: string;
}

const PY = ["python"] as const;
const JS = ["javascript", "typescript", "tsx"] as const;
const GO = ["go"] as const;

/** bandit's password-like names. */
const PASSWORD_NAME = /(^|_)(pas+wo?r?d|pass(phrase)?|pwd|token|secrete?)($|_)/i;

/** Names that hold secrets (for weak-randomness rules). */
const SECRET_NAME = /(token|secret|passw|pwd|salt|nonce|key|otp|session|csrf|auth|uuid|id$)/i;

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
const BAD_TLS = [
  "PROTOCOL_SSLv2",
  "SSLv2_METHOD",
  "SSLv23_METHOD",
  "PROTOCOL_SSLv3",
  "PROTOCOL_TLSv1",
  "SSLv3_METHOD",
  "TLSv1_METHOD",
];
const SQL = /(select\s.*from\s|delete\s+from\s|insert\s+into\s.*values\s|update\s.*set\s)/is;

const XML_CALL_MESSAGE =
  "Using {name} to parse untrusted XML data is known to be vulnerable to XML attacks. Replace {name} with its defusedxml equivalent function or make sure defusedxml.defuse_stdlib() is called";
const XML_IMPORT_MESSAGE =
  "Using {name} to parse untrusted XML data is known to be vulnerable to XML attacks. Replace {name} with the equivalent defusedxml package, or make sure defusedxml.defuse_stdlib() is called.";

/** A blacklisted call (bandit B3xx): one group, table order. */
function callBlacklist(
  id: string,
  _name: string,
  qualnames: readonly string[],
  severity: Level,
  message: string,
  cwe: number,
): Rule {
  return {
    id,
    name: "blacklist",
    languages: PY,
    on: "call",
    when: [{ test: "blacklistName", in: qualnames }],
    severity,
    confidence: "HIGH",
    message,
    cwe,
    group: "blacklist:call",
  };
}

/** A blacklisted import (bandit B4xx), as an import and as `__import__("…")`. */
function importBlacklist(
  id: string,
  prefixes: readonly string[],
  severity: Level,
  message: string,
  cwe: number,
): Rule[] {
  return [
    {
      id,
      name: "blacklist",
      languages: PY,
      on: "import",
      when: [{ test: "importPrefix", in: prefixes }],
      severity,
      confidence: "HIGH",
      message,
      cwe,
      group: "blacklist:import",
    },
    {
      id,
      name: "blacklist",
      languages: PY,
      on: "call",
      when: [{ test: "blacklistName", in: prefixes }],
      severity,
      confidence: "HIGH",
      message,
      cwe,
      group: "blacklist:call",
    },
  ];
}

const PYTHON_BLACKLIST_CALLS: Rule[] = [
  callBlacklist(
    "B301",
    "pickle",
    [
      "pickle.loads",
      "pickle.load",
      "pickle.Unpickler",
      "cPickle.loads",
      "cPickle.load",
      "cPickle.Unpickler",
      "dill.loads",
      "dill.load",
      "dill.Unpickler",
    ],
    "MEDIUM",
    "Pickle and modules that wrap it can be unsafe when used to deserialize untrusted data, possible security issue.",
    502,
  ),
  callBlacklist(
    "B302",
    "marshal",
    ["marshal.load", "marshal.loads"],
    "MEDIUM",
    "Deserialization with the marshal module is possibly dangerous.",
    502,
  ),
  callBlacklist(
    "B303",
    "md5",
    [
      "hashlib.md5",
      "hashlib.sha1",
      "Crypto.Hash.MD2.new",
      "Crypto.Hash.MD4.new",
      "Crypto.Hash.MD5.new",
      "Crypto.Hash.SHA.new",
      "Cryptodome.Hash.MD2.new",
      "Cryptodome.Hash.MD4.new",
      "Cryptodome.Hash.MD5.new",
      "Cryptodome.Hash.SHA.new",
      "cryptography.hazmat.primitives.hashes.MD5",
      "cryptography.hazmat.primitives.hashes.SHA1",
    ],
    "MEDIUM",
    "Use of insecure MD2, MD4, MD5, or SHA1 hash function.",
    327,
  ),
  callBlacklist(
    "B304",
    "ciphers",
    [
      "Crypto.Cipher.ARC2.new",
      "Crypto.Cipher.ARC4.new",
      "Crypto.Cipher.Blowfish.new",
      "Crypto.Cipher.DES.new",
      "Crypto.Cipher.XOR.new",
      "Cryptodome.Cipher.ARC2.new",
      "Cryptodome.Cipher.ARC4.new",
      "Cryptodome.Cipher.Blowfish.new",
      "Cryptodome.Cipher.DES.new",
      "Cryptodome.Cipher.XOR.new",
      "cryptography.hazmat.primitives.ciphers.algorithms.ARC4",
      "cryptography.hazmat.primitives.ciphers.algorithms.Blowfish",
      "cryptography.hazmat.primitives.ciphers.algorithms.IDEA",
    ],
    "HIGH",
    "Use of insecure cipher {name}. Replace with a known secure cipher such as AES.",
    327,
  ),
  callBlacklist(
    "B305",
    "cipher_modes",
    ["cryptography.hazmat.primitives.ciphers.modes.ECB"],
    "MEDIUM",
    "Use of insecure cipher mode {name}.",
    327,
  ),
  callBlacklist(
    "B306",
    "mktemp_q",
    ["tempfile.mktemp"],
    "MEDIUM",
    "Use of insecure and deprecated function (mktemp).",
    377,
  ),
  callBlacklist(
    "B307",
    "eval",
    ["eval"],
    "MEDIUM",
    "Use of possibly insecure function - consider using safer ast.literal_eval.",
    78,
  ),
  callBlacklist(
    "B308",
    "mark_safe",
    ["django.utils.safestring.mark_safe"],
    "MEDIUM",
    "Use of mark_safe() may expose cross-site scripting vulnerabilities and should be reviewed.",
    80,
  ),
  callBlacklist(
    "B309",
    "httpsconnection",
    [
      "httplib.HTTPSConnection",
      "http.client.HTTPSConnection",
      "six.moves.http_client.HTTPSConnection",
    ],
    "MEDIUM",
    "Use of HTTPSConnection on older versions of Python prior to 2.7.9 and 3.4.3 do not provide security, see https://wiki.openstack.org/wiki/OSSN/OSSN-0033",
    295,
  ),
  callBlacklist(
    "B310",
    "urllib_urlopen",
    [
      "urllib.urlopen",
      "urllib.request.urlopen",
      "urllib.urlretrieve",
      "urllib.request.urlretrieve",
      "urllib.URLopener",
      "urllib.request.URLopener",
      "urllib.FancyURLopener",
      "urllib.request.FancyURLopener",
      "urllib2.urlopen",
      "urllib2.Request",
      "six.moves.urllib.request.urlopen",
      "six.moves.urllib.request.urlretrieve",
      "six.moves.urllib.request.URLopener",
      "six.moves.urllib.request.FancyURLopener",
    ],
    "MEDIUM",
    "Audit url open for permitted schemes. Allowing use of file:/ or custom schemes is often unexpected.",
    22,
  ),
  callBlacklist(
    "B311",
    "random",
    [
      "random.random",
      "random.randrange",
      "random.randint",
      "random.choice",
      "random.uniform",
      "random.triangular",
    ],
    "LOW",
    "Standard pseudo-random generators are not suitable for security/cryptographic purposes.",
    330,
  ),
  callBlacklist(
    "B312",
    "telnetlib",
    ["telnetlib.*"],
    "HIGH",
    "Telnet-related functions are being called. Telnet is considered insecure. Use SSH or some other encrypted protocol.",
    319,
  ),
  callBlacklist(
    "B313",
    "xml_bad_cElementTree",
    [
      "xml.etree.cElementTree.parse",
      "xml.etree.cElementTree.iterparse",
      "xml.etree.cElementTree.fromstring",
      "xml.etree.cElementTree.XMLParser",
    ],
    "MEDIUM",
    XML_CALL_MESSAGE,
    20,
  ),
  callBlacklist(
    "B314",
    "xml_bad_ElementTree",
    [
      "xml.etree.ElementTree.parse",
      "xml.etree.ElementTree.iterparse",
      "xml.etree.ElementTree.fromstring",
      "xml.etree.ElementTree.XMLParser",
    ],
    "MEDIUM",
    XML_CALL_MESSAGE,
    20,
  ),
  callBlacklist(
    "B315",
    "xml_bad_expatreader",
    ["xml.sax.expatreader.create_parser"],
    "MEDIUM",
    XML_CALL_MESSAGE,
    20,
  ),
  callBlacklist(
    "B316",
    "xml_bad_expatbuilder",
    ["xml.dom.expatbuilder.parse", "xml.dom.expatbuilder.parseString"],
    "MEDIUM",
    XML_CALL_MESSAGE,
    20,
  ),
  callBlacklist(
    "B317",
    "xml_bad_sax",
    ["xml.sax.parse", "xml.sax.parseString", "xml.sax.make_parser"],
    "MEDIUM",
    XML_CALL_MESSAGE,
    20,
  ),
  callBlacklist(
    "B318",
    "xml_bad_minidom",
    ["xml.dom.minidom.parse", "xml.dom.minidom.parseString"],
    "MEDIUM",
    XML_CALL_MESSAGE,
    20,
  ),
  callBlacklist(
    "B319",
    "xml_bad_pulldom",
    ["xml.dom.pulldom.parse", "xml.dom.pulldom.parseString"],
    "MEDIUM",
    XML_CALL_MESSAGE,
    20,
  ),
  callBlacklist(
    "B320",
    "xml_bad_etree",
    [
      "lxml.etree.parse",
      "lxml.etree.fromstring",
      "lxml.etree.RestrictedElement",
      "lxml.etree.GlobalParserTLS",
      "lxml.etree.getDefaultParser",
      "lxml.etree.check_docinfo",
    ],
    "MEDIUM",
    "Using {name} to parse untrusted XML data is known to be vulnerable to XML attacks. Replace {name} with its defusedxml equivalent function.",
    20,
  ),
  callBlacklist(
    "B321",
    "ftplib",
    ["ftplib.*"],
    "HIGH",
    "FTP-related functions are being called. FTP is considered insecure. Use SSH/SFTP/SCP or some other encrypted protocol.",
    319,
  ),
  callBlacklist(
    "B322",
    "input",
    ["input"],
    "HIGH",
    "The input method in Python 2 will read from standard input, evaluate and run the resulting string as python source code. This is similar, though in many ways worse, then using eval. On Python 2, use raw_input instead, input is safe in Python 3.",
    78,
  ),
  callBlacklist(
    "B323",
    "unverified_context",
    ["ssl._create_unverified_context"],
    "MEDIUM",
    "By default, Python will create a secure, verified ssl context for use in such classes as HTTPSConnection. However, it still allows using an insecure context via the _create_unverified_context that reverts to the previous behavior that does not validate certificates or perform hostname checks.",
    295,
  ),
  callBlacklist(
    "B325",
    "tempnam",
    ["os.tempnam", "os.tmpnam"],
    "MEDIUM",
    "Use of os.tempnam() and os.tmpnam() is vulnerable to symlink attacks. Consider using tmpfile() instead.",
    377,
  ),
];

const PYTHON_BLACKLIST_IMPORTS: Rule[] = [
  ...importBlacklist(
    "B401",
    ["telnetlib"],
    "HIGH",
    "A telnet-related module is being imported.  Telnet is considered insecure. Use SSH or some other encrypted protocol.",
    319,
  ),
  ...importBlacklist(
    "B402",
    ["ftplib"],
    "HIGH",
    "A FTP-related module is being imported.  FTP is considered insecure. Use SSH/SFTP/SCP or some other encrypted protocol.",
    319,
  ),
  ...importBlacklist(
    "B403",
    ["pickle", "cPickle", "dill"],
    "LOW",
    "Consider possible security implications associated with {name} module.",
    502,
  ),
  ...importBlacklist(
    "B404",
    ["subprocess"],
    "LOW",
    "Consider possible security implications associated with {name} module.",
    78,
  ),
  ...importBlacklist(
    "B405",
    ["xml.etree.cElementTree", "xml.etree.ElementTree"],
    "LOW",
    XML_IMPORT_MESSAGE,
    20,
  ),
  ...importBlacklist("B406", ["xml.sax"], "LOW", XML_IMPORT_MESSAGE, 20),
  ...importBlacklist("B407", ["xml.dom.expatbuilder"], "LOW", XML_IMPORT_MESSAGE, 20),
  ...importBlacklist("B408", ["xml.dom.minidom"], "LOW", XML_IMPORT_MESSAGE, 20),
  ...importBlacklist("B409", ["xml.dom.pulldom"], "LOW", XML_IMPORT_MESSAGE, 20),
  ...importBlacklist(
    "B410",
    ["lxml"],
    "LOW",
    "Using {name} to parse untrusted XML data is known to be vulnerable to XML attacks. Replace {name} with the equivalent defusedxml package.",
    20,
  ),
  ...importBlacklist(
    "B411",
    ["xmlrpclib"],
    "HIGH",
    "Using {name} to parse untrusted XML data is known to be vulnerable to XML attacks. Use defused.xmlrpc.monkey_patch() function to monkey-patch xmlrpclib and mitigate XML vulnerabilities.",
    20,
  ),
  ...importBlacklist(
    "B412",
    [
      "wsgiref.handlers.CGIHandler",
      "twisted.web.twcgi.CGIScript",
      "twisted.web.twcgi.CGIDirectory",
    ],
    "HIGH",
    "Consider possible security implications associated with {name} module.",
    284,
  ),
  ...importBlacklist(
    "B413",
    [
      "Crypto.Cipher",
      "Crypto.Hash",
      "Crypto.IO",
      "Crypto.Protocol",
      "Crypto.PublicKey",
      "Crypto.Random",
      "Crypto.Signature",
      "Crypto.Util",
    ],
    "HIGH",
    "The pyCrypto library and its module {name} are no longer actively maintained and have been deprecated. Consider using pyca/cryptography library.",
    327,
  ),
];

const PASSWORD_MESSAGE = "Possible hardcoded password: '{value}'";

const PYTHON_RULES: Rule[] = [
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

const JS_RULES: Rule[] = [
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

const GO_RULES: Rule[] = [
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

/** Every rule, in table order. */
export const RULES: readonly Rule[] = [...PYTHON_RULES, ...JS_RULES, ...GO_RULES];
