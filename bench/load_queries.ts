/**
 * The queries of the search loads (`bridge_load.ts --tool semantic_search`, `literal_cost.ts`):
 * words of the project's own function and class names, in a fixed order, never one twice in a
 * run.
 *
 * @module
 */

/** Splits an identifier into lower-case words at `_`, digits and case changes. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z]+/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 1);
}

/**
 * Distinct search queries from the names of the functions and classes defined in the
 * project's Python, JavaScript and TypeScript files, in a fixed order: names of two words or
 * more, as words ("parse header line"), sorted, deduplicated.
 */
export async function projectQueries(dir: string, min: number): Promise<string[]> {
  const names = new Set<string>();
  const def = /^\s*(?:async\s+)?(?:def|class|function)\s+([A-Za-z_][A-Za-z0-9_]*)/gm;
  const walk = async (d: string) => {
    const entries: Deno.DirEntry[] = [];
    for await (const e of Deno.readDir(d)) entries.push(e);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith(".") || e.name === "node_modules" || e.name === "__pycache__") continue;
      const p = `${d}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (e.isFile && /\.(py|js|ts)$/.test(e.name)) {
        const text = await Deno.readTextFile(p).catch(() => "");
        for (const m of text.matchAll(def)) names.add(m[1]);
      }
    }
  };
  await walk(dir);
  const queries = new Set<string>();
  for (const n of [...names].sort()) {
    const w = words(n);
    if (w.length >= 2) queries.add(w.join(" "));
  }
  const out = [...queries];
  if (out.length < min) {
    throw new Error(`only ${out.length} distinct queries from ${dir}; need at least ${min}`);
  }
  // A fixed interleaving (a stride coprime with the count), so consecutive requests do not
  // share a prefix.
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  let stride = 7919;
  while (gcd(stride, out.length) !== 1) stride++;
  return out.map((_, i) => out[(i * stride) % out.length]);
}

/**
 * The `seq`-th query of a run: the project's names first, then (past them) a name and the
 * last word of another name, the pairing moving on with each pass — so that no query is
 * repeated however many requests a run sends, and no per-query cache can answer for the
 * server (each load prints its requests and how many distinct queries they carried).
 */
export function loadQuery(queries: readonly string[], seq: number): string {
  const n = queries.length;
  const base = queries[seq % n];
  const pass = Math.floor(seq / n);
  if (pass === 0) return base;
  const other = queries[(seq % n + pass * 7919) % n].split(" ");
  return `${base} ${other[other.length - 1 - (pass % other.length)]}`;
}

/**
 * Queries a literal look-up answers: the messages of the project's Python `raise X("…")`
 * statements of three to eight words (a message split over literals gives its first
 * piece), deduplicated, sorted, then `n` of them taken at an even stride.
 */
export async function messageQueries(dir: string, n: number): Promise<string[]> {
  const found = new Set<string>();
  const raise = /raise\s+\w+(?:\.\w+)*\(\s*[rbfu]?(["'])([^"'\\\n{}%]{8,80})\1/g;
  const walk = async (d: string) => {
    const entries: Deno.DirEntry[] = [];
    for await (const e of Deno.readDir(d)) entries.push(e);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith(".") || e.name === "__pycache__") continue;
      const p = `${d}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (e.isFile && e.name.endsWith(".py")) {
        const text = await Deno.readTextFile(p).catch(() => "");
        for (const m of text.matchAll(raise)) {
          const words = m[2].trim().split(/\s+/);
          if (words.length >= 3 && words.length <= 8) found.add(words.join(" "));
        }
      }
    }
  };
  await walk(dir);
  const all = [...found].sort();
  const step = Math.max(1, all.length / n);
  return Array.from({ length: Math.min(n, all.length) }, (_, i) => all[Math.floor(i * step)]);
}
