/**
 * Input generators of `bench/fuzz.ts`: a seeded random source, hostile JSON values, code that
 * is huge or pathological for a parser, arguments for any tool drawn from its JSON Schema
 * (right and wrong types), and raw bodies (invalid UTF-8, deep nesting, garbage).
 *
 * @module
 */

/** A seeded random source (mulberry32). */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  next(): number {
    let t = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** Largest body the servers accept (their default `--max-body`). */
export const BODY_LIMIT = 1_048_576;

/** Pathological code families, each as a function of its repeat count. */
export const PATHOLOGICAL: Record<string, (n: number) => string> = {
  nested_kw_calls: (n) => "y = " + "f(a=".repeat(n) + "1" + ")".repeat(n),
  unclosed_parens: (n) => "x = (".repeat(n),
  unclosed_brackets_js: (n) => "let x = [".repeat(n),
  unclosed_braces_go: (n) => "package p\nfunc f() {" + "{".repeat(n),
  long_line_sum: (n) => "x = " + "1 + ".repeat(n) + "1\n",
  long_string: (n) => 'x = "' + "a".repeat(n * 4) + '"\n',
  unterminated_string: (n) => 'x = "' + "a\\".repeat(n),
  deep_lists: (n) => "x = " + "[".repeat(n) + "]".repeat(n),
  deep_indent: (n) =>
    Array.from({ length: Math.min(n, 1400) }, (_, i) => " ".repeat(i) + "if x:").join("\n"),
  many_defs: (n) => Array.from({ length: n }, (_, i) => `def f${i}(a=f(b=g(c))): pass`).join("\n"),
  closers: (n) => ")]}".repeat(n),
  mixed_open: (n) => "({[<".repeat(n),
  js_template: (n) => "const s = `" + "${`".repeat(n),
  lambdas: (n) => "f = " + "lambda x: ".repeat(n) + "x\n",
  binary_ops: (n) => "x = " + "-".repeat(n) + "1\n",
  eval_calls: (n) => "import os\n" + "os.system(eval(input()))\n".repeat(n),
};

/** Repeat counts by size class: small, medium, up to about the body limit. */
export function repeatFor(rng: Rng, family: string): number {
  const unit = PATHOLOGICAL[family](1).length || 1;
  const cls = rng.next();
  const bytes = cls < 0.7 ? rng.int(10, 2_000) : cls < 0.97 ? rng.int(2_000, 60_000) : rng.int(
    60_000,
    BODY_LIMIT - 4_096,
  );
  return Math.max(1, Math.floor(bytes / unit));
}

const cache = new Map<string, string>();

/** Pathological code of a family and count (memoized: big strings are reused). */
export function pathological(family: string, n: number): string {
  const key = `${family}:${n}`;
  let s = cache.get(key);
  if (s === undefined) {
    s = PATHOLOGICAL[family](n);
    if (cache.size > 64) cache.clear();
    cache.set(key, s);
  }
  return s;
}

/** Some code: ordinary, pathological, or odd text. */
export function someCode(rng: Rng): string {
  const r = rng.next();
  if (r < 0.3) {
    return rng.pick([
      "def add(a, b):\n    return a + b\n",
      "import pickle\npickle.loads(data)\n",
      "function f(x) { return eval(x) }\n",
      "package main\nfunc main() { println(1) }\n",
      "from app.models import User\nUser().missing_api()\n",
      "",
      " ",
    ]);
  }
  if (r < 0.85) {
    const fam = rng.pick(Object.keys(PATHOLOGICAL));
    return pathological(fam, repeatFor(rng, fam));
  }
  return rng.pick([
    "\u0000\u0001binary",
    "\uFFFD\uFFFD",
    "x = '\uD800'",
    "🙂".repeat(rng.int(1, 5000)),
    "\r\n".repeat(rng.int(1, 10000)),
    "x".repeat(rng.int(1, 200_000)),
  ]);
}

/** A JSON value of a random kind, possibly deeply nested. */
export function someValue(rng: Rng, depth = 0): unknown {
  const r = rng.next();
  if (depth < 3 && r < 0.1) {
    return Array.from({ length: rng.int(0, 4) }, () => someValue(rng, depth + 1));
  }
  if (depth < 3 && r < 0.2) {
    return { a: someValue(rng, depth + 1), [rng.pick(["", "__proto__", "constructor", "x"])]: 1 };
  }
  return rng.pick<unknown>([
    null,
    true,
    false,
    0,
    -1,
    1e308,
    -0.5,
    2 ** 53 + 1,
    "",
    " ",
    "x".repeat(rng.int(1, 5000)),
    "../../etc/passwd",
    "/etc/passwd",
    "app/main.py",
    "app/../../../etc/shadow",
    "\u0000",
    "%2e%2e/%2e%2e",
    "*",
    "[",
    "(a|b)*c",
    "main",
    "add",
    "User",
    "python",
    "klingon",
    ".py",
    "explain",
    [],
    {},
  ]);
}

/** A JSON text nested `n` levels deep (arrays or objects). */
export function deepJson(rng: Rng, n: number): string {
  return rng.chance(0.5) ? "[".repeat(n) + "]".repeat(n) : '{"a":'.repeat(n) + "1" + "}".repeat(n);
}

/** A JSON Schema node as far as the generator reads it. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
}

/** A value that fits a schema node (roughly), or a wrong one. */
function valueFor(rng: Rng, s: Schema, name: string): unknown {
  if (rng.chance(0.25)) return someValue(rng);
  if (s.enum) return rng.pick(s.enum);
  if (s.anyOf) return valueFor(rng, rng.pick(s.anyOf), name);
  const type = Array.isArray(s.type) ? rng.pick(s.type) : s.type;
  switch (type) {
    case "integer":
    case "number": {
      const lo = s.minimum ?? -5;
      const hi = s.maximum ?? 100;
      return rng.pick([lo, hi, lo - 1, hi + 1, rng.int(lo, Math.min(hi, lo + 50)), 0.5, 1e9]);
    }
    case "boolean":
      return rng.chance(0.5);
    case "array":
      return Array.from({ length: rng.int(0, 3) }, () => valueFor(rng, s.items ?? {}, name));
    case "object":
      return argsFor(rng, s);
    default:
      if (name === "code") return someCode(rng);
      return someValue(rng);
  }
}

/** Arguments for a tool from its input schema: fitting, mistyped, missing or extra. */
export function argsFor(rng: Rng, schema: Schema): unknown {
  if (rng.chance(0.05)) return someValue(rng);
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(k);
    if (!required && rng.chance(0.5)) continue;
    if (required && rng.chance(0.05)) continue;
    out[k] = valueFor(rng, s, k);
  }
  if (rng.chance(0.1)) out[rng.pick(["extra", "__proto__", "constructor"])] = someValue(rng);
  return out;
}

/** A raw body that is not what any endpoint wants. */
export function rawGarbage(rng: Rng): Uint8Array | string {
  switch (rng.int(0, 7)) {
    case 0:
      return new Uint8Array(Array.from({ length: rng.int(1, 4096) }, () => rng.int(0, 255)));
    case 1:
      // invalid UTF-8 inside a JSON string
      return new Uint8Array([
        ...new TextEncoder().encode('{"code":"'),
        0xff,
        0xfe,
        0xc3,
        0x28,
        0xed,
        0xa0,
        0x80,
        ...new TextEncoder().encode('"}'),
      ]);
    case 2:
      return deepJson(rng, rng.int(100, 200_000));
    case 3:
      return "{".repeat(rng.int(1, 1000));
    case 4:
      return '{"a":' + '"x",'.repeat(rng.int(1, 100_000));
    case 5:
      return "";
    case 6:
      return "null";
    default:
      return JSON.stringify(someValue(rng));
  }
}

/**
 * Lines that make a backtracking regular expression try every way of matching: long runs of
 * one class with no terminator after them (a word, spaces, digits, quotes, brackets).
 */
export const BACKTRACKING_BAIT = [
  `name = "${"a".repeat(64)}"`,
  `words = "${"ab ".repeat(40)}"`,
  `digits = ${"1".repeat(64)}`,
  `spaces = "${" ".repeat(64)}x"`,
  `mixed = "${"a1_".repeat(30)}"`,
  `nested = ${"[".repeat(40)}`,
  `# ${"TODO ".repeat(30)}`,
  `path = "${"a/".repeat(40)}"`,
].join("\n") + "\n";

/**
 * The regex family of `bench/fuzz.ts --family regex`: at least 200 distinct patterns, most
 * of them catastrophic for a backtracking engine over {@link BACKTRACKING_BAIT} — nested
 * quantifiers, alternations over overlapping classes, backreferences, stacked stars — plus
 * the everyday patterns an assistant writes. Deterministic (no randomness).
 */
export function regexPatterns(): string[] {
  const atoms = ["\\w", "a", "\\d", "[a-z0-9_]", "\\S", '[^"]', ".", "[\\w/]"];
  const ends = ["!", "\\(", "$", "#", ";", "\\{"];
  const out = new Set<string>();
  for (const x of atoms) {
    for (const y of ends) {
      out.add(`(${x}+)+${y}`);
      out.add(`(${x}*)*${y}`);
      out.add(`^(${x}+\\s?)*${y}`);
    }
    out.add(`(${x}+${x}+)+!`);
    out.add(`(${x}|${x})*!`);
  }
  const overlapping = [
    ["\\w", "\\d"],
    ["a", "ab"],
    ["\\s", "\\S"],
    ["[a-z]", "a"],
    ["\\w", "_"],
    ["a", "a?"],
    [".", "\\w"],
    ["1", "\\d+"],
  ];
  for (const [p, q] of overlapping) {
    for (const y of ["!", "\\(", "$"]) out.add(`(${p}|${q})*${y}`);
    out.add(`^(${p}|${q})+${"x"}$`);
  }
  for (const x of ["\\w", "a", "\\d", "."]) {
    out.add(`(${x}+)\\1+!`);
    out.add(`^(${x}*)\\s*\\1\\1\\1!`);
    out.add(`(?<w>${x}+)+\\k<w>!`);
    out.add(`${x}*${x}*${x}*${x}*${x}*!`);
    out.add(`(${x}*?)+!`);
    out.add(`(?=(${x}+)+!)`);
  }
  // What an assistant writes every day, some safe, some not.
  for (
    const p of [
      "(\\w+\\s*)+\\(",
      "(\\s|\\S)*TODO",
      "^(\\w+\\s?)*!$",
      "def \\w+\\(.*\\):",
      "import\\s+\\w+",
      "TODO|FIXME",
      "class\\s+\\w+\\s*(\\(|:)",
      "(\\w+/)+\\w+\\.py",
      '"([^"\\\\]|\\\\.)*"',
      "(\\[)+\\]",
      "\\b(\\w+)\\s+\\1\\b",
      "(a|b|ab)*c",
      "([a-z]+)*[0-9]",
      "^\\s*#.*$",
      "return\\s+\\w+",
    ]
  ) out.add(p);
  return [...out];
}
