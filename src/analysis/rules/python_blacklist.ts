/**
 * bandit's blacklists as rules: calls (B3xx) and imports (B4xx) of modules and functions
 * known to be unsafe. Rows of one group report at most once per fact, the first matching
 * row winning, as bandit's blacklist is one test.
 *
 * @module
 */

import type { Level, Rule } from "./rule.ts";

/** The language of bandit's rules. */
export const PY = ["python"] as const;

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

/** Blacklisted calls, in bandit's order. */
export const PYTHON_BLACKLIST_CALLS: Rule[] = [
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
  // B322 (`input`) is left out: it is Python 2's `input`, which evaluated what it read;
  // Python 3's `input` returns a string and is safe (bandit dropped the check for that reason).
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

/** Blacklisted imports, in bandit's order. */
export const PYTHON_BLACKLIST_IMPORTS: Rule[] = [
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
