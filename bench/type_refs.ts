/**
 * Type references against a whole-word oracle (issue 32): for Rust crates and Go modules
 * unpacked at run time from Debian `-dev` packages (none of them in the tuning sets of
 * `refs_vs_lsp.ts`, `answers.ts` or `rust_refs.json`), every type defined once in the
 * corpus — Rust `struct`, `enum`, `union`, `trait`, a top-level `type` alias; Go `type` —
 * and every line where its name occurs as a whole word once comments and strings are
 * removed. An occurrence qualified by something that is not the project's (`fmt::Result`,
 * `io.Writer`, a Go value's field `e.Logger`) is not the project's type and is left out;
 * so is a name defined once as a type but also as a function, constant, module or field.
 * codectx answers `find_references` on the definition's file (tests included); what it
 * presents as resolved (`resolution` not `name`) is compared by `file:line` with the
 * oracle's lines, the definition's line left out of both.
 *
 * It knows nothing of codectx's parser: the oracle is text, written here. Prints R and P
 * per corpus and per language (micro-averaged over sites), and with `--misses N` the first
 * misses and extras of each corpus.
 *
 * Run: `deno run -A bench/type_refs.ts [--lang rust,go] [--misses 5]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createExecutor } from "../src/tools/executor.ts";
import { deb } from "./sources.ts";
import { walkFiles } from "./sample.ts";

const { values } = parseArgs({
  options: {
    lang: { type: "string", default: "rust,go" },
    misses: { type: "string", default: "0" },
  },
});

interface Corpus {
  lang: "rust" | "go";
  pkg: string;
  /** The folder of the unpacked package that is the project (`*` matches one entry). */
  root: string;
}

const CORPORA: Corpus[] = [
  { lang: "rust", pkg: "librust-globset-dev", root: "usr/share/cargo/registry/globset-*" },
  { lang: "rust", pkg: "librust-indexmap-dev", root: "usr/share/cargo/registry/indexmap-*" },
  {
    lang: "go",
    pkg: "golang-github-sirupsen-logrus-dev",
    root: "usr/share/gocode/src/github.com/sirupsen/logrus",
  },
  {
    lang: "go",
    pkg: "golang-github-google-uuid-dev",
    root: "usr/share/gocode/src/github.com/google/uuid",
  },
];

/**
 * The text with comments, strings and character literals blanked (newlines kept, so lines
 * keep their numbers). Rust: `//`, nested block comments, `"…"`, `r#"…"#`, `b"…"`, `'c'` (a
 * lifetime `'a` stays); Go: `//`, block comments, `"…"`, `` `…` ``, `'c'`.
 */
export function blank(text: string, lang: "rust" | "go"): string {
  const out = text.split("");
  const wipe = (from: number, to: number) => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== "\n") out[k] = " ";
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const to = end < 0 ? text.length : end;
      wipe(i, to);
      i = to;
    } else if (c === "/" && next === "*") {
      let depth = 1;
      let j = i + 2;
      while (j < text.length && depth > 0) {
        if (lang === "rust" && text[j] === "/" && text[j + 1] === "*") depth++, j += 2;
        else if (text[j] === "*" && text[j + 1] === "/") depth--, j += 2;
        else j++;
      }
      wipe(i, j);
      i = j;
    } else if (
      lang === "rust" && (c === "r" || c === "b") && /^(br|r)#*"/.test(text.slice(i, i + 10)) &&
      !/\w/.test(text[i - 1] ?? "")
    ) {
      const m = /^(br|r)(#*)"/.exec(text.slice(i))!;
      const close = `"${m[2]}`;
      const end = text.indexOf(close, i + m[0].length);
      const to = end < 0 ? text.length : end + close.length;
      wipe(i, to);
      i = to;
    } else if (c === '"' || (lang === "go" && c === "`")) {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += c === '"' && text[j] === "\\" ? 2 : 1;
      wipe(i, j + 1);
      i = j + 1;
    } else if (c === "'") {
      // A character literal ('x', '\n', '\u{1F600}'); in Rust a lone 'a is a lifetime.
      const m = /^'(\\(u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|[0-7]{1,3}|.)|[^\\'\n])'/u.exec(
        text.slice(i, i + 14),
      );
      if (m) {
        wipe(i, i + m[0].length);
        i += m[0].length;
      } else i++;
    } else i++;
  }
  return out.join("");
}

/** Type definitions (`name` → [file, line]) and every other definition's names. */
function definitions(files: Map<string, string[]>, lang: "rust" | "go") {
  const types: Array<{ name: string; file: string; line: number }> = [];
  const others = new Set<string>();
  for (const [file, lines] of files) {
    let inTypeBlock = false;
    let inStruct = false;
    lines.forEach((l, i) => {
      if (lang === "rust") {
        const t = /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|union|trait)\s+([A-Za-z_]\w*)/
          .exec(l) ?? /^(?:pub(?:\([^)]*\))?\s+)?type\s+([A-Za-z_]\w*)[^;]*=/.exec(l);
        if (t) types.push({ name: t[1], file, line: i + 1 });
        // An associated type (`type Entry;`, `type Entry = Bucket<K, V>;` in an impl) is
        // another item of that name.
        const o = /\b(?:fn|const|static|mod|macro_rules!)\s+([A-Za-z_]\w*)/.exec(l) ??
          (t ? null : /^\s+type\s+([A-Za-z_]\w*)/.exec(l));
        if (o) others.add(o[1]);
        return;
      }
      if (/^type\s*\($/.test(l.trim())) inTypeBlock = true;
      else if (inTypeBlock && l.trim() === ")") inTypeBlock = false;
      const t = /^type\s+([A-Za-z_]\w*)/.exec(l) ??
        (inTypeBlock ? /^\t([A-Za-z_]\w*)\s+\S/.exec(l) : null);
      if (t) types.push({ name: t[1], file, line: i + 1 });
      if (/\bstruct\s*\{\s*$/.test(l)) inStruct = true;
      else if (inStruct && /^\s*\}/.test(l)) inStruct = false;
      else if (inStruct) {
        // A named field (`Level Level`) is a name of its own; an embedded one is the type.
        const f = /^\s*([A-Za-z_]\w*)(?:\s*,\s*\w+)*\s+\S/.exec(l);
        if (f) others.add(f[1]);
      }
      const o = /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/.exec(l) ??
        /^\s*(?:const|var)\s+([A-Za-z_]\w*)/.exec(l);
      if (o) others.add(o[1]);
      // Locals (`test := …`, `for _, test := range tests`) are names of their own.
      for (const m of l.matchAll(/([A-Za-z_]\w*)(?:\s*,\s*[A-Za-z_]\w*)*\s*:=/g)) {
        for (const n of m[0].replace(/:=$/, "").split(",")) others.add(n.trim());
      }
    });
  }
  return { types, others };
}

/** The oracle's lines for `name`: whole-word occurrences not qualified by something foreign. */
function oracleSites(
  files: Map<string, string[]>,
  name: string,
  lang: "rust" | "go",
  own: Set<string>,
): string[] {
  const word = new RegExp(`(?<![\\w$])${name}(?![\\w$])`, "g");
  const sites: string[] = [];
  for (const [file, lines] of files) {
    lines.forEach((l, i) => {
      for (const m of l.matchAll(word)) {
        const before = l.slice(0, m.index);
        const qual = lang === "rust"
          ? /([A-Za-z_]\w*)\s*::\s*$/.exec(before)?.[1]
          : /([A-Za-z_]\w*)\s*\.\s*$/.exec(before)?.[1];
        const dotted = lang === "go" && /\.\s*$/.test(before) && !qual;
        if (dotted || (qual !== undefined && !own.has(qual))) continue;
        sites.push(`${file}:${i + 1}`);
        break;
      }
    });
  }
  return sites;
}

async function rootOf(c: Corpus): Promise<string> {
  const unpacked = await deb(c.pkg);
  if (!c.root.includes("*")) return `${unpacked}/${c.root}`;
  const [head, tail] = c.root.split("*");
  const dir = `${unpacked}/${head.slice(0, head.lastIndexOf("/"))}`;
  const prefix = head.slice(head.lastIndexOf("/") + 1);
  const sub = [...Deno.readDirSync(dir)].find((e) => e.name.startsWith(prefix))!.name;
  return await Deno.realPath(`${dir}/${sub}${tail}`);
}

const langs = new Set(values.lang!.split(","));
const misses = Number(values.misses);
const totals = new Map<string, { oracle: number; ours: number; hit: number }>();
console.log("| corpus | language | types | oracle sites | codectx sites | R | P |");
console.log("|---|---|---|---|---|---|---|");
for (const c of CORPORA.filter((c) => langs.has(c.lang))) {
  const root = await rootOf(c);
  const ext = c.lang === "rust" ? /\.rs$/ : /\.go$/;
  const paths = walkFiles(root, (d) => !d.startsWith(".") && d !== "target", (f) => ext.test(f));
  const files = new Map<string, string[]>();
  const raw: string[] = [];
  for (const p of paths) {
    const text = await Deno.readTextFile(p);
    raw.push(text);
    files.set(p.slice(root.length + 1), blank(text, c.lang).split("\n"));
  }
  const { types, others } = definitions(files, c.lang);
  const count = new Map<string, number>();
  for (const t of types) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  // Qualifiers that are the project's: Rust's crate, self, super, Self and its modules; Go's
  // package names.
  const own = new Set<string>(["crate", "self", "super", "Self"]);
  for (const f of files.keys()) {
    const base = f.slice(f.lastIndexOf("/") + 1).replace(/\.\w+$/, "");
    own.add(base);
    for (const seg of f.split("/").slice(0, -1)) own.add(seg);
  }
  // The crate's own name (`use indexmap::Equivalent` in its tests), a Go import of the
  // project's own path under another name (`log "github.com/sirupsen/logrus"`).
  if (c.lang === "rust") {
    const name = /^\s*name\s*=\s*"([^"]+)"/m.exec(
      await Deno.readTextFile(`${root}/Cargo.toml`).catch(() => ""),
    )?.[1];
    if (name) own.add(name.replaceAll("-", "_"));
  } else {
    const path = root.slice(root.indexOf("/src/") + 5);
    for (const text of raw) {
      for (const m of text.matchAll(/^\s*(?:import\s+)?([A-Za-z_]\w*)\s+"([^"]+)"/gm)) {
        if (m[2] === path || m[2].startsWith(`${path}/`)) own.add(m[1]);
      }
    }
  }
  if (c.lang === "go") {
    for (const lines of files.values()) {
      const pkg = lines.map((l) => /^package\s+(\w+)/.exec(l)?.[1]).find(Boolean);
      if (pkg) own.add(pkg);
    }
  }
  const indexDir = await Deno.makeTempDir({ prefix: "codectx-type-refs-" });
  const ex = await createExecutor(root, { indexDir });
  let oracleN = 0, oursN = 0, hitN = 0, typesN = 0;
  const missed: string[] = [];
  const extra: string[] = [];
  try {
    await ex.execute({ tool_name: "index_project", arguments: {} });
    for (const t of types) {
      if (count.get(t.name) !== 1 || others.has(t.name)) continue;
      const def = `${t.file}:${t.line}`;
      const oracle = new Set(oracleSites(files, t.name, c.lang, own).filter((s) => s !== def));
      if (oracle.size === 0 || oracle.size > 300) continue;
      const r = await ex.execute({
        tool_name: "find_references",
        arguments: { symbol_name: t.name, file_path: t.file, include_tests: true, limit: 2000 },
      });
      const refs = r.success
        ? (r.result_payload as { references: Array<Record<string, unknown>> }).references
        : [];
      const ours = new Set(
        refs.filter((x) => x.resolution !== "name").map((x) => `${x.file}:${x.line}`).filter((
          s,
        ) => s !== def),
      );
      typesN++;
      oracleN += oracle.size;
      oursN += ours.size;
      for (const s of ours) {
        if (oracle.has(s)) hitN++;
        else extra.push(`${t.name} ${s}`);
      }
      for (const s of oracle) if (!ours.has(s)) missed.push(`${t.name} ${s}`);
    }
  } finally {
    await ex.close();
    await Deno.remove(indexDir, { recursive: true });
  }
  const t = totals.get(c.lang) ?? { oracle: 0, ours: 0, hit: 0 };
  totals.set(c.lang, { oracle: t.oracle + oracleN, ours: t.ours + oursN, hit: t.hit + hitN });
  console.log(
    `| ${c.pkg} | ${c.lang} | ${typesN} | ${oracleN} | ${oursN} | ${
      (hitN / Math.max(1, oracleN)).toFixed(3)
    } | ${(hitN / Math.max(1, oursN)).toFixed(3)} |`,
  );
  if (misses) {
    for (const m of missed.slice(0, misses)) console.log(`  missed ${m}`);
    for (const m of extra.slice(0, misses)) console.log(`  extra  ${m}`);
  }
}
for (const [lang, t] of totals) {
  console.log(
    `${lang}: R ${(t.hit / Math.max(1, t.oracle)).toFixed(3)} P ${
      (t.hit / Math.max(1, t.ours)).toFixed(3)
    } (oracle ${t.oracle}, codectx ${t.ours})`,
  );
}
