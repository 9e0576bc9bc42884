/**
 * The corpora of `refs_vs_lsp.ts` and the language server that answers for each: attrs,
 * jinja2 and click (pyright), go-cmp, cobra and urfave/cli (gopls), JavaScript and TypeScript
 * packages from npm (typescript-language-server, with a tsconfig holding every file), each
 * fetched at run time by `sources.ts` (Debian packages, npm tarballs); nothing is committed.
 *
 * @module
 */

import { LspClient } from "./lsp_client.ts";
import { walkFiles } from "./sample.ts";
import { deb, npm } from "./sources.ts";

/** The files under `dir` whose names match `re` (no `node_modules`, no dot folders). */
export function walk(dir: string, re: RegExp): string[] {
  return walkFiles(dir, (d) => d !== "node_modules" && !d.startsWith("."), (f) => re.test(f));
}

export interface Corpus {
  lang: "python" | "go" | "javascript" | "typescript" | "rust";
  name: string;
  heldOut: boolean;
  /** Returns the workspace root (absolute) and environment for the server. */
  fetch: () => Promise<{ root: string; env?: Record<string, string> }>;
}

/**
 * Writes a tsconfig that puts every file of `root` in one project (the server's view). For
 * JavaScript, declaration files next to the sources are removed from the unpacked copy: the
 * server would resolve imports to the `.d.ts`, a second declaration codectx does not model.
 */
async function tsProject(root: string, js = false): Promise<{ root: string }> {
  if (js) { for (const f of walk(root, /\.d\.[cm]?ts$/)) await Deno.remove(f); }
  await Deno.writeTextFile(
    `${root}/tsconfig.json`,
    JSON.stringify({
      compilerOptions: {
        allowJs: true,
        checkJs: false,
        noEmit: true,
        target: "es2022",
        module: "esnext",
        moduleResolution: "bundler",
        skipLibCheck: true,
        strict: false,
      },
      include: ["**/*"],
      exclude: ["node_modules"],
    }),
  );
  return { root };
}

/**
 * A Python package from Debian. Its `.pyi` stubs are removed from the unpacked copy: with
 * them the server resolves imports to the stub, a second declaration codectx does not
 * model, and both answers would be about different things.
 */
const py = (pkg: string) => async () => {
  const root = `${await deb(pkg)}/usr/lib/python3/dist-packages`;
  for (const f of walk(root, /\.pyi$/)) await Deno.remove(f);
  return { root };
};
const go = (pkg: string, path: string) => async () => {
  const x = await deb(pkg);
  return {
    root: `${x}/usr/share/gocode/src/${path}`,
    env: { GOPATH: `${x}/usr/share/gocode`, GO111MODULE: "off", GOFLAGS: "-mod=mod" },
  };
};

export const CORPORA: Corpus[] = [
  { lang: "python", name: "attrs", heldOut: false, fetch: py("python3-attr") },
  { lang: "python", name: "jinja2", heldOut: false, fetch: py("python3-jinja2") },
  { lang: "python", name: "click", heldOut: true, fetch: py("python3-click") },
  {
    lang: "go",
    name: "go-cmp",
    heldOut: false,
    fetch: go("golang-github-google-go-cmp-dev", "github.com/google/go-cmp"),
  },
  {
    lang: "go",
    name: "cobra",
    heldOut: false,
    fetch: go("golang-github-spf13-cobra-dev", "github.com/spf13/cobra"),
  },
  {
    lang: "go",
    name: "urfave-cli-v2",
    heldOut: true,
    fetch: go("golang-github-urfave-cli-v2-dev", "github.com/urfave/cli/v2"),
  },
  // JavaScript projects are ES modules: the TypeScript service does not follow CommonJS
  // `module.exports = f` into `require` callers (tried on express@4: every reference stays in
  // its own file), so a CommonJS project would measure the oracle, not codectx.
  {
    lang: "javascript",
    name: "moment",
    heldOut: false,
    fetch: async () => tsProject(`${await npm("moment@2.30.1")}/src`, true),
  },
  {
    lang: "javascript",
    name: "d3-array",
    heldOut: false,
    fetch: async () => tsProject(`${await npm("d3-array@3.2.4")}/src`, true),
  },
  {
    lang: "javascript",
    name: "got",
    heldOut: true,
    fetch: async () => tsProject(`${await npm("got@14.4.7")}/dist/source`, true),
  },
  {
    lang: "typescript",
    name: "rxjs",
    heldOut: false,
    fetch: async () => tsProject(`${await npm("rxjs@7.8.2")}/src`),
  },
  {
    lang: "typescript",
    name: "query-core",
    heldOut: false,
    fetch: async () => tsProject(`${await npm("@tanstack/query-core@5.62.0")}/src`),
  },
  // got is TypeScript upstream but its npm package ships only the build (measured as
  // JavaScript above): the TypeScript checks never tuned on are tRPC's server and, added
  // after trpc's misses had been read (so that one check stays unread), Redux Toolkit.
  {
    lang: "typescript",
    name: "trpc-server",
    heldOut: true,
    fetch: async () => tsProject(`${await npm("@trpc/server@11.0.0")}/src`),
  },
  {
    lang: "typescript",
    name: "redux-toolkit",
    heldOut: true,
    fetch: async () => tsProject(`${await npm("@reduxjs/toolkit@2.14.0")}/src`),
  },
];

export const EXT: Record<Corpus["lang"], RegExp> = {
  python: /\.py$/,
  go: /\.go$/,
  javascript: /\.(m|c)?js$/,
  typescript: /(?<!\.d)\.tsx?$/,
  rust: /\.rs$/,
};
export const LANGUAGE_ID: Record<Corpus["lang"], string> = {
  python: "python",
  go: "go",
  javascript: "javascript",
  typescript: "typescript",
  rust: "rust",
};

/** Where the npm-installed servers are, and whether to log their protocol. */
export interface ServerOptions {
  /** The folder `npm install --prefix` filled (`--oracles`). */
  oracles: string;
  verbose?: boolean;
}

/** Starts the language server of `c`'s language on the tree at `root`. */
export function server(
  c: Corpus,
  root: string,
  env: Record<string, string> | undefined,
  { oracles, verbose }: ServerOptions,
) {
  const bin = `${oracles}/node_modules/.bin`;
  if (c.lang === "python") {
    return LspClient.start({
      command: [`${bin}/pyright-langserver`, "--stdio"],
      root,
      verbose,
      settings: { python: { analysis: { diagnosticMode: "openFilesOnly" } } },
    });
  }
  if (c.lang === "go") {
    return LspClient.start({
      command: ["gopls"],
      root,
      verbose,
      env: { ...Deno.env.toObject(), ...env },
    });
  }
  return LspClient.start({
    command: [`${bin}/typescript-language-server`, "--stdio"],
    root,
    verbose,
    initializationOptions: { tsserver: { path: `${oracles}/node_modules/typescript/lib` } },
  });
}
