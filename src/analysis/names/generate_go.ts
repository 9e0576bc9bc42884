/**
 * Regenerates `go.json`: the package-level names (functions, types, variables, constants)
 * of each Go standard-library package, read from the API files a Go installation ships
 * (`$GOROOT/api/go1*.txt`, one line per exported name and the release that added it).
 * `syscall` and its platform packages are left out (their names differ per system), so
 * are `internal/` and `vendor/` paths.
 *
 *   deno run -A src/analysis/names/generate_go.ts [GOROOT]
 */

async function goroot(): Promise<string> {
  if (Deno.args[0]) return Deno.args[0];
  const out = await new Deno.Command("go", { args: ["env", "GOROOT"], stdout: "piped" }).output();
  if (!out.success) throw new Error("`go env GOROOT` failed: pass the Go root as an argument");
  return new TextDecoder().decode(out.stdout).trim();
}

const root = await goroot();
const members = new Map<string, Set<string>>();
let latest = 0;
for await (const e of Deno.readDir(`${root}/api`)) {
  const m = /^go1(?:\.(\d+))?\.txt$/.exec(e.name);
  if (!m) continue;
  latest = Math.max(latest, Number(m[1] ?? 0));
  const text = await Deno.readTextFile(`${root}/api/${e.name}`);
  // `pkg net/http, const StatusOK = 200`, `pkg os (linux-386), var Args []string`.
  for (const line of text.split("\n")) {
    const d = /^pkg ([\w/.]+)(?: \([^)]*\))?, (?:func|type|var|const) (\w+)/.exec(line);
    if (!d) continue;
    const [, pkg, name] = d;
    if (/^(syscall|internal|vendor)(\/|$)|\/internal(\/|$)/.test(pkg)) continue;
    let set = members.get(pkg);
    if (!set) members.set(pkg, set = new Set());
    set.add(name);
  }
}
const packages = Object.fromEntries(
  [...members].sort(([a], [b]) => a < b ? -1 : 1).map(([k, v]) => [k, [...v].sort()]),
);
const target = new URL("./go.json", import.meta.url);
await Deno.writeTextFile(target, JSON.stringify({ version: `go1.${latest}`, packages }));
// Stored as `deno fmt` writes it, so the format check passes.
await new Deno.Command(Deno.execPath(), { args: ["fmt", target.pathname] }).output();
console.log(`wrote ${target.pathname}: ${members.size} packages`);
