/**
 * Where codectx-code's training code comes from (exactly `../shared/TRAINING-SOURCES.md`)
 * and where its evaluation code comes from (packages outside that list), and how each is
 * fetched into a cache folder outside the repository: Debian binary packages
 * (`apt-get download` + `dpkg -x`), Debian source packages (`apt-get source
 * --download-only` through a private apt configuration) and npm tarballs (`npm pack`).
 *
 * Fetching is idempotent: a source whose folder holds a `.done` marker is not fetched
 * again.
 *
 * @module
 */

/** How a source is fetched. */
export type SourceKind = "deb" | "dsc" | "npm" | "local";

/** One package of code. */
export interface Source {
  language: string;
  kind: SourceKind;
  /** Debian package, Debian source package, npm spec (`three@0.170`) or a local path. */
  name: string;
  /**
   * Folders inside the unpacked package to read (glob-free prefixes relative to its
   * root, `*` matches one folder level); empty means everything.
   */
  include?: string[];
}

/** The training sources, as `TRAINING-SOURCES.md` lists them. */
export const TRAINING_SOURCES: readonly Source[] = [
  ...[
    "python3-django",
    "python3-sympy",
    "python3-sqlalchemy",
    "python3-twisted",
    "python3-sphinx",
    "python3-pygments",
    "python3-docutils",
    "python3-tornado",
    "python3-matplotlib",
    "python3-sklearn",
    "python3-pandas",
    "python3-attr",
  ].map((name): Source => ({ language: "python", kind: "deb", name })),
  ...[
    "golang-1.19-src",
    "golang-golang-x-tools-dev",
    "golang-github-prometheus-common-dev",
    "golang-github-prometheus-client-golang-dev",
    "golang-github-google-go-cmp-dev",
  ].map((name): Source => ({ language: "go", kind: "deb", name })),
  ...["hugo", "etcd", "prometheus", "syncthing"].map((name): Source => ({
    language: "go",
    kind: "dsc",
    name,
  })),
  ...[
    "librust-tokio-dev",
    "librust-syn-dev",
    "librust-rand-dev",
    "librust-hyper-dev",
    "librust-futures-dev",
    "librust-nix-dev",
    "librust-chrono-dev",
    "librust-itertools-dev",
    "librust-rayon-dev",
    "librust-clap-dev",
  ].map((name): Source => ({ language: "rust", kind: "deb", name })),
  ...[
    "guava-libraries",
    "commons-io",
    "libcommons-collections4-java",
    "jackson-databind",
    "junit5",
    "libcommons-lang3-java",
  ].map((name): Source => ({ language: "java", kind: "dsc", name })),
  { language: "javascript", kind: "dsc", name: "nodejs", include: ["*/lib"] },
  { language: "javascript", kind: "npm", name: "three@0.170", include: ["package/src"] },
  { language: "javascript", kind: "npm", name: "moment@2", include: ["package/src"] },
  { language: "typescript", kind: "dsc", name: "node-typescript", include: ["*/src"] },
  { language: "typescript", kind: "npm", name: "effect@3", include: ["package/src"] },
  {
    language: "typescript",
    kind: "npm",
    name: "@tanstack/query-core@5",
    include: ["package/src"],
  },
];

/**
 * More training code of the same kinds as `TRAINING-SOURCES.md` (npm tarballs that ship
 * their sources), for the languages it has few pairs of (JavaScript 871 → 9,260 pairs,
 * TypeScript 2,302 → 3,249): read only with `model/data.ts --extra`. None is a package of
 * the tuning or held-out sets, nor a repository of one (the benches check). Tried on
 * 2026-11-24 and not shipped: the tuning sets' hybrid MRR@10 fell (mean .439 → .434 with
 * the second stage retrained; JavaScript .567 → .547).
 */
export const EXTRA_SOURCES: readonly Source[] = [
  ...[
    ["eslint@8.57.1", "lib"],
    ["webpack@5.112.2", "lib"],
    ["mongoose@8.24.10", "lib"],
    ["luxon@3.7.2", "src"],
    ["chai@4.5.0", "lib"],
    ["markdown-it@14.3.3", "lib"],
    ["undici@6.29.1", "lib"],
    ["node-forge@1.4.3", "lib"],
    ["jszip@3.10.2", "lib"],
    ["jsdoc@4.0.5", "lib"],
  ].map(([name, dir]): Source => ({
    language: "javascript",
    kind: "npm",
    name,
    include: [`package/${dir}`],
  })),
  ...["zod@3.25.76", "vue@2.7.16"].map((name): Source => ({
    language: "typescript",
    kind: "npm",
    name,
    include: ["package/src"],
  })),
];

/** Every source codectx-code may be trained on: no evaluation set may hold one of them. */
export const MODEL_SOURCES: readonly Source[] = [...TRAINING_SOURCES, ...EXTRA_SOURCES];

/**
 * The evaluation sources: none of them is in `TRAINING-SOURCES.md` (nor a dependency
 * vendored into one of those).
 */
export const EVAL_SOURCES: readonly Source[] = [
  { language: "python", kind: "local", name: "python-stdlib" },
  ...[
    "golang-github-miekg-dns-dev",
    "golang-github-spf13-cobra-dev",
    "golang-github-sirupsen-logrus-dev",
    "golang-gopkg-yaml.v3-dev",
    "golang-github-gorilla-mux-dev",
  ].map((name): Source => ({ language: "go", kind: "deb", name })),
  ...[
    "librust-serde-dev",
    "librust-regex-syntax-dev",
    "librust-bytes-dev",
    "librust-indexmap-dev",
    "librust-url-dev",
    "librust-num-traits-dev",
    "librust-smallvec-dev",
  ].map((name): Source => ({ language: "rust", kind: "deb", name })),
  ...["libcommons-codec-java", "libcommons-compress-java", "jsoup"].map((name): Source => ({
    language: "java",
    kind: "dsc",
    name,
  })),
  { language: "javascript", kind: "npm", name: "lodash-es@4.17.21", include: ["package"] },
  { language: "javascript", kind: "npm", name: "ramda@0.30.1", include: ["package/src"] },
  // CommonJS libraries with classes and prototype methods (lodash and ramda are one
  // function per file: alone they taught the search little about files of many members).
  { language: "javascript", kind: "npm", name: "mocha@10.8.2", include: ["package/lib"] },
  { language: "javascript", kind: "npm", name: "commander@12.1.0", include: ["package/lib"] },
  { language: "javascript", kind: "npm", name: "koa@2.15.3", include: ["package/lib"] },
  { language: "javascript", kind: "npm", name: "ws@8.18.0", include: ["package/lib"] },
  { language: "typescript", kind: "npm", name: "rxjs@7.8.2", include: ["package/src"] },
  { language: "typescript", kind: "npm", name: "mobx@6.13.5", include: ["package/src"] },
];

/** File extensions read per language. */
export const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  python: [".py"],
  go: [".go"],
  rust: [".rs"],
  java: [".java"],
  javascript: [".js", ".mjs", ".cjs"],
  typescript: [".ts", ".mts", ".cts"],
};

/** FNV-1a of a string: stable keys for splits, sample orders and de-duplication. */
export function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Default cache folder (outside the repository). */
export function cacheDir(): string {
  const env = Deno.env.get("CODECTX_TRAIN_CACHE");
  if (env) return env;
  const base = Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  return `${base}/codectx-train`;
}

/** A fetched source: its unpacked root, version and the folders to read. */
export interface Fetched {
  source: Source;
  version: string;
  root: string;
  dirs: string[];
}

async function run(cmd: string, args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const dec = new TextDecoder();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed: ${dec.decode(out.stderr).slice(-2000)}`);
  }
  return dec.decode(out.stdout);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

function slug(name: string): string {
  return name.replace(/[^a-zA-Z0-9.@-]+/g, "_");
}

/** apt options that add the `deb-src` line of the mirror in use, without touching the system. */
async function privateAptOptions(cache: string): Promise<string[]> {
  const d = `${cache}/apt-src`;
  if (!(await exists(`${d}/.done`))) {
    await Deno.mkdir(`${d}/lists/partial`, { recursive: true });
    await Deno.chmod(d, 0o755);
    const targets = await run("apt-get", ["indextargets", "--format", "$(REPO_URI) $(RELEASE)"]);
    const line = targets.split("\n").map((l) => l.split(" ")).find((p) => p[1] === "bookworm");
    if (!line) throw new Error("no bookworm mirror in apt's index targets");
    await Deno.writeTextFile(`${d}/src.list`, `deb-src ${line[0]} bookworm main\n`);
  }
  const opts = [
    "-o",
    `Dir::Etc::SourceList=${d}/src.list`,
    "-o",
    "Dir::Etc::SourceParts=/dev/null",
    "-o",
    `Dir::State::Lists=${d}/lists`,
  ];
  if (!(await exists(`${d}/.done`))) {
    await run("apt-get", [...opts, "update"]);
    await Deno.writeTextFile(`${d}/.done`, "");
  }
  return opts;
}

/**
 * Downloads the upstream tarball alone, for source packages whose mirror copy misses a
 * Debian-side file (`apt-get source` then fails as a whole).
 */
async function downloadUpstream(opts: string[], name: string, dir: string): Promise<void> {
  // apt keeps what it fetched before failing, and lists only what is missing.
  if ([...Deno.readDirSync(dir)].some((e) => /\.orig\.tar\./.test(e.name))) return;
  const uris = await run("apt-get", [...opts, "source", "--print-uris", name], dir);
  const m = /'([^']+\.orig\.tar\.[a-z0-9]+)' (\S+)/.exec(uris);
  if (!m) throw new Error(`${name}: the mirror lists no upstream tarball`);
  const res = await fetch(m[1]);
  if (!res.ok) throw new Error(`${name}: ${m[1]} answered ${res.status}`);
  await Deno.writeFile(`${dir}/${m[2]}`, new Uint8Array(await res.arrayBuffer()));
}

/** Expands `include` prefixes (`*` = any one folder) against the unpacked tree. */
async function expandIncludes(root: string, include: string[] | undefined): Promise<string[]> {
  if (!include || include.length === 0) return [root];
  const out: string[] = [];
  for (const pattern of include) {
    let cur = [root];
    for (const part of pattern.split("/")) {
      const next: string[] = [];
      for (const dir of cur) {
        if (part === "*") {
          for await (const e of Deno.readDir(dir)) if (e.isDirectory) next.push(`${dir}/${e.name}`);
        } else if (await exists(`${dir}/${part}`)) next.push(`${dir}/${part}`);
      }
      cur = next;
    }
    out.push(...cur);
  }
  return out;
}

/**
 * Fetches and unpacks one source into `cache` (once), and says its version.
 *
 * @example
 * ```ts
 * const f = await fetchSource({ language: "go", kind: "deb", name: "golang-1.19-src" }, cacheDir());
 * f.version; // "1.19.8-2"
 * ```
 */
export async function fetchSource(source: Source, cache: string): Promise<Fetched> {
  if (source.kind === "local") {
    const root = await pythonStdlib();
    const version = (await run("python3", ["-c", "import sys; print(sys.version.split()[0])"]))
      .trim();
    return { source, version: `CPython ${version}`, root, dirs: [root] };
  }
  const dir = `${cache}/src/${source.kind}-${slug(source.name)}`;
  const root = `${dir}/tree`;
  const marker = `${dir}/.done`;
  if (!(await exists(marker))) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.mkdir(root, { recursive: true });
    let version = "";
    if (source.kind === "deb") {
      await run("apt-get", ["download", source.name], dir);
      const deb = [...Deno.readDirSync(dir)].find((e) => e.name.endsWith(".deb"))!.name;
      version = decodeURIComponent(deb.split("_")[1]);
      await run("dpkg", ["-x", deb, root], dir);
    } else if (source.kind === "dsc") {
      const opts = await privateAptOptions(cache);
      await run("apt-get", [...opts, "source", "--download-only", source.name], dir)
        .catch(() => downloadUpstream(opts, source.name, dir));
      const names = [...Deno.readDirSync(dir)].map((e) => e.name);
      version = names.find((n) => /\.(dsc|orig\.tar\.\w+)$/.test(n))!.split("_")[1]
        .replace(/(\.orig\.tar\.\w+|\.dsc)$/, "");
      // The main upstream tarball only: Debian's packaging is not code to learn from, and
      // component tarballs (`.orig-NAME.tar.*`) bundle third-party modules.
      const tar = names.find((n) => /\.orig\.tar\./.test(n));
      if (!tar) throw new Error(`${source.name}: no upstream tarball in ${names.join(", ")}`);
      const args = ["-xf", `${dir}/${tar}`, "-C", root];
      // nodejs ships V8 and other dependencies beside `lib/`: unpack `lib/` alone.
      if (source.name === "nodejs") args.push("--wildcards", "*/lib/*");
      await run("tar", args);
    } else {
      const out = await run("npm", ["pack", source.name, "--silent"], dir);
      const tgz = out.trim().split("\n").pop()!;
      version = tgz.replace(/\.tgz$/, "").split("-").pop()!;
      await run("tar", ["-xzf", tgz, "-C", root], dir);
    }
    await Deno.writeTextFile(`${dir}/version`, version);
    await Deno.writeTextFile(marker, "");
  }
  const version = (await Deno.readTextFile(`${dir}/version`)).trim();
  return { source, version, root, dirs: await expandIncludes(root, source.include) };
}

/** The Python standard library of the machine's `python3`. */
export async function pythonStdlib(): Promise<string> {
  return (await run("python3", [
    "-c",
    "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
  ])).trim();
}

/** Folder names never read: vendored, generated, fixture and build folders. */
const SKIP_DIRS = new Set([
  "vendor",
  "vendored",
  "_vendor",
  "_vendored",
  "third_party",
  "third-party",
  "thirdparty",
  "externals",
  "node_modules",
  "testdata",
  "fixtures",
  "__fixtures__",
  "site-packages",
  "__pycache__",
  "deps",
  ".git",
]);

/** Files that are generated or bundled, not written by people. */
const SKIP_FILE = /(\.d\.ts|\.min\.js|_pb2\.py|\.pb\.go|\.pb\.gw\.go|zz_generated.*\.go)$/;

/** Source files of `language` under `dir` (paths relative to `base`), skip rules applied. */
export async function* sourceFiles(
  base: string,
  dir: string,
  language: string,
): AsyncGenerator<string> {
  const exts = EXTENSIONS[language];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    const entries = [...Deno.readDirSync(d)].sort((a, b) => a.name < b.name ? -1 : 1);
    for (const e of entries) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith(".")) stack.push(p);
      } else if (e.isFile && exts.some((x) => e.name.endsWith(x)) && !SKIP_FILE.test(e.name)) {
        yield p.slice(base.length + 1);
      }
    }
  }
}
