/**
 * The language table: which files are which language, and how each language's
 * definitions are read. Data only; `parser.ts` knows no language.
 *
 * A language parsed with tree-sitter has a `grammar` row (wasm file in
 * `tree-sitter-wasms/out/`, query file in `src/parse/queries/`, node types the engine
 * needs to find decorators, wrappers and doc comments). Text formats (`markdown`, `json`,
 * `yaml`, `toml`, Makefiles) are read by small line scanners in `text.ts` and have a `text`
 * row; build files and docs with no outline worth reading (CMake, Meson, autoconf,
 * reStructuredText) are `lines`: no symbols, their text is searched like any other.
 *
 * `.h` files map to `c` here; `parseSource` upgrades a `.h` file to `cpp` when its text
 * shows C++ (`class X`, `namespace X`, `template <`), see {@link looksLikeCpp}.
 *
 * @module
 */

import type { SymbolKind } from "../types.ts";

/** How a language documents a definition. */
export type DocStyle =
  /** Python: the first string statement of the body; a comment above otherwise. */
  | "docstring"
  /** The contiguous comment block right above the definition (or its decorators). */
  | "comment";

/** Text formats indexed without tree-sitter; `lines`: text only, no symbols. */
export type TextFormat = "markdown" | "json" | "yaml" | "toml" | "make" | "lines";

/** What the engine needs to know about a tree-sitter grammar. */
export interface GrammarInfo {
  /** File name in `tree-sitter-wasms/out/`. */
  readonly wasm: string;
  /** File name in `src/parse/queries/`. */
  readonly query: string;
  /** Node types that are comments. */
  readonly commentTypes: readonly string[];
  readonly docStyle: DocStyle;
  /**
   * Parents that wrap exactly one definition and belong to it (Python
   * `decorated_definition`, JS `export_statement`): the symbol starts at the wrapper and
   * its doc comment sits above the wrapper.
   */
  readonly wrapperTypes: readonly string[];
  /**
   * Declarations that may group several definitions (Go `type (...)`, JS `const a = …,
   * b = …`): climbed only when the definition starts on the wrapper's first line.
   */
  readonly groupTypes: readonly string[];
  /**
   * Decorators/attributes/annotations: as preceding siblings they extend the symbol's
   * start (Rust `#[derive]`, TS method decorators); as leading children they are left
   * out of the signature.
   */
  readonly attributeTypes: readonly string[];
  /** Children that hold modifiers and annotations together (Java `modifiers`). */
  readonly modifierTypes: readonly string[];
  /** A method with one of these names is a `constructor`. */
  readonly constructorNames: readonly string[];
  /** A method named like its class is a `constructor` (C++). */
  readonly constructorIsClassName: boolean;
  /**
   * The signature is the head's first line only (Ruby: the head has no delimiter, and
   * comments may sit between it and the body).
   */
  readonly signatureFirstLine: boolean;
  /** A `function` directly inside one of these kinds becomes a `method`. */
  readonly methodParents: readonly SymbolKind[];
  /**
   * How a definition says it is internal to its module or type (search's second stage
   * reads it): its name matches `privateName` (Go: a lower-case first letter), its
   * signature matches `privateSignature` (Java `private`) or lacks `publicSignature` (Rust
   * `pub`). A leading `_` in the name or the file's name counts in every language.
   */
  readonly visibility: Readonly<
    { privateName?: RegExp; privateSignature?: RegExp; publicSignature?: RegExp }
  >;
}

/** One row of the language table. */
export interface LanguageInfo {
  /** Stable id, e.g. `python`, `csharp`. */
  readonly id: string;
  /** Lower-case extensions with the dot, e.g. `.py`. */
  readonly extensions: readonly string[];
  /** Exact file names (no directory), e.g. `Rakefile`. */
  readonly filenames: readonly string[];
  /**
   * Interpreters a script without an extension names on its `#!` line (`node` for npm's
   * `bin/terser`): such a file is read in this language, not as plain text.
   */
  readonly interpreters?: readonly string[];
  /** Set for languages parsed with tree-sitter. */
  readonly grammar?: GrammarInfo;
  /** Set for text formats read by a line scanner. */
  readonly text?: TextFormat;
  /**
   * Its files are docs, not code, wherever they live: search's `scope` counts them as docs,
   * so a plain-words search ranks them below code (prose, and build files whose lists of
   * source files would otherwise meet every question about those files).
   */
  readonly docs?: boolean;
  /**
   * File names that are generated output when one of the listed files sits beside them:
   * autotools' `Makefile` is written by `configure` from `Makefile.in`, itself written by
   * automake from `Makefile.am`, so only `Makefile.am` is read; CMake writes a `Makefile`
   * beside its `CMakeFiles` folder. See {@link generatedBeside}.
   */
  readonly generatedBeside?: Readonly<Record<string, readonly string[]>>;
  /**
   * Set on {@linkcode PLAIN_TEXT}, the row of a file no row names: it is indexed only when
   * its first bytes are UTF-8 text.
   */
  readonly unnamed?: boolean;
}

const CLASS_LIKE: readonly SymbolKind[] = ["class", "interface", "struct", "enum", "trait"];

/** Defaults every grammar row starts from; a row spreads its differences over it. */
const BASE = {
  commentTypes: ["comment"],
  docStyle: "comment",
  wrapperTypes: [],
  groupTypes: [],
  attributeTypes: [],
  modifierTypes: [],
  constructorNames: [],
  constructorIsClassName: false,
  signatureFirstLine: false,
  methodParents: CLASS_LIKE,
  visibility: {},
} as const satisfies Omit<GrammarInfo, "wasm" | "query">;

const grammar = (
  name: string,
  overrides: Partial<Omit<GrammarInfo, "wasm" | "query">> = {},
): GrammarInfo => ({
  ...BASE,
  wasm: `tree-sitter-${name}.wasm`,
  query: `${name}.scm`,
  ...overrides,
});

/** A `private` modifier in a signature. */
const PRIVATE = /\bprivate\b/;

const JS_LIKE: Partial<GrammarInfo> = {
  wrapperTypes: ["export_statement"],
  groupTypes: ["lexical_declaration", "variable_declaration"],
  attributeTypes: ["decorator"],
  constructorNames: ["constructor"],
  // `#name` members; TypeScript's `private` too.
  visibility: { privateName: /^#/, privateSignature: PRIVATE },
};

/** Every language codectx indexes, one row each. */
export const LANGUAGES: readonly LanguageInfo[] = [
  {
    id: "python",
    extensions: [".py", ".pyi", ".pyw"],
    filenames: [],
    interpreters: ["python", "python2", "python3"],
    grammar: grammar("python", {
      docStyle: "docstring",
      wrapperTypes: ["decorated_definition"],
      attributeTypes: ["decorator"],
      constructorNames: ["__init__"],
    }),
  },
  {
    id: "javascript",
    extensions: [".js", ".mjs", ".cjs", ".jsx"],
    filenames: [],
    interpreters: ["node", "nodejs"],
    grammar: grammar("javascript", JS_LIKE),
  },
  {
    id: "typescript",
    extensions: [".ts", ".mts", ".cts"],
    filenames: [],
    grammar: grammar("typescript", {
      ...JS_LIKE,
      wrapperTypes: ["export_statement", "ambient_declaration"],
    }),
  },
  {
    id: "tsx",
    extensions: [".tsx"],
    filenames: [],
    grammar: {
      ...grammar("tsx", { ...JS_LIKE, wrapperTypes: ["export_statement", "ambient_declaration"] }),
      // TSX shares TypeScript's captures: the grammars differ only in JSX.
      query: "typescript.scm",
    },
  },
  {
    id: "go",
    extensions: [".go"],
    filenames: [],
    grammar: grammar("go", {
      groupTypes: ["type_declaration", "const_declaration", "var_declaration"],
      visibility: { privateName: /^[a-z]/ },
    }),
  },
  {
    id: "rust",
    extensions: [".rs"],
    filenames: [],
    grammar: grammar("rust", {
      commentTypes: ["line_comment", "block_comment"],
      attributeTypes: ["attribute_item"],
      constructorNames: [],
      visibility: { publicSignature: /\bpub\b/ },
    }),
  },
  {
    id: "java",
    extensions: [".java"],
    filenames: [],
    grammar: grammar("java", {
      commentTypes: ["line_comment", "block_comment"],
      attributeTypes: ["marker_annotation", "annotation"],
      modifierTypes: ["modifiers"],
      visibility: { privateSignature: PRIVATE },
    }),
  },
  {
    id: "c",
    extensions: [".c", ".h"],
    filenames: [],
    grammar: grammar("c", { groupTypes: ["declaration", "type_definition"] }),
  },
  {
    id: "cpp",
    extensions: [".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".inl"],
    filenames: [],
    grammar: grammar("cpp", {
      wrapperTypes: ["template_declaration"],
      groupTypes: ["declaration", "type_definition"],
      constructorIsClassName: true,
    }),
  },
  {
    id: "csharp",
    extensions: [".cs"],
    filenames: [],
    grammar: {
      ...grammar("c_sharp", {
        attributeTypes: ["attribute_list"],
        visibility: { privateSignature: PRIVATE },
      }),
      query: "csharp.scm",
    },
  },
  {
    id: "ruby",
    extensions: [".rb", ".rake", ".gemspec", ".ru"],
    filenames: ["Rakefile", "Gemfile", "Guardfile", "Podfile", "Vagrantfile"],
    interpreters: ["ruby"],
    grammar: grammar("ruby", {
      constructorNames: ["initialize"],
      signatureFirstLine: true,
      methodParents: [...CLASS_LIKE, "module"],
    }),
  },
  {
    id: "php",
    extensions: [".php", ".phtml"],
    filenames: [],
    interpreters: ["php"],
    grammar: grammar("php", {
      attributeTypes: ["attribute_list"],
      constructorNames: ["__construct"],
      visibility: { privateSignature: PRIVATE },
    }),
  },
  {
    id: "kotlin",
    extensions: [".kt", ".kts"],
    filenames: [],
    grammar: grammar("kotlin", {
      commentTypes: ["comment", "line_comment", "multiline_comment"],
      attributeTypes: ["annotation"],
      modifierTypes: ["modifiers"],
      visibility: { privateSignature: PRIVATE },
    }),
  },
  {
    id: "swift",
    extensions: [".swift"],
    filenames: [],
    grammar: grammar("swift", {
      commentTypes: ["comment", "multiline_comment"],
      attributeTypes: ["attribute"],
      modifierTypes: ["modifiers"],
      visibility: { privateSignature: /\b(?:file)?private\b/ },
    }),
  },
  {
    id: "scala",
    extensions: [".scala", ".sc"],
    filenames: [],
    grammar: grammar("scala", {
      commentTypes: ["comment", "block_comment"],
      attributeTypes: ["annotation"],
      modifierTypes: ["modifiers"],
      visibility: { privateSignature: PRIVATE },
    }),
  },
  {
    id: "lua",
    extensions: [".lua"],
    filenames: [],
    interpreters: ["lua"],
    grammar: grammar("lua"),
  },
  {
    id: "bash",
    extensions: [".sh", ".bash"],
    filenames: [".bashrc", ".bash_profile", ".profile", "PKGBUILD"],
    grammar: grammar("bash"),
  },
  {
    id: "markdown",
    extensions: [".md", ".markdown", ".mdx"],
    filenames: [],
    text: "markdown",
    docs: true,
  },
  { id: "rst", extensions: [".rst"], filenames: [], text: "lines", docs: true },
  // Plain text and AsciiDoc (git's Documentation/*.txt, command-list.txt); a name a build tool
  // reads (CMakeLists.txt, meson_options.txt) is its row's, a file over the walker's size limit
  // is skipped.
  {
    id: "text",
    extensions: [".txt", ".adoc", ".asciidoc"],
    filenames: [],
    text: "lines",
    docs: true,
  },
  { id: "json", extensions: [".json", ".jsonc", ".json5"], filenames: [], text: "json" },
  { id: "yaml", extensions: [".yml", ".yaml"], filenames: [], text: "yaml" },
  { id: "toml", extensions: [".toml"], filenames: ["Pipfile"], text: "toml" },
  // Build files: where a source file is registered (`dist_tmux_SOURCES = … cmd-pipe-pane.c`).
  // Generated ones stay out: `Makefile.in` and `configure` match no row, a `Makefile`
  // beside `Makefile.in` or `Makefile.am` is configure's output, one beside a `CMakeFiles`
  // folder CMake's.
  {
    id: "make",
    extensions: [".mk", ".mak", ".am"],
    filenames: ["Makefile", "makefile", "GNUmakefile"],
    text: "make",
    docs: true,
    generatedBeside: { Makefile: ["Makefile.in", "Makefile.am", "CMakeFiles"] },
  },
  {
    id: "cmake",
    extensions: [".cmake"],
    filenames: ["CMakeLists.txt"],
    text: "lines",
    docs: true,
  },
  {
    id: "meson",
    extensions: [],
    filenames: ["meson.build", "meson_options.txt", "meson.options"],
    text: "lines",
    docs: true,
  },
  {
    id: "autoconf",
    extensions: [".ac"],
    filenames: ["configure.in"],
    text: "lines",
    docs: true,
  },
];

const BY_ID = new Map<string, LanguageInfo>(LANGUAGES.map((l) => [l.id, l]));

/**
 * The row of a file that no row names (`lib/Makefile.inc`, curl's `docs/cmdline-opts/*.d`,
 * `*.in` templates, man pages, `LICENSE`): plain text, searched as a shell user's `rg` would
 * find it, with no symbols. Autotools' outputs beside their sources stay out (`Makefile.in`
 * beside `Makefile.am`, `configure` and `aclocal.m4` beside `configure.ac`).
 */
export const PLAIN_TEXT: LanguageInfo = Object.freeze({
  ...BY_ID.get("text")!,
  extensions: [],
  unnamed: true,
  generatedBeside: {
    "Makefile.in": ["Makefile.am"],
    configure: ["configure.ac", "configure.in"],
    "aclocal.m4": ["configure.ac", "configure.in"],
    "config.h.in": ["configure.ac", "configure.in"],
  },
});

/**
 * Extensions of files that are no text a person reads, whatever their bytes: images, archives,
 * compiled objects, fonts, media, office documents, databases, lock files, source maps and
 * translation catalogues (`po/*.po` repeat every message of the source, once per language).
 * They are not read at all (a binary file of another name is, and skipped for its bytes).
 */
const NOT_TEXT = new Set(
  (".png .jpg .jpeg .gif .bmp .ico .icns .webp .tif .tiff .psd .svg .xcf " +
    ".zip .gz .tgz .bz2 .xz .zst .7z .rar .tar .jar .war .ear .whl .egg .deb .rpm .dmg .iso " +
    ".o .a .so .dylib .dll .exe .lib .obj .pdb .class .pyc .pyo .pyd .wasm .bin .dat .node " +
    ".ttf .otf .woff .woff2 .eot .mp3 .mp4 .wav .ogg .flac .avi .mov .webm .mkv " +
    ".au .aif .aiff .aifc .mid .midi .po .pot .mo .gmo " +
    ".pdf .doc .docx .xls .xlsx .ppt .pptx .odt .ods .db .sqlite .sqlite3 .pack .idx " +
    ".lock .map .snap .pickle .pkl .npy .npz .parquet .der .p12 .pfx .keystore").split(" "),
);
const BY_EXTENSION = new Map<string, LanguageInfo>(
  LANGUAGES.flatMap((l) => l.extensions.map((e) => [e, l] as const)),
);
const BY_INTERPRETER = new Map<string, LanguageInfo>(
  LANGUAGES.flatMap((l) => (l.interpreters ?? []).map((i) => [i, l] as const)),
);
const BY_FILENAME = new Map<string, LanguageInfo>(
  LANGUAGES.flatMap((l) => l.filenames.map((f) => [f, l] as const)),
);

/**
 * The language of a file, from its name alone.
 *
 * @example
 * ```ts
 * languageForPath("src/app.py")?.id; // "python"
 * languageForPath("include/x.h")?.id; // "c" (parseSource may upgrade it to "cpp")
 * languageForPath("lib/Makefile.inc")?.id; // "text" (PLAIN_TEXT: no row names it)
 * languageForPath("logo.png"); // undefined
 * ```
 */
export function languageForPath(path: string): LanguageInfo | undefined {
  const base = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const byName = BY_FILENAME.get(base);
  if (byName) return byName;
  const dot = base.lastIndexOf(".");
  // A leading dot alone (".gitignore") is a name, not an extension.
  const extension = dot > 0 ? base.slice(dot).toLowerCase() : "";
  const byExtension = extension ? BY_EXTENSION.get(extension) : undefined;
  if (byExtension) return byExtension;
  // Hidden files and folders (`.gitignore`, `.github/CODEOWNERS`) stay out, as for `rg`.
  if (NOT_TEXT.has(extension) || /(?:^|[/\\])\.(?![./\\]|$)/.test(path)) return undefined;
  return PLAIN_TEXT;
}

/**
 * The language a script's first line names (`#!/usr/bin/env node`, `#!/usr/bin/python3.11`),
 * by its row's {@linkcode LanguageInfo.interpreters}; undefined for any other first line.
 *
 * @example
 * ```ts
 * languageForShebang("#!/usr/bin/env node\n'use strict'")?.id; // "javascript"
 * languageForShebang("#!/usr/bin/python3.11 -u")?.id; // "python"
 * languageForShebang("#!/bin/sh")?.id; // undefined
 * ```
 */
export function languageForShebang(text: string): LanguageInfo | undefined {
  const m = /^#!\s*(?:\S*\/)?(\S+)(?:[ \t]+(?:-\S+[ \t]+)*(\S+))?/.exec(text);
  if (!m) return undefined;
  // `env` runs the next word (`env -S node --flags` too).
  const name = m[1] === "env" ? m[2] ?? "" : m[1];
  return BY_INTERPRETER.get(name.replace(/(?<=\D)[\d.]+$/, "")) ?? BY_INTERPRETER.get(name);
}

/**
 * The file that `name` is generated from when `siblings` (the names in its folder) hold it,
 * by its language's {@linkcode LanguageInfo.generatedBeside}; undefined for a file a person
 * writes.
 *
 * @example
 * ```ts
 * generatedBeside("Makefile", new Set(["Makefile", "Makefile.am", "Makefile.in"])); // "Makefile.in"
 * generatedBeside("Makefile", new Set(["Makefile", "main.c"])); // undefined
 * ```
 */
export function generatedBeside(name: string, siblings: ReadonlySet<string>): string | undefined {
  const sources = languageForPath(name)?.generatedBeside?.[name];
  return sources?.find((s) => siblings.has(s));
}

/**
 * A language row by id (`python`, `csharp`, …), or undefined.
 *
 * @example
 * ```ts
 * languageById("csharp")?.grammar?.wasm; // "tree-sitter-c_sharp.wasm"
 * ```
 */
export function languageById(id: string): LanguageInfo | undefined {
  return BY_ID.get(id);
}

const CPP_MARKERS = /^[ \t]*(?:class\s+\w+[^;]*$|namespace\s+\w*\s*\{|template\s*<)/m;

/**
 * Whether a `.h` file is C++ rather than C: it declares a class or a namespace or a
 * template at the start of a line. Cheap (one regular expression), and good enough for
 * choosing a grammar: the C grammar reads C++ headers with many errors, the C++ grammar
 * reads C headers well, so a false positive costs little.
 */
export function looksLikeCpp(source: string): boolean {
  return CPP_MARKERS.test(source);
}

/**
 * Whether a definition is internal to its module or type by its language's rule
 * ({@linkcode GrammarInfo.visibility}) or a leading `_` of its own name: Go's `xtob`, Rust's
 * `enum ErrorInner` (no `pub`), Java's `private`.
 */
export function isInternal(language: string, name: string, signature: string): boolean {
  const own = name.slice(name.lastIndexOf(".") + 1);
  const v = languageById(language)?.grammar?.visibility ?? {};
  return own.startsWith("_") ||
    (v.privateName?.test(own) ?? false) ||
    (v.privateSignature?.test(signature) ?? false) ||
    (signature !== "" && v.publicSignature !== undefined && !v.publicSignature.test(signature));
}
