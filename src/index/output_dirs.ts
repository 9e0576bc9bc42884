/**
 * Which folder a project's manifest declares as its build output: the walk skips such a
 * folder (`target/` beside a `Cargo.toml`, the `outDir` of a `tsconfig.json`, the `dist/`
 * a `package.json`'s `main` points into) even when it holds files in the project's
 * languages.
 *
 * @example
 * ```ts
 * declaredOutput("/repo", "target"); // "Cargo.toml" when /repo/Cargo.toml exists
 * ```
 *
 * @module
 */

/**
 * Manifests whose tool writes into a fixed folder beside them: Cargo, Maven, Gradle,
 * Python packaging, Go's module vendoring, Composer.
 */
const FIXED_OUTPUTS: ReadonlyArray<readonly [manifest: string, folders: readonly string[]]> = [
  ["Cargo.toml", ["target"]],
  ["pom.xml", ["target"]],
  ["build.gradle", ["build"]],
  ["build.gradle.kts", ["build"]],
  ["setup.py", ["build", "dist"]],
  ["pyproject.toml", ["build", "dist"]],
  ["setup.cfg", ["build", "dist"]],
  ["composer.json", ["vendor"]],
  // Test runners (jest, nyc, c8) write their reports there.
  ["package.json", ["coverage"]],
];

/**
 * The manifest in `dir` (a real path) that declares its child folder `name` as output,
 * as a phrase (`Cargo.toml`, `package.json's main`), or null when none does.
 */
export function declaredOutput(dir: string, name: string): string | null {
  for (const [manifest, folders] of FIXED_OUTPUTS) {
    if (folders.includes(name) && isFile(`${dir}/${manifest}`)) return manifest;
  }
  if (name === "vendor" && isFile(`${dir}/go.mod`) && isFile(`${dir}/vendor/modules.txt`)) {
    return "go.mod (vendor/modules.txt)";
  }
  const pkg = readJson(`${dir}/package.json`);
  if (pkg) {
    for (
      const field of ["main", "module", "types", "typings", "browser", "bin", "exports", "files"]
    ) {
      if (pathsIn(pkg[field]).some((p) => firstFolder(p) === name)) {
        return `package.json's ${field}`;
      }
    }
  }
  const tsconfig = readText(`${dir}/tsconfig.json`);
  const outDir = tsconfig?.match(/"outDir"\s*:\s*"([^"]+)"/)?.[1];
  if (outDir && firstFolder(outDir) === name) return "tsconfig.json's outDir";
  return null;
}

/** The first folder of a relative path (`./dist/index.js` → `dist`), or null. */
function firstFolder(path: string): string | null {
  const parts = path.replace(/^\.\//, "").split("/");
  return parts.length > 1 || !parts[0].includes(".") ? parts[0] : null;
}

/** Every string inside a manifest value (a string, an array, nested objects). */
function pathsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(pathsIn);
  if (value && typeof value === "object") return Object.values(value).flatMap(pathsIn);
  return [];
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

function readJson(path: string): Record<string, unknown> | null {
  const text = readText(path);
  if (text === null) return null;
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}
