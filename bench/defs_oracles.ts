/**
 * What the outline oracles of `defs_vs_outline.ts` say, and where their real code comes
 * from: Universal Ctags (JSON output) for every language, the TypeScript navigation tree
 * (`LanguageService.getNavigationTree`, what an editor's outline shows) for JS/TS, and
 * corpora unpacked at run time from Debian packages (`apt-get download`, `apt-get source`
 * through a private source list) and npm tarballs (`npm pack`). Nothing is committed.
 *
 * @module
 */

import ts from "npm:typescript@5.9.3";

/** What is compared: callables (functions, methods, constructors) and types. */
export type Category = "callable" | "type";

/** One outline entry: a definition with a name, at a line. */
export interface Def {
  file: string;
  name: string;
  line: number;
  category: Category;
}

// ------------------------------------------------------------------------- shell

export function run(cmd: string, args: string[], cwd?: string): string {
  const out = new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).outputSync();
  if (!out.success) {
    const err = new TextDecoder().decode(out.stderr).slice(0, 400);
    throw new Error(`${cmd} ${args.join(" ")} failed: ${err}`);
  }
  return new TextDecoder().decode(out.stdout);
}

export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------------- corpora

/** Debian binary packages that ship source, unpacked with `dpkg -x`; returns the root. */
export function debs(cache: string, packages: string[]): string {
  const root = `${cache}/deb`;
  const marker = `${root}/.${packages.join("+")}`;
  if (!exists(marker)) {
    Deno.mkdirSync(`${cache}/debs`, { recursive: true });
    run("apt-get", ["download", ...packages], `${cache}/debs`);
    for (const f of Deno.readDirSync(`${cache}/debs`)) {
      if (packages.some((p) => f.name.startsWith(`${p}_`))) {
        run("dpkg", ["-x", `${cache}/debs/${f.name}`, root]);
      }
    }
    Deno.writeTextFileSync(marker, "");
  }
  return root;
}

/**
 * A Debian source package's upstream tarball, unpacked: `apt-get source --download-only`
 * through a private source list with a `deb-src` line for the mirror this machine uses
 * (no system change). Returns the unpacked folder.
 */
export function debianSource(cache: string, name: string): string {
  const dir = `${cache}/src/${name}`;
  if (exists(`${dir}/.done`)) return `${dir}/tree`;
  const apt = `${cache}/apt`;
  Deno.mkdirSync(`${apt}/lists/partial`, { recursive: true });
  Deno.chmodSync(apt, 0o755);
  const opts = [
    "-o",
    `Dir::Etc::SourceList=${apt}/src.list`,
    "-o",
    "Dir::Etc::SourceParts=/dev/null",
    "-o",
    `Dir::State::Lists=${apt}/lists`,
  ];
  if (!exists(`${apt}/src.list`)) {
    const mirror = run("apt-get", [
      "indextargets",
      "--format",
      "$(REPO_URI) $(RELEASE)",
    ]).split("\n").map((l) => l.split(" ")).find((p) => p[1] === "bookworm")?.[0];
    if (!mirror) throw new Error("no bookworm mirror in apt's index targets");
    Deno.writeTextFileSync(`${apt}/src.list`, `deb-src ${mirror} bookworm main\n`);
    run("apt-get", [...opts, "update"]);
  }
  Deno.mkdirSync(dir, { recursive: true });
  Deno.chmodSync(dir, 0o777);
  // The mirror may lack the Debian part; the upstream tarball is what is needed.
  try {
    run("apt-get", [...opts, "source", "--download-only", name], dir);
  } catch { /* checked below */ }
  const orig = [...Deno.readDirSync(dir)].find((f) => /\.orig\.tar\.(gz|xz|bz2)$/.test(f.name));
  if (!orig) throw new Error(`apt-get source ${name}: no upstream tarball on the mirror`);
  Deno.mkdirSync(`${dir}/tree`, { recursive: true });
  run("tar", ["xf", orig.name, "-C", "tree"], dir);
  Deno.writeTextFileSync(`${dir}/.done`, "");
  return `${dir}/tree`;
}

/** An npm package's tarball, unpacked; returns its `package/` folder. */
export function npmPackage(cache: string, spec: string): string {
  const dir = `${cache}/npm/${spec.replace(/[@/]/g, "_")}`;
  if (!exists(`${dir}/package`)) {
    Deno.mkdirSync(dir, { recursive: true });
    const tgz = run("npm", ["pack", spec, "--silent"], dir).trim().split("\n").pop()!;
    run("tar", ["xzf", tgz], dir);
  }
  return `${dir}/package`;
}

/** java.base java/lang + java/util and java.net.http from Debian's openjdk-17-source. */
export function javaSources(cache: string): string {
  const dir = `${cache}/java`;
  if (!exists(`${dir}/java.base`)) {
    const root = debs(cache, ["openjdk-17-source"]);
    const zip = run("find", [root, "-name", "src.zip"]).trim().split("\n")[0];
    run("python3", [
      "-c",
      `import zipfile,sys
z=zipfile.ZipFile(sys.argv[1])
names=[n for n in z.namelist() if n.endswith('.java') and n.startswith(('java.base/java/util/','java.base/java/lang/','java.net.http/'))]
z.extractall(sys.argv[2], names)`,
      zip,
      dir,
    ]);
  }
  return dir;
}

// ------------------------------------------------------------------------- ctags

export interface CtagsTag {
  name: string;
  path: string;
  line: number;
  kind: string;
  pattern?: string;
  scope?: string;
  scopeKind?: string;
}

/** Every tag ctags writes for these files (`-L -`: exactly the files codectx parses). */
export async function ctagsTags(files: string[]): Promise<CtagsTag[]> {
  const child = new Deno.Command("ctags", {
    args: ["--output-format=json", "--fields=+neKS", "-L", "-", "-f", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(files.join("\n")));
  await w.close();
  const out = await child.output();
  if (!out.success) throw new Error(`ctags failed: ${new TextDecoder().decode(out.stderr)}`);
  const tags: CtagsTag[] = [];
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    if (!line.startsWith("{")) continue;
    const t = JSON.parse(line) as CtagsTag & { _type: string };
    if (t._type === "tag") tags.push(t);
  }
  return tags;
}

// ------------------------------------------------------------------- navigation tree

/** A declaration in the file's syntax tree, by the start of its name. */
interface Declared {
  category: Category;
  /** The name codectx and callers use, when the outline draws another one. */
  alias?: string;
  ctor?: boolean;
}

/**
 * The outline of one JS/TS file as the TypeScript language service draws it, reduced to
 * named callables and types. An item counts when the syntax tree has a declaration at
 * its name: a function, method, accessor, constructor, construct signature, class,
 * interface, enum or type alias; or a variable, property or assigned member whose value
 * is a function or class (through parentheses and chained `=`). So these are left out:
 * anonymous items (`<function>`, `… callback`, an anonymous `export default`), JSDoc
 * `@typedef`s (drawn as types in JS files), names computed at run time
 * (`proto[method] = function`), constructor functions the tree draws as classes for
 * their `prototype` assignments (counted as the functions they are), and
 * `module.exports = function () {}` (drawn as `exports`); the lines of an
 * `export default <expression>` the tree does not descend into are returned as
 * `hidden`, for the comparison to leave out on both sides. A named function expression
 * assigned to a member (`res.type = function contentType`) is drawn under its own
 * name; codectx names it by the member callers use (`type`): one definition, compared
 * under the member's name.
 */
export function navigationDefs(
  service: ts.LanguageService,
  file: string,
  text: string,
): { defs: Def[]; hidden: [number, number][] } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const declared = declarations(sf);
  const defs: Def[] = [];
  const walk = (item: ts.NavigationTree) => {
    const anonymous = /^<.*>$| callback$/.test(item.text) || item.text === "exports";
    // The tree draws same-named declarations of one parent once (overloads), with a
    // span per declaration: each declaration counts at its own name.
    const starts = new Set([item.nameSpan?.start ?? item.spans[0].start]);
    for (const span of item.spans) {
      const nameStart = declared.nameAt.get(span.start);
      if (nameStart !== undefined) starts.add(nameStart);
    }
    for (const start of starts) {
      const d = declared.byName.get(start);
      // A constructor function drawn as a class has a `constructor` item at itself.
      if (!d || anonymous || (item.text === "constructor" && !d.ctor)) continue;
      const line = sf.getLineAndCharacterOfPosition(start).line + 1;
      defs.push({ file, name: normalizeName(d.alias ?? item.text), line, category: d.category });
    }
    for (const c of item.childItems ?? []) walk(c);
  };
  // The root item is the file itself.
  for (const c of service.getNavigationTree(file).childItems ?? []) walk(c);
  return { defs, hidden: hiddenLines(sf) };
}

/**
 * Lines the tree never descends into: `export default <expression>` other than a
 * function, class or object (`export default supported && function http() {…}`).
 */
function hiddenLines(sf: ts.SourceFile): [number, number][] {
  const out: [number, number][] = [];
  const line = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  for (const st of sf.statements) {
    if (!ts.isExportAssignment(st)) continue;
    const e = unwrap(st.expression);
    if (
      e && !ts.isFunctionExpression(e) && !ts.isArrowFunction(e) && !ts.isClassExpression(e) &&
      !ts.isObjectLiteralExpression(e) && !ts.isIdentifier(e)
    ) out.push([line(st.getStart(sf)), line(st.end)]);
  }
  return out;
}

function valueCategory(e: ts.Expression | undefined): Category | undefined {
  e = unwrap(e);
  if (!e) return undefined;
  if (ts.isFunctionExpression(e) || ts.isArrowFunction(e)) return "callable";
  if (ts.isClassExpression(e)) return "type";
  return undefined;
}

/** Through parentheses and chained assignments to the value. */
function unwrap(e: ts.Expression | undefined): ts.Expression | undefined {
  while (e) {
    if (ts.isParenthesizedExpression(e)) e = e.expression;
    else if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      e = e.right;
    } else break;
  }
  return e;
}

/**
 * Name start → declaration, for every definition the comparison counts; and the name
 * start of each function-like or class-like declaration by the start of its node.
 */
function declarations(
  sf: ts.SourceFile,
): { byName: Map<number, Declared>; nameAt: Map<number, number> } {
  const out = new Map<number, Declared>();
  const nameAt = new Map<number, number>();
  // The first declaration seen at a name wins (an assignment before its function value).
  const at = (n: ts.Node, category: Category, alias?: string, ctor?: boolean) => {
    const start = n.getStart(sf);
    if (!out.has(start)) out.set(start, { category, alias, ctor });
    const isName = ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) ||
      ts.isNumericLiteral(n) || ts.isComputedPropertyName(n);
    if (isName && n.parent) nameAt.set(n.parent.getStart(sf), start);
  };
  const visit = (n: ts.Node) => {
    if (
      ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isMethodSignature(n) ||
      ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n) ||
      ts.isFunctionExpression(n)
    ) {
      if (n.name) at(n.name, "callable");
    } else if (ts.isConstructorDeclaration(n) || ts.isConstructSignatureDeclaration(n)) {
      at(n, "callable", undefined, true);
      const keyword = n.getChildren(sf).find((c) =>
        c.kind === ts.SyntaxKind.ConstructorKeyword || c.kind === ts.SyntaxKind.NewKeyword
      );
      if (keyword) at(keyword, "callable", undefined, true);
    } else if (
      ts.isClassDeclaration(n) || ts.isClassExpression(n) || ts.isInterfaceDeclaration(n) ||
      ts.isEnumDeclaration(n) || ts.isTypeAliasDeclaration(n)
    ) {
      if (n.name) at(n.name, "type");
    } else if (
      ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n) || ts.isPropertyAssignment(n)
    ) {
      const c = valueCategory(n.initializer);
      if (c) at(n.name, c);
    } else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const left = n.left;
      const name = ts.isIdentifier(left)
        ? left
        : ts.isPropertyAccessExpression(left)
        ? left.name
        : ts.isElementAccessExpression(left) && ts.isStringLiteral(left.argumentExpression)
        ? left.argumentExpression
        : undefined;
      const c = valueCategory(n.right);
      if (name && c) {
        at(name, c);
        // Only the innermost `=` of a chain names the value (`a.x = a.y = function y`).
        let value: ts.Expression = n.right;
        while (ts.isParenthesizedExpression(value)) value = value.expression;
        // `module.exports = function query` is `query`: the module is no definition.
        const member = name.getText(sf);
        if (
          ts.isFunctionExpression(value) && value.name && !ts.isIdentifier(left) &&
          member !== "exports"
        ) at(value.name, c, member);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { byName: out, nameAt };
}

/** One language service over a fixed set of files, read from disk once each. */
export function navigationService(files: Map<string, string>): ts.LanguageService {
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [...files.keys()],
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => {
      const t = files.get(f);
      return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
    },
    getCurrentDirectory: () => "/",
    getCompilationSettings: () => ({ allowJs: true, noResolve: true, noLib: true }),
    getDefaultLibFileName: () => "lib.d.ts",
    fileExists: (f) => files.has(f),
    readFile: (f) => files.get(f),
  };
  return ts.createLanguageService(host);
}

/**
 * Names as both sides compare them: quotes and computed-key brackets dropped
 * (`['comp']`, `'str'`), a construct signature's `new()` is `new`, and the last part of
 * a dotted name (C#'s explicit interface member `IConvertible.ToByte` is `ToByte`), and a
 * C# operator is `operator`.
 */
export function normalizeName(name: string): string {
  const bare = name.replace(/^\[(.*)\]$/, "$1").replace(/^(['"`])(.*)\1$/, "$2")
    .replace(/\(\)$/, "");
  // ctags names a C# operator by its type (`operator DateTime?`): codectx by its keyword.
  if (/^operator\b/.test(bare)) return "operator";
  return bare.slice(bare.lastIndexOf(".") + 1);
}
